#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Debian's trace-cmd: records a user event and reports its fields, and
# records kernel events through our filter engine.
. /tests/lib.sh
command -v trace-cmd > /dev/null || skip "no trace-cmd in the VM"
[ -e $T/user_events_data ] || skip "no user_events"
CMD='u:example u32 count; __data_loc char[] msg'
echo "$CMD" >> $T/dynamic_events || fail "cannot declare the example event"
cd /tmp
trap 'rm -f trace.dat; tracing_reset; echo "!$CMD" >> $T/dynamic_events' EXIT

# report EVENT - the payload of each EVENT line of trace-cmd report
report() { trace-cmd report -i trace.dat 2>/dev/null | sed -n "s/^.* $1: *//p"; }

trace-cmd record -q -e user_events:example -o trace.dat /samples/example 4 > /dev/null 2>&1 ||
	fail "trace-cmd record failed"
expect_eq "trace-cmd report" "count=0 msg=hello 0
count=1 msg=hello 1
count=2 msg=hello 2
count=3 msg=hello 3" "$(report example)"

# Our filter engine behind -f: only the execs of /bin/true are kept
trace-cmd record -q -e sched:sched_process_exec -f 'filename ~ "*/true"' -o trace.dat \
	sh -c '/bin/true; /bin/false; /bin/true' > /dev/null 2>&1 || fail "record with -f failed"
expect_eq "exec records" "2" "$(report sched_process_exec | grep -c 'filename=/bin/true ')"
expect_eq "other exec records" "" "$(report sched_process_exec | grep -v 'filename=/bin/true ')"

# sched_switch filtered to switches into the idle task: every record is one
trace-cmd record -q -e sched:sched_switch -f 'next_pid == 0 && prev_pid != 0' -o trace.dat \
	sh -c 'sleep 0.1; sleep 0.1' > /dev/null 2>&1 || fail "sched_switch record failed"
n=$(report sched_switch | wc -l)
[ "$n" -gt 0 ] || fail "no sched_switch record kept"
expect_eq "switches not into idle" "" "$(report sched_switch | grep -v ' next_pid=0 next_prio=')"
expect_eq "switches from idle" "" "$(report sched_switch | grep ' prev_pid=0 ')"
exit 0
