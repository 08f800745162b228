#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The main job of `make run`: show the patched kernel's tracing at work.
T=/sys/kernel/tracing
step() { printf '\n### %s\n' "$*"; }

step "kernel $(uname -r)"
step "enable sched:sched_switch and generate a few switches"
echo 1 > $T/events/sched/sched_switch/enable
for i in 1 2 3; do sleep 0.05; done
echo 0 > $T/events/sched/sched_switch/enable
grep -m 5 sched_switch $T/trace
echo > $T/trace

for part in /tests/demo.d/*.sh; do
	[ -f "$part" ] && sh "$part"
done
step "done"
