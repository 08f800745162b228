#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Names as long as they can be reach histograms and triggers whole: a
# group of 64 characters (its system has 76) through a field variable of
# onmatch(), a synthetic event of 100, named histograms of 80 that differ
# only in their last character on a user event of 200, an expression
# of two variables of 150 each.  No fixed buffer of the hist or trigger
# engines may cut or refuse them.
. /tests/lib.sh
G=$T/user_events_groups
S=$T/synthetic_events
[ -d $G ] || skip "no user_events groups"
[ -e $S ] || skip "no synthetic events"
grp=$(printf '%064d' 0 | tr 0 g)
sys=user_events_$grp
ev=$(printf '%0200d' 0 | tr 0 e)
syn=$(printf '%0100d' 0 | tr 0 s)
named=$(printf '%079d' 0 | tr 0 n)
va=$(printf '%0150d' 0 | tr 0 a)
vb=$(printf '%0150d' 0 | tr 0 b)
X=$T/events/sched/sched_process_exit
cleanup() {
	{
	echo 0 > $T/events/synthetic/$syn/enable
	echo "!hist:keys=common_pid:onmatch($sys.example).trace($syn,count)" \
		> $X/trigger
	echo '!hist:keys=common_pid' > $T/events/$sys/example/trigger
	echo "!hist:name=${named}a:keys=count" > $T/events/user_events/$ev/trigger
	echo "!hist:name=${named}b:keys=common_pid" > $T/events/user_events/$ev/trigger
	echo "!hist:keys=next_pid:d=\$$va-\$$vb" > $T/events/sched/sched_switch/trigger
	echo "!hist:keys=pid:$va=common_timestamp:$vb=common_timestamp" \
		> $T/events/sched/sched_waking/trigger
	echo "!$syn" >> $S
	echo "!u:$ev" >> $T/dynamic_events
	[ -d $G/$grp ] && rmdir $G/$grp
	echo > $T/trace
	echo > $T/error_log
	} 2>/dev/null
}
cleanup
trap cleanup EXIT
tracing_reset

run_in_group() {
	unshare -m sh -c "mount --bind $G/$1/user_events_data $T/user_events_data &&
		mount --bind $G/$1/user_events_status $T/user_events_status &&
		exec /samples/example $2" > /dev/null
}

# A field variable of an event of the longest group, through onmatch()
mkdir $G/$grp || fail "mkdir of a 64-character group"
bounded 20 run_in_group $grp 1 || fail "sample in the group"
E=$T/events/$sys/example
[ -d $E ] || fail "no events/$sys/example"
echo "$syn u32 x" >> $S || fail "synthetic event of 100 characters"
echo 1 > $T/events/synthetic/$syn/enable
echo 'hist:keys=common_pid' > $E/trigger || fail "hist on the group's event"
echo > $T/error_log
echo "hist:keys=common_pid:onmatch($sys.example).trace($syn,count)" > $X/trigger ||
	fail "onmatch() with a field variable: $(cat $T/error_log)"
# the sample's last write has count=2, then the process exits
bounded 20 run_in_group $grp 3 || fail "sample in the group, traced"
expect_eq "synthetic records" "$syn: x=2" "$(trace_lines | grep "^$syn:")"

# A user event of 200 characters: histograms named alike but for their
# last character are two
echo "u:$ev u32 count" >> $T/dynamic_events || fail "u: of 200 characters"
U=$T/events/user_events/$ev
echo "hist:name=${named}a:keys=count" > $U/trigger || fail "first named hist"
echo "hist:name=${named}b:keys=common_pid" >> $U/trigger ||
	fail "second named hist: $(cat $T/error_log)"
expect_eq "two histograms" 2 "$(grep -c "^# trigger info: hist:name=$named" $U/hist)"
# An expression longer than the 256 bytes of a filter string, listed
# whole, while the events it reads go on
echo "hist:keys=pid:$va=common_timestamp:$vb=common_timestamp" \
	> $T/events/sched/sched_waking/trigger || fail "two variables of 150"
echo "hist:keys=next_pid:d=\$$va-\$$vb" > $T/events/sched/sched_switch/trigger ||
	fail "an expression of 303 characters: $(cat $T/error_log)"
sleep 0.2
expect_eq "the expression" \
	"hist:keys=next_pid:vals=hitcount:d=\$$va-\$$vb:sort=hitcount:size=2048 [active]" \
	"$(grep -v '^#' $T/events/sched/sched_switch/trigger)"
# error_log keeps 128 characters of a location: the group's event fits
refused $E/trigger "hist:$sys:example" 'hist:keys=nofield' \
	"Couldn't find field" 10
exit 0
