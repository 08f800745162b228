#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# initramfs.sh [SCRIPT] - pack busybox, the harness's init, our tests, the
# programs and the base's ftrace selftests into build/initramfs.cpio.  With
# SCRIPT, a second archive holding it as /job/script is appended (the kernel
# unpacks concatenated archives in order).
. "$(dirname "$0")/lib.sh"

file_static /bin/busybox || die "/bin/busybox is not static: install busybox-static"
root=$B/initramfs
rm -rf "$root" && mkdir -p "$root/bin" "$root/tests" "$root/ftrace"
cp /bin/busybox "$root/bin/busybox"
install -m 755 "$ROOT/harness/vm/init" "$root/init"
cp "$ROOT/harness/vm/run-tests.sh" "$ROOT/tests/lib.sh" "$ROOT/tests/demo.sh" "$root/tests/"
mkdir -p "$root/tests/shell" "$root/tests/demo.d"
for d in shell demo.d; do
	if [ -d "$ROOT/tests/$d" ]; then cp -r "$ROOT/tests/$d/." "$root/tests/$d/"; fi
done
[ -f "$ROOT/tests/ftrace.list" ] && cp "$ROOT/tests/ftrace.list" "$root/tests/"
cp -r "$B/progs/kselftest" "$B/progs/samples" "$B/progs/bench" "$root/"
cp -r "$(base_tree)/tools/testing/selftests/ftrace/." "$root/ftrace/"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$B/initramfs.cpio"

if [ -n "${1:-}" ]; then
	job=$B/job
	rm -rf "$job" && mkdir -p "$job/job"
	cp "$1" "$job/job/script"
	(cd "$job" && find . | cpio -o -H newc -R 0:0 --quiet) > "$B/job.cpio"
	cat "$B/initramfs.cpio" "$B/job.cpio" > "$B/initramfs-job.cpio"
fi
