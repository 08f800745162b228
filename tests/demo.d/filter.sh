#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Demo part: an event filter keeps only the exec records it accepts, and a
# bad filter is reported with a caret under the offending text.
T=/sys/kernel/tracing
E=$T/events/sched/sched_process_exec
step() { printf '\n### %s\n' "$*"; }

step "filter sched_process_exec on 'filename ~ \"*/false\"' and run true, false, true"
echo 'filename ~ "*/false"' > $E/filter
echo 1 > $E/enable
/bin/true; /bin/false; /bin/true
echo 0 > $E/enable
grep sched_process_exec $T/trace
echo > $T/trace

step "a bad filter: the write fails and the filter file explains why"
echo '(pid > 0 && filename ~ "*sh") || dsig == 17' > $E/filter
cat $E/filter
echo 0 > $E/filter
