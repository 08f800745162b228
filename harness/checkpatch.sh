#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.sh - the base's scripts/checkpatch.pl --strict on every patch of
# the series; any error, warning or check fails.
. "$(dirname "$0")/lib.sh"

"$ROOT/harness/patches.sh"
base=$(base_tree)
bad=0
for p in "$B"/patches/*.patch; do
	if out=$(cd "$base" && perl scripts/checkpatch.pl --strict --quiet "$p" 2>&1) && [ -z "$out" ]; then
		echo "clean: $(basename "$p")"
	else
		echo "$out"
		echo "NOT CLEAN: $(basename "$p")"
		bad=1
	fi
done
exit $bad
