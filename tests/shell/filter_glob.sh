#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# "~" matches the whole string, the same way on every kind of string
# field of a real event: char[16] (task_rename's newcomm), the task's comm
# (COMM), a __data_loc string (a kprobe's string argument) and the
# flexible char[] of trace_marker's records (buf, through a trigger's
# filter).  A pattern with no wildcard is equality: "abc" never matches
# "abcd".  The base kernel agrees on everything here but "*abc" on
# char[N] and COMM (it compares the end of the array, not of the string)
# and every glob, suffix and "*" on buf (it sees an empty string there).
. /tests/lib.sh
set -f	# the strings and patterns are not file names
E=$T/events/task/task_rename
P=$T/events/ftrace/print
[ -d $E ] || skip "no task_rename event"
K=$T/events/kp_glob/ren
cleanup() {
	echo 0 > $E/enable; echo 0 > $E/filter
	[ -d $K ] && { echo 0 > $K/enable; echo '-:kp_glob/ren' >> $T/kprobe_events; }
	echo '!traceoff' > $P/trigger
	tracing_reset
}
trap cleanup EXIT
tracing_reset
# The second argument of __set_task_comm() is the new name.
echo 'p:kp_glob/ren __set_task_comm s=+0(%si):string' >> $T/kprobe_events 2>/dev/null

STRS='abc abcd xabc abcabc ab bc aXc bbc cbc a*c xxxxxxxxxxxxabc abcxxxxxxxxxxxx'
ALL=$STRS

# Each subshell renames itself to a string, then to "zz".
rename_all() {
	for s in $STRS; do (echo -n "$s" > /proc/self/comm; echo -n zz > /proc/self/comm); done
}

# words: one word a line, sorted (the records of two CPUs may be listed
# out of order: the per-CPU clocks of the VM drift apart)
words() { tr ' ' '\n' | grep . | sort; }

# matched KIND OP PATTERN: the strings the filter lets through, sorted
matched() {
	case $1 in
	char16|COMM|dataloc)
		if [ $1 = char16 ]; then
			f=$E ex="newcomm $2 \"$3\""
		elif [ $1 = COMM ]; then
			f=$E ex="comm $2 \"$3\" && newcomm == \"zz\""
		else
			f=$K ex="s $2 \"$3\""
		fi
		echo "$ex" > $f/filter || fail "refused: $ex"
		echo > $T/trace
		echo 1 > $f/enable; rename_all; echo 0 > $f/enable
		echo 0 > $f/filter
		grep -v '^#' $T/trace | case $1 in
		char16) sed -n 's/.*newcomm=\([^ ]*\) .*/\1/p' ;;
		COMM) sed -n 's/.*oldcomm=\([^ ]*\) .*/\1/p' ;;
		dataloc) sed -n 's/.* s="\(.*\)"$/\1/p' ;;
		esac | grep -vx zz | words
		;;
	buf)
		echo "traceoff if buf $2 \"$3\"" > $P/trigger || fail "refused: buf $2 $3"
		got=
		for s in $STRS; do
			echo 1 > $T/tracing_on
			echo -n "$s" > $T/trace_marker
			[ "$(cat $T/tracing_on)" = 0 ] && got="$got $s"
		done
		echo 1 > $T/tracing_on
		echo '!traceoff' > $P/trigger
		echo "$got" | words
		;;
	esac
}

# check OP PATTERN EXPECTED: every kind lets exactly EXPECTED through
check() {
	for kind in char16 COMM dataloc buf; do
		[ $kind = dataloc ] && [ ! -d $K ] && continue
		expect_eq "$kind $1 '$2'" "$(echo "$3" | words)" "$(matched $kind "$1" "$2")"
	done
}

check '~' 'abc' 'abc'
check '~' 'abcabc' 'abcabc'
check '~' 'abc*' 'abc abcd abcabc abcxxxxxxxxxxxx'
check '~' '*abc' 'abc xabc abcabc xxxxxxxxxxxxabc'
check '~' '*xabc' 'xabc xxxxxxxxxxxxabc'
check '~' '*abc*' 'abc abcd xabc abcabc xxxxxxxxxxxxabc abcxxxxxxxxxxxx'
check '~' 'a?c' 'abc aXc a*c'
check '~' 'abc?' 'abcd'
check '~' '[ab]c' 'bc'
check '~' '[ab]bc' 'abc bbc'
check '~' '[!x]bc' 'abc bbc cbc'
check '~' 'ab[c]' 'abc'
check '~' 'a*c' 'abc abcabc aXc a*c'
check '~' 'a\*c' 'a*c'
check '~' '?bc*' 'abc abcd abcabc bbc cbc abcxxxxxxxxxxxx'
check '~' '*b?' 'abc xabc abcabc bc bbc cbc xxxxxxxxxxxxabc'
check '~' '*' "$ALL"
check '~' '!abc' 'abcd xabc abcabc ab bc aXc bbc cbc a*c xxxxxxxxxxxxabc abcxxxxxxxxxxxx'
check '~' '!*abc*' 'ab bc aXc bbc cbc a*c'
check '==' 'abc' 'abc'
check '==' 'abc*' ''
check '==' 'a*c' 'a*c'
check '!=' 'abc' 'abcd xabc abcabc ab bc aXc bbc cbc a*c xxxxxxxxxxxxabc abcxxxxxxxxxxxx'
exit 0
