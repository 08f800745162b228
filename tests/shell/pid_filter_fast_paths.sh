#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The paths that build a record on the probe's stack (an event with only
# a filter, a soft-disabled one with only histograms or filtered
# triggers) and the user event's straight write into the ring buffer
# check the pid filter themselves, so they stay in use while pids are
# marked: they must keep exactly the records of the tasks that
# set_event_pid and set_event_notrace_pid let through.  A mark left
# behind by "echo > set_event_pid" (trace-cmd and ftracetest reset it so)
# keeps every task's record.
. /tests/lib.sh
use_event signal/signal_generate
K=$T/events/syscalls/sys_enter_kill
U=$T/events/user_events/example
UE='u:example u32 count; __data_loc char[] msg'
[ -d $K ] || skip "no syscall events"
[ -f $T/dynamic_events ] || skip "no dynamic_events"
sleep 60 & s1=$!
sleep 60 & s2=$!
cleanup() {
	{
	kill $s1 $s2
	echo 0 > $E/enable
	echo 0 > $E/filter
	echo '!hist:keys=sig if sig >= 23' > $K/trigger
	echo 0 > $U/enable
	echo "!$UE" >> $T/dynamic_events
	pids_reset
	echo > $T/trace
	echo > $T/error_log
	} 2>/dev/null
}
trap cleanup EXIT
tracing_reset
echo "$UE" >> $T/dynamic_events || fail "u:example"

# Signals whose default action is to ignore them (SIGURG 23, SIGWINCH 28)
# leave the sleepers they are sent to alive.
# marked SIG TARGET - send SIG to TARGET from a task that marks itself
# in set_event_pid first; unmarked SIG TARGET - from a task that does not
marked() { sh -c 'echo $$ >> '$T'/set_event_pid; kill -$1 $2' sh "$@"; }
unmarked() { sh -c 'kill -$1 $2' sh "$@"; }
# the targets of the signal_generate records kept, one line each
targets() { trace_lines | sed -n 's/^signal_generate: sig=23 .* pid=\([0-9]*\) .*/\1/p' | sort -n; }
# the hitcounts of each signal in sys_enter_kill's histogram
kills() { grep '^{' $K/hist | awk '{ print $3, $6 }' | sort -n; }
# the count fields of the example's records kept
writes() { trace_lines | sed -n 's/^example: count=\([0-9]*\) .*/\1/p'; }

# A filtered event: kept only from the marked task
echo 'sig == 23' > $E/filter
echo 1 > $E/enable
marked URG $s1
unmarked URG $s2
expect_eq "filtered, a pid marked" "$s1" "$(targets)"

# A stale mark: the list emptied by a write of nothing
echo > $T/set_event_pid
expect_eq "the mark is left" "" "$(cat $T/set_event_pid)"
echo > $T/trace
unmarked URG $s1
unmarked URG $s2
expect_eq "filtered, a stale mark" "$s1
$s2" "$(targets)"

# set_event_notrace_pid: every task but the one listed
echo > $T/trace
sh -c 'echo $$ > '$T'/set_event_notrace_pid; kill -URG $1' sh $s1
unmarked URG $s2
expect_eq "filtered, a pid left out" "$s2" "$(targets)"
: > $T/set_event_notrace_pid
echo 0 > $E/enable
echo 0 > $E/filter

# A histogram on a soft-disabled system call event
pids_reset
echo 'hist:keys=sig if sig >= 23' > $K/trigger || fail "hist on sys_enter_kill"
expect_eq "soft disabled" "0*" "$(cat $K/enable)"
marked URG $s1
unmarked WINCH $s2
expect_eq "hist, a pid marked" "23 1" "$(kills)"
echo > $T/set_event_pid
unmarked URG $s1
unmarked WINCH $s2
expect_eq "hist, a stale mark" "23 2
28 1" "$(kills)"
echo '!hist:keys=sig if sig >= 23' > $K/trigger

# A user event written straight into the ring buffer
pids_reset
echo > $T/trace
echo 1 > $U/enable
bounded 20 sh -c 'echo $$ >> '$T'/set_event_pid; exec /samples/example 2' > /dev/null ||
	fail "example, marked"
bounded 20 /samples/example 3 > /dev/null || fail "example, unmarked"
expect_eq "user event, a pid marked" "0
1" "$(writes)"
echo > $T/set_event_pid
echo > $T/trace
bounded 20 /samples/example 1 > /dev/null || fail "example, a stale mark"
expect_eq "user event, a stale mark" "0" "$(writes)"
exit 0
