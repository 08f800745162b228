#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The stacktrace option on a filtered event: the stack entry of a record
# the filter kept starts with the frame the base kernel's starts with, the
# caller of the tracepoint, whichever way the probe took.  A small
# fixed-size event whose filter alone decides is built on the probe's
# stack and committed from below it (trace_event_filter_record()); no
# frame of that path, nor of the probe, may show.
. /tests/lib.sh
use_event signal/signal_generate
F=$T/events/sched/sched_process_fork
trap 'echo 0 > $T/options/stacktrace; echo 0 > $E/enable; echo 0 > $E/filter;
	echo 0 > $F/enable; echo 0 > $F/filter; echo > $T/trace' EXIT
tracing_reset
echo 1 > $T/options/stacktrace

# top PATTERN - the first frame of every stack entry after a record that
# matches PATTERN, one line each, in the order of the trace
top() {
	awk -v p="$1" '$0 ~ p { want = 1; next }
		want && /<stack trace>/ { getline; sub(/^ *=> /, ""); print; want = 0 }' $T/trace
}

# send - two USR1 to a shell that ignores them (signal_generate fires in
# __send_signal_locked() for each) and a USR2 it ignores too
send() { sh -c 'trap "" USR1 USR2; kill -USR1 $$; kill -USR2 $$; kill -USR1 $$'; }

for filter in 'sig == 10' 'sig == 10 && comm ~ "s*"' 0; do
	echo "$filter" > $E/filter
	echo 1 > $E/enable
	send
	echo 0 > $E/enable
	if [ "$filter" = 0 ]; then n=3; else n=2; fi
	expect_eq "[$filter] records" "$n" "$(grep -c 'signal_generate: sig=1[02] ' $T/trace)"
	expect_eq "[$filter] top frames" "$(printf 'trace_signal_generate\n%.0s' $(seq $n))" \
		"$(top 'signal_generate: sig=1[02] ')"
	echo > $T/trace
done

# the same on sched_process_fork, whose tracepoint is inlined in its caller
echo 'child_pid > 0' > $F/filter
echo 1 > $F/enable
/bin/true &
wait
echo 0 > $F/enable
expect_eq "fork records" 1 "$(grep -c 'sched_process_fork: ' $T/trace)"
expect_eq "fork top frame" "kernel_clone" "$(top 'sched_process_fork: ')"
expect_eq "no frame of the event layer or the filter" "" \
	"$(grep -E '=> (trace_event_|filter_record|trace_buffer_)' $T/trace)"
