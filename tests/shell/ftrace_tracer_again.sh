#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The function and function_graph tracers set a second time.  The second
# time, the call inside the tracer's trampoline is patched in place rather
# than built with the trampoline; a callback at an odd address (GCC leaves
# functions unaligned when it optimizes for size) was then patched in as a
# jmp, bit 0 being the mark of a direct caller that jumps, and the next
# traced function never returned to its caller.  Each tracer runs twice on
# one function, and the second run records it.
. /tests/lib.sh
[ -f $T/available_tracers ] || skip "no tracers"
F=$T/set_ftrace_filter
trap 'echo nop > $T/current_tracer; echo > $F; tracing_reset' EXIT
tracing_reset
for tracer in function function_graph; do
	grep -qw $tracer $T/available_tracers || skip "no $tracer tracer"
	echo ksys_write > $F || fail "cannot filter on ksys_write"
	for round in 1 2; do
		echo > $T/trace
		bounded 60 sh -c "echo $tracer > $T/current_tracer" ||
			fail "$tracer, round $round: not set"
		echo "$tracer round $round" > /dev/null
		# read before the next tracer, whose setting empties the buffer
		echo 0 > $T/tracing_on
		n=$(grep -c 'ksys_write' $T/trace)
		echo 1 > $T/tracing_on
		bounded 60 sh -c "echo nop > $T/current_tracer" ||
			fail "$tracer, round $round: not unset"
		[ "$n" -gt 0 ] || fail "$tracer, round $round: ksys_write not traced"
	done
done
echo > $F
