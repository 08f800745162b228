#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# show_event_filters and show_event_triggers: one line per filter or
# trigger of the instance's events, "system:event" padded with spaces to
# the 33rd column (one space at least) and what the event's own file
# lists; empty when there is none; an event probe's own trigger on the
# event it reads is not listed; each instance lists its own; reading
# while events come and go returns in time and lists whole lines.
. /tests/lib.sh
[ -r $T/show_event_filters ] || fail "no show_event_filters"
[ -r $T/show_event_triggers ] || fail "no show_event_triggers"
F=$T/events/sched/sched_process_fork
X=$T/events/sched/sched_process_exit
P=$T/events/ftrace/print
I=$T/instances/show_ev
cleanup() {
	kill $churn 2>/dev/null
	wait 2>/dev/null
	# "echo > trigger" clears histograms only, as on the base
	for c in traceoff stacktrace traceon; do
		echo "!$c" >> $F/trigger 2>/dev/null
		echo "!$c" >> $I/events/sched/sched_process_fork/trigger 2>/dev/null
	done
	echo > $P/trigger 2>/dev/null
	for e in $F $X $I/events/sched/sched_process_fork; do
		[ -d $e ] && echo 0 > $e/filter
	done
	rmdir $I 2>/dev/null
	# the churn may have been stopped between its trigger and its delete
	U=$T/events/user_events/show_ev_u
	if [ -d $U ]; then
		echo '!traceon' >> $U/trigger
		echo 0 > $U/filter
	fi 2>/dev/null
	echo '-:show_ev_u' >> $T/dynamic_events 2>/dev/null
	echo '-:eprobes/show_ev_ep' >> $T/dynamic_events 2>/dev/null
	tracing_reset
}
trap cleanup EXIT
tracing_reset
# at SYSTEM:EVENT - the name as the files start a line with it
at() { printf '%-31s ' "$1"; }

expect_eq "no filters" "" "$(cat $T/show_event_filters)"
expect_eq "no triggers" "" "$(cat $T/show_event_triggers)"

echo 'parent_pid > 1' > $F/filter || fail "fork filter"
echo 'prio < 100 && comm ~ "k*"' > $X/filter || fail "exit filter"
echo 'traceoff:3 if parent_pid == 7' > $F/trigger || fail "traceoff"
echo 'stacktrace' >> $F/trigger || fail "stacktrace"
echo 'hist:keys=common_pid' > $P/trigger || fail "hist"
expect_eq "filters" "$(printf '%s\n' \
	"$(at sched:sched_process_exit)prio < 100 && comm ~ \"k*\"" \
	"$(at sched:sched_process_fork)parent_pid > 1")" \
	"$(sort $T/show_event_filters)"
# as the trigger files list them, whatever their order
want=$(for e in $F $P; do
	n=$(basename $(dirname $e)):$(basename $e)
	grep -v '^#' $e/trigger | sed "s/^/$(at $n)/"
done | sort)
expect_eq "triggers" "$want" "$(sort $T/show_event_triggers)"
expect_eq "three triggers" 3 "$(wc -l < $T/show_event_triggers)"

# an event probe on the event adds a trigger of its own, not listed
if echo 'e:show_ev_ep sched/sched_process_fork' >> $T/dynamic_events 2>/dev/null; then
	echo 1 > $T/events/eprobes/show_ev_ep/enable
	expect_eq "with an event probe" "$want" "$(sort $T/show_event_triggers)"
	echo 0 > $T/events/eprobes/show_ev_ep/enable
	echo '-:eprobes/show_ev_ep' >> $T/dynamic_events || fail "eprobe delete"
fi

# an instance lists its own events only
mkdir $I || fail "mkdir instance"
expect_eq "instance empty" "" "$(cat $I/show_event_filters; cat $I/show_event_triggers)"
echo 'child_pid > 2' > $I/events/sched/sched_process_fork/filter || fail "instance filter"
echo 'traceon' > $I/events/sched/sched_process_fork/trigger || fail "instance trigger"
expect_eq "instance filter" "$(at sched:sched_process_fork)child_pid > 2" "$(cat $I/show_event_filters)"
expect_eq "instance trigger" "$(at sched:sched_process_fork)traceon:unlimited" "$(cat $I/show_event_triggers)"
expect_eq "top unchanged" 2 "$(wc -l < $T/show_event_filters)"

# an open file keeps its instance: rmdir waits for no reader
exec 3< $I/show_event_triggers
expect_fail rmdir $I
exec 3<&-
echo 0 > $I/events/sched/sched_process_fork/filter
echo > $I/events/sched/sched_process_fork/trigger
rmdir $I || fail "rmdir"

# events created and deleted while being listed: whole lines, in time
churn_loop() {
	while :; do
		echo 'u:show_ev_u u32 a' >> $T/dynamic_events
		echo 'a == 1' > $T/events/user_events/show_ev_u/filter
		echo 'traceon' > $T/events/user_events/show_ev_u/trigger
		echo '!traceon' >> $T/events/user_events/show_ev_u/trigger
		echo 0 > $T/events/user_events/show_ev_u/filter
		echo '-:show_ev_u' >> $T/dynamic_events
	done 2>/dev/null
}
churn_loop &
churn=$!
i=0
while [ $i -lt 200 ]; do
	bounded 10 sh -c "cat $T/show_event_filters $T/show_event_triggers > /tmp/show_ev.out" ||
		fail "read failed"
	grep -v '^[a-z_]*:[a-z_]*  *[^ ]' /tmp/show_ev.out && fail "a broken line"
	i=$((i + 1))
done
kill $churn
wait 2>/dev/null
cleanup
trap - EXIT
expect_eq "nothing left" "" "$(cat $T/show_event_filters $T/show_event_triggers)"
exit 0
