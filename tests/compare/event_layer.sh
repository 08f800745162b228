#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What tools read of the kernel's TRACE_EVENT() events, made by the event
# layer (include/trace/trace_events.h): every format file, and the "trace"
# text and `perf script` output of a fixed workload.  Run on the base
# kernel, its output is the reference tests/shell/event_layer_matches_base.sh
# holds ours to (harness/base-reference.sh); `make compare` runs it on both.
#
# Left out, because they differ between any two builds or runs: the event
# IDs (the order events register in), the numbers of __UNIQUE_ID_ names
# (min() and max() in a print format), pids, timestamps, the order of
# records from two CPUs (the lines are sorted), and the task names perf
# script would put before its lines (it learns them from its own records,
# which can arrive after the events).  Systems named in
# TS_OURS_ONLY exist only in our kernel and are tested on their own.
T=/sys/kernel/tracing
OURS_ONLY=${TS_OURS_ONLY:-}

norm_format() {
	sed -E '/^ID: [0-9]+$/d; s/__UNIQUE_ID_([a-z_]+)_[0-9]+/__UNIQUE_ID_\1_N/g'
}
# "  comm-pid  [cpu] flags  ts: " -> "comm: "; pids in the payload
norm_trace() {
	sed -E 's/^ *(.*)-[0-9]+ +\[[0-9]+\] [^ ]+ +[0-9]+\.[0-9]+: /\1: /' |
	sed -E 's/(pid|child_pid|old_pid|tgid)=[0-9]+/\1=N/g; s/\[ *[0-9]+\.[0-9]+\]/[TIME]/g'
}

echo "## formats"
find $T/events -name format | sort | while read -r f; do
	rel=${f#"$T"/events/}
	case " $OURS_ONLY " in *" ${rel%%/*} "*) continue ;; esac
	echo "== $rel"
	cat "$f"
done | norm_format

EVENTS="sched/sched_process_fork sched/sched_process_exec
	sched/sched_process_exit task/task_newtask task/task_rename
	signal/signal_generate signal/signal_deliver"
# One shell and its children: renames itself, forks and execs a program,
# exits through a signal.
workload() {
	sh -c "echo \$\$ > $T/set_event_pid; echo 1 > $T/tracing_on
		echo -n ts-layer > /proc/self/comm
		/bin/busybox true; (exit 3); kill -USR2 \$\$" 2>/dev/null
}

echo "## trace"
echo 0 > $T/tracing_on
echo > $T/trace
echo 1 > $T/options/event-fork
for e in $EVENTS; do echo 1 > $T/events/$e/enable; done
workload
echo 0 > $T/tracing_on
for e in $EVENTS; do echo 0 > $T/events/$e/enable; done
echo > $T/set_event_pid
echo 0 > $T/options/event-fork
grep -v '^#' $T/trace | norm_trace | sort

echo "## perf script"
set --
for e in $EVENTS; do set -- "$@" -e "$(echo "$e" | tr / :)"; done
perf record -q -o /tmp/event_layer.data "$@" -- \
	sh -c 'echo -n ts-layer > /proc/self/comm; /bin/busybox true; (exit 3); kill -USR2 $$' \
	> /dev/null 2>&1
perf script -i /tmp/event_layer.data -F event,trace 2>/dev/null |
	sed -E 's/^ *//; s/ +/ /g' | norm_trace | sort
rm -f /tmp/event_layer.data
