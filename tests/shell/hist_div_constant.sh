#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A hist expression divided by a constant that is no power of two gives
# the quotient rounded down, as C does, whether the dividend has a
# remainder or not.  Each expression is folded when the trigger is set,
# by the function that divides in every record, so the trigger file shows
# what each record would get.  (The kernel's multiply-and-shift used to
# round up: 10/3 was 4.)
. /tests/lib.sh
F=$T/events/sched/sched_process_fork/trigger
[ -e $F ] || skip "no histograms"
cleanup() { echo > $F 2>/dev/null; tracing_reset; }
trap cleanup EXIT
tracing_reset

for case in 10/3=3 2/3=0 9/3=3 100/7=14 1000/9=111 1048575/1048573=1 \
	    1048577/1048573=1 1048575/1000=1048 5000000/3=1666666; do
	expr=${case%=*} want=${case#*=}
	echo "hist:keys=common_pid:x=$expr" > $F || fail "refused: x=$expr"
	expect_eq "x=$expr" \
		"hist:keys=common_pid:vals=hitcount:x=$want:sort=hitcount:size=2048 [active]" \
		"$(cat $F)"
	echo "!hist:keys=common_pid:x=$expr" > $F
done
echo ok
