#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# base-reference.sh - what the base kernel shows of its TRACE_EVENT() events
# (tests/compare/event_layer.sh run on it), kept in build/reference/ for the
# test tests/shell/event_layer_matches_base.sh, which holds our event layer
# to it.  Made again when the base kernel or the script changes.
. "$(dirname "$0")/lib.sh"

script=$ROOT/tests/compare/event_layer.sh
ref=$B/reference/event_layer.txt
"$ROOT/harness/build-kernel.sh" base
stamp=$(cat "$(bzimage base)" "$script" | sha1sum | cut -c1-16)
[ -f "$ref" ] && [ "$(cat "$ref.stamp" 2>/dev/null)" = "$stamp" ] && exit 0

"$ROOT/harness/initramfs.sh" "$script"
say "recording the base kernel's events (tests/compare/event_layer.sh)"
TS_QUIET=1 TS_INITRD=$B/initramfs-job.cpio "$ROOT/harness/vm.sh" base compare reference-base quiet
grep -q TS-DONE "$B/logs/reference-base.out" || die "the base reference run did not finish"
mkdir -p "$B/reference"
sed -n '/^TS-COMPARE-BEGIN/,/^TS-COMPARE-END/p' "$B/logs/reference-base.out" |
	sed '1d;$d' | tr -d '\r' > "$ref"
echo "$stamp" > "$ref.stamp"
