#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# w1.sh - rebuild each C file of ours that the kernel compiles with W=1 and
# sparse (C=2); any warning fails.
. "$(dirname "$0")/lib.sh"

"$ROOT/harness/build-kernel.sh" ours > /dev/null
obj=$(variant_obj ours)
cd "$ROOT"
bad=0
for f in $(find kernel -name '*.c' | sort); do
	o=${f%.c}.o
	[ -f "$obj/$o" ] || { echo "w1: $f is not built in this configuration, skipped"; continue; }
	out=$(make -s -C "$B/src" O="$obj" W=1 C=2 "$o" 2>&1 | grep -v '^  CHECK\|^  CC' || true)
	if [ -n "$out" ]; then
		echo "$out"
		bad=1
	fi
done
[ $bad = 0 ] && say "W=1 and sparse: no warnings in our files"
exit $bad
