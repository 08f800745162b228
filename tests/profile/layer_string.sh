#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For make profile: sched:sched_process_exec, an event with a string
# (__string(filename)), enabled with nothing attached, fired by a loop
# of execs: the event layer's path for a string.
#   make profile SCRIPT=tests/profile/layer_string.sh \
#		 FUNC=trace_event_raw_event_sched_process_exec OPT=2
E=/sys/kernel/tracing/events/sched/sched_process_exec
echo 1 > $E/enable || exit 1
echo PROF-READY
while :; do /bin/busybox true; done
