#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs every user-space test in the VM (or only $TS_TEST) and prints one
# `TSRESULT <name> <pass|fail|skip> [detail]` line per test.  Test output goes
# to the console, framed by `TSBEGIN`/`TSEND` so a kernel splat can be tied to
# the test that caused it.
timeout=${TS_TIMEOUT:-300}
con=/dev/console

# want NAME - is NAME the test asked for?  TS_TEST may be a shell glob
# (make check T='user_events*').
# shellcheck disable=SC2254
want() {
	[ -z "$TS_TEST" ] || [ "$TS_TEST" = "$1" ] || [ "${1%%.*}" = "$TS_TEST" ] ||
		{ [ "$TS_TEST" = ftrace-only ] && [ "${1#ftrace/}" != "$1" ]; } ||
		case $1 in $TS_TEST) true ;; *) false ;; esac
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

# cases NAME - one result per TAP test case of a kselftest-harness
# program (/tmp/out), and one for the whole program when its exit status
# $rc says what no case does.
cases() {
	awk -v bin="$1" '
		/^(not )?ok [0-9]+ / {
			st = ($1 == "not") ? "fail" : "pass"
			line = $0; sub(/^(not )?ok [0-9]+ /, "", line)
			if (line ~ /# *SKIP/) st = "skip"
			sub(/ *#.*$/, "", line)
			if (line == "") next
			printf "TSRESULT %s.%s %s\n", bin, line, st
			if (st == "fail") failed++
		}
		END { exit failed == 0 }' /tmp/out
	failed_cases=$?
	case $rc in
	0|4) ;;
	124) result "$1" fail "timed out after ${timeout}s" ;;
	*) [ $failed_cases = 0 ] || result "$1" fail "exit status $rc" ;;
	esac
}

# The kselftests, as their Makefiles installed them (programs.sh): every
# program of kselftest-list.txt, run in its folder.
ksft=/kselftest
# ksft_name COLLECTION PROGRAM - the name its results carry: the
# program's own, but the base's user_events tests (abi_test, ...), named
# for what they check only inside their folder, as user_events_base_NAME.
ksft_name() {
	case $1/$2 in
	user_events/user_events_*) echo "$2" ;;
	user_events/*) echo "user_events_base_$2" ;;
	*) echo "$2" ;;
	esac
}
if [ -f "$ksft/kselftest-list.txt" ]; then
	while IFS=: read -r collection prog; do
		name=$(ksft_name "$collection" "$prog")
		want "$name" || continue
		run "$name" sh -c "cd $ksft/$collection && exec ./$prog"
		cases "$name"
	done < "$ksft/kselftest-list.txt"
fi

# Programs linked with Debian's libraries (initramfs.sh), written with
# kselftest_harness.h.
for t in /clients/*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	want "$name" || continue
	run "$name" "$t"
	cases "$name"
done

# The base's own ftrace selftests: ftracetest.sh (its own file, so that
# what decides their verdicts is one file, keyed by harness/base-reference.sh).
. /tests/ftracetest.sh
