#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# base-reference.sh - what the base kernel shows, kept in build/reference/
# for the tests that hold ours to it:
#  - event_layer.txt: its TRACE_EVENT() events (tests/compare/event_layer.sh
#    run on it), for tests/shell/event_layer_matches_base.sh;
#  - ftrace-base.txt: the verdict of every upstream ftrace selftest, from
#    tests/reference/ftrace-base-ARCH.txt when its key is this tree's
#    (`PATH VERDICT SECONDS`), for the ftracetest part of make check (see
#    harness/vm/run-tests.sh) and make ftrace-table.
# Each is made again when the base kernel or what produces it changes.
. "$(dirname "$0")/lib.sh"

"$ROOT/harness/build-kernel.sh" base
mkdir -p "$B/reference"

script=$ROOT/tests/compare/event_layer.sh
ref=$B/reference/event_layer.txt
stamp=$(cat "$(bzimage base)" "$script" | sha1sum | cut -c1-16)
if [ ! -f "$ref" ] || [ "$(cat "$ref.stamp" 2>/dev/null)" != "$stamp" ]; then
	"$ROOT/harness/initramfs.sh" "$script"
	say "recording the base kernel's events (tests/compare/event_layer.sh)"
	TS_QUIET=1 TS_INITRD=$B/initramfs-job.cpio "$ROOT/harness/vm.sh" base compare reference-base quiet
	grep -q TS-DONE "$B/logs/reference-base.out" || die "the base reference run did not finish"
	sed -n '/^TS-COMPARE-BEGIN/,/^TS-COMPARE-END/p' "$B/logs/reference-base.out" |
		sed '1d;$d' | tr -d '\r' > "$ref"
	echo "$stamp" > "$ref.stamp"
fi

# The base's ftracetest verdicts take 16 minutes of guest time, so they
# are recorded in the tree (tests/reference/ftrace-base-ARCH.txt), under a
# key made of what decides them: the base's version (and KSRC), the
# base's configuration fragments, the runner in the VM (init and
# ftracetest.sh) and the tests not run.  When the key of the recorded file
# is not that of this tree, or with TS_FTRACE_REFERENCE_AGAIN=1 (make
# ftrace-reference), they are run again on the base kernel and the file is
# written anew, to be committed with the change that moved the key.
rec=$ROOT/tests/reference/ftrace-base-$TS_ARCH.txt
ref=$B/reference/ftrace-base.txt
key=$( (echo "$(base_version "$(base_tree)") ${KSRC:-}"
	cat $(variant_fragments base) "$ROOT/harness/vm/init" "$ROOT/harness/vm/ftracetest.sh"
	grep '^[^#][^:]*: *not run:' "$ROOT/tests/ftrace.list" || true) | sha1sum | cut -c1-16)
if [ "${TS_FTRACE_REFERENCE_AGAIN:-0}" != 1 ] && [ -f "$rec" ] &&
	[ "$(sed -n 's/^# key //p' "$rec")" = "$key" ]; then
	grep -v '^#' "$rec" > "$ref"
	exit 0
fi
job=$B/ftrace-reference.job
echo 'TS_TEST=ftrace-only TS_FTRACE_REFERENCE=1 sh /tests/run-tests.sh' > "$job"
"$ROOT/harness/initramfs.sh" "$job"
say "running every upstream ftrace selftest on the base kernel (${rec#$ROOT/} is not for this tree)"
start=$(date +%s)
TS_QUIET=1 TS_INITRD=$B/initramfs-job.cpio "$ROOT/harness/vm.sh" base compare ftrace-base \
	quiet kunit.enable=0
oops=$(tr -d '\r' < "$B/logs/ftrace-base.out" | sed -n 's/^TSFTRACE-OOPS //p')
[ -z "$oops" ] || die "the base kernel died in ftrace/$oops (build/logs/ftrace-base.console): if it is the base's own bug, tests/ftrace.list names the test 'not run:' with the reason"
grep -q TS-DONE "$B/logs/ftrace-base.out" || die "the base's ftracetest run did not finish: see build/logs/ftrace-base.console"
tr -d '\r' < "$B/logs/ftrace-base.out" | sed -n 's/^TSFTRACE //p' > "$ref"
[ -s "$ref" ] || die "the base's ftracetest run recorded nothing"
{
	echo "# The base kernel's verdict on every upstream ftrace selftest"
	echo "# (PATH VERDICT SECONDS), written by harness/base-reference.sh on"
	echo "# $(date -u +%Y-%m-%d) for base $(base_version "$(base_tree)"), $TS_ARCH; see there for the key."
	echo "# key $key"
	cat "$ref"
} > "$rec"
say "$(wc -l < "$ref") ftrace selftests on the base in $(($(date +%s) - start)) s: $(awk '{ n[$2]++ } END { for (v in n) printf "%s %d  ", v, n[v] }' "$ref")"
say "recorded in ${rec#$ROOT/}: commit it"
