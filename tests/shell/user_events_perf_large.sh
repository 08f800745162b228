#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Debian's perf records a user event of 60000 bytes whole: perf record,
# then perf script prints its 59995-letter string exactly, with perf
# alone and beside ftrace (whose 64 KiB sub-buffers hold it too).  The
# largest payload perf record's sample (five 8-byte fields beside the
# record) can carry is taken, one byte more is refused with E2BIG, and
# perf record -g, which adds a call chain, leaves less room.
. /tests/lib.sh
command -v perf > /dev/null || skip "no perf in the VM"
[ -x /samples/ue_write ] || skip "no ue_write helper"
[ -e $T/user_events_data ] || skip "no user_events"
E=ue_perf_big
DEF="u:$E __rel_loc char[] s"
OLD_KB=$(cat $T/buffer_subbuf_size_kb)
cd /tmp
cleanup() {
	echo 0 > $T/events/user_events/$E/enable 2>/dev/null
	echo "$OLD_KB" > $T/buffer_subbuf_size_kb
	echo "!$DEF" >> $T/dynamic_events 2>/dev/null
	rm -f perf.data perf.data.old
	tracing_reset
}
trap cleanup EXIT
tracing_reset
echo "$DEF" >> $T/dynamic_events || fail "cannot declare $E"

# letters N - the string ue_write sends in a payload of N + 5 bytes
letters() { awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "%c", 97 + i % 26 }'; }

# record LEN [PERF RECORD OPTION...] - perf record ue_write's LEN-byte
# event; what ue_write printed, if anything, is the output
record() {
	_len=$1
	shift
	bounded 120 perf record -q "$@" -e user_events:$E -o perf.data -- \
		/samples/ue_write $E "$_len" 2> /dev/null
}

# strings - the s field of each record perf script prints
strings() { perf script -F trace 2> /dev/null | sed -n 's/^ *s=//p'; }

S60000=$(letters 59995)
expect_eq "perf alone, 60000 bytes" "" "$(record 60000)"
expect_eq "perf script, 60000 bytes" "$S60000" "$(strings)"

echo 64 > $T/buffer_subbuf_size_kb || fail "no 64 KiB sub-buffers"
echo > $T/trace
echo 1 > $T/events/user_events/$E/enable
expect_eq "perf beside ftrace, 60000 bytes" "" "$(record 60000)"
expect_eq "perf script beside ftrace" "$S60000" "$(strings)"
expect_eq "ftrace beside perf" 1 "$(grep -c " $E: " $T/trace)"
echo 0 > $T/events/user_events/$E/enable

# perf record's sample: ip, tid, time, cpu, period, then the raw data
MAX=$((65528 - 8 - 5 * 8 - 4 - 8))
expect_eq "perf record, $MAX bytes" "" "$(record $MAX)"
expect_eq "perf script, $MAX bytes" "$(letters $((MAX - 5)))" "$(strings)"
expect_eq "perf record, $((MAX + 1)) bytes" "write: Argument list too long" \
	"$(record $((MAX + 1)))"
expect_eq "perf record -g, $MAX bytes" "write: Argument list too long" \
	"$(record $MAX -g)"
expect_eq "perf record -g, 60000 bytes" "" "$(record 60000 -g)"
expect_eq "perf script -g, 60000 bytes" "$S60000" "$(strings)"
exit 0
