#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# selftest.sh - prove that make check fails, and says why, on a failing
# test, a test that never finishes and a WARN in kernel code, that the
# build fails when a program it calls is not declared in HARNESS_PKGS, and
# that make unused-events names an event declared and never fired, and
# that a base diagnostic the report lists fails nothing.  The first three
# faults are planted in the work tree and removed again on exit, whatever
# happens, so only one file is recompiled each way.
. "$(dirname "$0")/lib.sh"

cd "$ROOT"
victim=kernel/trace/trace_seq_kunit.c
saved=$(mktemp)
cp "$victim" "$saved"
cleanup() {
	cp "$saved" "$victim" && rm -f "$saved"
	rm -f tests/shell/zz_fails.sh tests/shell/zz_hangs.sh
}
trap cleanup EXIT
printf 'echo "deliberately failing"\nexit 1\n' > tests/shell/zz_fails.sh
printf 'sleep 1000\n' > tests/shell/zz_hangs.sh
sed -i 's/^\tKUNIT_EXPECT_STREQ(test, trace_seq_kunit_text(s), "id:01ab");/&\n\tWARN_ON(1);/' "$victim"
grep -q 'WARN_ON(1)' "$victim" || die "could not plant the WARN"

set +e
out=$(TS_CMDLINE="ts.timeout=5" make -s check 2>&1)
rc=$?
set -e
echo "$out" | tail -n 8
bad=0
expect() { grep -q "$1" <<< "$out" || { echo "selftest: missing: $1"; bad=1; }; }
[ $rc != 0 ] || { echo "selftest: make check exited 0"; bad=1; }
expect '^FAIL zz_fails: exit status 1'
expect '^FAIL zz_hangs: timed out after 5s'
expect '^FAIL kernel splat during boot: WARNING: .*trace_seq_kunit.c'

# A program the build uses but HARNESS_PKGS does not declare: the build
# must fail, naming it, even on this machine where it is installed.
set +e
out=$(env -u TS_DECLARED_PATH PATH="$TS_FULL_PATH" TS_UNDECLARE=rsync \
	"$ROOT/harness/build-kernel.sh" ours 2>&1)
rc=$?
set -e
echo "$out" | tail -n 2
[ $rc != 0 ] || { echo "selftest: the build passed without rsync declared"; bad=1; }
expect 'rsync: not found'
# An event declared in one of our files and never fired: make
# unused-events' analysis must name it, and not the one that is fired.
ut=$B/selftest-ut
rm -rf "$ut" && cp -r "$ROOT/harness/selftest-ut" "$ut"
make -s -C "$(variant_obj ours)" M="$ut" modules > /dev/null 2>&1 ||
	die "the selftest module did not build"
echo "$ut/ut_sample.h" > "$ut/ours"
set +e
out=$(python3 "$ROOT/harness/unused-events.py" "$ut/ours" "$ut/ut_sample.ko")
rc=$?
set -e
echo "$out" | tail -n 1
[ $rc != 0 ] || { echo "selftest: unused-events passed an event never fired"; bad=1; }
expect 'ours: 2 declared, 2 defined here, 1 unused: ut_never$'
# The report: a base diagnostic listed in BASE_NOISE is a NOTE; the same
# words at a function that is not the one listed are a failure.
con=$(mktemp) res=$(mktemp)
printf 'TSBEGIN t\n[ 1.0] WARNING: stack going in the wrong direction? at %s+0x46/0x4d\n' \
	return_to_handler user_event_write > "$con"
printf 'TSRESULT t pass\nTS-DONE\n' > "$res"
out=$(python3 "$ROOT/harness/report.py" "$con" "$res" || true)
rm -f "$con" "$res"
expect '^NOTE   1x .*(base code): WARNING: .* at return_to_handler+'
expect '^FAIL kernel splat during t: WARNING: .* at user_event_write+'
expect '^1 passed, 1 failed$'
[ $bad = 0 ] && say "harness selftest: all six faults were caught"
exit $bad
