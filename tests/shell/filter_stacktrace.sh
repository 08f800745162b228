#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Stack traces recorded with events start at the frame where the base
# kernel's start.  The stacktrace option on a filtered event: a small
# fixed-size event whose filter alone decides is built on the probe's
# stack and committed from below it (trace_event_filter_record()), and no
# frame of that path may show; its trace starts where the plain path's
# does.  The stacktrace trigger: where the base's starts.  On x86_64 the
# VM's kernels unwind with ORC (config/arch-x86_64.config), and the base
# kernel starts both at the event's probe function (recorded with
# make compare); elsewhere only the two paths of the option are compared.
. /tests/lib.sh
use_event signal/signal_generate
F=$T/events/sched/sched_process_fork
trap 'echo 0 > $T/options/stacktrace; echo 0 > $E/enable; echo 0 > $E/filter;
	echo "!stacktrace" > $E/trigger; echo "!stacktrace if sig == 10" > $E/trigger;
	echo 0 > $F/enable; echo 0 > $F/filter; echo > $T/trace' EXIT
tracing_reset
probe=trace_event_raw_event_signal_generate
[ "$(uname -m)" = x86_64 ] && orc=1 || orc=0

# top PATTERN - the first frame of every stack entry after a record that
# matches PATTERN, one line each, in the order of the trace
top() {
	awk -v p="$1" '$0 ~ p { want = 1; next }
		want && /<stack trace>/ { getline; sub(/^ *=> /, ""); print; want = 0 }' $T/trace
}

# send - two USR1 to a shell that ignores them (signal_generate fires in
# __send_signal_locked() for each) and a USR2 it ignores too
send() { sh -c 'trap "" USR1 USR2; kill -USR1 $$; kill -USR2 $$; kill -USR1 $$'; }

# nlines N WORD - WORD on N lines
nlines() { printf "$2\n%.0s" $(seq $1); }

# no_path_frames WHAT - no frame of the filter-first path in the trace
no_path_frames() {
	expect_eq "$1" "" "$(grep -E \
		'=> (trace_event_filter_record|filter_record_keep|trace_event_buffer_commit|trace_buffer_)' $T/trace)"
}

echo 1 > $T/options/stacktrace
for filter in 0 'sig == 10' 'sig == 10 && comm ~ "s*"'; do
	echo "$filter" > $E/filter
	echo 1 > $E/enable
	send
	echo 0 > $E/enable
	if [ "$filter" = 0 ]; then n=3; else n=2; fi
	expect_eq "[$filter] records" "$n" "$(grep -c 'signal_generate: sig=1[02] ' $T/trace)"
	tops=$(top 'signal_generate: sig=1[02] ')
	# the plain path's (no filter) sets what the others must show
	[ "$filter" = 0 ] && plain=$(echo "$tops" | head -1)
	[ $orc = 1 ] && expect_eq "[$filter] the base's top frame" "$probe" "$plain"
	expect_eq "[$filter] top frames" "$(nlines $n "$plain")" "$tops"
	no_path_frames "[$filter] no frame of the filter's path"
	echo > $T/trace
done
echo 0 > $E/filter

# the same on sched_process_fork, whose tracepoint is inlined in its caller
echo 'child_pid > 0' > $F/filter
echo 1 > $F/enable
/bin/true &
wait
echo 0 > $F/enable
expect_eq "fork records" 1 "$(grep -c 'sched_process_fork: ' $T/trace)"
[ $orc = 1 ] && expect_eq "fork top frame" trace_event_raw_event_sched_process_fork \
	"$(top 'sched_process_fork: ')"
no_path_frames "no frame of the filter's path (fork)"
echo 0 > $T/options/stacktrace
echo > $T/trace
[ $orc = 1 ] || exit 0

# the stacktrace trigger, without and with a filter of its own: the
# unfiltered one also sees the SIGCHLD of send's shell, and any other
# signal of the VM, so it counts at least the three.  Its trace starts
# at the probe where trace_event_buffer_commit() ends with a jump to
# event_triggers_post_call(), as in the optimized kernel; the debug
# kernel's keeps that frame (this code of trace.c is the base's, and so
# is the count of frames the trigger hides).
trig_top=$probe
grep -q 'ts.variant=debug' /proc/cmdline && trig_top=trace_event_buffer_commit
for cond in '' ' if sig == 10'; do
	echo "stacktrace$cond" > $E/trigger
	send
	echo "!stacktrace$cond" > $E/trigger
	tops=$(grep -A1 '<stack trace>' $T/trace | sed -n 's/^ *=> //p')
	n=$(echo "$tops" | grep -c .)
	if [ -z "$cond" ]; then
		[ "$n" -ge 3 ] || fail "[trigger] $n stack traces, not 3 or more"
	else
		expect_eq "[trigger$cond] stack traces" 2 "$n"
	fi
	expect_eq "[trigger$cond] top frames" "$(nlines $n $trig_top)" "$tops"
	echo > $T/trace
done
