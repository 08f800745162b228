#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Debian's perf on a user event written by samples/user_events/example:
# perf record + perf script see exactly the events written with their
# field values, --filter runs our filter engine on the perf side, and
# perf stat counts them.
. /tests/lib.sh
command -v perf > /dev/null || skip "no perf in the VM"
[ -e $T/user_events_data ] || skip "no user_events"
CMD='u:example u32 count; __data_loc char[] msg'
echo "$CMD" >> $T/dynamic_events || fail "cannot declare the example event"
cd /tmp
trap 'rm -f perf.data perf.data.old; echo "!$CMD" >> $T/dynamic_events' EXIT

# fields - the payload of each user_events:example line of perf script
fields() { perf script -F event,trace 2>/dev/null | sed -n 's/^ *user_events:example: *//p'; }

perf record -q -e user_events:example -o perf.data -- /samples/example 4 > /dev/null 2>&1 ||
	fail "perf record failed"
expect_eq "perf script" "count=0 msg=hello 0
count=1 msg=hello 1
count=2 msg=hello 2
count=3 msg=hello 3" "$(fields)"

perf record -q -e user_events:example --filter 'count >= 2 && msg ~ "hello*"' \
	-o perf.data -- /samples/example 5 > /dev/null 2>&1 || fail "perf record --filter failed"
expect_eq "perf script, filtered" "count=2 msg=hello 2
count=3 msg=hello 3
count=4 msg=hello 4" "$(fields)"

# A filter our engine refuses makes perf fail, as on the base
if perf record -q -e user_events:example --filter 'count ==' -o perf.data \
	-- /bin/true > /dev/null 2>&1; then
	fail "perf record accepted a bad filter"
fi

# perf stat now and then prints "<not counted>" (no running time) in
# this VM, for kernel tracepoints too and on the base kernel as well
# (1 run in 5 to 20): up to three tries.
for try in 1 2 3; do
	n=$(perf stat -x, -e user_events:example -- /samples/example 3 2>&1 >/dev/null |
		awk -F, '/user_events:example/ { print $1 }')
	[ "$n" = "<not counted>" ] || break
done
expect_eq "perf stat count" 3 "$n"

# With nobody attached the event is off again: the sample writes nothing
expect_eq "status after perf" "example:0" \
	"$(/samples/example 1 | sed -n 's/^example: emitted \([0-9]*\) of.*/example:\1/p')"
exit 0
