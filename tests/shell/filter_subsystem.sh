#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A subsystem filter goes to every event of the subsystem that has the
# fields it names; the others keep their filters.  "0" clears them all,
# and an expression no event can take is refused with an error report.
. /tests/lib.sh
S=$T/events/sched
[ -f $S/filter ] || skip "no sched subsystem filter"

cleanup() {
	echo 0 > $S/filter
	echo 0 > $S/sched_process_exec/enable
	echo > $T/trace
	echo > $T/error_log
}
trap cleanup EXIT
tracing_reset

DEFAULT='### global filter ###
# Use this to set filters for multiple events.
# Only events with the given fields will be affected.
# If no events are modified, an error message will be displayed here'

echo 0 > $S/filter
expect_eq "switch cleared" none "$(cat $S/sched_switch/filter)"
expect_eq "wakeup cleared" none "$(cat $S/sched_wakeup/filter)"
expect_eq "subsystem default" "$DEFAULT" "$(cat $S/filter)"

echo 'common_pid == 0' > $S/filter
for e in sched_switch sched_wakeup sched_process_exec sched_process_fork; do
	expect_eq "$e common filter" 'common_pid == 0' "$(cat $S/$e/filter)"
done
expect_eq "subsystem after success" "$DEFAULT" "$(cat $S/filter)"

echo 'prev_pid == 0' > $S/filter
expect_eq "switch took prev_pid" 'prev_pid == 0' "$(cat $S/sched_switch/filter)"
expect_eq "wakeup kept its filter" 'common_pid == 0' "$(cat $S/sched_wakeup/filter)"
expect_eq "exec kept its filter" 'common_pid == 0' "$(cat $S/sched_process_exec/filter)"

# Only sched_process_exec has "filename": it alone filters on it.
echo > $T/error_log
echo 'filename ~ "*/false"' > $S/filter
expect_eq "exec took filename" 'filename ~ "*/false"' "$(cat $S/sched_process_exec/filter)"
expect_eq "no error logged" "" "$(cat $T/error_log)"
echo > $T/trace
echo 1 > $S/sched_process_exec/enable
/bin/true; /bin/false; /bin/true
echo 0 > $S/sched_process_exec/enable
expect_eq "exec records" "sched_process_exec: filename=/bin/false" \
	"$(trace_lines | sed 's/ pid=[0-9]* old_pid=[0-9]*$//')"

# No event has "nosuch": refused, nothing changes, the report is shown.
echo > $T/error_log
(echo 'common_pid == 1 || nosuch == 0' > $S/filter) 2>/dev/null && fail "accepted nosuch"
expect_eq "subsystem report" "common_pid == 1 || nosuch == 0
                          ^
parse_error: Couldn't find or set field in one of a subsystem's events" "$(cat $S/filter)"
expect_eq "subsystem error_log" "event filter parse error: error: Couldn't find or set field in one of a subsystem's events
  Command: common_pid == 1 || nosuch == 0
                                     ^" "$(sed 's/^\[ *[0-9.]*\] //' $T/error_log)"
expect_eq "switch unchanged" 'prev_pid == 0' "$(cat $S/sched_switch/filter)"
expect_eq "wakeup unchanged" 'common_pid == 0' "$(cat $S/sched_wakeup/filter)"

echo 0 > $S/filter
for e in sched_switch sched_wakeup sched_process_exec; do
	expect_eq "$e cleared" none "$(cat $S/$e/filter)"
done
expect_eq "subsystem default again" "$DEFAULT" "$(cat $S/filter)"
exit 0
