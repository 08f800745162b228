#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Values a histogram takes on trust, each found by make fuzz as a crash:
# - a number passed to a char[] field of a synthetic event (accepted, as
#   on the base kernel, for a u64 that points to a string) is read without
#   faulting: an address nothing maps is recorded as "(fault)";
# - a histogram that reads time stamps, added and removed while its event
#   goes through the per-CPU buffered event (the event is filtered), sees
#   only records it can time: no WARN from the ring buffer.
. /tests/lib.sh
S=$T/events/synthetic
E=$T/events/eprobes/ep_num
W=$T/events/sched/sched_switch
[ -e $T/events/ftrace/print/hist ] || skip "no histograms"
cleanup() {
	kill $LOAD 2>/dev/null
	wait 2>/dev/null
	[ -d $E ] && echo > $E/trigger 2>/dev/null
	echo > $W/trigger 2>/dev/null
	echo 0 > $W/filter
	echo 0 > $T/events/enable
	echo '-:eprobes/ep_num' >> $T/dynamic_events 2>/dev/null
	echo '!s_str' >> $T/synthetic_events 2>/dev/null
	tracing_reset
}
trap cleanup EXIT
tracing_reset

# add FILE CMD - CMD is taken, within 10 s
add() { bounded 10 sh -c 'printf "%s\n" "$1" >> "$2"' sh "$2" "$1" || fail "refused: $2: $1"; }

echo 's_str char name[]; u64 n' >> $T/synthetic_events || fail "s_str"
# every exec gives ep_num: two numbers no address matches
printf '%s\n' 'e:eprobes/ep_num sched.sched_process_exec p=\0xde46440ebb7442f:u64 q=\0x10:u64' \
	>> $T/dynamic_events || skip "no eprobes"
add $E/trigger 'hist:keys=common_pid:onmatch(eprobes.ep_num).trace(s_str,p,q)'
echo 1 > $S/s_str/enable
bounded 10 sh -c true || fail "exec"
echo '!hist:keys=common_pid:onmatch(eprobes.ep_num).trace(s_str,p,q)' >> $E/trigger
add $E/trigger 'hist:keys=common_pid:onmatch(eprobes.ep_num).trace(s_str,q,p)'
bounded 10 sh -c true || fail "exec"
expect_eq "numbers as strings" "s_str: name=(fault) n=1001035247178433583
s_str: name=(fault) n=16" "$(trace_lines | grep '^s_str:' | sort -u)"
echo > $E/trigger
echo 0 > $S/s_str/enable

# time stamps through the buffered event: add and remove the histogram
# while sched_switch fires (filtered, so through the per-CPU buffer, or
# built on its probe's stack: a record the filter keeps there reaches a
# histogram attached meanwhile as an event of the ring buffer)
echo 'prev_pid >= 0' > $W/filter
(while :; do sleep 0; done) &
LOAD=$!
i=0
while [ $i -lt 40 ]; do
	add $W/trigger 'hist:keys=common_pid:t=common_timestamp.usecs'
	add $W/trigger '!hist:keys=common_pid:t=common_timestamp.usecs'
	i=$((i + 1))
done
kill $LOAD
expect_eq "no histogram left" "# Available triggers:" "$(head -1 $W/trigger)"
