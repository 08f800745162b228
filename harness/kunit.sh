#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# kunit.sh - make kunit: the kernel's own KUnit runner on our suites.
# tools/testing/kunit/kunit.py builds a kernel of the options
# kernel/trace/.kunitconfig turns on (every KUnit suite of kernel/trace)
# in the laid-over tree, boots it under QEMU and reads the suites' KTAP,
# as a kernel developer runs them: "kunit.py run --kunitconfig=kernel/trace
# --arch=x86_64", with two CPUs as the .kunitconfig asks.  Objects in
# build/kunit, kunit.py's output in build/logs/kunit.log; fails when a
# suite fails or does not run.
. "$(dirname "$0")/lib.sh"

[ "$TS_ARCH" = x86_64 ] || die "make kunit runs x86_64 only (ARCH=$TS_ARCH)"
"$ROOT/harness/tree.sh"
mkdir -p "$B/logs"
log=$B/logs/kunit.log
say "kunit.py: the suites of kernel/trace/.kunitconfig on two CPUs (objects in build/kunit)"
set +e
(cd "$SRC" && python3 tools/testing/kunit/kunit.py run --kunitconfig=kernel/trace \
	--arch=x86_64 --qemu_args="-smp 2" --build_dir="$B/kunit" --jobs="$JOBS") 2>&1 |
	tee "$log"
rc=${PIPESTATUS[0]}
set -e
[ "$rc" = 0 ] || die "kunit.py failed (exit status $rc), see ${log#$ROOT/}"
