#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# stress.sh - make stress: the tests of tests/stress.list, in which every
# CPU works one structure at once and the outcome is checked exactly, on
# vCPUs that each run in a host thread of their own (TS_TCG_THREAD=multi),
# so that two CPUs really run at once.  The VM of make check runs its
# vCPUs in one host thread (see harness/vm.sh), where the other CPU runs
# only when QEMU switches to it.
#
# KCSAN=1 runs them on the KCSAN kernel (config/kcsan.config): a KCSAN
# report through one of our functions fails the run, the base's are NOTE
# lines (check.sh), as in make fuzz KCSAN=1.
#
# It runs on arm64 unless ARCH= names another architecture, for the
# reason make fuzz KCSAN=1 does (harness/fuzz.sh): x86's live patching
# leaves an int3 that a vCPU in a thread of its own may still run.
[ -n "${TS_ARCH:-}" ] || [ -n "${ARCH:-}" ] || export TS_ARCH=arm64
. "$(dirname "$0")/lib.sh"

variant=ours
if [ -n "${KCSAN:-}" ] && [ "$KCSAN" != 0 ]; then
	variant=kcsan
fi
export TS_TCG_THREAD=${TS_TCG_THREAD:-multi}
tests=$(grep -v '^#' "$ROOT/tests/stress.list" | grep . | paste -sd, -)
exec "$ROOT/harness/check.sh" "$variant" "$tests"
