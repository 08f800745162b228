#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Removed triggers are freed later, a batch after one grace period; what
# they held goes at once.  While sched_waking and sched_switch fire on
# both CPUs: a synthetic event is deleted right after the histograms that
# fed it are removed, the target of a disable_event trigger right after
# the trigger, a kprobe event right after its histogram, a module whose
# event a disable_event trigger aims at right after the trigger (while
# the trigger is there, rmmod is refused), and an instance right after
# its histograms with variables; every time, 10 times over, with no
# refusal.  The debug kernel checks that nothing is used after it
# was freed.
. /tests/lib.sh
W=$T/events/sched/sched_waking
S=$T/events/sched/sched_switch
[ -e $W/hist ] || skip "no histograms"
I=$T/instances/tbf
KP=$T/events/kprobes/tbf_kp
VAR='hist:keys=pid:ts0=common_timestamp.usecs'
LAT='hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).trace(tbf_lat,next_pid,$lat)'
ENA='disable_event:synthetic:tbf_t'
variant=$(sed -n 's/.*ts\.variant=\([^ ]*\).*/\1/p' /proc/cmdline)
MOD=/modules/${variant:-ours}/trace-events-sample.ko
MODT='disable_event:sample-trace:foo_bar'
cleanup() {
	kill $LOAD 2>/dev/null
	for d in $W $S $I/events/sched/sched_waking $I/events/sched/sched_switch $KP; do
		[ -d $d ] && echo > $d/trigger
	done 2>/dev/null
	echo "!$ENA" >> $S/trigger 2>/dev/null
	echo "!$MODT" >> $S/trigger 2>/dev/null
	rmmod trace_events_sample 2>/dev/null
	rmdir $I 2>/dev/null
	echo '-:kprobes/tbf_kp' >> $T/dynamic_events 2>/dev/null
	echo '!tbf_lat' >> $T/synthetic_events 2>/dev/null
	echo '!tbf_t' >> $T/synthetic_events 2>/dev/null
	tracing_reset
}
trap cleanup EXIT
tracing_reset

# Wakeups and switches on every CPU: a sleeper and a spinner per CPU
LOAD=
for c in 0 1; do
	sh -c 'while :; do :; done' & LOAD="$LOAD $!"
	sh -c 'while :; do sleep 0.001; done' & LOAD="$LOAD $!"
done

add() { bounded 10 sh -c 'printf "%s\n" "$1" >> "$2"' sh "$1" "$2" || fail "refused: $1 >> $2"; }
del() { bounded 10 sh -c 'printf "%s\n" "$1" >> "$2"' sh "$1" "$2" || fail "refused at once: $1 >> $2"; }

i=0
while [ $i -lt 10 ]; do
	i=$((i + 1))
	# a synthetic event fed by trace() while it fires
	add 'tbf_lat pid_t pid; u64 lat' $T/synthetic_events
	echo 1 > $T/events/synthetic/tbf_lat/enable
	add "$VAR" $W/trigger
	add "$LAT" $S/trigger
	sleep 0.05
	echo 0 > $T/events/synthetic/tbf_lat/enable
	del "!$LAT" $S/trigger
	del "!$VAR" $W/trigger
	del '!tbf_lat' $T/synthetic_events

	# the target of disable_event, set by an event firing on both CPUs
	add 'tbf_t u32 a' $T/synthetic_events
	add "$ENA" $S/trigger
	sleep 0.02
	del "!$ENA" $S/trigger
	del '!tbf_t' $T/synthetic_events

	# a kprobe event with a histogram
	add 'p:kprobes/tbf_kp schedule' $T/dynamic_events
	add 'hist:keys=common_pid' $KP/trigger
	sleep 0.02
	del '!hist:keys=common_pid' $KP/trigger
	del '-:kprobes/tbf_kp' $T/dynamic_events

	# a module's event aimed at by disable_event
	bounded 10 insmod $MOD || fail "insmod $MOD"
	add "$MODT" $S/trigger
	sleep 0.02
	bounded 10 rmmod trace_events_sample 2>/dev/null &&
		fail "rmmod while a trigger aims at its event"
	del "!$MODT" $S/trigger
	bounded 10 rmmod trace_events_sample || fail "rmmod at once after the trigger"

	# an instance whose histograms define and read variables
	mkdir $I || fail "mkdir $I"
	add "$VAR" $I/events/sched/sched_waking/trigger
	add 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0' \
		$I/events/sched/sched_switch/trigger
	sleep 0.02
	del '!hist:keys=next_pid:lat=common_timestamp.usecs-$ts0' \
		$I/events/sched/sched_switch/trigger
	del "!$VAR" $I/events/sched/sched_waking/trigger
	bounded 10 rmdir $I || fail "rmdir at once after its histograms"
done
expect_eq "synthetic events left" "" "$(cat $T/synthetic_events)"
expect_eq "kprobe left" "" "$(grep tbf_kp $T/dynamic_events)"
expect_eq "triggers left" "" "$(grep -hv '^#' $W/trigger $S/trigger)"
exit 0
