#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For make profile: trigger_bench's unfiltered traceon trigger on the
# syscall event the shell's loop makes (kill), fired for ever by an
# ignored signal sent to ourselves.  Tracing is on, so the trigger does
# nothing but look: what is left is the trigger engine's own path.
#   make profile SCRIPT=tests/profile/trigger_unfiltered.sh \
#	FUNC=ftrace_syscall_enter OPT=2
E=/sys/kernel/tracing/events/syscalls/sys_enter_kill
echo traceon > $E/trigger || exit 1
echo PROF-READY
trap '' URG
while :; do kill -URG $$; done
