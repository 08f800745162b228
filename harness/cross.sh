#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# cross.sh [ARCH...] - our kernel for 32-bit x86 and arm64 (default: both),
# cross-compiled with Debian's compilers (gcc-i686-linux-gnu,
# gcc-aarch64-linux-gnu) from tinyconfig + config/tracing.config +
# config/arch-ARCH.config + config/ours.config, linked (a 64-bit division
# left to libgcc shows there), then each C file of ours rebuilt with W=1
# and sparse, and each file that defines events (our event layer is
# compiled there) with W=1.  A warning in one of our files fails, as in
# make w1.  Objects in build/ARCH/obj-ours, the ones make check ARCH=arm64
# boots.
. "$(dirname "$0")/lib.sh"

arches=${*:-i386 arm64}
"$ROOT/harness/tree.sh"
ours_files=$(cd "$ROOT" && for d in $OVERLAY_DIRS; do if [ -d "$d" ]; then find "$d" -type f; fi; done | sort)
bad=0
for a in $arches; do
	start=$(date +%s)
	TS_ARCH=$a "$ROOT/harness/build-kernel.sh" ours || { bad=1; continue; }
	obj=$BROOT/$a/obj-ours
	(
		export TS_ARCH=$a
		. "$ROOT/harness/lib.sh"
		cd "$ROOT"
		objs=$(for f in $(find kernel -name '*.c' | sort); do
			if [ -f "$obj/${f%.c}.o" ]; then echo "${f%.c}.o"; else echo "cross: $a: $f is not built in this configuration" >&2; fi
		done)
		events=$(cd "$SRC" && grep -rl --include='*.c' 'define CREATE_TRACE_POINTS' . | sed 's|^\./||' | sort)
		evobjs=$(for f in $events; do if [ -f "$obj/${f%.c}.o" ]; then echo "${f%.c}.o"; fi; done)
		say "$a: $(echo $objs | wc -w) files of ours at W=1 with sparse, $(echo $evobjs | wc -w) files with events at W=1"
		# shellcheck disable=SC2086
		(cd "$obj" && rm -f $objs $evobjs)
		{
			# shellcheck disable=SC2086
			kmake -C "$SRC" O="$obj" W=1 C=1 CHECK="$(base_sparse)" -j"$JOBS" $objs 2>&1
			# shellcheck disable=SC2086
			kmake -C "$SRC" O="$obj" W=1 -j"$JOBS" $evobjs 2>&1
		} > "$obj/cross-w1.log" || true
	)
	log=$obj/cross-w1.log
	# Warnings located in our files (those of build.log too: the link,
	# modpost), whichever object included them.
	# A lookup in awk, not a "printf | grep -q" per line: under pipefail
	# grep's early exit can kill printf with SIGPIPE and hide a warning.
	warn=$(cat "$obj/build.log" "$log" | { grep -E '(warning|error):' || true; } |
		awk -v src="$SRC/" '
			NR == FNR { own[$0] = 1; next }
			{
				f = $0; sub(/:.*/, "", f)
				if (index(f, src) == 1) f = substr(f, length(src) + 1)
				sub(/^\.\.\//, "", f)
				if (f in own) print
			}' <(printf '%s\n' $ours_files) - | sort -u)
	errs=$(grep -E '^(ERROR|.*undefined reference|.*: error:)' "$obj/build.log" "$log" || true)
	if [ -n "$warn$errs" ]; then
		printf '%s\n' "$warn" "$errs" | sed '/^$/d'
		say "$a: warnings or errors in our files (above; logs in ${obj#$ROOT/})"
		bad=1
	else
		say "$a: built and linked, no W=1 or sparse warning in our files ($(($(date +%s) - start)) s)"
	fi
done
exit $bad
