#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What keeps histograms, instances and synthetic events alive, and what
# goes with them: rmdir of an instance is refused while its histograms
# define or read variables and works once they are gone, leaving no
# reference on a synthetic event behind; a histogram made for a field
# variable goes with the last histogram that uses it; a refused command
# leaves nothing of what it made.  A histogram joined by a field variable
# may be keyed by a pseudo-field; a histogram holds only the synthetic
# event it is on or sends to, never one that shares its event's name.
. /tests/lib.sh
W=$T/events/sched/sched_waking
[ -e $W/hist ] || skip "no histograms"
I=$T/instances/hl
cleanup() {
	for d in $I/events/sched/sched_switch $I/events/sched/sched_waking \
		 $I/events/synthetic/wl $T/events/sched/sched_switch $W \
		 $T/events/user_events/wl; do
		[ -d $d ] && echo > $d/trigger
	done
	rmdir $I 2>/dev/null
	echo '!u:wl' >> $T/dynamic_events 2>/dev/null
	echo '!wl' >> $T/synthetic_events 2>/dev/null
	tracing_reset
}
trap cleanup EXIT
tracing_reset

add() { bounded 10 sh -c 'printf "%s\n" "$1" >> "$2"' sh "$2" "$1" || fail "refused: $2"; }
# rmdir_is ERRNO-TEXT|ok - rmdir of the instance fails so, or works
rmdir_is() {
	out=$(bounded 10 rmdir $I 2>&1) && out=ok
	case "$out" in *"$1"*) ;; *) fail "rmdir: expected '$1', got '$out'" ;; esac
}

echo 'wl u64 lat; int prio' >> $T/synthetic_events || fail "wl"
mkdir $I || fail "mkdir"
IW=$I/events/sched/sched_waking IS=$I/events/sched/sched_switch
WAKE='hist:keys=pid:ts0=common_timestamp.usecs'
LISTED='hist:keys=pid:vals=hitcount:ts0=common_timestamp.usecs:sort=hitcount:size=2048:clock=global [active]'
LAT='hist:keys=next_pid:lat=common_timestamp.usecs-$ts0'

# variables defined: busy; read: busy; neither: gone with the instance
add $IW/trigger "$WAKE"
rmdir_is busy
add $IS/trigger "$LAT:onmatch(sched.sched_waking).trace(wl,\$lat,next_prio)"
echo > $IW/trigger
expect_eq "ts0 in use" "$LISTED" "$(grep -v '^#' $IW/trigger)"
rmdir_is busy
echo > $IS/trigger
echo > $IW/trigger
add $I/events/synthetic/wl/trigger 'hist:keys=prio'
add $I/events/sched/sched_switch/trigger 'hist:keys=next_pid:onmatch(sched.sched_switch).trace(wl,common_timestamp,next_prio)'
rmdir_is ok
# nothing of the instance holds wl now
bounded 10 sh -c "echo '!wl' >> $T/synthetic_events" || fail "wl still referenced"
echo 'wl u64 lat; int prio' >> $T/synthetic_events || fail "wl again"

# A field of sched_waking that two histograms of sched_switch trace is
# made a variable of one histogram there, which goes with the last of them
S=$T/events/sched/sched_switch
add $W/trigger "$WAKE"
A="$LAT:onmatch(sched.sched_waking).trace(wl,\$lat,sched.sched_waking.prio)"
B="hist:keys=next_pid:lat2=common_timestamp.usecs-\$ts0:onmatch(sched.sched_waking).trace(wl,\$lat2,sched.sched_waking.prio)"
MADE='hist:keys=pid:vals=hitcount:synthetic_prio=prio:sort=hitcount:size=2048 [active]'
add $S/trigger "$A"
add $S/trigger "$B"
expect_eq "made once" "$LISTED
$MADE" "$(grep -v '^#' $W/trigger)"
add $S/trigger "!$A"
expect_eq "kept for B" "$MADE" "$(grep synthetic_prio $W/trigger)"
add $S/trigger "!$B"
expect_eq "gone with B" "$LISTED" "$(grep -v '^#' $W/trigger)"
# the other order
add $S/trigger "$A"
add $S/trigger "$B"
add $S/trigger "!$B"
add $S/trigger "!$A"
expect_eq "gone with A" "$LISTED" "$(grep -v '^#' $W/trigger)"

# refused after it made synthetic_prio (prio is no u64): nothing left
refused $S/trigger 'hist:sched:sched_switch' \
	"$LAT:onmatch(sched.sched_waking).trace(wl,sched.sched_waking.prio,\$lat)" \
	"Param type doesn't match synthetic event field type" 88
expect_eq "nothing made" "$LISTED" "$(grep -v '^#' $W/trigger)"
expect_eq "nothing added" "# Available triggers:" "$(head -1 $S/trigger)"

# The histogram made for sched_waking's prio takes the keys of the one
# $ts1 is in, common_cpu here: a pseudo-field with no field of the event
echo > $W/trigger
add $W/trigger 'hist:keys=common_cpu:ts1=common_timestamp.usecs:c=common_cpu'
expect_eq "common_cpu named once" \
	'hist:keys=common_cpu:vals=hitcount:ts1=common_timestamp.usecs,c=common_cpu:sort=hitcount:size=2048:clock=global [active]' \
	"$(grep -v '^#' $W/trigger)"
C="hist:keys=common_cpu:lat=common_timestamp.usecs-\$ts1:onmatch(sched.sched_waking).trace(wl,\$lat,sched.sched_waking.prio)"
add $S/trigger "$C"
expect_eq "made keyed by common_cpu" \
	'hist:keys=common_cpu:vals=hitcount:synthetic_prio=prio:sort=hitcount:size=2048 [active]' \
	"$(grep synthetic_prio $W/trigger)"
sleep 0.2
grep -Eq '^ +Hits: [1-9]' $S/hist ||
	fail "sched_switch's histogram keyed by common_cpu counted nothing: $(cat $S/hist)"
add $S/trigger "!$C"
expect_eq "gone with it" 1 "$(grep -vc '^#' $W/trigger)"
echo > $W/trigger

# A histogram on a user event called wl holds the user event, not the
# synthetic event of that name, which goes while the histogram stays
if [ -e $T/user_events_data ]; then
	add $T/dynamic_events 'u:wl u32 a'
	add $T/events/user_events/wl/trigger 'hist:keys=a'
	bounded 10 sh -c "echo '!wl' >> $T/synthetic_events" ||
		fail "synthetic wl held by user_events/wl's histogram"
	expect_eq "user_events/wl's histogram" \
		'hist:keys=a:vals=hitcount:sort=hitcount:size=2048 [active]' \
		"$(grep -v '^#' $T/events/user_events/wl/trigger)"
	echo > $T/events/user_events/wl/trigger
	# and one made before the synthetic event existed takes nothing
	# from it when it goes
	add $T/events/user_events/wl/trigger 'hist:keys=a'
	add $T/synthetic_events 'wl u64 lat'
	echo > $T/events/user_events/wl/trigger
	bounded 10 sh -c "echo '!wl' >> $T/synthetic_events" ||
		fail "synthetic wl made after user_events/wl's histogram cannot go"
	echo '!u:wl' >> $T/dynamic_events || fail "user event wl stays"
fi
