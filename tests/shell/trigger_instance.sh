#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Triggers in an instance act on that instance only, target events of that
# instance, and are cleaned up when the instance is removed.
. /tests/lib.sh
I=$T/instances/trigger_test
cleanup() { [ -d $I ] && rmdir $I; tracing_reset; }
tracing_reset
[ -d $T/instances ] || skip "no instances"
[ -d $I ] && rmdir $I
mkdir $I || fail "mkdir instance"

# traceoff on the instance's trace_marker stops only the instance.
echo traceoff > $I/events/ftrace/print/trigger
expect_eq "instance listing" "traceoff:unlimited" "$(cat $I/events/ftrace/print/trigger)"
expect_eq "top level untouched" "# Available triggers:" "$(head -1 $T/events/ftrace/print/trigger)"
echo hit > $T/trace_marker
expect_eq "top-level marker does not fire it" 1 "$(cat $I/tracing_on)"
echo hit > $I/trace_marker
expect_eq "instance stopped" 0 "$(cat $I/tracing_on)"
expect_eq "top level still on" 1 "$(cat $T/tracing_on)"
echo '!traceoff' > $I/events/ftrace/print/trigger
echo 1 > $I/tracing_on

# enable_event targets the instance's copy of the event.
echo 'enable_event:sched:sched_switch' > $I/events/ftrace/print/trigger
expect_eq "instance target soft" "0*" "$(cat $I/events/sched/sched_switch/enable)"
expect_eq "top-level target untouched" 0 "$(cat $T/events/sched/sched_switch/enable)"
echo hit > $I/trace_marker
expect_eq "instance target enabled" "1*" "$(cat $I/events/sched/sched_switch/enable)"
expect_eq "top-level target still off" 0 "$(cat $T/events/sched/sched_switch/enable)"

# Removing the instance with triggers still attached cleans them up.
echo 'stacktrace:3' > $I/events/sched/sched_process_fork/trigger
echo 'snapshot' > $I/events/sched/sched_process_fork/trigger
rmdir $I || fail "rmdir instance with triggers"
[ -d $I ] && fail "instance still there"
( : )
echo hit > $T/trace_marker
expect_eq "top level fork trigger file" "# Available triggers:" \
	"$(head -1 $T/events/sched/sched_process_fork/trigger)"
expect_eq "top-level fork not in soft mode" 0 "$(cat $T/events/sched/sched_process_fork/enable)"

# The same instance name can be made again, with no trigger left over.
mkdir $I || fail "mkdir again"
expect_eq "fresh instance" "# Available triggers:" "$(head -1 $I/events/ftrace/print/trigger)"
expect_eq "fresh target" 0 "$(cat $I/events/sched/sched_switch/enable)"
cleanup
