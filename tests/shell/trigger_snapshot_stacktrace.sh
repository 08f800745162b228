#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# snapshot and stacktrace triggers on trace_marker (ftrace:print), with
# and without a count.
. /tests/lib.sh
P=$T/events/ftrace/print/trigger
tracing_reset
echo 0 > $T/snapshot

# stacktrace:2 - exactly two stack traces for three marker writes.
echo 'stacktrace:2' > $P
expect_eq "listing" "stacktrace:count=2" "$(cat $P)"
for i in 1 2 3; do echo "mark$i" > $T/trace_marker; done
expect_eq "stack traces" 2 "$(grep -c '<stack trace>' $T/trace)"
expect_eq "markers" 3 "$(grep -c 'tracing_mark_write: mark' $T/trace)"
expect_eq "count spent" "stacktrace:count=0" "$(cat $P)"
echo '!stacktrace' > $P
echo > $T/trace

# Unlimited stacktrace.
echo 'stacktrace' > $P
echo a > $T/trace_marker
echo b > $T/trace_marker
expect_eq "unlimited stack traces" 2 "$(grep -c '<stack trace>' $T/trace)"
echo '!stacktrace:unlimited' > $P
echo > $T/trace

# snapshot:1 - the snapshot holds what was traced up to the first hit.
echo 'snapshot:1' > $P
expect_eq "snapshot listing" "snapshot:count=1" "$(cat $P)"
echo first > $T/trace_marker
echo second > $T/trace_marker
expect_eq "snapshot has first" 1 "$(grep -c 'tracing_mark_write: first' $T/snapshot)"
expect_eq "snapshot lacks second" 0 "$(grep -c 'tracing_mark_write: second' $T/snapshot)"
expect_eq "trace keeps going" 1 "$(grep -c 'tracing_mark_write: second' $T/trace)"
expect_eq "snapshot count spent" "snapshot:count=0" "$(cat $P)"
echo '!snapshot' > $P
echo 0 > $T/snapshot

# Unlimited snapshot: each hit swaps again.
echo 'snapshot' > $P
echo one > $T/trace_marker
echo two > $T/trace_marker
expect_eq "latest snapshot" 1 "$(grep -c 'tracing_mark_write: two' $T/snapshot)"
echo '!snapshot' > $P
echo 0 > $T/snapshot
expect_eq "all removed" "# Available triggers:" "$(head -1 $P)"
tracing_reset
