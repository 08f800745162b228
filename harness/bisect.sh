#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bisect.sh - every step of the series builds: the patches of make patches
# (build/patches/) applied to the pristine base one at a time, in order,
# and after each the kernel (and its modules) built with the project's
# configuration (tinyconfig + config/tracing.config + the architecture's +
# config/ours.config; an option a later patch brings is simply absent
# before it).  The tree is build/bisect/src, the objects build/bisect/obj:
# each step rebuilds only what its patch changed.  A step that does not
# build fails the run, naming the patch.
. "$(dirname "$0")/lib.sh"

"$ROOT/harness/patches.sh"
base=$(base_tree)
dir=$BROOT/bisect
src=$dir/src obj=$dir/obj
mkdir -p "$dir" "$obj"
# Back to the pristine base; files no patch touches keep their times, so
# what was built from them stays built.
say "build/bisect/src: the pristine base"
rsync -a --delete --exclude=/.unpacked "$base/" "$src/"
# A file the series changes came back with the base's (older) time, older
# than its object from the last run's final step: make it newer, or kbuild
# would link that object into the base.
sed -n 's|^+++ b/||p' "$B"/patches/*.patch | sort -u | while read -r f; do
	if [ -f "$src/$f" ]; then touch "$src/$f"; fi
done
frags="$ROOT/config/tracing.config $ROOT/config/arch-$TS_ARCH.config $ROOT/config/ours.config"

# step NAME - configure (what the tree's Kconfig offers of the fragments)
# and build; the log is build/bisect/NAME.log.
step() {
	local log=$dir/$1.log t0=$(date +%s)
	kmake -s -C "$src" O="$obj" tinyconfig > "$log" 2>&1
	# shellcheck disable=SC2086
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" $frags >> "$log" 2>&1
	kmake -s -C "$src" O="$obj" olddefconfig >> "$log" 2>&1
	if ! kmake -C "$src" O="$obj" -j"$JOBS" "${IMAGE##*/}" modules >> "$log" 2>&1; then
		grep -E 'error|Error' "$log" | head -n 30 >&2
		return 1
	fi
	say "$1: built in $(($(date +%s) - t0)) s$(grep -cE '(warning|error):' "$log" | sed 's/^0$//; s/^[0-9][0-9]*$/, & warnings (see build\/bisect\/'"$1"'.log)/')"
}

n=0 failed=""
step 00-base || die "the pristine base does not build with the project's configuration"
for p in "$B"/patches/*.patch; do
	[ -f "$p" ] || continue
	name=$(basename "$p" .patch)
	patch -s -p1 -d "$src" --no-backup-if-mismatch < "$p" || { failed="$failed $name"; say "$name does not apply"; break; }
	n=$((n + 1))
	step "$name" || { failed="$failed $name"; say "$name: THE BUILD FAILS (build/bisect/$name.log)"; }
done
if [ -n "$failed" ]; then
	say "steps that do not build:$failed"
	exit 1
fi
say "all $n steps of the series build"
