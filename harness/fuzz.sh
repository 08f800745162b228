#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# fuzz.sh - make fuzz: boot a kernel (the debug kernel unless
# TS_FUZZ_VARIANT says otherwise) and run trace_fuzz on every user-space
# entry of the series.  SEED, N and J pick the run; REPLAY=FILE runs one
# saved input alone; STOP=1 stops at the first report (make fuzz-planted).  Reports are read from the console as make check
# does; inputs in flight at a report are saved in build/fuzz/.  Filter,
# trigger and pid writes each wait for an RCU grace period: expedited
# grace periods let several times more inputs through in the same time.
# An oops panics the VM (oops=panic): a fuzz thread that dies holding a
# lock would otherwise leave the run hanging until the VM's timeout; the
# splat on the console fails the run all the same.
. "$(dirname "$0")/lib.sh"

variant=${TS_FUZZ_VARIANT:-debug}
seed=${SEED:-$(date +%s)} n=${N:-200000} j=${J:-4} replay=${REPLAY:-}
stop=${STOP:+-x}
"$ROOT/harness/build-kernel.sh" "$variant"
"$ROOT/harness/programs.sh"
job=$B/fuzz.job
{
	echo 'echo "TSBEGIN fuzz" > /dev/console'
	if [ -n "$replay" ]; then
		[ -f "$replay" ] || die "no input file $replay"
		echo 'base64 -d > /tmp/input.bin <<"B64"'
		base64 "$replay"
		echo 'B64'
		echo '/samples/trace_fuzz -r /tmp/input.bin -o /tmp'
	else
		echo "/samples/trace_fuzz -s $seed -n $n -j $j -o /tmp $stop"
	fi
	echo 'rc=$?'
	# saved inputs leave the VM as base64 on the result channel
	echo 'for f in /tmp/fuzz-*.bin; do [ -f "$f" ] && { echo "FUZZ-FILE ${f#/tmp/}"; base64 "$f"; echo "FUZZ-END"; }; done'
	echo 'echo "TSRESULT fuzz $([ $rc = 0 ] && echo pass || echo fail)"'
	echo 'echo "TSEND fuzz" > /dev/console'
} > "$job"
"$ROOT/harness/initramfs.sh" "$job"
say "fuzzing on the $variant kernel: seed $seed, $n inputs, $j threads${replay:+, replaying $replay}"
set +e
TS_QUIET=1 TS_INITRD=$B/initramfs-job.cpio "$ROOT/harness/vm.sh" "$variant" fuzz fuzz \
	quiet kunit.enable=0 rcupdate.rcu_expedited=1 oops=panic ${TS_FUZZ_CMDLINE:-}
vm=$?
set -e
mkdir -p "$B/fuzz"
tr -d '\r' < "$B/logs/fuzz.out" | awk -v dir="$B/fuzz" '
	/^FUZZ-FILE / { f = dir "/" $2; cmd = "base64 -d > " f; next }
	/^FUZZ-END/ { close(cmd); cmd = ""; next }
	cmd != "" { print | cmd; next }
	/^fuzz: / { print }'
[ $vm = 124 ] && { echo "FAIL the fuzz VM did not finish in time"; exit 1; }
set +e
python3 "$ROOT/harness/report.py" "$B/logs/fuzz.console" "$B/logs/fuzz.out" fuzz
rc=$?
set -e
grep -q TS-DONE "$B/logs/fuzz.out" ||
	die "the fuzz run did not finish (the kernel panicked?): see build/logs/fuzz.console"
exit $rc
