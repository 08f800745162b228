#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A ":1" trigger hit by writers on several CPUs at once fires exactly once;
# ":3" exactly three times.
. /tests/lib.sh
P=$T/events/ftrace/print/trigger
tracing_reset
ncpu=$(grep -c '^processor' /proc/cpuinfo)
echo "cpus: $ncpu"

# writer TAG - 200 marker writes (no fork per write: echo is built in).
writer() { i=0; while [ $i -lt 200 ]; do echo "$1$i" > $T/trace_marker; i=$((i + 1)); done; }

for n in 1 3; do
	echo > $T/trace
	echo "stacktrace:$n" > $P
	writer a & a=$!
	writer b & b=$!
	writer c
	wait $a $b
	expect_eq "stacktrace:$n listing" "stacktrace:count=0" "$(cat $P)"
	expect_eq "stack traces for :$n" $n "$(grep -c '<stack trace>' $T/trace)"
	expect_eq "markers" 600 "$(grep -c 'tracing_mark_write: [abc][0-9]' $T/trace)"
	echo '!stacktrace' > $P
done
tracing_reset
