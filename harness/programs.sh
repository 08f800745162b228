#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the statically linked user-space programs the VM runs: kselftests,
# samples and benchmarks, against our kernel's exported uapi headers.
. "$(dirname "$0")/lib.sh"

src=$SRC
# Every patched kernel exports the same headers: make fuzz on a fresh
# clone has built only the debug one, make coverage the coverage one,
# make bench-lttng the lttng one.
for v in ours debug coverage lttng; do
	hdr=$(variant_obj $v)/usr/include
	[ -d "$hdr" ] && break
done
[ -d "$hdr" ] || die "no uapi headers: build the kernel first"
out=$B/progs
mkdir -p "$out/kselftest" "$out/samples" "$out/bench"
CFLAGS="-static -O2 -g0 -Wall -pthread -I$src/tools/testing/selftests -I$hdr"
# The VM's architecture: arm64 programs are linked statically against
# Debian's aarch64 libc (libc6-dev-arm64-cross).
CC=${CROSS}gcc

# build SOURCE DEST - compile when the source, a header beside it or the
# uapi headers are newer than the program.
build() {
	local dep stale=0
	[ -x "$2" ] || stale=1
	for dep in "$1" "$(dirname "$1")"/*.h "$hdr/linux/version.h"; do
		[ -f "$dep" ] && [ "$dep" -nt "$2" ] && stale=1
	done
	if [ $stale = 1 ]; then
		# shellcheck disable=SC2086
		$CC $CFLAGS -o "$2" "$1" -lm || die "cannot build ${1#$ROOT/}"
	fi
	return 0
}

# Selftests and samples are compiled where they sit in the patched tree, so
# their includes ("../kselftest_harness.h") resolve as in the kernel.
cd "$ROOT"
for f in tools/testing/selftests/*/*_test.c; do
	[ -f "$f" ] && build "$src/$f" "$out/kselftest/$(basename "$f" .c)"
done
# The fuzzer of make fuzz (not a kselftest: it runs on its own), made of
# every C file of its folder
fz=$src/tools/testing/selftests/trace_fuzz
stale=0
for dep in "$fz"/*.[ch] "$hdr/linux/version.h"; do
	[ "$dep" -nt "$out/samples/trace_fuzz" ] && stale=1
done
if [ $stale = 1 ] || [ ! -x "$out/samples/trace_fuzz" ]; then
	# shellcheck disable=SC2086
	gcc $CFLAGS -o "$out/samples/trace_fuzz" "$fz"/*.c -lm || die "cannot build the fuzzer"
fi
# The base's own user_events selftests, unmodified: they use the
# remote-write layout of struct user_reg, chosen by this macro.
for t in abi dyn ftrace perf; do
	f=$src/tools/testing/selftests/user_events/${t}_test.c
	[ -f "$f" ] && CFLAGS="$CFLAGS -DUSER_EVENTS_REMOTE_WRITE" \
		build "$f" "$out/kselftest/user_events_base_${t}_test"
done
for f in samples/user_events/*.c; do
	[ -f "$f" ] && build "$src/$f" "$out/samples/$(basename "$f" .c)"
done
for f in bench/*.c; do
	[ -f "$f" ] && build "$ROOT/$f" "$out/bench/$(basename "$f" .c)"
done
# Clients of Debian's libraries are linked dynamically, like the tools
# they stand for; initramfs.sh copies the libraries they need.  Debian's
# libtracefs is installed for x86_64 only: no clients on arm64.
mkdir -p "$out/clients"
[ "$TS_ARCH" = x86_64 ] || exit 0
CFLAGS="-O2 -g0 -Wall -I$src/tools/testing/selftests -I/usr/include/tracefs -I/usr/include/traceevent"
for f in tests/clients/*.c; do
	[ -f "$f" ] || continue
	o=$out/clients/$(basename "$f" .c)
	if [ ! -x "$o" ] || [ "$f" -nt "$o" ]; then
		# shellcheck disable=SC2086
		gcc $CFLAGS -o "$o" "$f" -ltracefs -ltraceevent || die "cannot build $f"
	fi
done
exit 0
