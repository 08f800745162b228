#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A histogram's stack starts at the code that fired the event, whether
# it is a key (common_stacktrace in keys=) or a variable handed to a
# synthetic event's stack field: both start at the same frame, and no
# frame of the trace core shows above it.
. /tests/lib.sh
use_event signal/signal_generate
S=$T/events/synthetic/hsf_stack
H1='hist:keys=common_stacktrace if sig == 10'
H2='hist:keys=common_pid:st=common_stacktrace if sig == 10'
H3='hist:keys=common_pid:s=$st:onmatch(signal.signal_generate).trace(hsf_stack,common_pid,$s) if sig == 12'
trap 'echo 0 > $S/enable 2>/dev/null
	for h in "$H3" "$H2" "$H1"; do echo "!$h" >> $E/trigger; done 2>/dev/null
	echo "!s:hsf_stack" >> $T/dynamic_events; echo > $T/trace
	echo > $T/error_log' EXIT
tracing_reset
echo 's:hsf_stack pid_t pid; unsigned long[] stack;' >> $T/dynamic_events
for h in "$H1" "$H2" "$H3"; do echo "$h" >> $E/trigger; done
echo 1 > $S/enable
# a shell that ignores both sends itself USR1 and then USR2
sh -c 'trap "" USR1 USR2; kill -USR1 $$; kill -USR2 $$'
echo 0 > $S/enable

# top FILE START END - the first function of the stack after the line
# matching START, up to one matching END, that is not a frame of the trace
# core a build may keep or not (STACK_CORE_FRAMES)
top() {
	awk -v s="$2" -v e="$3" -v core="^($STACK_CORE_FRAMES)\$" '
		$0 ~ s { on = 1; next }
		on && $0 ~ e { exit }
		on {
			f = $0; sub(/^ *(=> )?/, "", f)
			sub(/\+0x[0-9a-f]+\/0x[0-9a-f]+$/, "", f)
			if (f !~ core) { print f; exit }
		}' "$1"
}
key=$(top $E/hist '^[{] common_stacktrace:' '^[}]')
var=$(top $T/trace ' hsf_stack: pid=[0-9]* stack=STACK:' '^ *[^ =]')
expect_eq "key stack records" 1 "$(grep -c '^{ common_stacktrace:' $E/hist)"
expect_eq "synthetic records" 1 "$(grep -c ' hsf_stack: ' $T/trace)"
[ -n "$key" ] || fail "no frame in the key's stack"
expect_eq "variable's stack starts as the key's" "$key" "$var"
case $key in
trace_*|*_trace_*|event_*|hist_*|synth_*|tracing_*|__traceiter_*)
	fail "the stack starts in the trace core: $key" ;;
esac
for h in "$H3" "$H2" "$H1"; do echo "!$h" >> $E/trigger; done
expect_eq "triggers removed" "" "$(grep -v '^#' $E/trigger)"
