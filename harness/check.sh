#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# check.sh VARIANT [TEST] - build the kernel and every test, boot, run them,
# report one line per test and `N passed, N failed`.
. "$(dirname "$0")/lib.sh"

variant=${1:-ours} test=${2:-}
"$ROOT/harness/build-kernel.sh" "$variant"
# The KCSAN kernel: a race fails the run when one of its stacks passes
# through a function of ours (report.py), the base's are NOTE lines
if [ "$variant" = kcsan ]; then
	mkdir -p "$B/logs"
	ours_syms "$variant" > "$B/logs/check-kcsan.syms"
	export TS_OURS_SYMS=$B/logs/check-kcsan.syms
fi
"$ROOT/harness/programs.sh"
"$ROOT/harness/base-reference.sh"
"$ROOT/harness/initramfs.sh"
cmdline="ts.test=$test"
# KUnit takes one glob: of a list (make stress), the first kunit/ one
kglob=${test#kunit/}
case $test in
*,*) kglob=$(tr , '\n' <<< "$test" | sed -n 's|^kunit/||p' | head -n 1) ;;
esac
[ -n "$test" ] && cmdline="$cmdline kunit.filter_glob=${kglob:-none}"
# The debug kernel runs several times slower: give its whole run longer.
# no5lvl, as make fuzz boots it: under QEMU's 5-level paging KASAN once
# called an access of the base's identify_cpu() at boot a wild one (see
# harness/fuzz.sh); 4-level paging keeps that base code out of the run.
# watchdog_thresh=60 (a soft lockup is reported after 120 s, not 20 s):
# under TCG one write to tracefs of this KASAN kernel can keep a vCPU
# busy for over 20 s of the host's time.  Upstream's tests of base code
# alone (the function graph tracer on every function, direct calls,
# kprobes) are left out of this run, see tests/ftrace-debug.list.
[ "$variant" = debug ] &&
	cmdline="$cmdline ts.kmemleak=1 ts.timeout=900 no5lvl watchdog_thresh=60" &&
	export TS_VM_TIMEOUT=${TS_VM_TIMEOUT:-9000}
say "booting the $variant kernel and running ${test:-all tests} (logs in build/logs/)"
set +e
TS_QUIET=1 "$ROOT/harness/vm.sh" "$variant" check "check-$variant" $cmdline
vm=$?
# The bpftrace_* tests boot again with bpftrace's initramfs laid over the
# main one, in twice the memory and without the KUnit suites (run at the
# first boot); their results and console join the first boot's.  Not on
# the coverage kernel, whose run sends one set of gcov counters.
bt=check-$variant-bpftrace bpftrace_run=0
if [ -f "$B/bpftrace.cpio" ] && [ $vm = 0 ] && [ "$variant" != coverage ]; then
	for f in "$ROOT"/tests/shell/bpftrace_*.sh; do
		# shellcheck disable=SC2053
		if [ -z "$test" ] || [[ $(basename "$f" .sh) == $test ]]; then bpftrace_run=1; fi
	done
fi
if [ $bpftrace_run = 1 ]; then
	cat "$B/initramfs.cpio" "$B/bpftrace.cpio" > "$B/initramfs-bpftrace.cpio"
	bcmdline=$(echo "$cmdline" | sed 's/ts\.test=[^ ]*//; s/kunit\.filter_glob=[^ ]*//')
	# shellcheck disable=SC2086
	TS_QUIET=1 TS_MEM=2G TS_INITRD="$B/initramfs-bpftrace.cpio" \
		"$ROOT/harness/vm.sh" "$variant" check "$bt" \
		"ts.test=${test:-bpftrace_*}" kunit.enable=0 $bcmdline
	vm=$?
	sed -i '/^TS-DONE/d' "$B/logs/check-$variant.out"
	cat "$B/logs/$bt.out" >> "$B/logs/check-$variant.out"
	cat "$B/logs/$bt.console" >> "$B/logs/check-$variant.console"
fi
# A check of the build, not of the VM: no event of ours declared and
# never fired (make unused-events), one result line beside the others.
if [ "$variant" = ours ] && { [ -z "$test" ] || [ "$test" = unused-events ]; }; then
	if "$ROOT/harness/unused-events.sh" > "$B/logs/unused-events.log" 2>&1; then
		echo "TSRESULT unused-events pass" >> "$B/logs/check-$variant.out"
	else
		echo "TSRESULT unused-events fail $(grep '^unused-events:' "$B/logs/unused-events.log")" \
			>> "$B/logs/check-$variant.out"
	fi
fi
python3 "$ROOT/harness/report.py" "$B/logs/check-$variant.console" "$B/logs/check-$variant.out" "$test"
rc=$?
set -e
[ $vm = 124 ] && { echo "FAIL the VM did not finish in time (TS_VM_TIMEOUT)"; exit 1; }
exit $rc
