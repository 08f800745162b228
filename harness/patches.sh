#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# patches.sh - emit the series as `git format-patch` patches against the
# pristine base, one per component (harness/components/*.txt, in name order),
# into build/patches/, with a cover letter, and prove that they apply with
# `git am` and make the tree make kernel lays out.
#
# A component file holds the commit subject on its first line, a
# `Files:` line with the paths (globs) of our files and of our patches/ it
# consists of, an optional `Without:` line (patches of later components
# that this one lays reversed: lay_component in lib.sh), an optional
# `Checkpatch-ignore:` line, a blank line, and the commit message body.
# Each commit lays its component over the previous one as make kernel
# does (lay_component in lib.sh): its files, then its patches.  A
# header brings each function's declaration with the file that defines
# it (harness/header-sections.py): one declared before, in a header of
# an earlier commit, stops the run.
#
# Each set of harness/series/ becomes a folder of build/patches/ with its
# own cover letter; the version (-v) is harness/series-version;
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
# A Without: patch is a later component's.
for c in $comps; do
	for f in $(component_without "$c"); do
		case $f in patches/*) ;; *) die "${c##*/}: Without: $f is not a patch" ;; esac
		[ -n "${owner[$f]:-}" ] && [[ ${owner[$f]##*/} > ${c##*/} ]] ||
			die "${c##*/}: Without: $f belongs to no later component"
	done
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

# The sets a maintainer takes one at a time: harness/series/K-NAME.txt
# holds the cover letter's subject, a "Components: FIRST-LAST" line (the
# numbers of the components it holds), a blank line and its text.  Every
# component is in exactly one set, and the sets follow each other in the
# order of the components.
declare -A set_of
sets=$(ls "$ROOT"/harness/series/[0-9]*-*.txt | sort -V)
for s in $sets; do
	range=$(sed -n '2s/^Components: //p' "$s")
	[[ $range =~ ^([0-9]+)-([0-9]+)$ ]] || die "${s##*/}: no Components: FIRST-LAST line"
	for c in $comps; do
		k=${c##*/} k=$((10#${k%%-*}))
		if [ "$k" -ge "$((10#${BASH_REMATCH[1]}))" ] && [ "$k" -le "$((10#${BASH_REMATCH[2]}))" ]; then
			[ -z "${set_of[$c]:-}" ] || die "${c##*/} is in ${set_of[$c]##*/} and ${s##*/}"
			set_of[$c]=$s
		fi
	done
done
prev=
for c in $comps; do
	[ -n "${set_of[$c]:-}" ] || die "${c##*/} is in no set of harness/series/"
	if [ "${set_of[$c]}" != "$prev" ]; then
		case " ${seen:-} " in *" ${set_of[$c]} "*) die "${set_of[$c]##*/}: its components are not consecutive" ;; esac
		seen="${seen:-} ${set_of[$c]}" prev=${set_of[$c]}
	fi
done

n=0
declare -A last_of
for c in $comps; do
	lay_component "$c" "$repo" check
	msg=$(mktemp)
	# Signed-off-by: joins the message's own trailers (Fixes:, Cc:...)
	# in one block, as git interpret-trailers reads them
	body=$(sed '1,/^$/d' "$c")
	{
		head -n1 "$c"; echo; printf '%s\n' "$body"
		printf '%s\n' "$body" | tail -n1 | grep -Eq '^[A-Z][a-z]+(-[a-z]+)*: ' || echo
		echo "Signed-off-by: $author"
	} > "$msg"
	git_q "$repo" add -A
	git_q "$repo" commit -q -F "$msg"
	rm -f "$msg"
	last_of[${set_of[$c]}]=$(git -C "$repo" rev-parse HEAD)
	n=$((n + 1))
done

# One folder per set, each with its cover letter: format-patch --base
# names the base's commit and, as prerequisite-patch-id, every patch of
# the sets before.  build/patches/order lists the patches in the order
# they apply, for checkpatch.sh, bisect.sh and series-stat.sh.
nsets=$(echo "$sets" | wc -l)
from=$base_commit i=0
: > "$out/order"
for s in $sets; do
	i=$((i + 1))
	d=$out/$(basename "$s" .txt)
	to=${last_of[$s]}
	git_q "$repo" format-patch -q --cover-letter --base="$base_commit" -v "$version" \
		-o "$d" "$from..$to"
	for p in "$d"/v"$version"-*.patch; do
		mv "$p" "$d/${p##*/v"$version"-}"
	done
	ls "$d"/[0-9]*.patch | grep -v '/0000-' >> "$out/order"
	FIGURES=$ROOT/bench/figures-x86_64.txt LTTNG_FIGURES=$ROOT/bench/lttng/figures-x86_64.txt \
	python3 - "$d/0000-cover-letter.patch" "$s" "$i" "$nsets" "$ROOT/harness/series/common.txt" \
		"$(base_version "$base")" "$repo" "$from" "$to" $sets <<-'EOF'
	import os, re, subprocess, sys, textwrap
	path, spec, k, nsets, common, version, repo, frm, to = sys.argv[1:10]
	figures, lttng = os.environ["FIGURES"], os.environ["LTTNG_FIGURES"]
	sets = sys.argv[10:]
	k, nsets = int(k), int(nsets)
	def title(p):
	    return open(p).readline().strip()
	text = open(spec).read().rstrip("\n").split("\n")
	subject, body = text[0], "\n".join(text[2:]).strip("\n")
	def stat(a, b):
	    code, tests, docs = [0, 0], [0, 0], [0, 0]
	    out = subprocess.run(["git", "-C", repo, "diff", "--numstat", a, b],
	                         capture_output=True, text=True, check=True).stdout
	    for line in out.splitlines():
	        add, dele, f = line.split("\t")
	        kind = docs if f.startswith("Documentation/") else \
	            tests if f.startswith("tools/") or f.endswith("_kunit.c") else code
	        kind[0] += int(add)
	        kind[1] += int(dele)
	    return code, tests, docs
	count = len(subprocess.run(["git", "-C", repo, "rev-list", frm + ".." + to],
	                           capture_output=True, text=True, check=True).stdout.split())
	code, tests, docs = stat(frm, to)
	where = "%s as Debian ships it" % version if k == 1 else \
	    "%s with the set%s before it applied (base-commit and prerequisite-patch-id below)" % (
	        version, "" if k == 2 else "s")
	head = textwrap.wrap("Set %d of %d: %d patch%s, applying to Linux %s.  Lines "
	                     "added and deleted: code +%d -%d, tests +%d -%d, "
	                     "documentation +%d -%d." % (
	            k, nsets, count, "" if count == 1 else "es", where,
	            code[0], code[1], tests[0], tests[1], docs[0], docs[1]), 72)
	head += ["", "The sets, in the order they apply:", ""]
	for j, s in enumerate(sets, 1):
	    head.append("  %s %d. %s" % ("*" if j == k else " ", j, title(s)))
	blurb = "\n".join(head) + "\n\n" + body + "\n\n" + open(common).read().rstrip("\n")
	# Figures come from bench/figures-x86_64.txt (make bench), never typed:
	# {bench:NAME} is ours/base, {bench:NAME-FLOOR} the same above a floor
	# measured in the same run, {bench:ours:NAME} and {bench:base:NAME}
	# guest ns, {bench:ours-us:NAME} microseconds, {bench:date} the run's
	# day.  A line "  label  {bench:...}  {bench:...}" is a table row: the
	# label is padded to 48 columns and each figure right-aligned in 7.
	figs, when = {}, None
	if "{bench:" in blurb and not os.path.exists(figures):
	    sys.exit("%s: no %s, which make bench writes" % (spec, figures))
	for line in open(figures) if "{bench:" in blurb else []:
	    if line.startswith("#"):
	        m = re.match(r"# make bench on \S+, (\S+):", line)
	        when = when or (m and m.group(1))
	        continue
	    name, o, b = line.split()
	    figs[name] = tuple(None if v == "-" else float(v) for v in (o, b))
	def figure(m):
	    what = m.group(2)
	    kind, _, name = what.rpartition(":")
	    def get(n):
	        if n not in figs:
	            sys.exit("%s: %s has no figure %s" % (spec, figures, n))
	        return figs[n]
	    def both(n):
	        if None in get(n):
	            sys.exit("%s: %s has %s of one kernel only" % (spec, figures, n))
	        return figs[n]
	    if what == "date":
	        val = when
	    elif kind in ("ours", "base", "ours-us", "base-us"):
	        v = get(name)[0 if kind.startswith("ours") else 1]
	        if v is None:
	            sys.exit("%s: %s has no %s figure of %s" % (spec, figures, kind, name))
	        val = "%.1f" % (v / 1000) if kind.endswith("-us") else "%.0f" % v
	    elif kind:
	        sys.exit("%s: {bench:%s}: no such figure kind" % (spec, what))
	    elif "-" in name:
	        a, f = name.split("-", 1)
	        val = "%.3f" % ((both(a)[0] - both(f)[0]) / (both(a)[1] - both(f)[1]))
	    else:
	        val = "%.3f" % (both(name)[0] / both(name)[1])
	    return m.group(1) + val
	# The head-to-head with LTTng-UST comes from bench/lttng/figures-x86_64.txt
	# (make bench-lttng): {lttng:STATE:ROW} guest ns in the writing thread,
	# {lttng:written|kept|lost:TRACER:ROW} of a burst, {lttng:rw-sp} the
	# largest gap between the remote-write and status-page rows,
	# {lttng:date} and {lttng:version}, LTTng's.
	cost, loss, lwhen, lver = {}, {}, None, None
	if "{lttng:" in blurb:
	    if not os.path.exists(lttng):
	        sys.exit("%s: no %s, which make bench-lttng writes" % (spec, lttng))
	    for line in open(lttng):
	        p = line.split()
	        if line.startswith("#"):
	            m = re.match(r"# make bench-lttng on \S+, (\S+):", line)
	            lwhen = lwhen or (m and m.group(1))
	            m = re.search(r"LTTng (\d+\.\d+)", line)
	            lver = lver or (m and m.group(1))
	        elif p[0] == "cost":
	            cost[(p[1], p[2])] = int(p[3])
	        elif p[0] == "loss":
	            loss[(p[1], p[2])] = dict(zip(("written", "kept", "lost"), p[3:6]))
	def lfigure(m):
	    what = m.group(2).split(":")
	    if what == ["date"]:
	        return m.group(1) + lwhen
	    if what == ["version"]:
	        return m.group(1) + lver
	    if what == ["rw-sp"]:
	        pairs = [(v, (st, r.replace("ue_rw", "ue_sp")))
	                 for (st, r), v in cost.items() if r.startswith("ue_rw")]
	        gaps = [abs(v - cost[sp]) for v, sp in pairs if sp in cost]
	        if not gaps:
	            sys.exit("%s: %s has no remote-write rows" % (spec, lttng))
	        return m.group(1) + str(max(gaps))
	    if len(what) == 3 and what[0] in ("written", "kept", "lost"):
	        if (what[1], what[2]) not in loss:
	            sys.exit("%s: %s has no burst %s %s" % (spec, lttng, what[1], what[2]))
	        return m.group(1) + "{:,}".format(int(loss[(what[1], what[2])][what[0]]))
	    if len(what) == 2 and tuple(what) in cost:
	        return m.group(1) + str(cost[tuple(what)])
	    sys.exit("%s: {lttng:%s}: no such figure in %s" % (spec, m.group(2), lttng))
	def figures_of(text):
	    text = re.sub(r"()\{bench:([^}]+)\}", figure, text)
	    return re.sub(r"()\{lttng:([^}]+)\}", lfigure, text)
	# A paragraph of prose with figures in it is filled again to 72
	# columns once they are in; tables and indented lines keep their
	# lines.
	paras = []
	for para in blurb.split("\n\n"):
	    if re.search(r"\{(?:bench|lttng):", para) and \
	            not re.search(r"^\s", para, re.M):
	        text = re.sub(r"(\d) (?=[KM]iB|ns\b|us\b)", "\\1\xa0",
	                      figures_of(para).replace("\n", " "))
	        paras.append(textwrap.fill(text, 72, break_on_hyphens=False,
	                                   break_long_words=False).replace("\xa0", " "))
	        continue
	    lines = []
	    for line in para.split("\n"):
	        row = re.match(r"  (\S.*?)\s{2,}((?:\{(?:bench|lttng):[^}]+\}\s*)+)$", line)
	        if row:
	            vals = figures_of(row.group(2)).split()
	            line = "  " + row.group(1).ljust(48) + "".join(v.rjust(7) for v in vals)
	        lines.append(figures_of(line))
	    paras.append("\n".join(lines))
	blurb = "\n\n".join(paras)
	letter = open(path).read()
	assert "*** SUBJECT HERE ***" in letter and "*** BLURB HERE ***" in letter
	letter = letter.replace("*** SUBJECT HERE ***", subject, 1)
	letter = letter.replace("*** BLURB HERE ***", blurb, 1)
	open(path, "w").write(letter)
	EOF
	from=$to
done
say "$n patches in $nsets sets, each with a cover letter (v$version), in build/patches/"

# They must apply to the pristine base with git am (the documentation
# shows output as the kernel prints it, a space before a tab included) ...
for s in $sets; do
	d=$out/$(basename "$s" .txt)
	git_q "$pre" am -q --whitespace=nowarn $(ls "$d"/[0-9]*.patch | grep -v '/0000-') ||
		die "set ${d##*/} does not apply with git am on the sets before it"
done
say "the sets apply in order to the pristine base with git am"
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
