#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# fuzz-planted.sh - make fuzz-planted: show that make fuzz finds the bugs
# it is there for.  Each patch of harness/planted/ puts back one bug, in
# turn, in the work tree (never committed, never in the series):
#
#   01-03  three bound checks of the kind upstream got wrong: the filter's
#          string compare stops at the field's end, user_events keeps a
#          loc word inside the record, the map's insert stops at its last
#          element;
#   04     the hist binder follows a cycle of variable references ("a=$a")
#          before refusing it: the hang of one root echo;
#   05     no nesting guard on synthetic event writes: a histogram that
#          fires the event it sits on recurses;
#   06     the status page is not copied at fork: a child of a registered
#          program faults at its first check of a bit;
#   07     an unprivileged fd holder deletes a persistent event;
#   08     DIAG_IOCSUNREG drops the event's pin twice (a lifetime bug);
#   09     DIAG_IOCSDEL looks the event up without event_mutex;
#   10     the map counts a hit with a plain increment, where two CPUs
#          need an atomic one: a data race that only KCSAN reports, so
#          plants named "kcsan" run as make fuzz KCSAN=1 (two vCPUs that
#          really run at once).
#
# With each, make fuzz runs (the default N, SEED=1 or SEED=, stopping at
# the first report; the debug kernel rebuilds the file) and must fail
# with a report: the fuzzer's own or a kernel splat.  The files are put
# back whatever happens.  One line per plant: "caught" with the report
# and the minutes it took, or "MISSED".  PLANT=word runs only the plants
# whose name holds the word.  A clean run of the same seed (make fuzz)
# is the baseline: it ends with 0 reports.
. "$(dirname "$0")/lib.sh"

cd "$ROOT"
saved=$(mktemp -d)
victims=()
restore() {
	local f
	for f in "${victims[@]}"; do cp "$saved/$(basename "$f")" "$f"; done
	victims=()
}
trap 'restore; rm -rf "$saved"' EXIT

missed=0 tried=0
for p in harness/planted/*.patch; do
	name=$(basename "$p" .patch)
	case $name in *"${PLANT:-}"*) ;; *) continue ;; esac
	tried=$((tried + 1))
	mapfile -t files < <(sed -n 's|^+++ b/||p' "$p")
	for f in "${files[@]}"; do cp "$f" "$saved/$(basename "$f")"; done
	victims=("${files[@]}")
	patch -s -p1 --no-backup-if-mismatch < "$p" || die "could not plant $name"
	say "planted: $name (${files[*]})"
	t0=$(date +%s)
	set +e
	kcsan=0
	case $name in *kcsan*) kcsan=1 ;; esac
	# (KCSAN=1 picks its own architecture unless ARCH= was given)
	arch=$TS_ARCH
	[ $kcsan = 1 ] && arch=${ARCH:-}
	out=$(TS_ARCH=$arch STOP=1 KCSAN=$kcsan SEED=${SEED:-1} N=${N:-} T=${T:-} \
		"$ROOT/harness/fuzz.sh" 2>&1)
	rc=$?
	set -e
	secs=$(($(date +%s) - t0))
	restore
	grep '^fuzz: [0-9]* inputs,\|^fuzz: [0-9]* min' <<< "$out" || true
	if [ $rc != 0 ] && grep -q 'REPORT\|kernel splat' <<< "$out"; then
		echo "caught: $name in $((secs / 60)) min $((secs % 60)) s (with the kernel build)"
		grep -m1 'REPORT\|kernel splat' <<< "$out" | cut -c1-200
	else
		echo "MISSED: $name"
		missed=$((missed + 1))
	fi
done
[ $tried != 0 ] || die "no plant matches PLANT=$PLANT"
[ $missed = 0 ] || die "make fuzz missed $missed planted bug(s)"
say "make fuzz caught every planted bug it was given"
