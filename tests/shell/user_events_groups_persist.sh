#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Persistence delegated to a group.  A container's root, an unprivileged
# user mapped to root in a user namespace of its own, holds a group's
# files bind-mounted in its mount namespace.  Until the host writes 1 to
# the group's user_events_persist, USER_EVENT_REG_PERSIST answers EPERM;
# then the container makes a persistent event that outlives its process,
# deletes it, and is bounded by the group's user_events_max.  It cannot
# change user_events_persist itself; another group and the default group
# (reached through a descriptor the host opened) still answer EPERM;
# taking the delegation back leaves the events, whose deletion then
# answers EPERM again.
. /tests/lib.sh
G=$T/user_events_groups
[ -d $G ] || skip "no user_events groups"
[ -e /proc/self/ns/user ] || skip "no user namespaces"
C=ue_pc
O=ue_po
S=$T/events/user_events_$C
P=/samples/ue_persist
cleanup() {
	for g in $C $O; do [ -d $G/$g ] && rmdir $G/$g; done
	$P $T/user_events_data del ue_pc_default > /dev/null 2>&1
	rm -f /tmp/ue_pc_data /tmp/ue_pc_persist /tmp/ue_pc_other
	tracing_reset
}
cleanup
trap cleanup EXIT

mkdir $G/$C && mkdir $G/$O || fail "mkdir"
chown nobody $G/$C/user_events_data $G/$C/user_events_persist \
	$G/$O/user_events_data
touch /tmp/ue_pc_data /tmp/ue_pc_persist /tmp/ue_pc_other
expect_eq "not delegated at first" 0 "$(cat $G/$C/user_events_persist)"
[ -e $T/user_events_persist ] && fail "the default group has user_events_persist"

# container CMD - run CMD as root of a new user namespace that maps
# nobody, with the group's files at /tmp/ue_pc_*, fd 3 open on the
# default group's user_events_data (opened by the host's root)
container() {
	unshare -m sh -c "
		mount --bind $G/$C/user_events_data /tmp/ue_pc_data &&
		mount --bind $G/$C/user_events_persist /tmp/ue_pc_persist &&
		mount --bind $G/$O/user_events_data /tmp/ue_pc_other &&
		exec 3<> $T/user_events_data &&
		exec su -s /bin/sh nobody -c \"exec unshare -r -m sh -c '\$1'\"" sh "$1"
}

expect_eq "root of its user namespace" "0" "$(bounded 10 container 'id -u')"
expect_eq "not delegated" "EPERM 0" \
	"$(bounded 10 container "$P /tmp/ue_pc_data reg kept")"
[ -d $S/kept ] && fail "a refused registration made the event"

echo 1 > $G/$C/user_events_persist || fail "host cannot delegate"
expect_eq "delegated" 1 "$(cat $G/$C/user_events_persist)"
expect_eq "persist" "ok 1" "$(bounded 10 container "$P /tmp/ue_pc_data reg kept")"
# a transient one, registered the same way, goes with its process
expect_eq "transient" "ok 1" \
	"$(bounded 10 container "$P /tmp/ue_pc_data reg gone 1 transient")"
n=0
while [ -d $S/gone0 ]; do
	n=$((n + 1))
	[ $n -le 50 ] || fail "the transient event outlived its process"
	usleep 100000
done
sleep 1
[ -d $S/kept ] || fail "the persistent event did not survive its process"
grep -q "^u:user_events_$C/kept u32 n\$" $T/dynamic_events ||
	fail "dynamic_events lacks it: [$(cat $T/dynamic_events)]"
echo 1 > $S/kept/enable
expect_eq "in use" "EBUSY 0" "$(bounded 10 container "$P /tmp/ue_pc_data del kept")"
echo 0 > $S/kept/enable
expect_eq "delete" "ok 0" "$(bounded 10 container "$P /tmp/ue_pc_data del kept")"
[ -d $S/kept ] && fail "deleted, still there"

# the container cannot take or give the delegation
bounded 10 container "echo 0 > /tmp/ue_pc_persist" 2>/dev/null &&
	fail "the container changed user_events_persist"
expect_eq "still delegated" 1 "$(cat $G/$C/user_events_persist)"
expect_fail sh -c "echo 2 > $G/$C/user_events_persist"

# the group's limit bounds persistent events too
echo 3 > $G/$C/user_events_max
expect_eq "limit" "EMFILE 3" "$(bounded 10 container "$P /tmp/ue_pc_data reg p 5")"
expect_eq "three kept" "p0 p1 p2" "$(ls -d $S/p* | sed 's|.*/||' | tr '\n' ' ' | sed 's/ $//')"

# nowhere else: another group, the default group
expect_eq "other group" "EPERM 0" \
	"$(bounded 10 container "$P /tmp/ue_pc_other reg kept")"
expect_eq "default group" "EPERM 0" "$(bounded 10 container "$P fd:3 reg kept")"
[ -d $T/events/user_events/kept ] && fail "the default group has it"
$P $T/user_events_data reg ue_pc_default > /dev/null || fail "host persist"
expect_eq "default group's delete" "EPERM 0" \
	"$(bounded 10 container "$P fd:3 del ue_pc_default")"
expect_eq "host deletes" "ok 0" "$($P $T/user_events_data del ue_pc_default)"

# taken back: the events stay, deleting them is the host's again
echo 0 > $G/$C/user_events_persist
expect_eq "taken back" "EPERM 0" "$(bounded 10 container "$P /tmp/ue_pc_data del p0")"
[ -d $S/p0 ] || fail "taking the delegation back removed an event"
expect_eq "host deletes p0" "ok 0" "$($P $G/$C/user_events_data del p0)"
# rmdir removes the rest with the group
rmdir $G/$C || fail "rmdir with persistent events"
[ -d $S ] && fail "the group's system outlived it"
echo ok
