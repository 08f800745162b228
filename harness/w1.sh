#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# w1.sh - rebuild each C file of ours that the kernel compiles with W=1 and
# sparse (C=2), and each file that defines events (our TRACE_EVENT() layer
# is compiled there) with W=1; any warning fails.
. "$(dirname "$0")/lib.sh"

"$ROOT/harness/build-kernel.sh" ours > /dev/null
obj=$(variant_obj ours)
sparse=$(base_sparse)
cd "$ROOT"
bad=0
for f in $(find kernel -name '*.c' | sort); do
	o=${f%.c}.o
	[ -f "$obj/$o" ] || { echo "w1: $f is not built in this configuration, skipped"; continue; }
	out=$(make -s -C "$B/src" O="$obj" W=1 C=2 CHECK="$sparse" "$o" 2>&1 | grep -v '^  CHECK\|^  CC' || true)
	if [ -n "$out" ]; then
		echo "$out"
		bad=1
	fi
done
# Our event layer is compiled into every file that defines events: those
# of this configuration, with W=1 (sparse adds nothing there).
events=$(cd "$B/src" && grep -rl --include='*.c' 'define CREATE_TRACE_POINTS' . |
	sed 's|^\./||' | sort)
objs=$(for f in $events; do if [ -f "$obj/${f%.c}.o" ]; then echo "${f%.c}.o"; fi; done)
# W=1 also runs kernel-doc over each file: what it says of the comments
# of a file that is not ours is the base's (fs/inode.c's inode_insert5()
# in 7.2), not our layer's.
out=$(make -s -C "$B/src" O="$obj" W=1 -j"$JOBS" $objs 2>&1 | grep -v '^  CC' |
	awk -v src="$B/src/" -v ours="$(owned_files | tr '\n' ' ')" '
		BEGIN { n = split(ours, o, " "); for (i = 1; i <= n; i++) mine[src o[i]] = 1 }
		/^Warning: / { f = $2; sub(/:[0-9]+$/, "", f); if (!(f in mine)) next }
		{ print }' || true)
if [ -n "$out" ]; then
	echo "$out"
	bad=1
fi
[ $bad = 0 ] && say "W=1 and sparse: no warnings in our files ($(echo $objs | wc -w) files with events at W=1)"
exit $bad
