#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Snapshots swap the instance's ring buffer while a histogram's trace()
# action writes a synthetic event at every sched_switch on every CPU.  A
# record reserved on one buffer and committed on the other would leave
# both inconsistent (the ring buffer warns and stops recording), so after
# the swaps tracing is still on, a marker written then is in the trace,
# and the events were written all along.  Run by make stress too, where
# the swaps and the writes really happen at once.
. /tests/lib.sh
[ -e "$T/snapshot" ] || skip "no snapshot buffer in this kernel"
tracing_reset
SW=$T/events/sched/sched_switch/trigger
HIST='hist:keys=common_pid:t=common_timestamp:onmax($t).trace(swap_ts,$t)'
echo 'swap_ts u64 ts' >> "$T/synthetic_events" || fail "cannot create swap_ts"
echo "$HIST" >> "$SW" || fail "cannot attach $HIST"
echo 1 > "$T/events/synthetic/swap_ts/enable"

# churn SECONDS - context switches on whatever CPU this runs on
churn() {
	end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt "$end" ]; do /bin/true; done
}
# swaps SECONDS - one snapshot after another
swaps() {
	n=0 end=$(($(date +%s) + $1))
	while [ "$(date +%s)" -lt "$end" ]; do
		echo 1 > "$T/snapshot" || fail "snapshot refused"
		n=$((n + 1))
	done
	echo "snapshots: $n"
}
churn 5 & a=$!
churn 5 & b=$!
bounded 30 swaps 5 || fail "the snapshots failed"
wait $a $b

echo 0 > "$T/events/synthetic/swap_ts/enable"
echo "!$HIST" >> "$SW"
expect_eq "tracing_on after the swaps" 1 "$(cat "$T/tracing_on")"
echo after-the-swaps > "$T/trace_marker"
expect_eq "marker written after the swaps" 1 "$(grep -c 'tracing_mark_write: after-the-swaps' "$T/trace")"
n=$(cat "$T/trace" "$T/snapshot" | grep -c 'swap_ts: ts=')
echo "swap_ts records kept: $n"
[ "$n" -gt 0 ] || fail "no swap_ts record in the trace or the snapshot"
echo 0 > "$T/snapshot"
echo '!swap_ts u64 ts' >> "$T/synthetic_events" || fail "cannot remove swap_ts"
tracing_reset
