#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# htmldocs.sh - the kernel's own Sphinx build (make SPHINXDIRS=trace
# htmldocs) over Documentation/trace of the laid-over tree; fail on any
# warning or error that names one of our files.  HTML in
# build/obj-docs/Documentation/output/trace, the log in
# build/logs/htmldocs.log.
. "$(dirname "$0")/lib.sh"

"$ROOT/harness/tree.sh"
obj=$BROOT/obj-docs
log=$BROOT/logs/htmldocs.log
mkdir -p "$obj" "$BROOT/logs"
say "Sphinx $(sphinx-build --version 2>&1 | awk '{print $NF}') over Documentation/trace" \
	"(log in ${log#$ROOT/})"
# Sphinx rereads only what changed since its last run; a warning of a
# file it does not reread would then go unsaid, so every run starts clean.
rm -rf "$obj/Documentation/output"
if ! make -C "$SRC" O="$obj" SPHINXDIRS=trace htmldocs > "$log" 2>&1; then
	tail -n 20 "$log" >&2
	die "make htmldocs failed, see ${log#$ROOT/}"
fi

# Our files, as Sphinx names them: paths under build/src.
ours=$(cd "$ROOT" && for d in $OVERLAY_DIRS; do
	if [ -d "$d" ]; then find "$d" -type f; fi
done | sed "s|^|$SRC/|")
# A message starts with FILE:LINE: (or FILE: for a whole document) and
# its level: Sphinx's in capitals, kernel-doc's (a C file of ours read
# by a kernel-doc directive) in lower case.
bad=$(awk -v list="$ours" '
	BEGIN { n = split(list, f, "\n"); for (i = 1; i <= n; i++) own[f[i]] = 1 }
	/(WARNING|ERROR|CRITICAL|SEVERE|warning|error):/ {
		file = $0; sub(/:.*/, "", file)
		if (file in own) print
	}' "$log")
if [ -n "$bad" ]; then
	printf '%s\n' "$bad" | sed "s|$SRC/||"
	die "Sphinx warns about our files (full log in ${log#$ROOT/})"
fi
base=$(grep -cE 'WARNING|ERROR' "$log" || true)
say "htmldocs: no warning from our files ($base from the base's)," \
	"HTML in ${obj#$ROOT/}/Documentation/output/trace"
