#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# wide.sh - the event layer on a wider kernel than the VM's: x86_64_defconfig
# plus config/tracing.config (and config/wide.config), built at W=1 from
# the base tree and from ours (build/obj-wide-{base,ours}), then booted
# both to compare what tests/compare/event_layer.sh prints (every format
# file, the trace and perf script lines of a fixed workload).
#
# The event layer is compiled into each file that defines events
# (CREATE_TRACE_POINTS): those of the configuration are compiled again at
# W=1 in both trees after the build, so that their warnings are all seen
# however the build was resumed, and a warning of ours in include/trace/
# that the base has not fails (see wide-warnings.py); so does any
# difference in the outputs.  An hour or more per build on two cores, so
# not part of make check; make wide runs it.
#
# Our tree is copied to build/src-wide first, so that edits and other jobs
# (which refresh build/src) cannot change the sources under a long build.
. "$(dirname "$0")/lib.sh"

out=$B/wide
mkdir -p "$out"
"$ROOT/harness/tree.sh"
say "snapshot of build/src in build/src-wide"
rsync -a --delete "$B/src/" "$B/src-wide/"

build() {	# build VARIANT SRC
	local obj=$B/obj-$1 frags="$ROOT/config/tracing.config $ROOT/config/wide.config" stamp
	mkdir -p "$obj"
	stamp=$(cat $frags | sha1sum | cut -c1-16)
	if [ "$(cat "$obj/.ts-config" 2>/dev/null)" != "$stamp" ]; then
		say "$1: x86_64_defconfig + config/tracing.config + config/wide.config"
		make -s -C "$2" O="$obj" x86_64_defconfig >/dev/null
		# shellcheck disable=SC2086
		"$2/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" $frags >/dev/null
		make -s -C "$2" O="$obj" olddefconfig >/dev/null
		echo "$stamp" > "$obj/.ts-config"
	fi
	say "$1: building bzImage at W=1 (make -j$JOBS, log in ${obj#$ROOT/}/build.log)"
	if ! nice -n 10 make -C "$2" O="$obj" W=1 -j"$JOBS" bzImage > "$obj/build.log" 2>&1; then
		grep -E 'error|Error' "$obj/build.log" | head -n 40 >&2
		die "the $1 build failed"
	fi
	# the files that define events, compiled again to see all their warnings
	local events objs
	events=$(cd "$2" && grep -rl --include='*.c' 'define CREATE_TRACE_POINTS' . | sed 's|^\./||' | sort)
	objs=$(for f in $events; do if [ -f "$obj/${f%.c}.o" ]; then echo "${f%.c}.o"; fi; done)
	say "$1: $(echo $objs | wc -w) files with events compiled again at W=1"
	(cd "$obj" && rm -f $objs)
	nice -n 10 make -C "$2" O="$obj" W=1 -j"$JOBS" $objs > "$obj/events.log" 2>&1 ||
		die "the $1 files with events did not build, see ${obj#$ROOT/}/events.log"
	python3 "$ROOT/harness/wide-warnings.py" "$2" "$obj/events.log" > "$out/warnings-$1.txt"
}
build wide-base "$(base_tree)"
build wide-ours "$B/src-wide"

bad=0
new=$(comm -13 "$out/warnings-wide-base.txt" "$out/warnings-wide-ours.txt")
if [ -n "$new" ]; then
	echo "$new"
	say "W=1 warnings in include/trace/ that the base's build has not (above)"
	bad=1
else
	say "W=1: no new warnings in include/trace/ ($(wc -l < "$out/warnings-wide-base.txt") in the base's, $(wc -l < "$out/warnings-wide-ours.txt") in ours)"
fi

"$ROOT/harness/programs.sh"
TS_IMAGES=$out "$ROOT/harness/initramfs.sh" "$ROOT/tests/compare/event_layer.sh"
for v in wide-base wide-ours; do
	say "recording the events of the $v kernel"
	TS_QUIET=1 TS_INITRD=$out/initramfs-job.cpio "$ROOT/harness/vm.sh" "$v" compare "$v" quiet
	grep -q TS-DONE "$B/logs/$v.out" || die "the $v run did not finish"
	# The user_events registry events exist only in ours (tested by make check).
	sed -n '/^TS-COMPARE-BEGIN/,/^TS-COMPARE-END/p' "$B/logs/$v.out" | sed '1d;$d' |
		tr -d '\r' | awk '/^## /{skip = 0} /^== /{skip = /^== user_events_registry\//} !skip' > "$out/$v.txt"
done
events=$(grep -c '^== ' "$out/wide-base.txt")
if diff -u "$out/wide-base.txt" "$out/wide-ours.txt" > "$out/diff.txt"; then
	say "formats, trace and perf script identical for $events events (build/wide/)"
else
	head -n 60 "$out/diff.txt"
	say "outputs differ: build/wide/{wide-base,wide-ours,diff}.txt"
	bad=1
fi
exit $bad
