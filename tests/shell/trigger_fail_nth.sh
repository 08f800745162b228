#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Allocation failures while a trigger enables its event.  A histogram
# soft-enables its event, which starts comm recording: the sched probes
# are registered with the first enabled event and unregistered with the
# last.  Each allocation of the trigger's write is failed in turn
# (/proc/self/fail-nth); whatever failed, the write either works or is
# refused, its removal leaves nothing behind, and no probe that was never
# registered is unregistered (a WARN in tracepoint_probe_unregister()).
# Needs a kernel with fault injection (the debug kernel).
. /tests/lib.sh
[ -e /proc/self/fail-nth ] || skip "no fault injection (CONFIG_FAILSLAB)"
D=/sys/kernel/debug
[ -d $D/failslab ] || mount -t debugfs none $D 2>/dev/null
[ -d $D/failslab ] || skip "no failslab in debugfs"
use_event signal/signal_generate
H='hist:keys=common_pid'
trap 'echo "!$H" > $E/trigger; echo 0 > $E/enable; echo > $T/trace' EXIT
tracing_reset
# failures only where fail-nth asks, GFP_KERNEL and order 0 included
for f in failslab fail_page_alloc; do
	echo N > $D/$f/ignore-gfp-wait
	echo 0 > $D/$f/probability
	echo 0 > $D/$f/verbose
done
echo N > $D/fail_page_alloc/ignore-gfp-highmem
echo 0 > $D/fail_page_alloc/min-order

n=1
while [ $n -le 400 ]; do
	# the write with its n-th allocation failed; then what fail-nth has
	# left: not 0 when the write made fewer than n allocations
	left=$(bounded 10 sh -c "echo $n > /proc/self/fail-nth
		echo '$H' > $E/trigger 2>/dev/null
		read left < /proc/self/fail-nth; echo \$left") ||
		fail "fail-nth $n: the write did not return"
	bounded 10 sh -c "echo '!$H' > $E/trigger" || fail "fail-nth $n: removal"
	expect_eq "fail-nth $n: enable after removal" 0 "$(cat $E/enable)"
	expect_eq "fail-nth $n: trigger after removal" "" \
		"$(grep -v '^#' $E/trigger)"
	[ "$left" = 0 ] || break
	n=$((n + 1))
done
[ $n -gt 1 ] && [ $n -le 400 ] || fail "fail-nth ran $n rounds"

# the event is enabled and traced as before
echo 1 > $E/enable
sh -c 'trap "" USR1; kill -USR1 $$'
echo 0 > $E/enable
[ "$(trace_lines | grep -c 'signal_generate: sig=10 ')" -ge 1 ] ||
	fail "no record after the failures"
exit 0
