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
	echo "!s:hsf_stack" >> $T/dynamic_events; echo > $T/trace' EXIT
tracing_reset
echo 's:hsf_stack pid_t pid; unsigned long[] stack;' >> $T/dynamic_events
for h in "$H1" "$H2" "$H3"; do echo "$h" >> $E/trigger; done
echo 1 > $S/enable
# a shell that ignores both sends itself USR1 and then USR2
sh -c 'trap "" USR1 USR2; kill -USR1 $$; kill -USR2 $$'
echo 0 > $S/enable

# the function of a frame line, "  name+0x1/0x2" or "=> name+0x1/0x2"
fn() { sed 's/^ *\(=> \)\{0,1\}//; s/+0x[0-9a-f]*\/0x[0-9a-f]*$//'; }
key=$(grep -A1 '^{ common_stacktrace:' $E/hist | sed -n 2p | fn)
var=$(grep -A1 ' hsf_stack: pid=[0-9]* stack=STACK:' $T/trace | sed -n 2p | fn)
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
