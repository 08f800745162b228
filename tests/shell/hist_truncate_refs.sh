#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Truncating an event's trigger file takes its histograms away, unless a
# variable of one of them is read by another histogram, even one of the
# same event: then all of them stay.  Each goes by '!' and its line as the
# trigger file shows it, the reader before the one it reads; truncation
# then takes the rest.
. /tests/lib.sh
use_event sched/sched_process_fork
H1='hist:keys=child_pid:b=common_timestamp.usecs'
H2='hist:keys=child_pid:v=common_timestamp.usecs-$b'
trap 'echo "!$H2" >> $E/trigger; echo "!$H1" >> $E/trigger
	echo > $T/error_log' EXIT
hists() { grep -c '^hist:' $E/trigger; }
echo > $T/error_log

echo "$H1" >> $E/trigger
echo "$H2" >> $E/trigger
expect_eq "made" 2 "$(hists)$(cat $T/error_log)"
: > $E/trigger
expect_eq "truncation while \$b is read" 2 "$(hists)"
expect_eq "the reader's line" \
	'hist:keys=child_pid:vals=hitcount:v=common_timestamp.usecs-$b:sort=hitcount:size=2048:clock=global [active]' \
	"$(grep -F ':v=' $E/trigger)"
# the one read cannot go before its reader
expect_fail sh -c "echo '!$H1' >> $E/trigger"
expect_eq "refused removal" 2 "$(hists)"
reader=$(grep -F ':v=' $E/trigger | sed 's/ \[active\]$//')
echo "!$reader" >> $E/trigger
expect_eq "reader removed by its line" 1 "$(hists)"
: > $E/trigger
expect_eq "truncation once nothing reads \$b" 0 "$(hists)"
exit 0
