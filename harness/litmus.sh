#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# litmus.sh - run our litmus tests (tools/memory-model/litmus-tests/tracing/)
# with herd7 against the kernel memory model of the laid-over tree
# (build/src/tools/memory-model), and fail on any unexpected result.
#
# Each test states its expected result in its header ("Result: Never" or
# "Result: Sometimes", the observation herd7 prints for its "exists"
# clause).  A mutation ("Mutation of: X.litmus") is X with its key
# barrier, acquire/release or RCU call weakened: it must give the bad
# outcome (Sometimes), and every test expecting Never must have one, so
# that no test passes vacuously.  A test expecting Never must also show
# no data race (the memory model leaves a racy program's outcome
# undefined).  The code a test models is quoted in its header ("Code:
# FILE: TEXT", found in build/src; "Base: FILE: TEXT", in the base tree),
# so a test that no longer matches the code fails here.
#
# herd7: the user's, from PATH, if there is one; else the one built in
# $CACHE/herdtools7-7.58 from Debian's herdtools7 7.58 source package
# (the kernel memory model of 7.2 asks for its "lkmmv2" variant, which
# 7.57 lacks), fetched through the base's own apt sources (kbase_apt, as
# for sparse), or from HERDTOOLS7_TARBALL; built with Debian's OCaml
# packages (LITMUS_PKGS in lib.sh, installed only for that build).
. "$(dirname "$0")/lib.sh"

HERD_VERSION=7.58

# herd7_build PREFIX - build herd7 from the herdtools7 sources into PREFIX
herd7_build() {
	local prefix=$1 tarball=${HERDTOOLS7_TARBALL:-} tmp src

	tmp=$(mktemp -d "$CACHE/.herdtools7-XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	if [ -z "$tarball" ]; then
		[ -n "$KBASE_SUITES" ] || die "no apt suites to fetch herdtools7 from (set HERDTOOLS7_TARBALL)"
		kbase_apt "$CACHE/apt-src-kbase-$KBASE" deb-src "$(dpkg --print-architecture)"
		say "fetching herdtools7 $HERD_VERSION from $(debian_mirror) $KBASE_SUITES (once)"
		"${KBASE_APT[@]}" update >&2 || die "apt-get update of $KBASE_SUITES (sources) failed"
		# the .orig tarball is all the build needs; a missing .dsc is not fatal
		(cd "$tmp" && "${KBASE_APT[@]}" source --download-only herdtools7 >&2) || true
		tarball=$(ls "$tmp"/herdtools7_"$HERD_VERSION".orig.tar.* 2>/dev/null | head -n1)
		[ -n "$tarball" ] || die "cannot fetch the source of herdtools7 $HERD_VERSION"
	fi
	say "building herd7 from ${tarball##*/} into $prefix (once)"
	mkdir "$tmp/src"
	tar -xf "$tarball" -C "$tmp/src"
	src=$(dirname "$(ls "$tmp"/src/*/herd/herd.ml 2>/dev/null | head -n1)")
	src=${src%/herd}
	[ -f "$src/herd/herd.ml" ] || die "${tarball##*/} holds no herdtools7 sources"
	(
		cd "$src"
		# Bookworm's zarith (1.12) lacks Z.of_int64_unsigned and
		# Z.to_int64_unsigned, which only the SVE model uses.
		python3 - lib/SVEScalar.ml <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
compat = """let z_two64 = Z.shift_left Z.one 64
let z_of_int64_unsigned x =
  if Int64.compare x 0L >= 0 then Z.of_int64 x else Z.add (Z.of_int64 x) z_two64
let z_to_int64_unsigned x =
  if Z.sign x < 0 || Z.numbits x > 64 then raise Z.Overflow
  else if Z.numbits x < 64 then Z.to_int64 x
  else Z.to_int64 (Z.sub x z_two64)

"""
s = s.replace("Z.of_int64_unsigned", "z_of_int64_unsigned")
s = s.replace("Z.to_int64_unsigned", "z_to_int64_unsigned")
s = s.replace("module BV = struct\n", compat + "module BV = struct\n", 1)
open(p, "w").write(s)
PY
		# Version.ml: where herd7 finds its own library of models
		sh ./version-gen.sh "$prefix" > /dev/null
		dune build -j "$JOBS" --profile release herd/herd.exe
	) >&2 || die "herd7 did not build"
	mkdir -p "$tmp/out/bin" "$tmp/out/share/herdtools7"
	cp "$src/_build/default/herd/herd.exe" "$tmp/out/bin/herd7"
	cp -r "$src/herd/libdir" "$tmp/out/share/herdtools7/herd"
	echo "${tarball##*/}" > "$tmp/out/source"
	rm -rf "$prefix" && mv -T "$tmp/out" "$prefix"
	rm -rf "$tmp"
	trap - EXIT
}

herd=$(PATH=$TS_FULL_PATH command -v herd7 || true)
if [ -z "$herd" ]; then
	prefix=$CACHE/herdtools7-$HERD_VERSION
	herd=$prefix/bin/herd7
	mkdir -p "$CACHE"
	exec 8> "$CACHE/.herdtools7.lock"
	flock 8
	if [ ! -x "$herd" ]; then
		TS_WITH_LITMUS=1
		PATH=$(declared_path)
		herd7_build "$prefix"
	fi
	flock -u 8
fi
say "herd7: $herd ($("$herd" -version 2>/dev/null | head -n1))"

"$ROOT/harness/tree.sh"
base=$(base_tree)
lkmm=$SRC/tools/memory-model
[ -f "$lkmm/linux-kernel.cfg" ] || die "no kernel memory model in ${lkmm#$ROOT/}"
# Run from the memory model's folder, as its README does
dir=litmus-tests/tracing
[ -d "$lkmm/$dir" ] || die "${lkmm#$ROOT/}/$dir: not laid over"

# field FILE NAME - the value of the header line " * NAME: value"
field() { sed -n "s/^ \* $2: *//p" "$1" | head -n1; }
# body FILE - the test past its header comment
body() { sed '1,/^ \*)$/d' "$1"; }

log=$B/logs/litmus
mkdir -p "$log"
pass=0 fail=0
cd "$lkmm"
for f in "$dir"/*.litmus; do
	t=$(basename "$f" .litmus)
	want=$(field "$f" Result)
	of=$(field "$f" 'Mutation of')
	why=""
	[ "$(sed -n '1s/^C //p' "$f")" = "$t" ] || why="its first line is not 'C $t'"
	case $want in
	Never | Sometimes) ;;
	*) why="no 'Result: Never' or 'Result: Sometimes' in its header" ;;
	esac
	if [ -n "$of" ]; then
		if [ ! -f "$dir/$of" ]; then
			why="${why:-mutation of $of, which does not exist}"
		elif [ "$want" != Sometimes ]; then
			why="${why:-a mutation must give the bad outcome (Result: Sometimes)}"
		elif cmp -s <(body "$f") <(body "$dir/$of"); then
			why="${why:-the same test as $of}"
		fi
	elif [ "$want" = Never ] &&
		! grep -qxF " * Mutation of: $t.litmus" "$dir"/*.litmus; then
		why="${why:-no mutation shows that its result depends on its barriers}"
	fi
	# The code the test models is still there, as quoted
	while IFS= read -r q; do
		kind=${q%%:*} q=${q#*: } file=${q%%: *} text=${q#*: }
		if [ "$kind" = Code ]; then tree=$SRC; else tree=$base; fi
		grep -qF -- "$text" "$tree/$file" 2>/dev/null ||
			why="${why:-$kind line not in ${file}: $text}"
	done < <(sed -n 's/^ \* \(Code\|Base\): /\1: /p' "$f")

	out=$log/$t.out
	start=$(date +%s%N)
	if ! timeout 600 "$herd" -conf linux-kernel.cfg "$f" > "$out" 2>&1; then
		why="${why:-herd7 failed or ran past 600 s, see ${out#$ROOT/}}"
	fi
	ms=$((($(date +%s%N) - start) / 1000000))
	got=$(awk -v t="$t" '$1 == "Observation" && $2 == t { print $3 }' "$out")
	race=$(grep -q '^Flag data-race' "$out" && echo ", data race" || true)
	case $got in
	Always) seen=Sometimes ;;
	*) seen=$got ;;
	esac
	if [ -z "$why" ] && [ "$seen" != "$want" ]; then
		why="expected $want, herd7 says ${got:-nothing}"
	fi
	if [ -z "$why" ] && [ "$want" = Never ] && [ -n "$race" ]; then
		why="a data race: the outcome is undefined"
	fi
	if [ -z "$why" ]; then
		printf 'PASS  %-36s %-9s%s%s (%d.%02d s)\n' "$t" "$got" \
			"${of:+ mutation of ${of%.litmus}}" "$race" $((ms / 1000)) $((ms % 1000 / 10))
		pass=$((pass + 1))
	else
		printf 'FAIL  %-36s %s\n' "$t" "$why"
		fail=$((fail + 1))
	fi
done
[ $((pass + fail)) -gt 0 ] || die "no litmus test in $dir"
echo "litmus: $pass passed, $fail failed"
[ "$fail" = 0 ]
