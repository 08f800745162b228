#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# compare.sh SCRIPT - run the same shell script (busybox sh, as root, tracefs
# at /sys/kernel/tracing) on our kernel and on the base kernel and show the
# difference of what it printed.  Timestamps (`[    1.234567]` in error_log,
# `1.234567:` in trace) are replaced by TIME first, since they always differ.
# Exit 0 when identical, 1 otherwise.
. "$(dirname "$0")/lib.sh"

script=${1:-}
[ -n "$script" ] && [ -f "$script" ] || die "usage: make compare SCRIPT=file"
script=$(cd "$(dirname "$script")" && pwd)/$(basename "$script")
"$ROOT/harness/build-kernel.sh" ours
"$ROOT/harness/build-kernel.sh" base
"$ROOT/harness/programs.sh"
"$ROOT/harness/initramfs.sh" "$script"
mkdir -p "$B/compare"
for v in ours base; do
	say "running ${script#$ROOT/} on the $v kernel"
	TS_QUIET=1 TS_INITRD=$B/initramfs-job.cpio "$ROOT/harness/vm.sh" "$v" compare "compare-$v" quiet
	grep -q TS-DONE "$B/logs/compare-$v.out" || die "the $v run did not finish"
	sed -n '/^TS-COMPARE-BEGIN/,/^TS-COMPARE-END/p' "$B/logs/compare-$v.out" |
		sed '1d;$d' | tr -d '\r' |
		sed -E 's/\[ *[0-9]+\.[0-9]{6}\]/[TIME]/g; s/ [0-9]+\.[0-9]{6}: / TIME: /g' \
		> "$B/compare/$v.txt"
done
cd "$B/compare"
if diff -u base.txt ours.txt > diff.txt; then
	say "identical output ($(wc -l < ours.txt) lines): build/compare/ours.txt"
else
	cat diff.txt
	say "outputs differ: build/compare/{base,ours,diff}.txt"
	exit 1
fi
