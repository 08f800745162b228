#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The common header of a record kept by a filter.  A filtered event of
# small fixed size is built on the probe's stack and its filter runs there
# (trace_event_filter_record()); the header's flags and preempt count are
# gathered first only when the filter reads them, else only for a record
# the filter keeps.  sched:sched_switch fires with interrupts off and
# preemption disabled: a filter that reads those fields sees them, and a
# record kept by one that does not still carries them, as it does with no
# filter at all.
. /tests/lib.sh
use_event sched/sched_switch
tracing_reset

# records FILTER - a few switches with FILTER set: the flags column of each
# record (irqs-off, need-resched, hardirq/softirq, preempt depth, migrate)
records() {
	echo "$1" > $E/filter || fail "filter rejected: $1"
	echo > $T/trace
	echo 1 > $E/enable
	for i in 1 2 3 4 5 6 7 8; do usleep 1000; done
	echo 0 > $E/enable
	grep -v '^#' $T/trace | sed -n 's/^.*\] \([^ ]\{5\}\) .*sched_switch: .*/\1/p'
}

# shape FLAGS... - irqs-off, hardirq/softirq and preempt depth, one a line
shape() { echo "$1" | cut -c1,3,4 | sort -u; }

plain=$(shape "$(records 0)")
# interrupts off, no hardirq/softirq, one preempt depth (the base's too)
case $plain in
d.[1-9]) depth=${plain#d.} ;;
*) fail "flags of sched_switch without a filter: [$plain]" ;;
esac

# kept by filters that read no header field but the pid (the first two)
# and by filters that read them
for f in 'prev_pid >= 0' 'next_prio < 1000 && common_pid >= 0' \
	'common_flags & 1' 'common_preempt_count & 15' \
	"common_preempt_count == $depth && prev_pid >= 0"; do
	got=$(records "$f")
	[ -n "$got" ] || fail "no record kept by [$f]"
	expect_eq "flags of the records kept by [$f]" "$plain" "$(shape "$got")"
done
for f in '!(common_flags & 1)' 'common_preempt_count == 0' \
	"prev_pid >= 0 && common_preempt_count < $depth"; do
	expect_eq "records kept by [$f]" "" "$(records "$f")"
done
echo "ok"
