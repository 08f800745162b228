#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# patches.sh - emit the series as `git format-patch` patches against the
# pristine base, one per component (harness/components/*.txt, in name order),
# into build/patches/, and prove that they apply with `git am`.
#
# A component file holds the commit subject on its first line, a
# `Files:` line with the paths (globs) of our files and of our patches/ it
# consists of, a blank line, and the commit message body.
. "$(dirname "$0")/lib.sh"

base=$(base_tree)
author="Tracing Series Developers <tracing-series@example.org>"
repo=$B/series
out=$B/patches
rm -rf "$repo" "$out" && mkdir -p "$repo" "$out"
cd "$ROOT"

# The files each component brings, and a check that every file is claimed.
declare -A owner
comps=$(ls harness/components/*.txt | sort)
for c in $comps; do
	for g in $(sed -n 's/^Files: //p' "$c"); do
		found=0
		for f in $g; do
			[ -e "$f" ] || continue
			owner[$f]=$c found=1
		done
		[ $found = 1 ] || die "$c: nothing matches $g"
	done
done
dirs=$(for d in $OVERLAY_DIRS; do if [ -d "$d" ]; then echo "$d"; fi; done)
for f in $(find $dirs patches -type f 2>/dev/null | sort); do
	[ -n "${owner[$f]:-}" ] || die "$f belongs to no component in harness/components/"
done

# Pre-images: the base's version of every file the series touches.
touched=$(for f in "${!owner[@]}"; do
	case $f in
	patches/*) sed -n 's|^+++ b/\([^	 ]*\).*|\1|p' "$f" ;;
	*) echo "$f" ;;
	esac
done | sort -u)
git_q() { git -C "$1" -c user.name="${author% <*}" -c user.email="tracing-series@example.org" "${@:2}"; }
git -C "$repo" init -q
for f in $touched; do
	[ -f "$base/$f" ] && install -D -m 644 "$base/$f" "$repo/$f"
done
git_q "$repo" add -A
git_q "$repo" commit -q --allow-empty -m "base: $(base_version "$base")"
pre=$(mktemp -d)
cp -a "$repo/." "$pre/"

n=0
for c in $comps; do
	for f in $(printf '%s\n' "${!owner[@]}" | sort); do
		[ "${owner[$f]}" = "$c" ] || continue
		case $f in
		patches/*) patch -s -p1 -d "$repo" --no-backup-if-mismatch < "$f" || die "$f does not apply" ;;
		*) install -D -m 644 "$f" "$repo/$f" ;;
		esac
	done
	msg=$(mktemp)
	{ head -n1 "$c"; echo; sed '1,/^$/d' "$c"; echo; echo "Signed-off-by: $author"; } > "$msg"
	git_q "$repo" add -A
	git_q "$repo" commit -q -F "$msg"
	rm -f "$msg"
	n=$((n + 1))
done
git -C "$repo" format-patch -q -o "$out" HEAD~$n
say "$n patches in build/patches/"

# They must apply to the pristine base with git am.
git_q "$pre" am -q "$out"/*.patch || die "the series does not apply with git am"
rm -rf "$pre"
say "the series applies to the pristine base with git am"
