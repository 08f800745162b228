#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# fuzz.sh - make fuzz: boot a kernel with detectors (the debug kernel:
# KASAN, UBSAN, KFENCE, lockdep, kmemleak, hung-task and soft-lockup
# detection, fault injection) and run
# trace_fuzz's campaign on it (see tools/testing/selftests/trace_fuzz/README).
#
#   SEED, N (inputs) or T (seconds of programs), J (root workers), E
#   (steps of a program) pick the run; by default it ends by the host's
#   clock so that the whole of make fuzz, build and boot included,
#   takes TS_FUZZ_BUDGET seconds (900);
#   KCSAN=1 runs on the KCSAN kernel (config/kcsan.config) instead of
#   the debug one;
#   STOP=1 stops at the first report (make fuzz-planted);
#   TS_FUZZ_AFTER=FILE runs the commands of FILE in the VM afterwards;
#   REPLAY=FILE runs a saved program again (KEEP=list keeps only those
#   operations, SERIAL=1 runs them one after the other).
#
# Reports come from the fuzzer (the machine-readable channel) and from the
# console (report.py, as make check reads it).  Programs saved by the
# fuzzer leave the VM in base64 and land in build/fuzz/.  When the kernel
# ends the run (a panic, a stuck CPU, a machine that stops answering) the
# program of the epoch that was running is made again here, from the
# seed, with trace_fuzz -G.  A VM whose fuzzer prints nothing for
# TS_FUZZ_STALL seconds (default 300) is stopped.
#
# KCSAN=1 runs on arm64 unless ARCH= names another architecture.  Its
# vCPUs run at once (below), and under QEMU's threaded TCG a vCPU can
# still run code that the other has just live-patched (a static key, a
# static call) as it was: on x86 that may be the int3 of a patch in
# progress, and the kernel oopses on a breakpoint nobody set (seen 25 s
# into a KCSAN run, in ttwu_do_wakeup()).  arm64 patches one instruction
# for another (a NOP for a branch), so a stale copy runs the old one,
# which was valid a moment before.
if [ -n "${KCSAN:-}" ] && [ "$KCSAN" != 0 ] && [ -z "${TS_ARCH:-}" ] && [ -z "${ARCH:-}" ]; then
	export TS_ARCH=arm64
fi
. "$(dirname "$0")/lib.sh"

t_start=$(date +%s)
# KCSAN cannot share a kernel with KASAN: KCSAN=1 runs on a kernel of its own
# and its vCPUs each in a host thread of their own: KCSAN sees a race
# only when the other CPU touches the watched word during its short delay,
# which a vCPU sharing one host thread with the watcher almost never does
if [ -n "${KCSAN:-}" ] && [ "$KCSAN" != 0 ]; then
	variant=${TS_FUZZ_VARIANT:-kcsan}
	export TS_TCG_THREAD=${TS_TCG_THREAD:-multi}
else
	variant=${TS_FUZZ_VARIANT:-debug}
fi
seed=${SEED:-$(date +%s)} j=${J:-4} e=${E:-40} replay=${REPLAY:-}
# By default the programs stop by the host's clock, so that the whole
# run ends TS_FUZZ_BUDGET seconds after it began, however long the build
# took and however busy the host: the fuzzer reads the host's time from
# the VM's RTC (QEMU keeps it on the host's clock).  The last
# TS_FUZZ_RESERVE seconds are for what follows the programs: the last
# epoch, the final cleanup and kmemleak scan, the power-off and the
# reports.  T= is that many seconds of programs by the host's clock; N=
# alone runs that many operations whatever they take.
budget=${TS_FUZZ_BUDGET:-900} reserve=${TS_FUZZ_RESERVE:-120}
deadline=
if [ -z "${N:-}" ]; then
	n=1000000 t=${T:-0}
	[ -n "${T:-}" ] || deadline=$((t_start + budget - reserve))
else
	n=$N t=${T:-0}
fi
stall=${TS_FUZZ_STALL:-300}
"$ROOT/harness/build-kernel.sh" "$variant"
"$ROOT/harness/programs.sh"
fuzzer=$B/progs/samples/trace_fuzz
mkdir -p "$B/fuzz"

# KCSAN: a race counts when one of its stacks passes through a function
# of ours (trace_fuzz -k, report.py with TS_OURS_SYMS); the others are
# listed as the base's.  Every epoch starts with two CPUs on one map
# (trace_fuzz -c).
syms=
if [ "$variant" = kcsan ]; then
	syms=$B/fuzz/ours.syms
	ours_syms "$variant" > "$syms"
fi

# The programs' deadline by the host's clock; at least a minute of them
# when the build took the whole budget
if [ -n "$deadline" ] && [ "$deadline" -lt $(($(date +%s) + 60)) ]; then
	say "the build took most of the ${budget}s budget: a minute of programs"
	deadline=$(($(date +%s) + 60))
fi

job=$B/fuzz.job
{
	echo 'echo "TSBEGIN fuzz" > /dev/console'
	[ -n "$syms" ] && { echo 'cat > /tmp/ours.syms <<"SYMS"'; cat "$syms"; echo 'SYMS'; }
	if [ -n "$replay" ]; then
		[ -f "$replay" ] || die "no program file $replay"
		echo 'base64 -d > /tmp/replay.seq <<"B64"'
		base64 "$replay"
		echo 'B64'
		echo "/samples/trace_fuzz -r /tmp/replay.seq ${KEEP:+-K $KEEP} ${SERIAL:+-S} -o /tmp ${syms:+-k /tmp/ours.syms}"
	else
		echo "/samples/trace_fuzz -s $seed -n $n -t $t ${deadline:+-d $deadline} -j $j -e $e -o /tmp ${STOP:+-x} ${syms:+-k /tmp/ours.syms -c}"
	fi
	echo 'rc=$?'
	# TS_FUZZ_AFTER=FILE: commands run after the fuzzer (to look around)
	[ -n "${TS_FUZZ_AFTER:-}" ] && cat "$TS_FUZZ_AFTER"
	echo 'echo "TSRESULT fuzz $([ $rc = 0 ] && echo pass || echo fail)"'
	echo 'echo "TSEND fuzz" > /dev/console'
} > "$job"
"$ROOT/harness/initramfs.sh" "$job"
if [ -n "$deadline" ]; then
	limit="until $(date -d "@$deadline" +%T) by the host's clock ($((deadline - $(date +%s)))s)"
elif [ "$t" != 0 ]; then
	limit="for ${t}s"
else
	limit="$n inputs"
fi
say "fuzzing on the $variant kernel: ${replay:+replaying $replay}${replay:-seed $seed, $limit, $j workers and an unprivileged one, $e steps}"

# descendants PID - the processes PID started, and theirs
descendants() {
	local c
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		echo "$c"
		descendants "$c"
	done
}

# The VM, watched for output.  no5lvl: QEMU's CPU offers 5-level paging,
# and an interrupt taken while the boot CPU's features are being read
# again (identify_cpu()) seems to be why KASAN once called a spinlock of
# the direct map (0xff11...) a wild access, at boot, long before any
# test; our code plays no part in it.
out=$B/logs/fuzz.out
console=$B/logs/fuzz.console
t0=$(date +%s)
env TS_QUIET=1 TS_INITRD="$B/initramfs-job.cpio" TS_MEM="${TS_MEM:-2G}" \
	TS_VM_TIMEOUT="${TS_VM_TIMEOUT:-7200}" \
	"$ROOT/harness/vm.sh" "$variant" fuzz fuzz loglevel=5 kunit.enable=0 \
	rcupdate.rcu_expedited=1 oops=panic kfence.sample_interval=10 no5lvl \
	${TS_FUZZ_CMDLINE:-} &
vm_pid=$!
# The fuzzer's own channel: the console of a hung kernel keeps growing
# (a hung-task report every 20 s).  Once the fuzzer has said it restarts
# the machine, 20 s are enough.
stalled=0
while kill -0 "$vm_pid" 2>/dev/null; do
	sleep 5
	last=$(stat -c %Y "$out" 2>/dev/null || true)
	limit=$stall
	grep -q 'the machine restarts' "$out" 2>/dev/null && limit=20
	if [ -n "$last" ] && [ $(($(date +%s) - last)) -gt "$limit" ]; then
		stalled=1
		# shellcheck disable=SC2046
		kill -TERM $(descendants "$vm_pid") "$vm_pid" 2>/dev/null || true
		break
	fi
done
set +e
wait "$vm_pid"
vm=$?
set -e
secs=$(($(date +%s) - t0))

# Saved programs, out of the result channel; the fuzzer's own lines.  A
# file the kernel cut short (no FUZZ-END) is dropped, to be made again
# from the seed below.
tr -d '\r' < "$out" | awk -v dir="$B/fuzz" '
	/^FUZZ-FILE / { f = dir "/" $2; cmd = "base64 -d > " f; next }
	/^FUZZ-END / { if (cmd != "") close(cmd); cmd = ""; next }
	/^FUZZ-B64 / { if (cmd != "") print $2 | cmd; next }
	/^fuzz: / { print }
	END { if (cmd != "") { close(cmd); system("rm -f \"" f "\"") } }' 2>/dev/null
finished=0
grep -q '^TS-DONE' "$out" && finished=1

# A run the kernel ended: the program the watchdog saved, or else the
# last epoch's, made again here
if [ $finished = 0 ] && [ -z "$replay" ]; then
	epoch=$(tr -d '\r' < "$out" | sed -n 's/^fuzz: epoch \([0-9]*\).*/\1/p' | tail -n1)
	if grep -q 'REPORT stuck' "$out"; then
		epoch=$(tr -d '\r' < "$out" | sed -n 's/^fuzz: the program of epoch \([0-9]*\) .*/\1/p' |
			tail -n1)
	fi
	if [ -n "$epoch" ]; then
		f=$B/fuzz/fuzz-$seed-$epoch.seq
		[ -f "$f" ] || "$fuzzer" -s "$seed" -j "$j" -e "$e" ${syms:+-c} -G "$epoch" -o "$f"
		echo "fuzz: the run ended in epoch $epoch; its program is in ${f#$ROOT/}"
	fi
fi
[ $stalled = 1 ] && echo "FAIL the fuzz VM produced nothing for ${stall}s and was stopped"
[ "$vm" = 124 ] && echo "FAIL the fuzz VM did not finish in time"
set +e
TS_OURS_SYMS=$syms python3 "$ROOT/harness/report.py" "$console" "$out" fuzz > "$B/fuzz/report.txt"
rc=$?
set -e
grep -v '^PASS\|^[0-9]* passed' "$B/fuzz/report.txt" || true
echo "fuzz: $((secs / 60)) min $((secs % 60)) s on the $variant kernel," \
	"$(($(date +%s) - t_start)) s in all"
if [ $finished = 0 ]; then
	splats=$(grep -c '^FAIL kernel splat' "$B/fuzz/report.txt" || true)
	own=$(tr -d '\r' < "$out" | grep -c '^fuzz: REPORT' || true)
	inputs=$(tr -d '\r' < "$out" | sed -n 's/^fuzz: \([0-9]*\) inputs, .*/\1/p' | tail -n1)
	echo "fuzz: the run did not finish (see ${console#$ROOT/})"
	# a machine that resets without a word (a triple fault, the stack
	# overrun by a recursion) ended the run all the same
	if [ $((splats + own)) = 0 ] && [ $stalled = 0 ] && [ "$vm" != 124 ]; then
		echo "fuzz: REPORT machine: the VM stopped without a report in epoch ${epoch:-?}"
		own=1
	fi
	[ -n "$inputs" ] || echo "fuzz: ${inputs:-?} inputs, $((splats + own)) reports"
	exit 1
fi
exit $rc
