#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# patches.sh - emit the series as `git format-patch` patches against the
# pristine base, one per component (harness/components/*.txt, in name order),
# into build/patches/, with a cover letter, and prove that they apply with
# `git am` and make the tree make kernel lays out.
#
# A component file holds the commit subject on its first line, a
# `Files:` line with the paths (globs) of our files and of our patches/ it
# consists of, an optional `Checkpatch-ignore:` line, a blank line, and the
# commit message body.  Each commit lays its component over the previous
# one as make kernel does (lay_component in lib.sh): its files, then its
# patches.
#
# The cover letter (0000-cover-letter.patch) takes its subject and text
# from harness/cover-letter.txt; the version (-v) is harness/series-version;
# --base names the commit of the base's files the series applies to.
. "$(dirname "$0")/lib.sh"

base=$(base_tree)
# From: and Signed-off-by: are whoever runs this, as git knows them; the
# placeholder only when git has no identity, which the DCO does not accept.
name=$(git -C "$ROOT" config user.name || true)
email=$(git -C "$ROOT" config user.email || true)
if [ -n "$name" ] && [ -n "$email" ]; then
	author="$name <$email>"
else
	name="Tracing Series Developers" email="tracing-series@example.org"
	author="$name <$email>"
	printf '\033[1;31mwarning: git has no user.name or user.email: the patches are signed off by the placeholder "%s", which no maintainer can take; set them (git config user.name, git config user.email) and run make patches again\033[0m\n' "$author" >&2
fi
version=$(cat "$ROOT/harness/series-version")
repo=$B/series
out=$B/patches
rm -rf "$repo" "$out" && mkdir -p "$repo" "$out"
cd "$ROOT"

# Each file of ours and each patch belongs to exactly one component, and
# every file of ours is claimed.
declare -A owner
comps=$(series_components)
for c in $comps; do
	found=0
	for f in $(component_members "$c"); do
		case $f in
		patches/*) ;;
		*) [ -n "$(for d in $OVERLAY_DIRS; do case $f in "$d"/*) echo y ;; esac; done)" ] ||
			die "$c: $f is not at a kernel path" ;;
		esac
		[ -z "${owner[$f]:-}" ] || die "$f is in ${owner[$f]##*/} and ${c##*/}"
		owner[$f]=$c found=1
	done
	[ $found = 1 ] || die "$c: its Files: match nothing"
done
dirs=$(for d in $OVERLAY_DIRS; do if [ -d "$d" ]; then echo "$d"; fi; done)
for f in $(find $dirs patches -type f ! -name '.*' 2>/dev/null | sort); do
	case $f in
	# another base's: that of the patch it replaces (base_patches in lib.sh)
	patches/kbase-*/*) [ -n "${owner[$f]:-}" ] || [ -n "${owner[patches/${f##*/}]:-}" ] ||
		die "$f belongs to no component in harness/components/" ;;
	*) [ -n "${owner[$f]:-}" ] || die "$f belongs to no component in harness/components/" ;;
	esac
done

# Pre-images: the base's version of every file the series touches.
touched=$( (printf '%s\n' "${!owner[@]}" | grep -v '^patches/'
	patch_targets $(series_patches)) | sort -u)
git_q() { git -C "$1" -c user.name="$name" -c user.email="$email" "${@:2}"; }
git -C "$repo" init -q
for f in $touched; do
	if [ -f "$base/$f" ]; then install -D -m 644 "$base/$f" "$repo/$f"; fi
done
git_q "$repo" add -A
git_q "$repo" commit -q --allow-empty -m "base: $(base_version "$base")"
base_commit=$(git -C "$repo" rev-parse HEAD)
pre=$(mktemp -d)
cp -a "$repo/." "$pre/"

n=0
for c in $comps; do
	lay_component "$c" "$repo"
	msg=$(mktemp)
	{ head -n1 "$c"; echo; sed '1,/^$/d' "$c"; echo; echo "Signed-off-by: $author"; } > "$msg"
	git_q "$repo" add -A
	git_q "$repo" commit -q -F "$msg"
	rm -f "$msg"
	n=$((n + 1))
done
git_q "$repo" format-patch -q --cover-letter --base="$base_commit" -v "$version" \
	-o "$out" "$base_commit..HEAD"
# The files are named NNNN-subject.patch, the version is in their subjects.
for p in "$out"/v"$version"-*.patch; do
	mv "$p" "$out/${p##*/v"$version"-}"
done
# The cover letter's subject and text.
cover=$out/0000-cover-letter.patch
python3 - "$cover" "$ROOT/harness/cover-letter.txt" <<-'EOF'
	import sys
	path, text = sys.argv[1], open(sys.argv[2]).read().rstrip("\n").split("\n")
	subject, body = text[0], "\n".join(text[1:]).strip("\n")
	letter = open(path).read()
	assert "*** SUBJECT HERE ***" in letter and "*** BLURB HERE ***" in letter
	letter = letter.replace("*** SUBJECT HERE ***", subject, 1)
	letter = letter.replace("*** BLURB HERE ***", body, 1)
	open(path, "w").write(letter)
EOF
say "$n patches and a cover letter (v$version) in build/patches/"

# They must apply to the pristine base with git am (the documentation
# shows output as the kernel prints it, a space before a tab included) ...
git_q "$pre" am -q --whitespace=nowarn $(ls "$out"/[0-9]*.patch | grep -v '/0000-') ||
	die "the series does not apply with git am"
say "the series applies to the pristine base with git am"
# ... and make the tree make kernel lays out, byte for byte.
stage=$(mktemp -d)
stage_series "$stage"
for f in $touched $(patch_targets $(series_patches)); do
	if [ -f "$stage/$f" ]; then
		cmp -s "$stage/$f" "$pre/$f" || die "$f: the series and make kernel differ"
	elif [ -e "$pre/$f" ]; then
		die "$f: the series keeps a file make kernel deletes"
	fi
done
rm -rf "$pre" "$stage"
say "the series makes the tree of make kernel"
