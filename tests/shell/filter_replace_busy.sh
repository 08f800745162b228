#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Filters replaced, refused and cleared thousands of times, per event and
# per subsystem, while another task fires the event without pause: an old
# filter may still be running on the other CPU when the write returns, and
# is freed later, in batches.  More writes than the queue may hold make the
# writer wait for the batch.  Nothing may crash or complain (KASAN on the debug
# kernel), the filter in force is always the last accepted one, and a
# refused write keeps the program of the filter it did not replace.
. /tests/lib.sh
use_event signal/signal_generate
S=$T/events/signal
tracing_reset
trap '' URG
trap 'kill $B 2>/dev/null; wait; echo 0 > $E/enable; echo 0 > $S/filter;
	echo > $T/trace; echo > $T/error_log' EXIT

# A task that sends itself SIGURG (ignored) without pause.
sh -c 'trap "" URG; while :; do kill -s URG $$; done' &
B=$!
echo 1 > $E/enable

# 3000 writes of each kind, some refused, a clear now and then; the
# subsystem file replaces the event's filter too.
churn() {
	i=0
	while [ $i -lt 3000 ]; do
		echo "sig == 23 && pid == $((i % 7))" > $E/filter || exit 1
		echo "sig ==" > $E/filter 2>/dev/null && exit 2
		[ $((i % 50)) -eq 0 ] && { echo 0 > $E/filter || exit 3; }
		[ $((i % 100)) -eq 0 ] && {
			echo "sig == 23 && pid == 1" > $S/filter || exit 4
			echo 0 > $S/filter || exit 5
		}
		i=$((i + 1))
	done
}
bounded 600 churn || fail "churn stopped with status $?"

# only_b WHAT: for 0.2 s, some of $B's signals are recorded and nothing else
only_b() {
	echo > $T/trace
	usleep 200000
	echo 0 > $T/tracing_on
	n=$(trace_lines | grep -c "^signal_generate: sig=23 .* pid=$B ")
	other=$(trace_lines | grep '^signal_generate: ' | grep -vc "sig=23 .* pid=$B ")
	echo 1 > $T/tracing_on
	[ "$n" -gt 0 ] || fail "$1: no record of $B's signals"
	expect_eq "$1: records of another filter" 0 "$other"
}

# The last accepted filter is the one in force.
echo "sig == 23 && pid == $B" > $E/filter || fail "filter on $B rejected"
only_b "the last filter"

# A refused write shows its error, and the program before it runs on.
bad="sig == 23 && pid == $B && bad_field == 1"
echo "$bad" > $E/filter 2>/dev/null && fail "a filter on a missing field accepted"
# the caret goes under the operator of the unknown field (filter_errors.sh)
caret=$(printf "%$((${#bad} - 3))s" "^")
expect_eq "refused filter's text" "$bad
$caret
parse_error: Field not found" "$(cat $E/filter)"
only_b "after a refused write"
exit 0
