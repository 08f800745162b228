#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# checkpatch.sh - the base's scripts/checkpatch.pl --strict on every patch of
# the series; any error, warning or check fails.
. "$(dirname "$0")/lib.sh"

"$ROOT/harness/patches.sh"
base=$(base_tree)
bad=0
# A component may name checkpatch types its patch is exempt from
# ("Checkpatch-ignore: TYPE,TYPE" after its Files: line): the
# TRACE_EVENT() layer, for what checkpatch's heuristics cannot tell from
# a macro layer that expands to declarations, definitions and text, and
# patches whose new files all sit under paths MAINTAINERS already covers
# (FILE_PATH_CHANGES).
comps=($(series_components))
# Debian's source package has no git history, so checkpatch cannot look
# up the commit a Fixes: tag names; a KSRC tree that is a git clone can.
always=
[ -d "$base/.git" ] || always=UNKNOWN_COMMIT_ID
i=0
# The cover letter (0000) has no diff to check.
for p in $(cat "$B/patches/order"); do
	ignore=$(sed -n '2,/^$/s/^Checkpatch-ignore: //p' "${comps[$i]}")
	ignore=$(echo "$always${ignore:+,$ignore}" | sed 's/^,//')
	i=$((i + 1))
	if out=$(cd "$base" && perl scripts/checkpatch.pl --strict --quiet ${ignore:+--ignore "$ignore"} "$p" 2>&1) &&
			[ -z "$out" ]; then
		echo "clean: $(basename "$p")"
	else
		echo "$out"
		echo "NOT CLEAN: $(basename "$p")"
		bad=1
	fi
done
exit $bad
