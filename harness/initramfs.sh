#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# initramfs.sh [SCRIPT] - pack busybox, the harness's init, our tests, the
# programs and the base's ftrace selftests into build/initramfs.cpio.  With
# SCRIPT, a second archive holding it as /job/script is appended (the kernel
# unpacks concatenated archives in order).  TS_IMAGES names another folder
# for the archives, so that a long job (make wide) keeps its own.
. "$(dirname "$0")/lib.sh"

out=${TS_IMAGES:-$B}

file_static /bin/busybox || die "/bin/busybox is not static: install busybox-static"

# add_modules ROOT - the modules each built kernel variant has, as
# ROOT/modules/VARIANT/*.ko; a test loads those of the kernel it runs on
# (ts.variant= on the command line, see vm.sh).
add_modules() {
	local d v
	for d in "$B"/obj-*/modules; do
		[ -d "$d" ] || continue
		v=${d%/modules}; v=${v##*/obj-}
		mkdir -p "$1/modules/$v" && cp "$d"/*.ko "$1/modules/$v/" 2>/dev/null || true
	done
}
root=$out/initramfs
rm -rf "$root" && mkdir -p "$root/bin" "$root/tests" "$root/ftrace"
cp /bin/busybox "$root/bin/busybox"
install -m 755 "$ROOT/harness/vm/init" "$root/init"
cp "$ROOT/harness/vm/run-tests.sh" "$ROOT/tests/lib.sh" "$ROOT/tests/demo.sh" "$root/tests/"
mkdir -p "$root/tests/shell" "$root/tests/demo.d" "$root/tests/compare" \
	"$root/tests/corpus"
for d in shell demo.d compare corpus; do
	if [ -d "$ROOT/tests/$d" ]; then cp -r "$ROOT/tests/$d/." "$root/tests/$d/"; fi
done
[ -f "$ROOT/tests/ftrace.list" ] && cp "$ROOT/tests/ftrace.list" "$root/tests/"
# What the base kernel showed (harness/base-reference.sh), for the tests
# that hold ours to it.
if [ -d "$B/reference" ]; then cp -r "$B/reference" "$root/tests/reference"; fi
cp -r "$B/progs/kselftest" "$B/progs/samples" "$B/progs/bench" "$root/"
cp -r "$(base_tree)/tools/testing/selftests/ftrace/." "$root/ftrace/"

# copy_dynamic PROGRAM DEST - a dynamically linked program of the host
# and every library ldd names, at their host paths.
copy_dynamic() {
	local lib
	install -D -m 755 "$1" "$root$2"
	for lib in $(LC_ALL=C ldd "$1" | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] || install -D -m 755 "$(readlink -f "$lib")" "$root$lib"
	done
}
# Real clients: Debian's perf and trace-cmd, and our libtracefs client run
# with the kselftests.
copy_dynamic /usr/bin/perf /usr/bin/perf
# The upstream ftrace tests run under Debian's dash, as on a Debian
# system: busybox's sh runs its applets without exec(), so the tests that
# trace the exec and comm of "ping" would see "/proc/self/exe".  nice(1)
# is not a busybox applet.
copy_dynamic /usr/bin/dash /usr/bin/dash
copy_dynamic /usr/bin/nice /usr/bin/nice
copy_dynamic /usr/bin/trace-cmd /usr/bin/trace-cmd
for c in "$B"/progs/clients/*; do
	[ -x "$c" ] && copy_dynamic "$c" "/kselftest/$(basename "$c")"
done
add_modules "$root"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$out/initramfs.cpio"

if [ -n "${1:-}" ]; then
	job=$out/job
	rm -rf "$job" && mkdir -p "$job/job"
	cp "$1" "$job/job/script"
	(cd "$job" && find . | cpio -o -H newc -R 0:0 --quiet) > "$out/job.cpio"
	cat "$out/initramfs.cpio" "$out/job.cpio" > "$out/initramfs-job.cpio"
fi
