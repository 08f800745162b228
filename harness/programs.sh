#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the statically linked user-space programs the VM runs: kselftests,
# samples and benchmarks, against our kernel's exported uapi headers.
. "$(dirname "$0")/lib.sh"

src=$SRC
# Every patched kernel exports the same headers: make fuzz on a fresh
# clone has built only the debug one, make coverage the coverage one,
# make bench-lttng the lttng one, make stress KCSAN=1 and make fuzz
# KCSAN=1 the kcsan one.
for v in ours debug coverage lttng kcsan; do
	hdr=$(variant_obj $v)/usr/include
	[ -d "$hdr" ] && break
done
[ -d "$hdr" ] || die "no uapi headers: build the kernel first"
out=$B/progs
mkdir -p "$out/samples" "$out/bench"
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

# The selftests of our folders, built by their own Makefiles as the
# kernel builds them (make -C tools/testing/selftests O=... install):
# objects in OBJ/kselftest, against the uapi headers that kernel
# exported (KHDR_INCLUDES of O=), linked statically (lib.mk's
# USERLDFLAGS) since the VM has no C library.  The install tree (one
# folder per target with its programs, config and settings, and
# kselftest-list.txt) is what the VM runs, as /kselftest.
obj=${hdr%/usr/include}
ksft_targets="event_filter event_trigger trace_hist user_events"
log=$obj/kselftest.log
ksft() {
	kmake -C "$src/tools/testing/selftests" O="$obj" FORCE_TARGETS=1 \
		USERLDFLAGS=-static "$@" > "$log" 2>&1 ||
		{ tail -n 40 "$log" >&2; die "selftests: make $* failed, see ${log#$ROOT/}"; }
}

# The kernel whose headers they are built against must have every option
# each folder's config asks for.
for d in $ksft_targets; do
	awk -v cfg="tools/testing/selftests/$d/config" '
		NR == FNR { have[$0] = 1; next }
		/^CONFIG_/ && !($0 in have) {
			print "selftests: " cfg ": " $0 " is not in the kernel"; bad = 1
		}
		END { exit bad }' "$obj/.config" "$src/tools/testing/selftests/$d/config" >&2 ||
		die "the kernel lacks options the selftests need"
done

# The Makefiles do not know the uapi headers: a kernel that exports
# different ones gets every program built again.
uapi=$(cd "$hdr" && find . -type f | LC_ALL=C sort | xargs cat | sha1sum | cut -c1-16)
if [ "$(cat "$obj/kselftest/.ts-uapi" 2>/dev/null)" != "$uapi" ]; then
	ksft TARGETS="$ksft_targets trace_fuzz" clean
	mkdir -p "$obj/kselftest" && echo "$uapi" > "$obj/kselftest/.ts-uapi"
fi
rm -rf "$out/kselftest" "$out/ftrace"
ksft TARGETS="$ksft_targets" KSFT_INSTALL_PATH="$out/kselftest" install
# The programs ftracetest's own tests run (TEST_GEN_FILES of the base's
# ftrace folder: poll, for trigger/trigger-hist-poll.tc), built by its
# Makefile into a folder of their own, since the VM runs ftracetest from
# the base's sources (initramfs.sh lays them beside them).
if grep -q '^TEST_GEN_FILES' "$src/tools/testing/selftests/ftrace/Makefile"; then
	ksft TARGETS=ftrace KSFT_INSTALL_PATH="$out/ftrace" install
fi
# user_events for 32-bit programs on the 64-bit kernel, when it runs
# them (CONFIG_COMPAT): the same selftests built again by their Makefile
# with Debian's 32-bit cross compiler and C library (static), in their
# own folder, user_events_32.  x86's uapi headers serve both widths;
# arm64's are of no use to a 32-bit ARM program (another system call
# table), which gets arm's, of the same tree.  The VM runs them right
# after user_events and before Linux 6.1's, whose perf_test leaves its
# persistent __test_event behind (as on 6.1), which a later test
# expecting that name free would find.
case $TS_ARCH in
x86_64) cross32=i686-linux-gnu- hdr32=$hdr ;;
arm64) cross32=arm-linux-gnueabihf- hdr32=$obj/usr-arm/include ;;
*) cross32= ;;
esac
grep -qx 'CONFIG_COMPAT=y' "$obj/.config" || cross32=
if [ -n "$cross32" ]; then
	if [ "$TS_ARCH" = arm64 ]; then
		make -s -C "$src" ARCH=arm O="$obj/hdr-arm" \
			INSTALL_HDR_PATH="$obj/usr-arm" headers_install
	fi
	u32=$obj/kselftest32/user_events
	ue=$src/tools/testing/selftests/user_events
	if [ "$(cat "$u32/.ts-uapi" 2>/dev/null)" != "$uapi" ]; then
		rm -rf "$u32" && mkdir -p "$u32" && echo "$uapi" > "$u32/.ts-uapi"
	fi
	make -C "$ue" OUTPUT="$u32" CROSS_COMPILE="$cross32" \
		KHDR_INCLUDES="-isystem $hdr32" USERLDFLAGS=-static \
		INSTALL_PATH="$out/kselftest/user_events_32" install \
		> "$obj/kselftest32.log" 2>&1 ||
		{ tail -n 40 "$obj/kselftest32.log" >&2
		  die "${cross32}gcc: user_events failed, see ${obj#$ROOT/}/kselftest32.log"; }
	make -s --no-print-directory -C "$ue" OUTPUT="$u32" \
		COLLECTION=user_events_32 emit_tests >> "$out/kselftest/kselftest-list.txt"
fi
# The status-page ABI's own tests, Linux 6.1's user_events selftests
# from Debian's linux-source-6.1, unmodified, built the documented way for
# a program written against that header (user_events.rst): the define
# that names the status-page layout struct user_reg, and <sys/uio.h>,
# which the old header brought along.  Their folder is user_events_61.
t61=$CACHE/linux-source-6.1-user_events
if [ ! -f "$t61/.done" ]; then
	rm -rf "$t61" && mkdir -p "$t61"
	tar -xf /usr/src/linux-source-6.1.tar.xz -C "$t61" --strip-components=4 \
		--wildcards 'linux-source-6.1/tools/testing/selftests/user_events/*' ||
		die "no user_events selftests in linux-source-6.1"
	touch "$t61/.done"
fi
s61=$obj/kselftest61
mkdir -p "$s61/user_events" "$out/kselftest/user_events_61"
cp "$src/tools/testing/selftests/kselftest_harness.h" \
	"$src/tools/testing/selftests/kselftest.h" "$s61/"
for t in ftrace_test dyn_test perf_test; do
	cp "$t61/user_events/$t.c" "$s61/user_events/"
	# shellcheck disable=SC2086
	$CC $CFLAGS -DUSER_EVENTS_STATUS_PAGE -include sys/uio.h \
		-o "$out/kselftest/user_events_61/$t" "$s61/user_events/$t.c" ||
		die "cannot build Linux 6.1's user_events/$t.c"
	echo "user_events_61:$t" >> "$out/kselftest/kselftest-list.txt"
done
cp "$t61/user_events/settings" "$out/kselftest/user_events_61/" 2>/dev/null || true
# Cases that test what Linux 6.4 changed and this kernel keeps as 6.4
# and later have it: left out, each reported skipped with its reason.
cp "$ROOT/tests/user_events_61/"*.skip "$out/kselftest/user_events_61/"
# The fuzzer of make fuzz, not a kselftest (no TEST_GEN_PROGS): built
# by its Makefile, run as /samples/trace_fuzz.
ksft TARGETS=trace_fuzz
cp "$obj/kselftest/trace_fuzz/trace_fuzz" "$out/samples/trace_fuzz"

# Samples and benchmarks are compiled where they sit, so their includes
# resolve as in the kernel.
cd "$ROOT"
for f in samples/user_events/*.c; do
	[ -f "$f" ] && build "$src/$f" "$out/samples/$(basename "$f" .c)"
done
for f in bench/*.c; do
	[ -f "$f" ] && build "$ROOT/$f" "$out/bench/$(basename "$f" .c)"
done
# Helpers the shell tests run (not tests themselves), in /samples
for f in tests/tools/*.c; do
	[ -f "$f" ] && build "$ROOT/$f" "$out/samples/$(basename "$f" .c)"
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
