#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For make profile: a 7-field synthetic event written by onmatch().trace()
# of a histogram on ftrace:print, fired for ever by trace_marker writes.
#   make profile SCRIPT=tests/profile/synth_onmatch.sh FUNC=action_trace
T=/sys/kernel/tracing
echo 'schedbench pid_t pid; u64 lat; u64 ts; u64 c; u64 i; u64 lat2; u64 ts2' >> $T/synthetic_events || exit 1
echo 'hist:keys=common_pid:ts0=common_timestamp if buf == "start"' >> $T/events/ftrace/print/trigger || exit 1
echo 'hist:keys=common_pid:lat=common_timestamp-$ts0,p=common_pid,ts=common_timestamp,c=3,i=5,lat2=common_timestamp-$ts0,ts2=common_timestamp:onmatch(ftrace.print).trace(schedbench,$p,$lat,$ts,$c,$i,$lat2,$ts2) if buf == "end"' >> $T/events/ftrace/print/trigger || exit 1
echo 1 > $T/events/synthetic/schedbench/enable
echo PROF-READY
while :; do echo -n start > $T/trace_marker; echo -n end > $T/trace_marker; done
