#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A module that creates a synthetic event and does not delete it when it
# unloads (tests/kmod/synth_leftover.c): the event goes with the module;
# while a histogram's trace() uses it, it stays, cut loose from the
# module, and can be enabled, traced and deleted afterwards.
. /tests/lib.sh
variant=$(sed -n 's/.*ts\.variant=\([^ ]*\).*/\1/p' /proc/cmdline)
M=/modules/${variant:-ours}/synth_leftover.ko
[ -f $M ] || skip "no synth_leftover.ko"
P=$T/events/ftrace/print
L=$T/events/synthetic/leftover
CMD='hist:keys=common_pid:onmatch(ftrace.print).trace(leftover,ip)'
cleanup() {
	[ -d $L ] && echo 0 > $L/enable
	echo > $P/trigger
	echo '!leftover' >> $T/synthetic_events 2>/dev/null
	rmmod synth_leftover 2>/dev/null
	tracing_reset
}
trap cleanup EXIT
tracing_reset

insmod $M || fail "insmod"
expect_eq "created" "leftover	u64 v" "$(cat $T/synthetic_events)"
bounded 10 rmmod synth_leftover || fail "rmmod"
expect_eq "gone with the module" "" "$(cat $T/synthetic_events)"

insmod $M || fail "insmod again"
echo "$CMD" >> $P/trigger || fail "trace(leftover) refused"
bounded 10 rmmod synth_leftover || fail "rmmod while used"
expect_eq "kept while used" "leftover	u64 v" "$(cat $T/synthetic_events)"
# enabling it no longer pins a module that is gone
bounded 10 sh -c "echo 1 > $L/enable" || fail "enable after unload"
echo hi > $T/trace_marker
expect_eq "traced" 1 "$(trace_lines | grep -c '^leftover: v=[0-9]*$')"
echo 0 > $L/enable
echo "!$CMD" >> $P/trigger || fail "remove the histogram"
bounded 10 sh -c "echo '!leftover' >> $T/synthetic_events" || fail "delete after unload"
expect_eq "deleted" "" "$(cat $T/synthetic_events)"
