#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What users see of a kernel event: its format, enable, filter and trigger
# files, and how a bad filter is reported.  Run with `make compare` to check
# that ours matches the base.
T=/sys/kernel/tracing
E=$T/events/sched/sched_switch
cat $E/format
cat $E/enable $E/filter $E/trigger
echo 'prev_pid == 1' > $E/filter; echo "rc=$?"
cat $E/filter
echo 0 > $E/filter
echo 'prev_pid ==' > $E/filter; echo "rc=$?"
cat $E/filter
cat $T/error_log
echo 0 > $E/filter
