#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Lay our files and patches over a copy of the base tree in build/src.
#
# The tree is the series' own: the components of harness/components/ are
# laid in series order, each its files then its patches (lay_component in
# lib.sh, which make patches uses too), so build/src is what the last patch
# of the series makes.
#
# The copy is made once.  On every later run the files we own and the files
# our patches touch are rebuilt in a staging folder from the pristine base,
# and only those whose content changed are copied into build/src, so kbuild
# recompiles only what an edit really affected.  Files we stop owning get
# the base's version back.
. "$(dirname "$0")/lib.sh"

base=$(base_tree)
src=$SRC
manifest=$src/.ts-manifest

# One sync at a time per checkout (make targets may start one each, and
# every architecture shares build/src), and a staging folder of this
# run's own: two syncs sharing one could each copy a base file over the
# other's copy of ours.
mkdir -p "$BROOT"
exec 9> "$BROOT/.tree.lock"
flock 9
stage=$(mktemp -d "$BROOT/stage.XXXXXX")
trap 'rm -rf "$stage"' EXIT

if [ ! -f "$src/.ts-copied" ]; then
	say "copying the base tree into build/src (once)"
	rm -rf "$src" && mkdir -p "$B"
	cp -a "$base" "$src"
	rm -f "$src/.unpacked"
	touch "$src/.ts-copied"
fi

cd "$ROOT"
dirs=$(for d in $OVERLAY_DIRS; do if [ -d "$d" ]; then echo "$d"; fi; done)
# Hidden files are left out (an editor's, a tool's), all but kunit.py's
# .kunitconfig.
found=$(if [ -n "$dirs" ]; then
	find $dirs -type f ! -name '*.o' \( ! -name '.*' -o -name .kunitconfig \) | sort
fi)
patches=$(ls patches/*.patch 2>/dev/null | sort || true)
# What this base's patches touch (another base's patches/kbase-KBASE/
# stand in for some: base_patches in lib.sh).
patched=$(if [ -n "$patches" ]; then patch_targets $(series_patches | sed "s|^$ROOT/||"); fi)
previous=$(cat "$manifest" 2>/dev/null || true)

# Every file of ours and every patch is laid by some component.
claimed=$(series_components | while read -r c; do component_members "$c"; done | sort -u)
unclaimed=$(comm -23 <(printf '%s\n' $found $patches | sort -u) <(echo "$claimed"))
unclaimed="$unclaimed $(kbase_patches_unclaimed)"
[ -z "${unclaimed// /}" ] || die "in no component of harness/components/: $(echo $unclaimed)"
ours=$(echo "$claimed" | grep -v '^patches/' || true)
# With UPTO=NNN only the first components are laid: the files of the
# later ones are the base's, or absent.
laid=$ours
if [ -n "${UPTO:-}" ]; then
	laid=$(laid_components | while read -r c; do component_members "$c"; done | grep -v '^patches/' | sort -u || true)
	say "laying the components up to $UPTO: $(laid_components | tail -n1 | xargs basename)"
fi
stage_series "$stage"

changed=0
for f in $(printf '%s\n' $ours $patched | sort -u); do
	if [ -f "$stage/$f" ]; then
		if ! cmp -s "$stage/$f" "$src/$f"; then
			mkdir -p "$src/$(dirname "$f")" && cp --remove-destination "$stage/$f" "$src/$f"
			changed=$((changed + 1))
		fi
	elif [ -f "$src/$f" ]; then
		rm -f "$src/$f"
		changed=$((changed + 1))
	fi
done
# Files that were ours or patched before and are no longer: back to base.
# (A set difference: "printf | grep -q" under pipefail fails whenever
# grep's early exit kills printf with SIGPIPE, and so once took files
# that are still ours for files that are gone.)
current=$(printf '%s\n' $ours $patched | sort -u)
for f in $(comm -23 <(printf '%s\n' $previous | sort -u) <(echo "$current")); do
	if [ -f "$base/$f" ]; then
		cmp -s "$base/$f" "$src/$f" || { cp --remove-destination "$base/$f" "$src/$f"; changed=$((changed + 1)); }
	else
		rm -f "$src/$f"; changed=$((changed + 1))
	fi
done
echo "$current" > "$manifest"
say "build/src: $(echo $laid | wc -w) files of ours, $(series_patches | wc -l) patches, $changed updated"
# What kbuild is about to read must be what we own (less what another
# base's patches change in our files: patches/kbase-KBASE/).  With UPTO,
# a header of ours holds only the sections laid so far: it must be what
# the staging laid.
for f in $(comm -23 <(printf '%s\n' $laid | sort -u) <(printf '%s\n' $patched | sort -u)); do
	want=$f
	if [ -n "${UPTO:-}" ]; then want=$stage/$f; fi
	cmp -s "$want" "$src/$f" || die "build/src/$f is not ours after the sync"
done
