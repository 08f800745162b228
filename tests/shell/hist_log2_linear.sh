#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A key with .log2=K cuts each power of two into 2^K buckets of equal
# width.  The sizes of dd's writes give exact rows at K=0, 2 and 6, in
# ascending and descending order; the listing shows the modifier as
# written; a K past 6 or not a number is refused in error_log with the
# caret under K, and a value or a variable with .log2=K is refused.
# Then wakeup latencies in microseconds, a synthetic event fired by
# onmatch(), go into two histograms of that event, one keyed by the
# exact latency and one by lat.log2=2 with onmax(): every exact latency
# counts in the bucket that holds it, and every bucket's maximum lies
# inside the bucket.
. /tests/lib.sh
W=$T/events/syscalls/sys_enter_write
[ -e $W/hist ] || skip "no histograms or no syscall events"
dd='/bin/dd if=/dev/zero of=/dev/null count=1 status=none'
S=$T/events/sched
L=$T/events/synthetic/loglin_lat
cleanup() {
	echo > $W/trigger
	echo '!hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).trace(loglin_lat,$lat,next_pid)' \
		>> $S/sched_switch/trigger 2>/dev/null
	echo '!hist:keys=pid:ts0=common_timestamp.usecs' >> $S/sched_waking/trigger 2>/dev/null
	[ -d $L ] && echo > $L/trigger
	echo '!loglin_lat' >> $T/synthetic_events 2>/dev/null
	tracing_reset
}
trap cleanup EXIT
tracing_reset

# rows KEYS SIZES... - the rows of a dd-only histogram keyed by KEYS
rows() {
	_cmd="hist:keys=$1 if common_comm == \"dd\""
	shift
	echo "$_cmd" >> $W/trigger || fail "refused: $_cmd"
	for n in "$@"; do $dd bs=$n; done
	grep '^{' $W/hist
	echo "!$_cmd" >> $W/trigger
}

expect_eq "K=0" "{ count: ~ 1-1 } hitcount:          1
{ count: ~ 2-3 } hitcount:          2
{ count: ~ 512-1023 } hitcount:          3
{ count: ~ 1024-2047 } hitcount:          1" \
	"$(rows count.log2=0:sort=count 1 2 3 513 700 1023 1024)"

expect_eq "K=2, descending" "{ count: ~ 4096-5119 } hitcount:          1
{ count: ~ 1280-1535 } hitcount:          1
{ count: ~ 896-1023 } hitcount:          2
{ count: ~ 512-639 } hitcount:          1
{ count: ~ 256-319 } hitcount:          1
{ count: ~ 112-127 } hitcount:          1
{ count: ~ 96-111 } hitcount:          1
{ count: ~ 5-5 } hitcount:          1" \
	"$(rows count.log2=2:sort=count.descending 5 100 120 300 512 900 1000 1500 4096)"

# K=6: exact up to 127, then 64 buckets in each power of two
expect_eq "K=6" "{ count: ~ 127-127 } hitcount:          1
{ count: ~ 128-129 } hitcount:          2
{ count: ~ 4064-4095 } hitcount:          1
{ count: ~ 65536-66559 } hitcount:          2" \
	"$(rows count.log2=6:sort=count 127 128 129 4095 65536 66559)"

echo 'hist:keys=count.log2=0x3,common_pid:vals=count' >> $W/trigger ||
	fail "refused: log2=0x3"
expect_eq "listing" \
	"hist:keys=count.log2=3,common_pid:vals=hitcount,count:sort=hitcount:size=2048 [active]" \
	"$(cat $W/trigger)"
echo > $W/trigger

C='hist:keys=count.log2=7'
refused $W/trigger hist:syscalls:sys_enter_write "$C" \
	"log2=K takes K from 0 to 6 (2^K buckets in each power of two)" 21
C='hist:keys=count.log2=two'
refused $W/trigger hist:syscalls:sys_enter_write "$C" \
	"log2=K takes K from 0 to 6 (2^K buckets in each power of two)" 21
C='hist:keys=common_pid:vals=count.log2=3'
refused $W/trigger hist:syscalls:sys_enter_write "$C" "Invalid field modifier" 26
C='hist:keys=common_pid:b=count.log2=3'
refused $W/trigger hist:syscalls:sys_enter_write "$C" "Invalid field modifier" 23
expect_eq "nothing left" "" "$(grep -v '^#' $W/trigger)"

# Latencies: exact, and in buckets with their maximum.
[ -d $S/sched_waking ] || skip "no sched_waking event"
echo 'loglin_lat u64 lat; pid_t pid' >> $T/synthetic_events ||
	fail "synthetic event refused"
echo 'hist:keys=lat:sort=lat' >> $L/trigger || fail "exact histogram refused"
echo 'hist:keys=lat.log2=2:m=lat:sort=lat:onmax($m).save(pid)' >> $L/trigger ||
	fail "bucket histogram with onmax() refused"
echo 'hist:keys=pid:ts0=common_timestamp.usecs' >> $S/sched_waking/trigger ||
	fail "sched_waking histogram refused"
echo 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).trace(loglin_lat,$lat,next_pid)' \
	>> $S/sched_switch/trigger || fail "sched_switch histogram refused"
for i in $(seq 40); do usleep $((i * 50)); done
# no more latencies while the histograms are read
echo '!hist:keys=next_pid:lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).trace(loglin_lat,$lat,next_pid)' \
	>> $S/sched_switch/trigger

# Rows with "~" are buckets, the others exact latencies.
awk '
	BEGIN { prev = -1 }
	/^\{ lat: ~ / {
		split($4, r, "-"); lo = r[1]; hi = r[2]
		if (lo > hi || lo <= prev) { print "FAIL: bucket " $4 " after " prev; bad = 1 }
		prev = hi; nb++; low[nb] = lo; high[nb] = hi; hits[nb] = $7
		getline
		if ($1 != "max:" || $2 < lo || $2 > hi) { print "FAIL: " $0 " for " $4; bad = 1 }
		next
	}
	/^\{ lat: / { ne++; lat[ne] = $3; n[ne] = $6; total += $6 }
	END {
		for (j = 1; j <= ne; j++) {
			found = 0
			for (i = 1; i <= nb; i++)
				if (lat[j] >= low[i] && lat[j] <= high[i]) { got[i] += n[j]; found = 1 }
			if (!found) { print "FAIL: latency " lat[j] " in no bucket"; bad = 1 }
		}
		for (i = 1; i <= nb; i++)
			if (got[i] != hits[i]) {
				print "FAIL: bucket " low[i] "-" high[i] ": " hits[i] " hits, latencies " got[i] + 0
				bad = 1
			}
		if (total < 40) { print "FAIL: only " total " latencies"; bad = 1 }
		exit bad
	}' $L/hist || { cat $L/hist; fail "buckets and latencies disagree"; }

# each bucket is a bucket of K=2: exact below 8, else 4 per power of two
grep '^{ lat: ~ ' $L/hist | awk '{
	split($4, r, "-"); lo = r[1]; hi = r[2]
	w = 1; p = 1
	while (p * 2 <= lo) p *= 2
	if (p >= 8) w = p / 4
	if (hi - lo + 1 != w || lo % w) { print "FAIL: not a K=2 bucket: " $4; exit 1 }
}' || fail "bucket shapes"
echo ok
