#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# base-reference.sh - what the base kernel shows, for the tests that hold
# ours to it, put in build/reference/ (and from there in the VM's
# /tests/reference/):
#  - event_layer.txt: its TRACE_EVENT() events (tests/compare/event_layer.sh
#    run on it), for tests/shell/event_layer_matches_base.sh;
#  - ftrace-base.txt: its verdict on every upstream ftrace selftest
#    (`PATH VERDICT SECONDS`), for the ftracetest part of make check (see
#    harness/vm/ftracetest.sh) and make ftrace-table.
#
# Making them takes a build of the base kernel (18 minutes on two cores)
# and 20 minutes of its VM, so both are recorded in the tree,
# tests/reference/{event_layer,ftrace-base}-ARCH.* (kbase-KBASE/ below it
# for a base other than the default), each under a key made
# of what decides it: the base's version (and KSRC), its configuration
# fragments, the VM's init, and the script run there (event_layer.sh;
# ftracetest.sh with the tests not run).  A recorded file whose key is
# this tree's is used as it is, without building the base kernel.  When
# a key moves, or with TS_REFERENCE_AGAIN=1 (make reference), the base
# kernel is built, the reference is made again and the file is written
# anew, to be committed with the change that moved the key.
. "$(dirname "$0")/lib.sh"

# The default base's records are in tests/reference/, another base's in
# tests/reference/kbase-KBASE/.
refdir=$ROOT/tests/reference
[ "$KBASE" = "$KBASE_DEFAULT" ] || refdir=$refdir/kbase-$KBASE
mkdir -p "$B/reference" "$refdir"
again=${TS_REFERENCE_AGAIN:-0}
common=$( (echo "$(base_version "$(base_tree)") ${KSRC:-}"
	cat $(variant_fragments base) "$ROOT/harness/vm/init") | sha1sum | cut -c1-16)

layer_script=$ROOT/tests/compare/event_layer.sh
layer_rec=$refdir/event_layer-$TS_ARCH.txt.xz
layer_key=$( (echo "$common"; cat "$layer_script") | sha1sum | cut -c1-16)
ftrace_rec=$refdir/ftrace-base-$TS_ARCH.txt
ftrace_key=$( (echo "$common"; cat "$ROOT/harness/vm/ftracetest.sh"
	grep '^[^#][^:]*: *not run:' "$ROOT/tests/ftrace.list" || true
	ftrace_kbase_reasons | grep '^[^#][^:]*: *not run:' || true) | sha1sum | cut -c1-16)

# recorded FILE KEY - the key FILE was recorded under is KEY
recorded() {
	local k
	[ "$again" != 1 ] && [ -f "$1" ] || return 1
	case $1 in
	*.xz) k=$(xz -dc "$1" | sed -n '1s/^# key //p') ;;
	*) k=$(sed -n '1s/^# key //p' "$1") ;;
	esac
	[ "$k" = "$2" ]
}

# header KEY WHAT - the first lines of a recorded file
header() {
	echo "# key $1"
	echo "# $2 of the base kernel $(base_version "$(base_tree)") ($TS_ARCH), recorded on"
	echo "# $(date -u +%Y-%m-%d) by harness/base-reference.sh, which says what the key covers."
}

# The VM's programs are built against our kernel's uapi headers: on a
# fresh clone, make reference builds that kernel and them first.
programs() {
	[ -d "$B/progs/kselftest" ] && return
	"$ROOT/harness/build-kernel.sh" ours
	"$ROOT/harness/programs.sh"
}

if recorded "$layer_rec" "$layer_key"; then
	xz -dc "$layer_rec" | tail -n +4 > "$B/reference/event_layer.txt"
else
	"$ROOT/harness/build-kernel.sh" base
	programs
	"$ROOT/harness/initramfs.sh" "$layer_script"
	say "recording the base kernel's events (tests/compare/event_layer.sh)"
	TS_QUIET=1 TS_INITRD=$B/initramfs-job.cpio "$ROOT/harness/vm.sh" base compare reference-base quiet
	grep -q TS-DONE "$B/logs/reference-base.out" || die "the base reference run did not finish"
	sed -n '/^TS-COMPARE-BEGIN/,/^TS-COMPARE-END/p' "$B/logs/reference-base.out" |
		sed '1d;$d' | tr -d '\r' > "$B/reference/event_layer.txt"
	[ -s "$B/reference/event_layer.txt" ] || die "the base reference run printed nothing"
	{ header "$layer_key" "The events (tests/compare/event_layer.sh)"
	  cat "$B/reference/event_layer.txt"; } | xz -9 > "$layer_rec"
	say "recorded in ${layer_rec#$ROOT/}: commit it"
fi

if recorded "$ftrace_rec" "$ftrace_key"; then
	tail -n +4 "$ftrace_rec" > "$B/reference/ftrace-base.txt"
	exit 0
fi
"$ROOT/harness/build-kernel.sh" base
programs
job=$B/ftrace-reference.job
echo 'TS_TEST=ftrace-only TS_FTRACE_REFERENCE=1 TS_FTRACE_BASE=1 sh /tests/run-tests.sh' > "$job"
TS_FTRACE_ORIGINAL=1 "$ROOT/harness/initramfs.sh" "$job"
say "running every upstream ftrace selftest on the base kernel"
start=$(date +%s)
TS_QUIET=1 TS_INITRD=$B/initramfs-job.cpio "$ROOT/harness/vm.sh" base compare ftrace-base \
	quiet kunit.enable=0
oops=$(tr -d '\r' < "$B/logs/ftrace-base.out" | sed -n 's/^TSFTRACE-OOPS //p')
[ -z "$oops" ] || die "the base kernel died in ftrace/$oops (build/logs/ftrace-base.console): if it is the base's own bug, tests/ftrace.list (tests/ftrace-kbase-$KBASE.list for one base) names the test 'not run:' with the reason"
grep -q TS-DONE "$B/logs/ftrace-base.out" || die "the base's ftracetest run did not finish: see build/logs/ftrace-base.console"
ref=$B/reference/ftrace-base.txt
tr -d '\r' < "$B/logs/ftrace-base.out" | sed -n 's/^TSFTRACE //p' > "$ref"
[ -s "$ref" ] || die "the base's ftracetest run recorded nothing"
{ header "$ftrace_key" "The verdict on every upstream ftrace selftest (PATH VERDICT SECONDS)"
  cat "$ref"; } > "$ftrace_rec"
say "$(wc -l < "$ref") ftrace selftests on the base in $(($(date +%s) - start)) s: $(awk '{ n[$2]++ } END { for (v in n) printf "%s %d  ", v, n[v] }' "$ref")"
say "recorded in ${ftrace_rec#$ROOT/}: commit it"
