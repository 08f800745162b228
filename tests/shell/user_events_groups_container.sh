#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A container's view of a user_events group: in its own mount namespace,
# with a tmpfs on /sys/kernel/tracing holding only the group's
# user_events_data and user_events_status (bind mounts), an unprivileged
# user runs samples/user_events/example and the EventHeader sample
# unchanged.  Their records land in the group's system, the group's
# status text lists them alone, and the user can neither raise the
# group's limit (its file given to it too) nor reach the default group.
. /tests/lib.sh
G=$T/user_events_groups
[ -d $G ] || skip "no user_events groups"
C=ue_ct
S=$T/events/user_events_$C
tracing_reset
cleanup() {
	echo 0 > $S/enable 2>/dev/null
	[ -d $G/$C ] && rmdir $G/$C
	rm -f /tmp/ue_ct_data /tmp/ue_ct_status /tmp/ue_ct_max
	echo > $T/trace
}
cleanup
trap cleanup EXIT

mkdir $G/$C || fail "mkdir $C"
chown nobody:nogroup $G/$C/user_events_data $G/$C/user_events_status \
	$G/$C/user_events_max
expect_eq "owner kept" "nobody nobody nobody" \
	"$(stat -c %U $G/$C/user_events_data $G/$C/user_events_status $G/$C/user_events_max | tr '\n' ' ' | sed 's/ $//')"
touch /tmp/ue_ct_data /tmp/ue_ct_status /tmp/ue_ct_max

# container CMD - run CMD as nobody in the container's view of tracefs
container() {
	unshare -m sh -c "
		mount --bind $G/$C/user_events_data /tmp/ue_ct_data &&
		mount --bind $G/$C/user_events_status /tmp/ue_ct_status &&
		mount --bind $G/$C/user_events_max /tmp/ue_ct_max &&
		mount -t tmpfs none $T &&
		touch $T/user_events_data $T/user_events_status $T/user_events_max &&
		mount --bind /tmp/ue_ct_data $T/user_events_data &&
		mount --bind /tmp/ue_ct_status $T/user_events_status &&
		mount --bind /tmp/ue_ct_max $T/user_events_max &&
		exec su -s /bin/sh nobody -c '$1'"
}

expect_eq "whoami" "65534" "$(bounded 10 container 'id -u')"
expect_eq "the container's tracefs" "user_events_data
user_events_max
user_events_status" "$(bounded 10 container "ls $T")"

# First run: registers, nothing listens, nothing written
expect_eq "first run" "example: emitted 0 of 1" \
	"$(bounded 20 container '/samples/example 1' | tail -1)"
[ -d $S/example ] || fail "no events/user_events_$C/example"
[ -d $T/events/user_events/example ] && fail "the default group has it too"

echo 1 > $S/example/enable
expect_eq "enabled run" "example: emitted 3 of 3" \
	"$(bounded 20 container '/samples/example 3' | tail -1)"
expect_eq "records" "example: count=0 msg=hello 0
example: count=1 msg=hello 1
example: count=2 msg=hello 2" "$(trace_lines)"
echo 0 > $S/example/enable
echo > $T/trace

# The EventHeader sample, unchanged
bounded 20 container '/samples/eventheader 4 1 1' > /dev/null || fail "eventheader, first run"
[ -d $S/SampleProvider_L4K1 ] || fail "no EventHeader tracepoint in the group"
echo 1 > $S/SampleProvider_L4K1/enable
expect_eq "eventheader run" "eventheader: wrote 2 events" \
	"$(bounded 30 container '/samples/eventheader 4 1 2' | tail -1)"
expect_eq "EventHeader records" 2 "$(trace_lines | grep -c '^SampleProvider_L4K1: ')"
echo 0 > $S/SampleProvider_L4K1/enable

# The group's status text: its two events alone, seen from inside
expect_eq "status inside" "1:example
2:SampleProvider_L4K1

Active: 2
Busy: 0
Max: 32768" "$(bounded 10 container "cat $T/user_events_status")"

# The limit file, though given to nobody, stays root's
bounded 10 container "echo 5000 > $T/user_events_max" 2>/dev/null &&
	fail "the container raised its limit"
expect_eq "limit" 1024 "$(cat $G/$C/user_events_max)"
exit 0
