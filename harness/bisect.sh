#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bisect.sh - every step of the series builds, boots and passes a smoke test.
#
# The patches of make patches (every set's, in build/patches/order) are
# applied to the pristine base one at a time, in order.  After each:
#
#  - the kernel and its modules are built at W=1 with the project's
#    configuration (tinyconfig + config/tracing.config + the
#    architecture's + config/ours.config; an option a later patch brings
#    is simply absent before it).  A warning the base's own build does not
#    give fails the step, and so does a C file the patch adds under
#    kernel/, fs/ or samples/trace_events/ that was not compiled, or a
#    header it adds there or under include/ that nothing compiled read;
#  - the kernel boots in the project's VM with a small initramfs (busybox
#    and harness/vm/bisect-smoke.sh): it traces an event, sets a filter, a
#    trigger and a histogram where the step has them.  A failed check, a
#    KUnit test that fails at boot, or a WARNING, BUG or oops on the
#    console fails the step.
#
# The run stops at the first step that fails and names it.  The tree is
# build/bisect/src, the objects build/bisect/obj: each step rebuilds only
# what its patch changed.  FROM=NNNN starts building and booting at step
# NNNN, counted over all the sets (the patches before it are applied, not
# built): after a fix, the objects of the last run serve again (a first
# run builds the base before, for its warnings); TO=NNNN stops after step
# NNNN.  Logs: build/bisect/NAME.log (build)
# and build/logs/bisect-NAME.{console,out} (boot).
. "$(dirname "$0")/lib.sh"

t0=$(date +%s)
"$ROOT/harness/patches.sh"
base=$(base_tree)
dir=$BROOT/bisect
src=$dir/src obj=$dir/obj
mkdir -p "$dir" "$obj" "$B/logs"
touch "$dir/base-warnings"
from=${FROM:-0000} to=${TO:-9999}
series=$(cat "$B/patches/order")
touched=$(patch_targets $series)
echo "$touched" | sed 's|^|/|' > "$dir/touched"
# step_name I PATCH - step I of the whole series: its number, the set
# and the patch's name within the set ("0012-2-filters-0005-tracing-...").
step_name() { printf '%04d-%s-%s' "$1" "$(basename "$(dirname "$2")")" "$(basename "$2" .patch)"; }
# tree_before NNNN - make build/bisect/src the pristine base and the
# patches before step NNNN of the whole series (build/patches/order,
# counted from 0001).  Files the series touches are written only where
# their content differs from what the last run left, so that kbuild
# rebuilds what changed and no more; the others are the base's.
tree_before() {
	local stage f p i
	say "build/bisect/src: the base$( [ "$1" = 0000 ] || echo " and the patches before $1")"
	rsync -a --delete --exclude=/.unpacked --exclude-from="$dir/touched" "$base/" "$src/"
	stage=$(mktemp -d)
	for f in $touched; do
		if [ -f "$base/$f" ]; then install -D -m 644 "$base/$f" "$stage/$f"; fi
	done
	i=0
	for p in $series; do
		i=$((i + 1))
		[ "$i" -lt "$((10#$1))" ] || break
		patch -s -p1 -d "$stage" --no-backup-if-mismatch < "$p" || die "$(step_name $i "$p") does not apply"
	done
	for f in $touched; do
		if [ -f "$stage/$f" ]; then
			cmp -s "$stage/$f" "$src/$f" || install -D -m 644 "$stage/$f" "$src/$f"
		else
			rm -f "$src/$f"
		fi
	done
	rm -rf "$stage"
}
frags="$ROOT/config/tracing.config $ROOT/config/arch-$TS_ARCH.config $ROOT/config/ours.config"

# The VM's initramfs: busybox, the harness's init and the smoke test.
initrd=$dir/smoke.cpio
root=$dir/initramfs
rm -rf "$root" && mkdir -p "$root/bin" "$root/etc" "$root/job"
cp /bin/busybox "$root/bin/busybox"
install -m 755 "$ROOT/harness/vm/init" "$root/init"
cp "$ROOT/harness/vm/bisect-smoke.sh" "$root/job/script"
printf '%s\n' 'root:x:0:0:root:/:/bin/sh' > "$root/etc/passwd"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$initrd"

# warnings LOG - the warnings of a build log, as "file: message", without
# line numbers, so that the same warning of a file compares equal.
warnings() {
	grep -iE '(warning|error): ' "$1" |
		sed -e "s|$src/||g" -e 's|^\([^: ]*\):[0-9][0-9:]*: |\1: |' | sort -u || true
}

# build NAME PATCH - configure (what the tree's Kconfig offers of the
# fragments) and build at W=1; the log is build/bisect/NAME.log.
build() {
	local log=$dir/$1.log t=$(date +%s) new f missing=""
	kmake -s -C "$src" O="$obj" tinyconfig > "$log" 2>&1
	# shellcheck disable=SC2086
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" $frags >> "$log" 2>&1
	kmake -s -C "$src" O="$obj" olddefconfig >> "$log" 2>&1
	if ! kmake -C "$src" O="$obj" W=1 -j"$JOBS" "${IMAGE##*/}" modules >> "$log" 2>&1; then
		grep -E 'error|Error' "$log" | head -n 30 >&2
		say "$1: THE BUILD FAILS (build/bisect/$1.log)"
		return 1
	fi
	# The base's own warnings: every build of the base adds to them (the
	# first one, from scratch, gives them all).
	if [ "$1" = 00-base ]; then
		sort -u -o "$dir/base-warnings" <(warnings "$log") "$dir/base-warnings"
	fi
	new=$(comm -13 "$dir/base-warnings" <(warnings "$log"))
	if [ -n "$new" ]; then
		echo "$new" >&2
		say "$1: warnings the base does not give (build/bisect/$1.log)"
		return 1
	fi
	# Every file the patch adds is compiled in its own step.
	if [ -n "${2:-}" ]; then
		for f in $(awk '/^--- \/dev\/null/ { getline; sub(/^\+\+\+ b\//, ""); print }' "$2"); do
			case $f in
			kernel/*.c|fs/*.c|samples/trace_events/*.c)
				[ -f "$obj/${f%.c}.o" ] || missing="$missing $f" ;;
			kernel/*.h|fs/*.h|samples/trace_events/*.h|include/*.h)
				grep -rqsF --include='.*.cmd' "$src/$f" "$obj" || missing="$missing $f" ;;
			esac
		done
	fi
	if [ -n "$missing" ]; then
		say "$1: added but not compiled:$missing"
		return 1
	fi
	say "$1: built in $(($(date +%s) - t)) s"
}

# boot NAME - boot the step's kernel and run the smoke test.  init's job
# mode ts.mode=fuzz runs /job/script and nothing else, as the smoke test
# needs (a mode of its own would change init, and with it the keys of the
# base's recorded references: harness/base-reference.sh).
boot() {
	local t=$(date +%s) out=$B/logs/bisect-$1.out console=$B/logs/bisect-$1.console
	TS_QUIET=1 TS_KERNEL="$obj/$IMAGE" TS_INITRD="$initrd" TS_VM_TIMEOUT=${TS_VM_TIMEOUT:-600} \
		"$ROOT/harness/vm.sh" bisect fuzz "bisect-$1" || {
		say "$1: THE VM DID NOT FINISH (build/logs/bisect-$1.console)"
		return 1
	}
	if ! grep -q '^TSRESULT smoke pass' "$out"; then
		grep '^TSRESULT .* fail' "$out" >&2 || tail -n 20 "$console" >&2
		say "$1: THE SMOKE TEST FAILS (build/logs/bisect-$1.{out,console})"
		return 1
	fi
	if grep -nE 'WARNING:|BUG:|Oops|Call Trace:|Kernel panic|^ *not ok ' "$console" >&2; then
		say "$1: the console shows a failure (build/logs/bisect-$1.console)"
		return 1
	fi
	say "$1: booted, smoke test passed in $(($(date +%s) - t)) s ($(grep -c '^TSRESULT smoke-.* pass' "$out") checks, $(grep -c '^TSRESULT smoke-.* skip' "$out") skipped)"
}

# A step's new warnings are told from the base's, which a build of the
# base records: FROM=NNNN builds it first when no run has yet.
if [ "$from" != 0000 ] && [ ! -s "$dir/base-warnings" ]; then
	tree_before 0000
	build 00-base || die "the pristine base does not build with the project's configuration"
fi
tree_before "$from"
if [ "$from" = 0000 ]; then
	build 00-base || die "the pristine base does not build with the project's configuration"
	boot 00-base || die "the pristine base does not boot or fails the smoke test"
fi
n=0
for p in $series; do
	n=$((n + 1))
	name=$(step_name $n "$p")
	[ "$n" -lt "$((10#$from))" ] && continue
	[ "$n" -le "$((10#$to))" ] || { say "stopped after step $to (TO=)"; exit 0; }
	patch -s -p1 -d "$src" --no-backup-if-mismatch < "$p" || die "$name does not apply"
	build "$name" "$p" || die "the first step that fails: $name (build)"
	boot "$name" || die "the first step that fails: $name (boot and smoke test)"
done
say "all $n steps of the series build at W=1, boot and pass the smoke test ($(($(date +%s) - t0)) s)"
