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
# One entry, for the whole command, with the caret on what follows the
# unknown field, as on the base.
expect_eq "trigger error_log" "trigger:sched:sched_process_exec: error: Field not found
  Command: traceoff if nosuch == 1
                              ^" "$(sed 's/^\[ *[0-9.]*\] //' $T/error_log)"
/bin/false
expect_eq "no trigger installed" 1 "$(cat $T/tracing_on)"

# ftrace/print's buf is a char[] of size 0: a string running to its NUL.
P=$T/events/ftrace/print
echo 'traceoff if buf == "start"' > $P/trigger || fail "print buf filter refused"
echo -n end > $T/trace_marker
expect_eq "tracing_on after 'end'" 1 "$(cat $T/tracing_on)"
echo -n start > $T/trace_marker
expect_eq "tracing_on after 'start'" 0 "$(cat $T/tracing_on)"
echo '!traceoff' > $P/trigger
echo 1 > $T/tracing_on
echo 'traceoff if buf ~ "st*"' > $P/trigger || fail "print buf glob refused"
echo -n stop > $T/trace_marker
expect_eq "tracing_on after glob match" 0 "$(cat $T/tracing_on)"
echo '!traceoff' > $P/trigger
echo 1 > $T/tracing_on
exit 0
