#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# traceon/traceoff triggers on sched:sched_process_fork: plain, counted
# (the count is spent only when the state changes), filtered; the
# listing of the trigger file; removal, also with the listed text.
# Every fork fires sched_process_fork, so files are read without forking.
. /tests/lib.sh
F=$T/events/sched/sched_process_fork
AVAIL='# Available triggers:
# traceon traceoff snapshot stacktrace enable_event disable_event enable_hist disable_hist hist'

cleanup() {
	echo '!traceoff' > $F/trigger
	echo '!traceon' > $F/trigger
	tracing_reset
}
fork() { ( : ; ) ; }
# Read a file without forking: $(cat) would fork and fire the trigger.
NL='
'
slurp() { V=; while IFS= read -r l; do V="$V${V:+$NL}$l"; done < "$1"; }
# is WHAT EXPECTED FILE
is() { slurp "$3"; expect_eq "$1" "$2" "$V"; }
tracing_reset

is "empty listing" "$AVAIL" $F/trigger
is "event not in soft mode" 0 $F/enable

# Plain traceoff; the event goes into soft mode while the trigger exists.
echo traceoff > $F/trigger
is "listing" "traceoff:unlimited" $F/trigger
is "soft mode" "0*" $F/enable
fork
is "traceoff fired" 0 $T/tracing_on
echo '!traceoff' > $F/trigger
is "removed" "$AVAIL" $F/trigger
is "soft mode gone" 0 $F/enable

# Plain traceon ('>' appends like '>>').
echo 0 > $T/tracing_on
echo traceon > $F/trigger
fork
is "traceon fired" 1 $T/tracing_on
echo '!traceon' > $F/trigger

# Counted traceoff: spent only when it turns tracing off.
echo 1 > $T/tracing_on
echo 'traceoff:2' > $F/trigger
is "count listing" "traceoff:count=2" $F/trigger
fork
is "first" 0 $T/tracing_on
fork
is "no change, count kept" "traceoff:count=1" $F/trigger
echo 1 > $T/tracing_on
fork
is "second" 0 $T/tracing_on
is "count spent" "traceoff:count=0" $F/trigger
echo 1 > $T/tracing_on
fork
is "exhausted trigger does nothing" 1 $T/tracing_on
# Removal with the listed text, count included, and with a filter.
echo '!traceoff:count=0' > $F/trigger
is "removed by listed text" "$AVAIL" $F/trigger

# Filtered: child_pid is never 0, parent_pid is this shell.
echo 'traceoff if child_pid == 0' > $F/trigger
is "filter listing" "traceoff:unlimited if child_pid == 0" $F/trigger
fork
is "filter blocked" 1 $T/tracing_on
echo '!traceoff if child_pid == 0' > $F/trigger
# The filter is listed as written past "if" and its separator, blanks
# and all, as on the base kernel.
echo 'traceoff   if  child_pid  ==  0' > $F/trigger
is "filter listed as written" "traceoff:unlimited if  child_pid  ==  0" $F/trigger
echo '!traceoff' > $F/trigger
echo "traceoff:1 if parent_pid == $$" > $F/trigger
is "count+filter listing" "traceoff:count=1 if parent_pid == $$" $F/trigger
fork
is "filter passed" 0 $T/tracing_on
is "count spent" "traceoff:count=0 if parent_pid == $$" $F/trigger
echo '!traceoff' > $F/trigger

# traceon with a count and a filter.
echo 0 > $T/tracing_on
echo "traceon:1 if parent_pid == $$" > $F/trigger
fork
is "traceon:1 fired" 1 $T/tracing_on
is "traceon count spent" "traceon:count=0 if parent_pid == $$" $F/trigger
echo '!traceon' > $F/trigger
is "all removed" "$AVAIL" $F/trigger
is "soft mode gone at end" 0 $F/enable
cleanup
