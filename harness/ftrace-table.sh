#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ftrace-table.sh - run every upstream ftrace selftest in the scope of
# tests/ftrace.list on the base kernel and on ours, booted the same way,
# print one row per test, and hold the list to account: a test that passes
# on the base must be listed, and a test left out (a "# PATH: reason" line
# of the list) must not pass on the base.  Exits 1 when the list is wrong
# or a listed test does not pass on ours.
. "$(dirname "$0")/lib.sh"

# What the list covers, as globs under the base's ftrace test.d/
SCOPE="trigger/*.tc trigger/inter-event/*.tc filter/*.tc event/*.tc dynevent/*synth*.tc"
list=$ROOT/tests/ftrace.list
tests=$(cd "$(base_tree)/tools/testing/selftests/ftrace/test.d" && ls $SCOPE)

"$ROOT/harness/build-kernel.sh" ours
"$ROOT/harness/build-kernel.sh" base
"$ROOT/harness/programs.sh"
job=$B/ftrace-table.job
{
	echo 'cat > /tmp/all.list <<"LIST"'
	echo "$tests"
	echo 'LIST'
	echo 'TS_FTRACE_LIST=/tmp/all.list sh /tests/run-tests.sh'
} > "$job"
"$ROOT/harness/initramfs.sh" "$job"
declare -A verdict
for v in base ours; do
	say "the upstream ftrace tests on the $v kernel"
	TS_QUIET=1 TS_INITRD=$B/initramfs-job.cpio "$ROOT/harness/vm.sh" "$v" compare \
		"ftrace-$v" quiet kunit.enable=0
	grep -q TS-DONE "$B/logs/ftrace-$v.out" || die "the $v run did not finish"
	while read -r _ name st _; do
		verdict[$v/${name#ftrace/}]=$st
	done < <(tr -d '\r' < "$B/logs/ftrace-$v.out" | grep '^TSRESULT ftrace/')
done

bad=0
printf '%-62s %-5s %-5s %s\n' test base ours "tests/ftrace.list"
for t in $tests; do
	b=${verdict[base/$t]:-none} o=${verdict[ours/$t]:-none}
	if grep -qxF "$t" "$list"; then
		row=listed
		[ "$o" = fail ] || [ "$o" = none ] && { row="listed, FAILS ON OURS"; bad=1; }
	elif reason=$(grep -m1 "^# $t: " "$list"); then
		row="left out: ${reason#"# $t: "}"
		[ "$b" = pass ] && { row="left out but PASSES ON THE BASE"; bad=1; }
	else
		row="MISSING"
		bad=1
	fi
	printf '%-62s %-5s %-5s %s\n' "$t" "$b" "$o" "$row"
done
[ $bad = 0 ] && say "tests/ftrace.list matches the base kernel's results"
exit $bad
