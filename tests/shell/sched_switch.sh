#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# sched:sched_switch, enabled through tracefs, records the switches a
# sleeping process causes, in the documented format.
. /tests/lib.sh
tracing_reset

expect_eq "enable file before" 0 "$(cat $T/events/sched/sched_switch/enable)"
echo 1 > $T/events/sched/sched_switch/enable
expect_eq "enable file after" 1 "$(cat $T/events/sched/sched_switch/enable)"
for i in 1 2 3 4 5; do sleep 0.01; done
echo 0 > $T/events/sched/sched_switch/enable

n=$(grep -c ' sched_switch: prev_comm=' $T/trace)
[ "$n" -ge 5 ] || fail "expected at least 5 sched_switch records, found $n"
# A sleeping shell switches out in state S and something switches to it.
grep -q 'sched_switch: prev_comm=sleep prev_pid=[0-9]* prev_prio=120 prev_state=S ==> next_comm=' $T/trace ||
	fail "no switch away from a sleeping 'sleep' task"
grep -Eq 'sched_switch: prev_comm=.* ==> next_comm=sleep next_pid=[0-9]+ next_prio=120$' $T/trace ||
	fail "no switch to 'sleep'"
# Nothing more is recorded once disabled.
echo > $T/trace
sleep 0.01
expect_eq "records after disable" 0 "$(grep -c sched_switch $T/trace)"
tracing_reset
