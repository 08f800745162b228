#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What binding a hist command checks so that no event reads what it must
# not: a stack is no operand; the map variables that save() and onmax()
# keep are counted, with an error_log entry; a reference reads another
# histogram's variable only when both are keyed alike; a histogram shared
# by name only between events laid out alike, and emptied for all of
# them by :clear; common_timestamp read by an action's parameter alone is
# read with the clock the histogram set up.
. /tests/lib.sh
P=$T/events/ftrace/print
[ -e $P/hist ] || skip "no histograms"
W=$T/events/sched/sched_waking S=$T/events/sched/sched_switch
U=$T/events/user_events
cleanup() {
	for d in $P $W $S $U/nm_a $U/nm_b $U/nm_c; do
		[ -d $d ] && echo > $d/trigger
	done
	for e in nm_a nm_b nm_c; do echo "-:$e" >> $T/dynamic_events 2>/dev/null; done
	echo 0 > $T/events/enable
	echo '!s_ts' >> $T/synthetic_events 2>/dev/null
	tracing_reset
}
trap cleanup EXIT
tracing_reset
PL='hist:ftrace:print'
add() { bounded 10 sh -c 'printf "%s\n" "$1" >> "$2"' sh "$2" "$1" || fail "refused: $2"; }

# a stack is an address, not a number: no arithmetic on it
refused $P/trigger $PL 'hist:keys=common_stacktrace+1' \
	'String type can not be an operand in expression' 10
refused $P/trigger $PL 'hist:keys=common_pid:st=common_stacktrace:x=$st+1' \
	'String type can not be an operand in expression' 44

# 32 map variables per histogram (the base kernel: 16), those of save()
# and onmax() counted: 29 here, m, the hidden one of onmax(), one save
V=$(i=0; while [ $i -lt 29 ]; do printf 'v%d=common_pid,' $i; i=$((i + 1)); done)
refused $P/trigger $PL "hist:keys=common_pid:${V}m=common_pid:onmax(\$m).save(buf,buf)" \
	"Couldn't create or find variable" 478
refused $P/trigger $PL "hist:keys=common_pid:${V}w=common_pid,x=common_pid,m=common_pid:onmax(\$m).save(buf)" \
	"Couldn't create onmax or onchange variable" 491
add $P/trigger "hist:keys=common_pid:${V}m=common_pid:onmax(\$m).save(buf)"
echo > $P/trigger

# a reference looks its entry up by the key of the event at hand: the
# defining histogram's keys must lead the reader's, slot by slot alike
add $W/trigger 'hist:keys=pid:ts0=common_timestamp.usecs'
SL='hist:sched:sched_switch'
refused $S/trigger $SL 'hist:keys=next_comm:lat=common_timestamp.usecs-$ts0' \
	"Variable's histogram has other keys" 47
add $S/trigger 'hist:keys=next_pid,next_prio:lat=common_timestamp.usecs-$ts0'
echo > $S/trigger
add $S/trigger 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0'
echo > $S/trigger
echo > $W/trigger
add $W/trigger 'hist:keys=pid,prio:ts0=common_timestamp.usecs'
refused $S/trigger $SL 'hist:keys=next_pid:lat=common_timestamp.usecs-$ts0' \
	"Variable's histogram has other keys" 46
echo > $W/trigger

# a named histogram is shared only by events laid out alike
echo 'u:nm_a u32 x; u32 pid; char[8] name' >> $T/dynamic_events || fail "nm_a"
echo 'u:nm_b u32 pid; char[8] name' >> $T/dynamic_events || fail "nm_b"
echo 'u:nm_c u32 y; u32 pid; char[8] name' >> $T/dynamic_events || fail "nm_c"
add $U/nm_a/trigger 'hist:name=nm:keys=pid,name'
refused $U/nm_b/trigger 'hist:user_events:nm_b' 'hist:name=nm:keys=pid,name' \
	"Named hist trigger doesn't match existing named trigger (includes variables)" 10
add $U/nm_c/trigger 'hist:name=nm:keys=pid,name'
expect_eq "nm_b has none" "# Available triggers:" "$(head -1 $U/nm_b/trigger)"
echo > $U/nm_c/trigger
echo > $U/nm_a/trigger

# :clear of a named histogram empties the map its sharers read (they
# are paused meanwhile) and leaves it active
add $P/trigger 'hist:name=cl:keys=buf'
echo -n one > $T/trace_marker
echo -n two > $T/trace_marker
expect_eq "before :clear" "    Hits: 2
    Entries: 2" "$(grep -E '^    (Hits|Entries):' $P/hist)"
add $P/trigger 'hist:name=cl:keys=buf:clear'
expect_eq "after :clear" "    Hits: 0
    Entries: 0" "$(grep -E '^    (Hits|Entries):' $P/hist)"
echo -n three > $T/trace_marker
expect_eq "a hit after :clear" "    Hits: 1
    Entries: 1" "$(grep -E '^    (Hits|Entries):' $P/hist)"
expect_eq "listing" 'hist:name=cl:keys=buf:vals=hitcount:sort=hitcount:size=2048 [active]' \
	"$(grep '^hist:' $P/trigger)"
echo > $P/trigger

# common_timestamp only in a parameter: the histogram sets its clock up
# for it, so it is never read from a buffered event (which has no time
# stamp: reading one there WARNs); s_ts gets a time, nothing WARNs.  On
# sched_switch, which only the histogram enables, records go through
# the buffered event; trace_marker's never do.
echo 's_ts u64 t' >> $T/synthetic_events || fail "s_ts"
echo 1 > $T/events/synthetic/s_ts/enable
add $S/trigger 'hist:keys=common_pid:onmatch(sched.sched_switch).trace(s_ts,common_timestamp)'
sleep 1
echo > $S/trigger
t=$(trace_lines | sed -n 's/^s_ts: t=\([0-9]*\)$/\1/p' | head -1)
[ -n "$t" ] && [ "$t" -gt 0 ] || fail "no s_ts time: $(trace_lines | head -5)"
dmesg | grep -q 'WARNING:' && fail "WARN: $(dmesg | grep -A3 WARNING:)"
exit 0
