# SPDX-License-Identifier: GPL-2.0
# Sourced by run-tests.sh (its want, run and result).
# The base's own ftrace selftests, every test.d/*.tc (the whole of
# upstream's ftracetest), one at a time.  `TSFTRACE <path> <verdict>
# <seconds>` gives what ftracetest said: pass, fail, unsupported (or
# untested) or timeout.  With TS_FTRACE_REFERENCE=1 (the base kernel's
# run, harness/base-reference.sh) that is all; otherwise each is held to
# the base's verdict on the same configuration (/tests/reference/
# ftrace-base.txt): a test passes when it passes on ours, fails when it
# passes on the base and not on ours, and is skipped, with the reason
# tests/ftrace.list gives, when it does not pass on the base either.
# The debug kernel skips the folders of base code that
# tests/ftrace-debug.list names, with its reason.
ref=/tests/reference/ftrace-base.txt
reasons=/tests/ftrace.list
debug=
grep -q 'ts.variant=debug' /proc/cmdline && debug=/tests/ftrace-debug.list
ftrace_verdict() {
	awk -F: '/^# of / { sub(/^# of /, "", $1); n[$1] = $2 + 0 }
		END {
			bad = n["failed"] + n["unresolved"] + n["undefined(test bug)"]
			if (bad) print "fail"
			else if (n["passed"] + n["xfailed"]) print "pass"
			else if (n["unsupported"] + n["untested"]) print "unsupported"
			else print "fail" }' /tmp/out
}
# A test whose reason begins with "not run:" is not run on either kernel:
# it brings the base kernel down (an oops in a file not ours), and every
# test after it would hang on the lock the dead task holds.  A kernel that
# dies in a test anyway (TAINT_DIE, 128, in /proc/sys/kernel/tainted)
# ends the ftrace part there, naming the test (TSFTRACE-OOPS).
died() { [ $(($(cat /proc/sys/kernel/tainted 2>/dev/null || echo 0) & 128)) != 0 ]; }
# Three times the timeout of the other tests: direct/ftrace-direct.tc
# patches every function of the kernel a few times and takes 4 minutes
# under TCG on a loaded machine, more on ours, which has more functions.
timeout=$((timeout * 3))
if [ -d /ftrace/test.d ]; then
	for tc in $(cd /ftrace/test.d && find . -name '*.tc' | sed 's|^\./||' | LC_ALL=C sort); do
		name=ftrace/$tc
		want "$name" || continue
		why=$(sed -n "s|^$tc: *||p" $reasons 2>/dev/null | head -n 1)
		if [ -n "$debug" ]; then
			skip=$(sed -n "s|^${tc%%/*}/: *||p" $debug 2>/dev/null | head -n 1)
			if [ -n "$skip" ]; then
				echo "TSFTRACE $tc notrun 0"
				result "$name" skip "not run on the debug kernel: $skip"
				continue
			fi
		fi
		case $why in
		"not run:"*)
			echo "TSFTRACE $tc notrun 0"
			[ "${TS_FTRACE_REFERENCE:-0}" = 1 ] || result "$name" skip "$why"
			continue ;;
		esac
		mkdir -p /tmp/ftlog
		t0=$(date +%s)
		# ftracetest may run a test more than once (top level and
		# instance); an XFAIL test that fails as it expects has passed.
		run "$name" sh -c "cd /ftrace && dash ./ftracetest -l /tmp/ftlog -vv test.d/$tc"
		v=$(ftrace_verdict)
		[ $rc = 124 ] && v=timeout
		echo "TSFTRACE $tc $v $(($(date +%s) - t0))"
		if died; then
			echo "TSFTRACE-OOPS $tc"
			[ "${TS_FTRACE_REFERENCE:-0}" = 1 ] ||
				result "$name" fail "the kernel died in this test; the ftrace tests after it were not run"
			break
		fi
		if [ "${TS_FTRACE_REFERENCE:-0}" = 1 ]; then
			echo "TSEND $name $v" > $con
			continue
		fi
		b=$(awk -v t="$tc" '$1 == t { print $2 }' $ref 2>/dev/null)
		if [ "$v" = pass ]; then
			if [ "$b" = pass ] && [ -n "$why" ]; then
				result "$name" fail "passes on the base, yet tests/ftrace.list says: $why"
			else
				result "$name" pass
			fi
		elif [ "$b" = pass ]; then
			result "$name" fail "$v here, passes on the base"
		elif [ -z "$b" ]; then
			result "$name" fail "$v here, and no verdict of the base in $ref"
		elif [ -n "$why" ]; then
			result "$name" skip "$v here, $b on the base: $why"
		else
			result "$name" fail "$v here and $b on the base: tests/ftrace.list gives no reason"
		fi
	done
fi
