#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# coverage.sh - make coverage: the share of lines and branches of our
# kernel files that the tests and the fuzzer reach.
#
# Builds the coverage kernel (config/coverage.config: gcov counters in
# our kernel files alone, see variant_make_args in lib.sh) and runs
# every test of make check on it (check.sh), then a fuzz run (make
# fuzz's defaults; SEED, T, N, J, E as for make fuzz; FUZZ=0 leaves it
# out), each VM sending its counters out on the result channel
# (ts.gcov=1, harness/vm/init), and adds them up with gcov
# (harness/coverage.py).  The table is printed and
# kept in build/coverage/coverage.txt, the count of every line in
# build/coverage/lines/.  Exits non-zero when a test or the fuzz run
# failed or a VM sent no counters; the table is printed all the same.
. "$(dirname "$0")/lib.sh"

out=$B/coverage
t0=$(date +%s)
rm -rf "$out" && mkdir -p "$out"

# Our kernel files: the C files the kernel profiles and our headers
# under kernel/ (the KUnit suites are the tests, not what they test).
{
	owned_kernel_sources
	owned_files | grep '^kernel/.*\.h$'
} | sort -u > "$out/owned.txt"

# gcov_from LOG DIR - the counters a VM sent on its result channel LOG,
# unpacked into DIR; fails when there are none.
gcov_from() {
	rm -rf "$2" && mkdir -p "$2"
	tr -d '\r' < "$1" | sed -n '/^TS-GCOV-BEGIN/,/^TS-GCOV-END/{/^TS-GCOV-/d;p}' > "$2.b64"
	[ -s "$2.b64" ] && base64 -d < "$2.b64" | tar -xzf - -C "$2" &&
		[ -n "$(find "$2" -name '*.gcda' | head -n1)" ]
}

bad=0 runs=""
# counted NAME LOG CMD... - run CMD (its output also in NAME.txt) and
# take the gcov counters its VM sent on LOG as one run
counted() {
	local name=$1 log=$2 rc
	shift 2
	set +e
	"$@" | tee "$out/$name.txt"
	rc=${PIPESTATUS[0]}
	set -e
	[ "$rc" = 0 ] || bad=1
	if gcov_from "$log" "$out/run-$name"; then
		runs="$runs $out/run-$name"
	else
		echo "FAIL the $name VM sent no gcov counters" >&2
		bad=1
	fi
}

say "make check on the coverage kernel"
TS_CMDLINE="ts.gcov=1" counted check "$B/logs/check-coverage.out" "$ROOT/harness/check.sh" coverage
t1=$(date +%s)

if [ "${FUZZ:-1}" != 0 ]; then
	say "a fuzz run on the coverage kernel"
	TS_FUZZ_VARIANT=coverage TS_CMDLINE="ts.gcov=1" \
		counted fuzz "$B/logs/fuzz.out" "$ROOT/harness/fuzz.sh"
fi
t2=$(date +%s)

[ -n "$runs" ] || die "no gcov counters from any run"
secs=$((t2 - t0))
say "the build and make check took $(((t1 - t0) / 60)) min $(((t1 - t0) % 60)) s, the fuzz run $(((t2 - t1) / 60)) min $(((t2 - t1) % 60)) s; in all $((secs / 60)) min $((secs % 60)) s"
say "lines and branches of our kernel files (build/coverage/coverage.txt)"
# shellcheck disable=SC2086
python3 "$ROOT/harness/coverage.py" "$(variant_obj coverage)" "$(variant_src coverage)" \
	"$out" "$out/owned.txt" $runs
exit $bad
