#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# fuzz-planted.sh - make fuzz-planted: show that make fuzz finds the bugs
# it is there for.  Three bound checks are dropped in turn in the work
# tree: the filter's string compare stops at the field's end, user_events
# checks that a loc word stays inside the record, the map's insert stops
# at its last element.  With each, make fuzz runs (default N, SEED=1 or
# SEED=, stopping at the first report; the debug kernel rebuilds one
# file) and must fail with a report: the fuzzer's own or a kernel splat.
# The file is put back whatever happens.  One line per plant: "caught"
# with the report, or "MISSED".  PLANT=word runs only the plants whose
# name holds the word.
. "$(dirname "$0")/lib.sh"

cd "$ROOT"
plants=(
	"filter string compare|kernel/trace/trace_filter_eval.c|s/^\tn = strnlen(str, len);/\tn = strlen(str);/"
	"user_events loc check|kernel/trace/trace_user_write.c|s/if (off < fixed || off + len > size)/if (off < fixed)/"
	"tracing_map insert|kernel/trace/tracing_map.c|s/if (n > map->n_elts) {/if (false) {/"
)
saved=$(mktemp)
victim=
restore() { [ -z "$victim" ] || cp "$saved" "$victim"; rm -f "$saved"; }
trap restore EXIT

missed=0
for p in "${plants[@]}"; do
	IFS='|' read -r name file expr <<< "$p"
	case $name in *"${PLANT:-}"*) ;; *) continue ;; esac
	victim=$file
	cp "$file" "$saved"
	sed -i "$expr" "$file"
	cmp -s "$file" "$saved" && die "could not plant: $name ($file)"
	say "planted: $name ($file)"
	set +e
	out=$(STOP=1 SEED=${SEED:-1} make -s fuzz 2>&1)
	rc=$?
	set -e
	cp "$saved" "$file"
	victim=
	echo "$out" | grep '^fuzz: [0-9]* inputs,' || true
	if [ $rc != 0 ] && echo "$out" | grep -q 'REPORT\|kernel splat'; then
		echo "caught: $name"
		echo "$out" | grep -m1 'REPORT\|kernel splat' | cut -c1-200
		echo "$out" | grep -m1 '^fuzz: input ' | cut -c1-200 || true
	else
		echo "MISSED: $name"
		missed=$((missed + 1))
	fi
done
[ $missed = 0 ] || die "make fuzz missed $missed planted bug(s)"
say "make fuzz caught every planted bug it was given"
