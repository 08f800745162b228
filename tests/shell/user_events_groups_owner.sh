#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A group's files given to a user keep that owner across a remount of
# tracefs that names no owner, and follow one that does (uid=, gid=), as
# every tracefs file does (trace_marker, chown'ed the same way, is the
# reference).  The user can open the group's data file before and after
# the plain remount, and no longer after uid=0.  Every open is bounded.
. /tests/lib.sh
G=$T/user_events_groups
[ -d $G ] || skip "no user_events groups"
C=ue_own
cleanup() {
	chown root:root $T/trace_marker
	[ -d $G/$C ] && rmdir $G/$C
	rm -f /tmp/ue_own_data
}
cleanup
trap cleanup EXIT

owners() { stat -c %U:%G $G/$C/user_events_data $G/$C/user_events_status $T/trace_marker | tr '\n' ' '; }

# nobody opens the group's data file, bound where it can reach it
nobody_opens() {
	unshare -m sh -c "mount --bind $G/$C/user_events_data /tmp/ue_own_data &&
		su -s /bin/sh nobody -c 'exec 3<> /tmp/ue_own_data'" 2>/dev/null
}

mkdir $G/$C || fail "mkdir $C"
touch /tmp/ue_own_data
bounded 20 nobody_opens && fail "nobody opens a root group's file"
chown nobody:nogroup $G/$C/user_events_data $G/$C/user_events_status $T/trace_marker
expect_eq "given" "nobody:nogroup nobody:nogroup nobody:nogroup " "$(owners)"
bounded 20 nobody_opens || fail "nobody cannot open its group's file"

# A remount that names no owner keeps them
mount -o remount $T || fail "remount"
expect_eq "kept across remount" "nobody:nogroup nobody:nogroup nobody:nogroup " "$(owners)"
bounded 20 nobody_opens || fail "nobody cannot open its file after the remount"

# One that names the owner gives every file to it, the group's too
mount -o remount,uid=0 $T || fail "remount,uid=0"
expect_eq "uid= follows" "root:nogroup root:nogroup root:nogroup " "$(owners)"
bounded 20 nobody_opens && fail "nobody still opens the group's file after uid=0"
mount -o remount,gid=0 $T || fail "remount,gid=0"
expect_eq "gid= follows" "root:root root:root root:root " "$(owners)"
exit 0
