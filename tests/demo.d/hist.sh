#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Demo part: histograms and synthetic events.  Programs run counted by
# the file they exec, a bad command explained with a caret, and the
# wakeup latency of each task: a variable on sched_waking, a reference
# to it on sched_switch, and onmatch().trace() of a synthetic event that
# a histogram of its own then sums up.
T=/sys/kernel/tracing
X=$T/events/sched/sched_process_exec
W=$T/events/sched/sched_waking
S=$T/events/sched/sched_switch
L=$T/events/synthetic/wakeup_lat
step() { printf '\n### %s\n' "$*"; }

step "hist: 'hist:keys=filename:sort=hitcount.descending' on sched_process_exec"
echo 'hist:keys=filename:sort=hitcount.descending' > $X/trigger
for i in 1 2 3; do /bin/true; done
/bin/false; /bin/busybox true
cat $X/hist
echo '!hist:keys=filename:sort=hitcount.descending' > $X/trigger

step "hist: a field that sched_switch lacks, and what error_log says"
echo > $T/error_log
echo 'hist:keys=next_pid:vals=runtime' >> $S/trigger
sed 's/^\[ *[0-9.]*\] //' $T/error_log

step "synthetic event wakeup_lat, fed by onmatch(sched.sched_waking).trace() on sched_switch"
echo 'wakeup_lat pid_t pid; int prio; u64 lat' > $T/synthetic_events
cat $T/synthetic_events
echo 'hist:keys=pid:ts0=common_timestamp.usecs' > $W/trigger
echo 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).trace(wakeup_lat,next_pid,next_prio,$lat)' > $S/trigger
echo 'hist:keys=pid:vals=lat:sort=pid' > $L/trigger
echo 1 > $L/enable
for i in 1 2 3 4 5; do sleep 0.01; done
echo 0 > $L/enable
cat $S/trigger
grep -m 4 wakeup_lat $T/trace
echo "(the histogram of wakeup_lat itself, one entry per task, its latencies summed)"
sed -n '/^{/p; /^Totals:/,$p' $L/hist
echo '!hist:keys=pid:vals=lat:sort=pid' > $L/trigger
echo '!hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).trace(wakeup_lat,next_pid,next_prio,$lat)' > $S/trigger
echo '!hist:keys=pid:ts0=common_timestamp.usecs' > $W/trigger
echo '!wakeup_lat' >> $T/synthetic_events
echo > $T/trace
