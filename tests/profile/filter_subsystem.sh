#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For make profile: a filter written to a subsystem's filter file again
# and again, each write replacing the filters of the subsystem's events.
#   make profile SCRIPT=tests/profile/filter_subsystem.sh \
#                FUNC=apply_subsystem_event_filter
F=/sys/kernel/tracing/events/sched/filter
echo PROF-READY
while :; do echo "common_pid == 1" > $F; done
