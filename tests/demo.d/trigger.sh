#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Demo part: triggers act on events as they fire: a counted,
# filtered traceoff, and enable_event putting another event in soft mode.
T=/sys/kernel/tracing
E=$T/events/sched/sched_process_exec
step() { printf '\n### %s\n' "$*"; }

step "trigger: 'traceoff:1 if filename ~ \"*/false\"' on sched_process_exec"
echo 'traceoff:1 if filename ~ "*/false"' > $E/trigger
cat $E/trigger
/bin/true
echo "after true:  tracing_on=$(cat $T/tracing_on)"
/bin/false
echo "after false: tracing_on=$(cat $T/tracing_on)"
cat $E/trigger
echo '!traceoff' > $E/trigger
echo 1 > $T/tracing_on

step "trigger: enable_event:sched:sched_process_exit on exec (soft mode shows 1*/0*)"
X=$T/events/sched/sched_process_exit
# Read with the shell's own "read": running cat would itself be an exec.
echo 'enable_event:sched:sched_process_exit' > $E/trigger
read v < $X/enable; echo "sched_process_exit enable: $v"
/bin/true
read v < $X/enable; echo "after an exec:             $v"
/bin/true
grep -m 2 sched_process_exit $T/trace
echo '!enable_event:sched:sched_process_exit' > $E/trigger
echo 0 > $X/enable
echo > $T/trace
