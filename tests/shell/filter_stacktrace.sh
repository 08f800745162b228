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

# send - two USR1 to a shell that ignores them (signal_generate fires in
# __send_signal_locked() for each) and a USR2 it ignores too
send() { sh -c 'trap "" USR1 USR2; kill -USR1 $$; kill -USR2 $$; kill -USR1 $$'; }

# nlines N WORD - WORD on N lines
nlines() { printf "$2\n%.0s" $(seq $1); }

# no_path_frames WHAT - no frame of the filter-first path in the trace,
# nor one of the commit's that the plain path does not show ($core_plain)
no_path_frames() {
	expect_eq "$1" "" "$(grep -E \
		'=> (trace_event_filter_record|filter_record_keep)' $T/trace)"
	[ "$core_plain" = 1 ] || expect_eq "$1 (commit)" "" "$(grep -E \
		'=> (trace_event_buffer_commit|trace_buffer_)' $T/trace)"
}

echo 1 > $T/options/stacktrace
for filter in 0 'sig == 10' 'sig == 10 && comm ~ "s*"'; do
	echo "$filter" > $E/filter
	echo 1 > $E/enable
	send
	echo 0 > $E/enable
	if [ "$filter" = 0 ]; then n=3; else n=2; fi
	expect_eq "[$filter] records" "$n" "$(grep -c 'signal_generate: sig=1[02] ' $T/trace)"
	tops=$(stack_starts 'signal_generate: sig=1[02] ')
	# the plain path's (no filter) sets what the others must show
	if [ "$filter" = 0 ]; then
		plain=$(echo "$tops" | head -1)
		core_plain=0
		grep -qE '=> (trace_event_buffer_commit|trace_buffer_)' $T/trace &&
			core_plain=1
	fi
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
	"$(stack_starts 'sched_process_fork: ')"
no_path_frames "no frame of the filter's path (fork)"
echo 0 > $T/options/stacktrace
echo > $T/trace
[ $orc = 1 ] || exit 0

# the stacktrace trigger, without and with a filter of its own: the
# unfiltered one also sees the SIGCHLD of send's shell, and any other
# signal of the VM, so it counts at least the three.  Its trace starts
# at the probe, past the frames of the trace core that some builds keep
# (STACK_CORE_FRAMES in lib.sh).
for cond in '' ' if sig == 10'; do
	echo "stacktrace$cond" > $E/trigger
	send
	echo "!stacktrace$cond" > $E/trigger
	tops=$(stack_starts)
	n=$(echo "$tops" | grep -c .)
	if [ -z "$cond" ]; then
		[ "$n" -ge 3 ] || fail "[trigger] $n stack traces, not 3 or more"
	else
		expect_eq "[trigger$cond] stack traces" 2 "$n"
	fi
	expect_eq "[trigger$cond] top frames" "$(nlines $n $probe)" "$tops"
	echo > $T/trace
done
