#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Trigger "if" filters use the same engine: a traceoff trigger fires only
# for the exec its filter accepts, and a bad trigger filter is refused
# with an error_log entry.
. /tests/lib.sh
E=$T/events/sched/sched_process_exec
[ -f $E/trigger ] || skip "no triggers"

cleanup() {
	echo '!traceoff' > $E/trigger 2>/dev/null
	echo 1 > $T/tracing_on
	echo > $T/error_log
}
trap cleanup EXIT
tracing_reset

echo 'traceoff if filename ~ "*/false" && pid > 0' > $E/trigger
/bin/true
expect_eq "tracing_on after true" 1 "$(cat $T/tracing_on)"
/bin/false
expect_eq "tracing_on after false" 0 "$(cat $T/tracing_on)"
echo '!traceoff' > $E/trigger
echo 1 > $T/tracing_on

echo > $T/error_log
(echo 'traceoff if nosuch == 1' > $E/trigger) 2>/dev/null && fail "accepted bad trigger filter"
expect_eq "trigger error_log" "event filter parse error: error: Field not found
  Command: nosuch == 1
           ^" "$(sed 's/^\[ *[0-9.]*\] //' $T/error_log)"
/bin/false
expect_eq "no trigger installed" 1 "$(cat $T/tracing_on)"
exit 0
