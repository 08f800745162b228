#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# enable_event/disable_event triggers: the target sits in soft mode while
# referenced (0* / 1* in its enable file), counts, filters, one trigger
# per target, and removal.
. /tests/lib.sh
F=$T/events/sched/sched_process_fork
P=$T/events/ftrace/print/trigger
S=$T/events/sched/sched_switch/enable
W=$T/events/sched/sched_wakeup/enable
fork() { ( : ; ) ; }
tracing_reset

# enable_event from trace_marker.
echo 'enable_event:sched:sched_switch' > $P
expect_eq "listing" "enable_event:sched:sched_switch:unlimited" "$(cat $P)"
expect_eq "target soft disabled" "0*" "$(cat $S)"
echo hit > $T/trace_marker
expect_eq "target soft enabled" "1*" "$(cat $S)"
sleep 0.01
grep -q 'sched_switch: prev_comm=' $T/trace || fail "no sched_switch recorded after enable"
echo '!enable_event:sched:sched_switch' > $P
expect_eq "trigger gone" "# Available triggers:" "$(head -1 $P)"
echo 0 > $S
expect_eq "target off" 0 "$(cat $S)"

# disable_event on a traced event.
echo 1 > $S
echo 'disable_event:sched:sched_switch' > $P
expect_eq "enabled, soft mode" "1*" "$(cat $S)"
echo hit > $T/trace_marker
expect_eq "soft disabled by trigger" "0*" "$(cat $S)"
echo '!disable_event:sched:sched_switch' > $P
echo 0 > $S
expect_eq "target off again" 0 "$(cat $S)"

# Counted enable with a filter on the triggering event (sched_process_fork).
echo 'enable_event:sched:sched_wakeup:1 if child_pid == 0' > $F/trigger
echo 'disable_event:sched:sched_switch:2' > $F/trigger
expect_eq "two targets listed" "disable_event:sched:sched_switch:count=2
enable_event:sched:sched_wakeup:count=1 if child_pid == 0" "$(cat $F/trigger)"
expect_eq "triggering event in soft mode" "0*" "$(cat $F/enable)"
fork
expect_eq "filter blocked enable" "0*" "$(cat $W)"
expect_eq "already disabled: count kept" "disable_event:sched:sched_switch:count=2" \
	"$(grep disable_event $F/trigger)"
echo '!enable_event:sched:sched_wakeup' > $F/trigger
echo "enable_event:sched:sched_wakeup:1 if parent_pid == $$" > $F/trigger
fork
expect_eq "filter passed" "1*" "$(cat $W)"
expect_eq "count spent" "enable_event:sched:sched_wakeup:count=0 if parent_pid == $$" \
	"$(grep enable_event $F/trigger)"

# One trigger per target: a second one, even of the other kind, is refused
# and leaves everything as it was.
before=$(cat $F/trigger)
expect_fail sh -c "echo 'enable_event:sched:sched_switch' > $F/trigger"
expect_fail sh -c "echo 'disable_event:sched:sched_wakeup:5' > $F/trigger"
expect_eq "unchanged after duplicates" "$before" "$(cat $F/trigger)"

echo '!enable_event:sched:sched_wakeup:count=0' > $F/trigger
echo '!disable_event:sched:sched_switch' > $F/trigger
expect_eq "all removed" "# Available triggers:" "$(head -1 $F/trigger)"
echo 0 > $W
expect_eq "wakeup off" 0 "$(cat $W)"
expect_eq "switch off" 0 "$(cat $S)"
expect_eq "fork off" 0 "$(cat $F/enable)"
tracing_reset
