#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs every user-space test in the VM (or only $TS_TEST) and prints one
# `TSRESULT <name> <pass|fail|skip> [detail]` line per test.  Test output goes
# to the console, framed by `TSBEGIN`/`TSEND` so a kernel splat can be tied to
# the test that caused it.
timeout=${TS_TIMEOUT:-300}
# ts.timeout= (the debug kernel) overrides the kselftests' own limits too
timeout_override=${TS_TIMEOUT:-}
con=/dev/console

# want NAME - is NAME the test asked for?  TS_TEST may be a shell glob
# (make check T='user_events*'), or several separated by commas.
# shellcheck disable=SC2254
want() {
	[ -z "$TS_TEST" ] && return 0
	[ "$TS_TEST" = ftrace-only ] && { [ "${1#ftrace/}" != "$1" ]; return; }
	rest=$TS_TEST,
	while [ -n "$rest" ]; do
		pat=${rest%%,*} rest=${rest#*,}
		[ "$pat" = "$1" ] || [ "${1%%.*}" = "$pat" ] && return 0
		case $1 in $pat) return 0 ;; esac
	done
	return 1
}

result() { echo "TSRESULT $*"; echo "TSEND $1 $2" > $con; }

# run NAME CMD... - run one test with the timeout; sets $rc (124 = timed out).
run() {
	name=$1; shift
	echo "TSBEGIN $name" > $con
	echo > /sys/kernel/tracing/trace 2>/dev/null
	timeout -s KILL "$timeout" "$@" > /tmp/out 2>&1 < /dev/null
	rc=$?
	cat /tmp/out > $con
	[ $rc = 137 ] && rc=124
}

verdict() {
	case $rc in
	0) result "$1" pass ;;
	4) result "$1" skip "$(sed -n 's/^SKIP: //p' /tmp/out | tail -n 1)" ;;
	124) result "$1" fail "timed out after ${timeout}s" ;;
	*) result "$1" fail "exit status $rc" ;;
	esac
}

# What this VM lacks, one `NAME REASON` line each (initramfs.sh): on arm64,
# the clients built on Debian's x86_64 libraries.
if [ -f /tests/skipped ]; then
	while read -r name why; do
		want "$name" && result "$name" skip "$why"
	done < /tests/skipped
fi

for t in /tests/shell/*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	want "$name" || continue
	run "$name" sh "$t"
	verdict "$name"
done

# cases NAME - one TSRESULT line per test case of the KTAP in /tmp/out
# (its top-level "ok N case" and "not ok N case" lines; "# SKIP" skips,
# an XFAIL is an ok), then the counts as shell assignments: ran, failed
# and plan (the N of "1..N").
cases() {
	awk -v bin="$1" '
		/^1\.\.[0-9]+/ { plan = substr($1, 4) + 0 }
		/^(not )?ok [0-9]+ / {
			st = ($1 == "not") ? "fail" : "pass"
			line = $0; sub(/^(not )?ok [0-9]+ /, "", line)
			if (line ~ /# *SKIP/) st = "skip"
			sub(/ *#.*$/, "", line)
			if (line == "") next
			printf "TSRESULT %s.%s %s\n", bin, line, st
			ran++
			if (st == "fail") failed++
		}
		END { printf "ran=%d failed=%d plan=%d\n", ran, failed, plan }' /tmp/out
}

# program NAME - the results of a kselftest-harness program from its KTAP
# and exit status $rc (124: timed out after $limit s): its cases, and a
# line for the whole program where they do not tell, which is when it
# timed out, skipped or passed without a case, ended before reporting
# every case it planned, or failed with no case failed.
program() {
	cases "$1" > /tmp/cases
	grep '^TSRESULT' /tmp/cases
	ran=0 failed=0 plan=0
	eval "$(tail -n 1 /tmp/cases)"
	if [ "$rc" = 124 ]; then
		echo "TSRESULT $1 fail timed out after ${limit}s"
	elif [ "$failed" -gt 0 ]; then
		:
	elif [ "$plan" -gt "$ran" ]; then
		echo "TSRESULT $1 fail $((plan - ran)) of $plan cases unreported, exit status $rc"
	elif [ "$rc" = 4 ] && [ "$ran" = 0 ]; then
		why=$(grep -o 'SKIP.*' /tmp/out | tail -n 1 | sed 's/^SKIP:* *//')
		echo "TSRESULT $1 skip $why"
	elif [ "$rc" = 0 ] && [ "$ran" = 0 ]; then
		echo "TSRESULT $1 pass"
	elif [ "$rc" != 0 ] && [ "$rc" != 4 ]; then
		echo "TSRESULT $1 fail exit status $rc"
	fi
}

# program_end NAME [SKIPS] - the verdicts of program NAME's run, then a
# skip line for each case the file SKIPS names ("CASE WHY" lines), and
# its end.
program_end() {
	program "$1"
	if [ -n "${2:-}" ] && [ -f "$2" ]; then
		while read -r c why; do
			echo "TSRESULT $1.$c skip $why"
		done < "$2"
	fi
	echo "TSEND $1 $rc" > $con
}

# The kselftests, run as the kernel's kselftest runner runs them (make
# run_tests, run_kselftest.sh): every program of kselftest-list.txt in
# its folder, for the timeout of the folder's settings file (45 s
# without one), or the one ts.timeout= gives (as run_kselftest.sh -o
# overrides the settings).  The runner's exit codes: 0 passes, 4 skips,
# a timeout fails (TERM at the limit, then KILL 10 s later), anything
# else fails.  Each prints its KTAP, read one result per case.
ksft=/kselftest
ksft_nr=0
# ksft_limit COLLECTION - set $limit, the seconds a program of COLLECTION
# may run
ksft_limit() {
	limit=45
	if [ -r "$ksft/$1/settings" ]; then
		v=$(sed -n 's/^timeout=\([0-9][0-9]*\)$/\1/p' "$ksft/$1/settings" | tail -n 1)
		[ -n "$v" ] && limit=$v
	fi
	[ -n "$timeout_override" ] && limit=$timeout_override
	return 0
}
# ksft_name COLLECTION PROGRAM - the name its results carry: the
# program's own, but the base's user_events tests (abi_test, ...), named
# for what they check only inside their folder, as user_events_base_NAME,
# and Linux 6.1's as user_events_61_NAME.  The 32-bit builds of
# user_events (folder user_events_32) add 32 to those names.
ksft_name() {
	case $1/$2 in
	user_events/user_events_*) echo "$2" ;;
	user_events/*) echo "user_events_base_$2" ;;
	user_events_61/*) echo "user_events_61_$2" ;;
	user_events_32/user_events_*) echo "${2}32" ;;
	user_events_32/*) echo "user_events_base_${2}32" ;;
	*) echo "$2" ;;
	esac
}
# ksft_run COLLECTION PROGRAM - one program, with the runner's lines
# around its output on the console
ksft_run() {
	name=$(ksft_name "$1" "$2")
	ksft_limit "$1"
	ksft_nr=$((ksft_nr + 1))
	echo "TSBEGIN $name" > $con
	echo "# selftests: $1: $2 (timeout $limit s)" > $con
	echo > /sys/kernel/tracing/trace 2>/dev/null
	# PROGRAM.skip: cases left out, one "fixture.case reason" a line
	# (kselftest_harness.h's -T takes the case's name alone)
	skips=$ksft/$1/$2.skip
	args=$(if [ -f "$skips" ]; then sed -n 's/^[^ .]*\.\([^ ]*\) .*/-T \1/p' "$skips"; fi)
	start=$(date +%s)
	# shellcheck disable=SC2086
	(cd "$ksft/$1" && timeout -k 10 "$limit" "./$2" $args) > /tmp/out 2>&1 < /dev/null
	rc=$?
	took=$(($(date +%s) - start))
	cat /tmp/out > $con
	# busybox's timeout ends the program with TERM (or KILL): a
	# program so ended before its time was killed, not timed out.
	case $rc in
	137|143) [ "$took" -ge "$limit" ] && rc=124 ;;
	esac
	echo "# $2: exit status $rc after $took s" > $con
	case $rc in
	0) echo "ok $ksft_nr selftests: $1: $2" ;;
	4) echo "ok $ksft_nr selftests: $1: $2 # SKIP" ;;
	124) echo "not ok $ksft_nr selftests: $1: $2 # TIMEOUT $limit seconds" ;;
	*) echo "not ok $ksft_nr selftests: $1: $2 # exit=$rc" ;;
	esac > $con
	program_end "$name" "$skips"
}
if [ -f "$ksft/kselftest-list.txt" ]; then
	while IFS=: read -r collection prog; do
		want "$(ksft_name "$collection" "$prog")" || continue
		ksft_run "$collection" "$prog" < /dev/null
	done < "$ksft/kselftest-list.txt"
fi

# Programs linked with Debian's libraries (initramfs.sh), written with
# kselftest_harness.h: run as the shell tests are, read as the
# kselftests are.
for t in /clients/*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	want "$name" || continue
	limit=$timeout
	run "$name" "$t"
	program_end "$name"
done

# The base's own ftrace selftests: ftracetest.sh (its own file, so that
# what decides their verdicts is one file, keyed by harness/base-reference.sh).
. /tests/ftracetest.sh
