#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# An event probe enabled in several instances hooks the attached event of
# each one: it records into each, and disabling it everywhere leaves no
# hook behind, so the probe can then be deleted and the attached event
# keeps firing without it.
#
# The base kernel hooks only the first instance that enables the probe
# and unhooks only the last one to disable it: when those differ, the
# hook stays on an event after the probe is freed (a use-after-free that
# `make fuzz` found).  Removing an instance also leaked the hook there.
. /tests/lib.sh
EP=$T/events/ep_inst/ep_fork
I=$T/instances/ep_inst1
SW=events/sched/sched_process_fork
cleanup() {
	for d in $T $I; do
		if [ -f $d/events/ep_inst/ep_fork/enable ]; then
			echo 0 > $d/events/ep_inst/ep_fork/enable
		fi
	done
	[ -d $I ] && rmdir $I
	echo '-:ep_inst/ep_fork' >> $T/dynamic_events 2>/dev/null
	tracing_reset
}
trap cleanup EXIT
tracing_reset
[ -d $T/instances ] || skip "no instances"
[ -d $I ] && rmdir $I
grep -q 'e\[:' $T/README || skip "no event probes"
mkdir $I || fail "mkdir instance"
echo 'e:ep_inst/ep_fork sched.sched_process_fork child=$child_pid' >> $T/dynamic_events ||
	fail "eprobe refused"

# forks N - fork N short-lived children
forks() { for _i in $(seq "$1"); do /bin/sh -c :; done; }
# count DIR - ep_fork records in DIR's buffer
count() { grep -c ' ep_fork: ' "$1/trace"; }
# hooked DIR - what DIR's attached event reports in its enable file
hooked() { cat "$1/$SW/enable"; }

# Enabled at the top level, then in the instance: each gets records.
echo 1 > $EP/enable
echo 1 > $I/events/ep_inst/ep_fork/enable
expect_eq "top level hooked" "0*" "$(hooked $T)"
expect_eq "instance hooked" "0*" "$(hooked $I)"
forks 3
[ "$(count $T)" -ge 3 ] || fail "top level recorded $(count $T) forks"
[ "$(count $I)" -ge 3 ] || fail "instance recorded $(count $I) forks"

# Disabled at the top level first: the instance still records, the top
# level no longer does, and only the instance's event stays hooked.
echo 0 > $EP/enable
expect_eq "top level unhooked" "0" "$(hooked $T)"
expect_eq "instance still hooked" "0*" "$(hooked $I)"
echo > $T/trace
echo > $I/trace
forks 2
expect_eq "top level after its disable" 0 "$(count $T)"
[ "$(count $I)" -ge 2 ] || fail "instance recorded $(count $I) forks after the top-level disable"

# Disabled in the instance too: nothing stays hooked, the probe can be
# deleted, and forks after that run without it (with the base's bug, a
# freed probe).
echo 0 > $I/events/ep_inst/ep_fork/enable
expect_eq "instance unhooked" "0" "$(hooked $I)"
bounded 10 sh -c "echo '-:ep_inst/ep_fork' >> $T/dynamic_events" || fail "delete refused"
forks 3
expect_eq "instance event untouched" "0" "$(hooked $I)"

# The other order, and an instance removed with the probe enabled in it:
# rmdir unhooks it, and the probe can be deleted afterwards.
echo 'e:ep_inst/ep_fork sched.sched_process_fork child=$child_pid' >> $T/dynamic_events
echo 1 > $I/events/ep_inst/ep_fork/enable
echo 1 > $EP/enable
echo 0 > $I/events/ep_inst/ep_fork/enable
expect_eq "top level keeps its hook" "0*" "$(hooked $T)"
echo 1 > $I/events/ep_inst/ep_fork/enable
echo 0 > $EP/enable
expect_eq "top level unhooked again" "0" "$(hooked $T)"
bounded 10 rmdir $I || fail "rmdir of the instance"
expect_fail test -d $I
bounded 10 sh -c "echo '-:ep_inst/ep_fork' >> $T/dynamic_events" || fail "delete after rmdir refused"
forks 3
expect_eq "top level after all" "0" "$(hooked $T)"
echo PASS
