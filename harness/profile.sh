#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# profile.sh SCRIPT FUNC [BASE_FUNC] - where the instructions of one call
# go, on our kernel and on the base kernel (of BASE_FUNC there, when the
# two kernels name the function apart).  PROF_COND, a gdb condition,
# picks the calls to count: PROF_COND='$rsi == 0x40082a02' takes only
# the ioctls DIAG_IOCSUNREG of x86-64 (cmd is the second argument).
# PROF_MAX (100000) caps the instructions stepped through per call.
#
# Boots each kernel under QEMU -icount with its gdb stub open and runs
# SCRIPT (busybox sh, as root) in the VM.  The script sets things up,
# prints PROF-READY and then keeps making FUNC run (it never returns);
# see tests/profile/.  gdb then stops at the second call of FUNC (the
# first may still be cold), single-steps it to its return and counts the
# instructions spent in every function on the way.  Instructions, not
# time: the figures repeat exactly and show where a benchmark's cost is.
#
# Output: one table per kernel in build/logs/profile-<kernel>.txt, shown
# side by side: the kernels of the tests and of make bench, built -O2.
. "$(dirname "$0")/lib.sh"

read -r ours base <<< "$(opt_kernels)"

script=${1:-} func=${2:-} base_func=${3:-${2:-}}
[ -n "$script" ] && [ -f "$script" ] && [ -n "$func" ] ||
	die "usage: make profile SCRIPT=file FUNC=kernel_function"
"$ROOT/harness/build-kernel.sh" $ours
"$ROOT/harness/build-kernel.sh" $base
"$ROOT/harness/programs.sh"
"$ROOT/harness/initramfs.sh" "$script"
mkdir -p "$B/logs"

steps=$B/logs/profile-steps.py
cat > "$steps" <<'PY'
import collections, gdb, os
gdb.execute("set pagination off")
gdb.execute("target remote :" + os.environ["PROF_PORT"])
cond = os.environ.get("PROF_COND", "")
gdb.execute("hbreak " + os.environ["PROF_FUNC"] + (" if " + cond if cond else ""))
gdb.execute("continue")
gdb.execute("continue")
sp0 = int(gdb.parse_and_eval("$sp"))
count, order, n = collections.Counter(), [], 0
while n < int(os.environ.get("PROF_MAX", "100000")):
    pc = int(gdb.parse_and_eval("$pc"))
    name = gdb.execute("info symbol %d" % pc, to_string=True).split()[0]
    count[name] += 1
    if not order or order[-1][0] != name:
        order.append([name, 0])
    order[-1][1] += 1
    n += 1
    gdb.execute("stepi", to_string=True)
    if int(gdb.parse_and_eval("$sp")) > sp0:
        break
print("PROFILE %d instructions" % n)
for name, c in count.most_common():
    print("%7d  %s" % (c, name))
print("in call order:")
for name, c in order:
    print("%7d  %s" % (c, name))
gdb.execute("kill")
PY

port=$((20000 + RANDOM % 10000))
for k in $ours $base; do
	v=$k
	out=$B/logs/profile-$v
	rm -f "$out.out"
	TS_SMP=1 TS_QUIET=1 TS_ICOUNT=1 TS_INITRD=$B/initramfs-job.cpio \
		TS_QEMU_ARGS="-gdb tcp:127.0.0.1:$port" \
		"$ROOT/harness/vm.sh" $k compare profile-$v quiet kunit.enable=0 \
		norandmaps nokaslr &
	vm=$!
	for _ in $(seq 300); do
		grep -q PROF-READY "$out.out" 2>/dev/null && break
		kill -0 $vm 2>/dev/null || break
		sleep 1
	done
	# stopping vm.sh's timeout stops its QEMU
	grep -q PROF-READY "$out.out" || {
		kill $(cat /proc/$vm/task/*/children 2>/dev/null) 2>/dev/null || true
		die "the $v VM never printed PROF-READY"
	}
	f=$func
	[ $v = base ] && f=$base_func
	PROF_PORT=$port PROF_FUNC=$f timeout $((600 * ${PROF_MAX:-100000} / 100000)) gdb -q -batch -x "$steps" \
		"$(variant_obj $k)/vmlinux" 2>/dev/null |
		sed -n "/^PROFILE/,\$p" | sed "1s/^PROFILE/$v:/" > "$out.txt"
	wait $vm || true
	grep -q "^$v:" "$out.txt" || die "gdb did not profile $f on the $v kernel"
done
say "instructions per call of $func, $base_func on the base (build/logs/profile-{ours,base}.txt)"
pr -m -t -w 100 <(sed '/^in call order/,$d' "$B/logs/profile-ours.txt") \
	<(sed '/^in call order/,$d' "$B/logs/profile-base.txt")
