#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs every user-space test in the VM (or only $TS_TEST) and prints one
# `TSRESULT <name> <pass|fail|skip> [detail]` line per test.  Test output goes
# to the console, framed by `TSBEGIN`/`TSEND` so a kernel splat can be tied to
# the test that caused it.
timeout=${TS_TIMEOUT:-300}
con=/dev/console

want() {
	[ -z "$TS_TEST" ] || [ "$TS_TEST" = "$1" ] || [ "${1%%.*}" = "$TS_TEST" ] ||
		{ [ "$TS_TEST" = ftrace-only ] && [ "${1#ftrace/}" != "$1" ]; }
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
	4) result "$1" skip ;;
	124) result "$1" fail "timed out after ${timeout}s" ;;
	*) result "$1" fail "exit status $rc" ;;
	esac
}

# TS_FTRACE_LIST=FILE runs only the upstream ftrace tests FILE names
# (harness/ftrace-table.sh).
list=${TS_FTRACE_LIST:-/tests/ftrace.list}
[ -n "${TS_FTRACE_LIST:-}" ] && TS_TEST=ftrace-only

for t in /tests/shell/*.sh; do
	[ -f "$t" ] || continue
	name=$(basename "$t" .sh)
	want "$name" || continue
	run "$name" sh "$t"
	verdict "$name"
done

# kselftest-harness programs: one result per TAP test case.
for t in /kselftest/*; do
	[ -x "$t" ] || continue
	name=$(basename "$t")
	want "$name" || continue
	run "$name" "$t"
	awk -v bin="$name" '
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
	124) result "$name" fail "timed out after ${timeout}s" ;;
	*) [ $failed_cases = 0 ] || result "$name" fail "exit status $rc" ;;
	esac
done

# The base's own ftrace selftests named in tests/ftrace.list.
if [ -f "$list" ]; then
	while read -r tc; do
		case $tc in ''|'#'*) continue ;; esac
		name=ftrace/$tc
		want "$name" || continue
		mkdir -p /tmp/ftlog
		run "$name" sh -c "cd /ftrace && dash ./ftracetest -l /tmp/ftlog -vv test.d/$tc"
		# ftracetest may run a test more than once (top level and instance);
		# an XFAIL test that fails as it expects has passed.
		v=$(awk -F: '/^# of / { sub(/^# of /, "", $1); n[$1] = $2 + 0 }
			END {
				bad = n["failed"] + n["unresolved"] + n["undefined(test bug)"]
				if (bad) print "fail"
				else if (n["passed"] + n["xfailed"]) print "pass"
				else if (n["unsupported"] + n["untested"]) print "skip"
				else print "fail" }' /tmp/out)
		if [ $rc = 124 ]; then result "$name" fail "timed out after ${timeout}s"
		elif [ "$v" = fail ]; then result "$name" fail "ftracetest reported a failure"
		else result "$name" "$v"
		fi
	done < "$list"
fi
