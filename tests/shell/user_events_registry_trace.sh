#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The user_events_registry tracepoints: a registration (as written; an
# event of dynamic_events persists, and has no status bit: only status-page
# registrations take one), its consumers coming and going with ftrace and
# perf, and the deletion, each one line.
# They are recorded in an instance of their own: deleting an event that
# was enabled clears the buffers it was enabled in (as in the base), and
# the deletion is one of the lines we want.
. /tests/lib.sh
I=$T/instances/ue_registry
E=$T/events/user_events/ue_registry_probe
tracing_reset
mkdir $I || fail "no instance"
echo 1 > $I/events/user_events_registry/enable
echo 'u:ue_registry_probe u32 count; char[8] tag' >> $T/dynamic_events
echo 1 > $E/enable
echo 0 > $E/enable
# The arm64 VM has no perf (Debian's is an x86_64 build): no perf pair.
has_perf=0
command -v perf > /dev/null && has_perf=1
[ $has_perf = 1 ] && perf stat -e user_events:ue_registry_probe true > /dev/null 2>&1
echo '!u:ue_registry_probe' >> $T/dynamic_events
echo 0 > $I/events/user_events_registry/enable
got=$(grep -v '^#' $I/trace | sed -E 's/^.*: (user_event_[a-z]+: )/\1/')
perf_pair="user_event_status: name=ue_registry_probe bit=0 on ftrace=0 perf=1
user_event_status: name=ue_registry_probe bit=0 off ftrace=0 perf=0
"
[ $has_perf = 1 ] || perf_pair=
want="user_event_register: name=ue_registry_probe bit=0 flags=PERSIST created=1 cmd=ue_registry_probe u32 count; char[8] tag
user_event_status: name=ue_registry_probe bit=0 on ftrace=1 perf=0
user_event_status: name=ue_registry_probe bit=0 off ftrace=0 perf=0
${perf_pair}user_event_delete: name=ue_registry_probe bit=0"
expect_eq "registry trace" "$want" "$got"
expect_eq "registered by this shell" $((4 + 2 * has_perf)) "$(grep -v '^#' $I/trace | grep -c -- '-[0-9]* *\[')"
rmdir $I
tracing_reset
