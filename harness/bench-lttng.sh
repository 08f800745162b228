#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench-lttng.sh - the head-to-head of user_events, trace_marker and
# LTTng-UST on our kernel, in one boot of the bench VM (QEMU -icount
# shift=0,sleep=off, one vCPU, no address randomisation): bench/lttng/run.sh
# times one event per writer and consumer, then overloads each tracer.
# Prints the tables (also in build/bench-lttng.txt) and draws
# bench/lttng/h2h.png with gnuplot (the README shows it).
#
# The VM gets the usual initramfs plus a second archive: Debian's LTTng
# (session daemon, consumer daemon, lttng, the UST libraries it dlopen()s),
# babeltrace2 and its plugins, the dynamically linked bench/lttng/h2h and
# the script as /bench/lttng-h2h.
TS_WITH_LTTNG=1
. "$(dirname "$0")/lib.sh"

[ "$TS_ARCH" = x86_64 ] || die "make bench-lttng runs on x86_64 only (Debian's x86_64 LTTng)"
# The kernel is ours with config/lttng.config (what lttng-sessiond needs
# of the system), a build of its own: <linux/fs.h> tests the option, so
# starting from ours' objects would save next to nothing.
obj=$(variant_obj lttng)
"$ROOT/harness/build-kernel.sh" lttng
"$ROOT/harness/programs.sh"
"$ROOT/harness/initramfs.sh"

# The program, linked with Debian's liblttng-ust against our uapi headers
out=$B/progs/lttng
mkdir -p "$out"
gcc -O2 -g0 -Wall -I"$ROOT/bench/lttng" -I"$obj/usr/include" \
	-o "$out/h2h" "$ROOT/bench/lttng/h2h.c" "$ROOT/bench/lttng/h2h_tp.c" \
	-llttng-ust -ldl || die "cannot build bench/lttng/h2h"

root=$B/initramfs-lttng
multi=/usr/lib/x86_64-linux-gnu
rm -rf "$root" && mkdir -p "$root/bench"
install -m 755 "$ROOT/bench/lttng/run.sh" "$root/bench/lttng-h2h"
copy_dynamic_into "$root" "$out/h2h" /bench-lttng/h2h
for p in /usr/bin/lttng /usr/bin/lttng-sessiond "$multi/lttng/libexec/lttng-consumerd" \
	/usr/bin/babeltrace2 "$multi"/babeltrace2/plugins/*.so; do
	copy_dynamic_into "$root" "$p" "$p"
done
# lttng-sessiond checks the sessions it may load against this schema, and
# stops when it cannot read it
install -D -m 644 /usr/share/xml/lttng/session.xsd "$root/usr/share/xml/lttng/session.xsd"
# What LTTng-UST dlopen()s rather than links, where ldd puts the rest
for p in "$multi"/liblttng-ust*.so.[0-9]; do
	copy_dynamic_into "$root" "$(readlink -f "$p")" "/lib/x86_64-linux-gnu/${p##*/}"
done
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$B/lttng.cpio"
cat "$B/initramfs.cpio" "$B/lttng.cpio" > "$B/initramfs-lttng.cpio"

say "head-to-head on the lttng kernel (QEMU -icount shift=0,sleep=off)"
log=$B/logs/bench-lttng.out
TS_SMP=1 TS_QUIET=1 TS_ICOUNT=1 TS_INITRD=$B/initramfs-lttng.cpio "$ROOT/harness/vm.sh" \
	lttng bench bench-lttng quiet kunit.enable=0 norandmaps nokaslr ts.test=lttng-h2h
grep -q '^H2H-FAIL' "$log" && die "$(grep '^H2H-FAIL' "$log")"
grep -q '^H2H-END' "$log" || die "the head-to-head did not finish, see ${log#$ROOT/} and bench-lttng.console"

# bench/lttng/figures-x86_64.txt keeps every figure of the run; the
# user_events cover letter takes its head-to-head from there
# (harness/patches.sh)
python3 "$ROOT/harness/bench-lttng.py" "$log" "$B/bench-lttng.dat" "$ROOT/bench/lttng/figures-x86_64.txt" \
	"# make bench-lttng on x86_64, $(date -u +%Y-%m-%d): ours ($(base_label)) with
# Debian 12's LTTng $(dpkg-query -W -f '${Version}' lttng-tools 2>/dev/null || echo '?'), one boot of the bench VM.  Lines:
# cost STATE ROW THREAD_NS VCPU_NS (guest ns per event; STATE: off or the
# consumer), loss TRACER ROW WRITTEN KEPT LOST (one burst)." | tee "$B/bench-lttng.txt"
png=$ROOT/bench/lttng/h2h.png
gnuplot -e "data='$B/bench-lttng.dat'; out='$png'" "$ROOT/harness/bench-lttng.gp" ||
	die "gnuplot failed"
say "plot: ${png#$ROOT/}"
