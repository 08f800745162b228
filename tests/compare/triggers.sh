#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What users see of event triggers: the listing of every built-in command
# (counts, filters, soft mode of targets), the histogram trigger beside
# them, and the error codes of a duplicate, an unknown command and a
# missing target.  Run with `make compare` to check that ours matches the
# base.
T=/sys/kernel/tracing
F=$T/events/sched/sched_process_fork/trigger
cat $F
echo 'traceoff:5 if child_pid == 0' > $F; echo rc=$?
echo 'snapshot' > $F; echo rc=$?
echo 'enable_event:sched:sched_switch:2 if parent_pid > 0' > $F; echo rc=$?
echo 'disable_event:sched:sched_wakeup' > $F; echo rc=$?
echo 'stacktrace:3' > $F; echo rc=$?
echo 'hist:keys=child_pid' > $F; echo rc=$?
sort $F
cat $T/events/sched/sched_switch/enable $T/events/sched/sched_wakeup/enable
echo 'traceon' > $F; echo rc=$?
echo 'bogus' > $F; echo rc=$?
echo 'enable_event:no:such' > $F; echo rc=$?
echo '!traceoff' > $F; echo '!snapshot' > $F; echo '!enable_event:sched:sched_switch' > $F
echo '!disable_event:sched:sched_wakeup' > $F; echo '!stacktrace' > $F; echo '!hist:keys=child_pid' > $F
cat $F
cat $T/events/sched/sched_switch/enable $T/events/sched/sched_wakeup/enable
