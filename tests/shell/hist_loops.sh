#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Loops one root echo could write into histograms, each under a time
# limit: a variable defined from itself, two or three from each other,
# an action tracing the synthetic event its histogram is on or one that
# leads back to it are refused at once, with an error_log entry; a loop
# that no command shows (an eprobe on the synthetic event feeding a
# histogram that traces it) stops where the synthetic event would be
# written inside its own write, and the kernel goes on.
. /tests/lib.sh
P=$T/events/ftrace/print
[ -e $P/hist ] || skip "no histograms"
S=$T/events/synthetic
cleanup() {
	for e in $P $S/s2 $S/s1 $T/events/eprobes/ep; do
		[ -d $e ] && echo > $e/trigger
	done
	echo 0 > $T/events/enable
	echo '-:eprobes/ep' >> $T/dynamic_events 2>/dev/null
	for s in s_self s1 s2; do echo "!$s" >> $T/synthetic_events 2>/dev/null; done
	tracing_reset
	grep -q . $T/synthetic_events && echo "FAIL: left behind: $(cat $T/synthetic_events)" && exit 1
}
trap cleanup EXIT
tracing_reset

# add FILE CMD - CMD is taken, within 10 s
add() { bounded 10 sh -c 'printf "%s\n" "$1" >> "$2"' sh "$2" "$1" || fail "refused: $2"; }

# variables that read themselves, directly or in a cycle
echo 's_self u64 x' >> $T/synthetic_events || fail "s_self"
PL='hist:ftrace:print'
refused $P/trigger $PL 'hist:keys=common_pid:a=$a' "Couldn't find variable" 23
refused $P/trigger $PL 'hist:keys=common_pid:a=$a:onmatch(ftrace.print).trace(s_self,$a)' \
	"Couldn't find variable" 23
refused $P/trigger $PL 'hist:keys=common_pid:a=$b:b=$a' "Couldn't find variable" 23
refused $P/trigger $PL 'hist:keys=common_pid:a=$b:b=$c:c=$a' "Couldn't find variable" 23
expect_eq "nothing added" "# Available triggers:" "$(head -1 $P/trigger)"
# a variable reading a later one, or an earlier one: stored after it
add $P/trigger 'hist:keys=common_pid:a=$b:b=common_pid:c=$a+1:vals=$a,$c'
bounded 10 sh -c "echo x > $T/trace_marker" || fail "trace_marker"
line=$(grep '^{' $P/hist)
echo "$line" | awk '$7 != "$a:" || $9 != "$c:" || $3 != $8 || $3 + 1 != $10 || $6 != 1 { exit 1 }' ||
	fail "a=\$b did not read what b stored: $line"
echo > $P/trigger

# an action tracing the event it is on, or one leading back to it
echo 's2 int x' >> $T/synthetic_events || fail "s2"
echo 's1 int x' >> $T/synthetic_events || fail "s1"
add $S/s2/trigger 'hist:keys=x:v=x'
SL='hist:synthetic:s2'
refused $S/s2/trigger $SL 'hist:keys=x:onmatch(synthetic.s2).trace(s2,$v)' \
	'Synthetic event fires this event again, or chains too deep' 40
add $S/s1/trigger 'hist:keys=x:onmatch(synthetic.s1).trace(s2,x)'
refused $S/s2/trigger $SL 'hist:keys=x:onmatch(synthetic.s2).trace(s1,$v)' \
	'Synthetic event fires this event again, or chains too deep' 40
echo > $S/s1/trigger
# gone with its histogram: the edge s1 -> s2 no longer makes a loop
add $S/s2/trigger 'hist:keys=x:onmatch(synthetic.s2).trace(s1,$v)'
add $S/s2/trigger '!hist:keys=x:onmatch(synthetic.s2).trace(s1,$v)'
add $S/s2/trigger '!hist:keys=x:v=x'
expect_eq "s2 has none" "# Available triggers:" "$(head -1 $S/s2/trigger)"

# The issue's three echoes: s2 fired once from ftrace/print records once
echo 1 > $S/s2/enable
add $P/trigger 'hist:keys=common_pid:p=common_pid:onmax($p).trace(s2,$p)'
bounded 10 sh -c "echo hi > $T/trace_marker" || fail "trace_marker"
expect_eq "s2 once" "s2: x=$$" "$(trace_lines | grep '^s2:' | sed "s/x=[0-9]*/x=$$/")"
echo > $P/trigger
echo 0 > $S/s2/enable
echo > $T/trace

# A loop through an eprobe, which no hist command shows: every s2 fires
# the eprobe ep, whose histogram traces s2 again.  s2 is not written
# inside its own write: the loop stops there, after one record.
echo 'e:eprobes/ep synthetic.s2 x=$x:s32' >> $T/dynamic_events || skip "no eprobes"
add $T/events/eprobes/ep/trigger 'hist:keys=common_pid:onmatch(eprobes.ep).trace(s2,x)'
echo 1 > $S/s2/enable
add $P/trigger 'hist:keys=common_pid:p=common_pid:onmax($p).trace(s2,$p)'
bounded 10 sh -c "echo hi > $T/trace_marker" || fail "trace_marker"
expect_eq "s2 once" 1 "$(trace_lines | grep -c '^s2:')"
expect_eq "ep counted once" "    Hits: 1" "$(grep Hits: $T/events/eprobes/ep/hist)"
# and the kernel still answers
bounded 10 sh -c "echo again > $T/trace_marker" || fail "trace_marker again"
expect_eq "s2 once more" 2 "$(trace_lines | grep -c '^s2:')"
