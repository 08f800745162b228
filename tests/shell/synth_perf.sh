#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Debian's perf on synthetic events fed by a histogram's onmatch().trace():
# each write of the user event user_events:example (samples/user_events/
# example writes count=i, msg="hello i" for i = 0..N-1) is copied into the
# synthetic event uecopy.  perf record and perf script see exactly those
# records with their field values, perf stat counts them, --filter runs
# our filter engine on the perf side, and an event open by perf cannot be
# deleted (EBUSY) until perf closes it.  An event whose records cannot fit
# perf's buffer is refused at open (E2BIG), and a record that grows past
# it is dropped, without a warning.
. /tests/lib.sh
command -v perf > /dev/null || skip "no perf in the VM"
[ -e $T/user_events_data ] || skip "no user_events"
[ -e $T/synthetic_events ] || skip "no synthetic events"
S=$T/synthetic_events
U=$T/events/user_events/example
UE='u:example u32 count; __data_loc char[] msg'
COPY='hist:keys=count:onmatch(user_events.example).trace(uecopy,count,msg)'
cd /tmp
cleanup() {
	touch /tmp/synth_perf.stop
	echo > $U/trigger 2>/dev/null
	echo > $S 2>/dev/null
	echo "!$UE" >> $T/dynamic_events 2>/dev/null
	rm -f perf.data perf.data.old /tmp/synth_perf.go /tmp/synth_perf.stop
	tracing_reset
}
trap cleanup EXIT
tracing_reset

echo "$UE" >> $T/dynamic_events || fail "cannot declare the example event"
echo 'uecopy u32 count; char msg[]' >> $S || fail "cannot declare uecopy"
echo "$COPY" >> $U/trigger || fail "onmatch().trace(uecopy) refused"

# fields - the payload of each synthetic:uecopy line of perf script
fields() { perf script -F event,trace 2>/dev/null | sed -n 's/^ *synthetic:uecopy: *//p'; }

# count EVENT [PERF STAT OPTION...] -- N - what perf stat counts of EVENT
# while the example writes N events.  perf stat now and then prints "<not
# counted>" in this VM (see client_perf.sh): up to three tries.
count() {
	_ev=$1
	shift
	for _try in 1 2 3; do
		_n=$(perf stat -x, -e "$_ev" "$@" /samples/example "$N" 2>&1 >/dev/null |
			awk -F, -v e="$_ev" '$3 == e { print $1 }')
		[ "$_n" = "<not counted>" ] || break
	done
	echo "$_n"
}

bounded 60 perf record -q -e synthetic:uecopy -o perf.data -- /samples/example 4 \
	> /dev/null 2>&1 || fail "perf record failed"
expect_eq "perf script" "count=0 msg=hello 0
count=1 msg=hello 1
count=2 msg=hello 2
count=3 msg=hello 3" "$(fields)"

bounded 60 perf record -q -e synthetic:uecopy --filter 'count >= 2 && msg ~ "hello*"' \
	-o perf.data -- /samples/example 5 > /dev/null 2>&1 || fail "perf record --filter failed"
expect_eq "perf script, filtered" "count=2 msg=hello 2
count=3 msg=hello 3
count=4 msg=hello 4" "$(fields)"

# A filter our engine refuses makes perf fail, as for any event
if bounded 30 perf record -q -e synthetic:uecopy --filter 'count ==' -o perf.data \
	-- /bin/true > /dev/null 2>&1; then
	fail "perf record accepted a bad filter"
fi

N=3
expect_eq "perf stat count" 3 "$(count synthetic:uecopy --)"
expect_eq "perf stat count, filtered" 1 "$(count synthetic:uecopy --filter 'count == 1' --)"

# ftrace records the same events beside perf
echo 1 > $T/events/synthetic/uecopy/enable
bounded 60 perf record -q -e synthetic:uecopy -o perf.data -- /samples/example 2 \
	> /dev/null 2>&1 || fail "perf record beside ftrace failed"
echo 0 > $T/events/synthetic/uecopy/enable
expect_eq "perf script beside ftrace" "count=0 msg=hello 0
count=1 msg=hello 1" "$(fields)"
expect_eq "ftrace beside perf" "uecopy: count=0 msg=hello 0
uecopy: count=1 msg=hello 1" "$(trace_lines | grep '^uecopy: ')"
echo > $T/trace

# Busy while perf holds it open: the histogram goes first, so that perf
# alone uses uecopy.  The workload starts once perf has opened its events.
echo "!$COPY" >> $U/trigger || fail "cannot remove the histogram"
rm -f /tmp/synth_perf.go /tmp/synth_perf.stop
perf record -q -e synthetic:uecopy -o perf.data -- sh -c \
	'touch /tmp/synth_perf.go; while [ ! -e /tmp/synth_perf.stop ]; do usleep 20000; done' \
	> /dev/null 2>&1 &
pid=$!
n=0
while [ ! -e /tmp/synth_perf.go ]; do
	n=$((n + 1))
	[ $n -le 300 ] || fail "perf record did not start within 30s"
	usleep 100000
done
# refused_busy FILE CMD - writing CMD to FILE fails with EBUSY, within 10s
refused_busy() {
	if bounded 10 sh -c 'echo "$1" >> "$2"' sh "$2" "$1" 2> /tmp/synth_perf.err; then
		fail "deleted while perf has it open: $2"
	fi
	expect_eq "error of '$2' while perf has it open" "Device or resource busy" \
		"$(sed -n 's/.*write error: //p' /tmp/synth_perf.err)"
}
refused_busy $S '!uecopy'
refused_busy $T/dynamic_events '-:synthetic/uecopy'
refused_busy $T/dynamic_events '!s:uecopy'
expect_eq "listed while perf has it open" "uecopy	u32 count; char[] msg" "$(cat $S)"
touch /tmp/synth_perf.stop
n=0
while kill -0 $pid 2> /dev/null; do
	n=$((n + 1))
	[ $n -le 300 ] || fail "perf record did not end within 30s"
	usleep 100000
done
wait $pid
bounded 10 sh -c "echo '!uecopy' >> $S" || fail "delete after perf ended"
expect_eq "deleted after perf ended" "" "$(cat $S)"

# Records too large for perf's buffer (PERF_MAX_TRACE_SIZE, 8192 bytes
# with its u32 size and the alignment to u64).  A char[N] takes 256 bytes
# of the record: 32 of them cannot fit, and perf cannot open the event.
def='toobig char s0[8]'
i=1
while [ $i -lt 32 ]; do def="$def; char s$i[8]"; i=$((i + 1)); done
echo "$def" >> $S || fail "cannot declare toobig"
if bounded 30 perf stat -e synthetic:toobig -- /bin/true > /tmp/synth_perf.err 2>&1; then
	fail "perf opened an event whose records cannot fit its buffer"
fi
grep -q 'Argument list too long' /tmp/synth_perf.err ||
	fail "perf on toobig did not fail with E2BIG: $(cat /tmp/synth_perf.err)"
bounded 10 sh -c "echo '!toobig' >> $S" || fail "delete toobig after perf was refused"

# 31 char[8], a u32 and 14 char[]: 8 + 31 * 256 + 8 + 14 * (8 + len)
# bytes, which perf takes for "hello 0" to "hello 9" (len 8) and not for
# "hello 10" or "hello 11" (len 9): of 12 writes, 10 are counted.
def='grows u32 count'
params=count
i=0
while [ $i -lt 31 ]; do def="$def; char s$i[8]"; params="$params,msg"; i=$((i + 1)); done
i=0
while [ $i -lt 14 ]; do def="$def; char d$i[]"; params="$params,msg"; i=$((i + 1)); done
echo "$def" >> $S || fail "cannot declare grows"
GROW="hist:keys=count:size=128:onmatch(user_events.example).trace(grows,$params)"
echo "$GROW" >> $U/trigger || fail "onmatch().trace(grows) refused"
N=12
expect_eq "perf stat count, the records that fit" 10 "$(count synthetic:grows --)"
echo "!$GROW" >> $U/trigger || fail "cannot remove the histogram of grows"
exit 0
