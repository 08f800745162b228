#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A plain snapshot trigger on an event of an instance whose histogram
# holds a conditional snapshot (onchange().snapshot()).  The plain one
# asks for an unconditional snapshot; the base kernel handed its NULL
# condition to the histogram's callback, which dereferenced it (found by
# make fuzz).  Now both snapshots are taken (two swaps: the marker is
# kept in one buffer or the other, never lost) and the histogram's own
# snapshots go on once the plain trigger is gone.
. /tests/lib.sh
P=$T/events/ftrace/print/trigger
tracing_reset
echo 0 > $T/snapshot

echo 'hist:keys=common_pid:v=common_timestamp:onchange($v).snapshot()' > $P
echo 'snapshot' >> $P
echo plain-and-cond > $T/trace_marker
expect_eq "marker kept" 1 \
	"$(cat $T/trace $T/snapshot | grep -c 'tracing_mark_write: plain-and-cond')"
echo '!snapshot' >> $P
echo cond-only > $T/trace_marker
expect_eq "histogram snapshot goes on" 1 \
	"$(grep -c 'tracing_mark_write: cond-only' $T/snapshot)"
echo '!hist:keys=common_pid:v=common_timestamp:onchange($v).snapshot()' >> $P
expect_eq "triggers gone" "" "$(grep -v '^#' $P)"
echo 0 > $T/snapshot
tracing_reset
