#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# initramfs.sh [SCRIPT] - pack busybox, the harness's init, our tests, the
# programs and the base's ftrace selftests into build/initramfs.cpio.  With
# SCRIPT, a second archive holding it as /job/script is appended (the kernel
# unpacks concatenated archives in order).  TS_IMAGES names another folder
# for the archives, so that a long job (make wide) keeps its own.
. "$(dirname "$0")/lib.sh"

out=${TS_IMAGES:-$B}

if [ "$TS_ARCH" = x86_64 ]; then
	busybox=/bin/busybox
	file_static $busybox || die "/bin/busybox is not static: install busybox-static"
else
	# Debian's arm64 busybox, dash and nice, with the arm64 C library of
	# libc6-dev-arm64-cross (libc6-arm64-cross) for the last two.
	froot=$(foreign_root "$TS_ARCH" busybox-static dash coreutils)
	busybox=$froot/bin/busybox
	crosslib=/usr/${CROSS%-}/lib
fi

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
# append_job [SCRIPT] - the second archive, holding SCRIPT as /job/script.
append_job() {
	[ -n "$1" ] || return 0
	local job=$out/job
	rm -rf "$job" && mkdir -p "$job/job"
	cp "$1" "$job/job/script"
	(cd "$job" && find . | cpio -o -H newc -R 0:0 --quiet) > "$out/job.cpio"
	cat "$out/initramfs.cpio" "$out/job.cpio" > "$out/initramfs-job.cpio"
}
root=$out/initramfs
rm -rf "$root" && mkdir -p "$root/bin" "$root/tests" "$root/ftrace"
cp "$busybox" "$root/bin/busybox"
# Users and groups besides root: ftracetest's ownership tests
# (00basic/test_ownership.tc, mount_options.tc) give tracefs to another.
mkdir -p "$root/etc"
printf '%s\n' 'root:x:0:0:root:/:/bin/sh' 'nobody:x:65534:65534:nobody:/:/bin/false' > "$root/etc/passwd"
printf '%s\n' 'root:x:0:' 'nogroup:x:65534:' > "$root/etc/group"
install -m 755 "$ROOT/harness/vm/init" "$root/init"
cp "$ROOT/harness/vm/run-tests.sh" "$ROOT/harness/vm/ftracetest.sh" "$ROOT/tests/lib.sh" "$ROOT/tests/demo.sh" "$root/tests/"
mkdir -p "$root/tests/shell" "$root/tests/demo.d" "$root/tests/compare" \
	"$root/tests/corpus"
for d in shell demo.d compare corpus; do
	if [ -d "$ROOT/tests/$d" ]; then cp -r "$ROOT/tests/$d/." "$root/tests/$d/"; fi
done
# The bpftrace tests come with bpftrace, in an initramfs of their own
rm -f "$root"/tests/shell/bpftrace_*.sh
python3 "$ROOT/harness/doc-examples.py" "$root/tests/doc" "$ROOT"/Documentation/trace/*.rst
ftrace_reasons > "$root/tests/ftrace.list"
cp "$ROOT/tests/ftrace-debug.list" "$root/tests/"
# What the base kernel showed (harness/base-reference.sh), for the tests
# that hold ours to it.
if [ -d "$B/reference" ]; then cp -r "$B/reference" "$root/tests/reference"; fi
cp -r "$B/progs/kselftest" "$B/progs/samples" "$B/progs/bench" "$root/"
# ftracetest from the base's sources, with the programs its Makefile
# builds (programs.sh)
cp -r "$(base_tree)/tools/testing/selftests/ftrace/." "$root/ftrace/"
for f in $(sed -n 's/^TEST_GEN_FILES *:*= *//p' "$root/ftrace/Makefile"); do
	if [ -f "$B/progs/ftrace/ftrace/$f" ]; then cp "$B/progs/ftrace/ftrace/$f" "$root/ftrace/"; fi
done
# Upstream tests that assert a limit ours raises on purpose, or that race
# with the kernel they test, run on ours as
# tests/ftrace-adapted/PATH.sed rewrites them (each file says why); the
# base's reference run (TS_FTRACE_ORIGINAL=1) has them as they are.
if [ "${TS_FTRACE_ORIGINAL:-0}" != 1 ] && [ -d "$ROOT/tests/ftrace-adapted" ]; then
	(cd "$ROOT/tests/ftrace-adapted" && find . -name '*.tc.sed') | while read -r s; do
		tc=$root/ftrace/test.d/${s%.sed}
		[ -f "$tc" ] || die "tests/ftrace-adapted/$s: no such upstream test"
		sed -i -f "$ROOT/tests/ftrace-adapted/$s" "$tc"
	done
fi

# copy_dynamic PROGRAM DEST - a dynamically linked program of the host
# and every library ldd names, at their host paths.
copy_dynamic() { copy_dynamic_into "$root" "$1" "$2"; }

# copy_foreign PROGRAM DEST - the same for a program of the VM's (other)
# architecture: the libraries it needs (readelf's NEEDED, one level, which
# is all that dash and nice have) from the cross C library, where its
# loader looks for them.
copy_foreign() {
	local lib interp
	install -D -m 755 "$1" "$root$2"
	interp=$(${CROSS}readelf -l "$1" | sed -n 's/.*Requesting program interpreter: \(.*\)]/\1/p')
	[ -z "$interp" ] || [ -e "$root$interp" ] || install -D -m 755 "$crosslib/${interp##*/}" "$root$interp"
	for lib in $(${CROSS}readelf -d "$1" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
		[ -e "$root/lib/${CROSS%-}/$lib" ] || install -D -m 755 "$crosslib/$lib" "$root/lib/${CROSS%-}/$lib"
	done
}

# foreign_bin NAME - NAME in the unpacked packages: Debian 12's dash
# still ships /bin/dash, its coreutils /usr/bin/nice.
foreign_bin() {
	if [ -e "$froot/usr/bin/$1" ]; then echo "$froot/usr/bin/$1"; else echo "$froot/bin/$1"; fi
}

if [ "$TS_ARCH" != x86_64 ]; then
	copy_foreign "$(foreign_bin dash)" /usr/bin/dash
	copy_foreign "$(foreign_bin nice)" /usr/bin/nice
	# The clients are Debian's x86_64 programs and libraries.
	cat > "$root/tests/skipped" <<-SKIP
	tracefs_client no $TS_ARCH build of Debian's libtracefs here: the client runs on x86_64 only
	SKIP
	add_modules "$root"
	(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$out/initramfs.cpio"
	append_job "${1:-}"
	exit 0
fi
# Real clients: Debian's perf and trace-cmd, and our libtracefs client
# (in /clients, run after the kselftests).
copy_dynamic /usr/bin/perf /usr/bin/perf
# The upstream ftrace tests run under Debian's dash, as on a Debian
# system: busybox's sh runs its applets without exec(), so the tests that
# trace the exec and comm of "ping" would see "/proc/self/exe".  nice(1)
# is not a busybox applet.
copy_dynamic /usr/bin/dash /usr/bin/dash
copy_dynamic /usr/bin/nice /usr/bin/nice
copy_dynamic /usr/bin/trace-cmd /usr/bin/trace-cmd
for c in "$B"/progs/clients/*; do
	[ -x "$c" ] && copy_dynamic "$c" "/clients/$(basename "$c")"
done
add_modules "$root"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$out/initramfs.cpio"

# Debian's bpftrace and its LLVM (about 200 MB of libraries) would crowd
# every run's memory: build/bpftrace.cpio holds them and the bpftrace_*
# tests, laid over the main initramfs in a boot of their own (check.sh).
broot=$out/initramfs-bpftrace
rm -rf "$broot" "$out/bpftrace.cpio" && mkdir -p "$broot/tests/shell"
copy_dynamic_into "$broot" /usr/bin/bpftrace /usr/bin/bpftrace
# Without BTF, bpftrace's clang reads the kernel's headers for the types
# of the format files (u32 and the like): those of linux/types.h and
# what it includes, at BPFTRACE_KERNEL_SOURCE=/usr/src/kernel.
ks=$broot/usr/src/kernel
for v in ours debug coverage; do
	kobj=$(variant_obj $v)
	[ -f "$kobj/include/generated/autoconf.h" ] && break
done
mkdir -p "$ks/include" "$ks/arch/x86"
for d in linux uapi asm-generic vdso; do cp -r "$SRC/include/$d" "$ks/include/"; done
cp -r "$SRC/arch/x86/include" "$ks/arch/x86/"
cp -r "$kobj/include/generated" "$ks/include/"
cp -r "$kobj/arch/x86/include/generated" "$ks/arch/x86/include/"
cp "$ROOT"/tests/shell/bpftrace_*.sh "$broot/tests/shell/"
(cd "$broot" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$out/bpftrace.cpio"
rm -rf "$broot"

append_job "${1:-}"
