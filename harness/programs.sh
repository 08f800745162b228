#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the statically linked user-space programs the VM runs: kselftests,
# samples and benchmarks, against our kernel's exported uapi headers.
. "$(dirname "$0")/lib.sh"

src=$B/src
hdr=$(variant_obj ours)/usr/include
[ -d "$hdr" ] || die "no uapi headers: build the kernel first"
out=$B/progs
mkdir -p "$out/kselftest" "$out/samples" "$out/bench"
CFLAGS="-static -O2 -g0 -Wall -pthread -I$src/tools/testing/selftests -I$hdr"

# build SOURCE DEST - compile when the source or the headers are newer.
build() {
	if [ ! -x "$2" ] || [ "$1" -nt "$2" ] || [ "$hdr/linux/version.h" -nt "$2" ]; then
		# shellcheck disable=SC2086
		gcc $CFLAGS -o "$2" "$1" -lm || die "cannot build ${1#$ROOT/}"
	fi
}

cd "$ROOT"
for f in tools/testing/selftests/*/*_test.c; do
	[ -f "$f" ] && build "$ROOT/$f" "$out/kselftest/$(basename "$f" .c)"
done
for f in samples/user_events/*.c; do
	[ -f "$f" ] && build "$ROOT/$f" "$out/samples/$(basename "$f" .c)"
done
for f in bench/*.c; do
	[ -f "$f" ] && build "$ROOT/$f" "$out/bench/$(basename "$f" .c)"
done
exit 0
