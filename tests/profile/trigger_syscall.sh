#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For make profile: trigger_bench's filtered traceon trigger, on the
# syscall event the shell's loop makes (kill), fired for ever by an
# ignored signal sent to ourselves.  The syscall event's whole path:
#   make profile SCRIPT=tests/profile/trigger_syscall.sh \
#	FUNC=ftrace_syscall_enter
E=/sys/kernel/tracing/events/syscalls/sys_enter_kill
echo "traceon if common_pid == 0" > $E/trigger || exit 1
echo PROF-READY
trap '' URG
while :; do kill -URG $$; done
