#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What a careless or hostile root may do with triggers must not hang,
# corrupt or leak: triggers that enable, disable, stop or snapshot the
# event they sit on, two events doing so to each other, instances
# removed while their events carry triggers of every kind and fire, or
# own a named histogram shared with the top instance, and dynamic events
# deleted while triggers refer to them or fds on their files are open.
# Each part ends by checking that everything it made can be removed.
. /tests/lib.sh
F=$T/events/sched/sched_process_fork
X=$T/events/sched/sched_process_exec
[ -d $F ] && [ -d $X ] || skip "no sched_process_fork/exec"
NONE='# Available triggers:'
cleanup() {
	for d in $T/instances/hostile_*; do [ -d "$d" ] && rmdir "$d" 2>/dev/null; done
	for c in 'enable_event:sched:sched_process_fork' 'disable_event:sched:sched_process_fork' \
		'enable_event:sched:sched_process_exec' 'disable_event:sched:sched_process_exec' \
		traceon traceoff snapshot stacktrace 'hist:name=hostile:keys=common_pid'; do
		echo "!$c" >> $F/trigger 2>/dev/null
		echo "!$c" >> $X/trigger 2>/dev/null
	done
	echo '-:hostile_kp/open' >> $T/kprobe_events 2>/dev/null
	echo 1 > $T/tracing_on
	tracing_reset
}
trap cleanup EXIT
tracing_reset

listing() { if head -1 $1/trigger | grep -q "^$NONE"; then echo "$NONE"; else cat $1/trigger; fi; }
add() { echo "$2" >> $1/trigger || fail "refused: $2"; }
fire() { i=0; while [ $i -lt $1 ]; do /bin/true; i=$((i + 1)); done; }

# --- Self-reference: an event enabling, stopping and snapshotting itself.
add $F 'enable_event:sched:sched_process_fork:3'
add $F 'traceoff:2'
add $F 'snapshot'
add $F 'stacktrace:1'
out=$( (echo 'disable_event:sched:sched_process_fork' >> $F/trigger) 2>&1 ) &&
	fail "a second enable/disable of one target was accepted"
case "$out" in *'File exists'*) ;; *) fail "duplicate target: got '$out'" ;; esac
fire 10
expect_eq "self triggers after 10 forks" 'stacktrace:count=0
snapshot:unlimited
traceoff:count=1
enable_event:sched:sched_process_fork:count=2' "$(listing $F)"
expect_eq "traced off" 0 "$(cat $T/tracing_on)"
for c in enable_event:sched:sched_process_fork traceoff snapshot stacktrace; do
	add $F "!$c"
done
expect_eq "self triggers gone" "$NONE" "$(listing $F)"
# As on the base, an event that enable_event turned on stays on when the
# trigger goes (trace_events.c keeps what the soft mode last set).
expect_eq "fork left on" 1 "$(cat $F/enable)"
echo 0 > $F/enable
echo 1 > $T/tracing_on

# --- Two events acting on each other, both ways, every time they fire.
add $F 'enable_event:sched:sched_process_exec'
add $X 'disable_event:sched:sched_process_fork'
add $F 'traceon'
add $X 'traceoff'
add $F 'snapshot if child_pid > 0'
add $X 'snapshot'
fire 20
expect_eq "fork enabled exec" '1*' "$(cat $X/enable)"
expect_eq "exec disabled fork" '0*' "$(cat $F/enable)"
for c in 'enable_event:sched:sched_process_exec' traceon snapshot; do add $F "!$c"; done
for c in 'disable_event:sched:sched_process_fork' traceoff snapshot; do add $X "!$c"; done
expect_eq "fork off after" 0 "$(cat $F/enable)"
expect_eq "exec left on after" 1 "$(cat $X/enable)"
echo 0 > $X/enable
expect_eq "fork clean" "$NONE" "$(listing $F)"
expect_eq "exec clean" "$NONE" "$(listing $X)"
echo 1 > $T/tracing_on

# --- An instance removed while its events carry triggers of every kind
# and fire: everything goes with it, the top instance is untouched.
I=$T/instances/hostile_a
mkdir $I || fail "mkdir instance"
add $I/events/sched/sched_process_fork 'enable_event:sched:sched_process_exec'
add $I/events/sched/sched_process_exec 'disable_event:sched:sched_process_fork:5'
add $I/events/sched/sched_process_fork 'snapshot'
add $I/events/sched/sched_process_fork 'stacktrace if child_pid > 0'
add $I/events/sched/sched_process_exec 'traceoff:3'
add $I/events/sched/sched_process_fork 'hist:keys=child_pid:vals=common_timestamp.usecs'
add $I/events/sched/sched_process_exec 'enable_hist:sched:sched_process_fork'
add $X 'traceon'
fire 5
( fire 30 ) &
rmdir $I || fail "rmdir of an instance with triggers"
wait
[ -d $I ] && fail "instance still there"
expect_eq "top trigger kept" 'traceon:unlimited' "$(listing $X)"
add $X '!traceon'

# As on the base, an fd open on a hist file keeps the instance (EBUSY);
# one open on a trigger file does not, and fails with ENODEV once the
# instance is gone, for writes and reads alike.
mkdir $I || fail "mkdir instance again"
add $I/events/sched/sched_process_fork 'traceoff'
add $I/events/sched/sched_process_fork 'hist:keys=common_pid'
exec 3>> $I/events/sched/sched_process_fork/trigger
exec 4< $I/events/sched/sched_process_fork/trigger
exec 5< $I/events/sched/sched_process_fork/hist
out=$( (rmdir $I) 2>&1 ) && fail "rmdir with an open hist file"
case "$out" in *'busy'*) ;; *) fail "rmdir with open hist fd: got '$out'" ;; esac
exec 5<&-
echo 'stacktrace' >&3 || fail "write through the kept fd"
rmdir $I || fail "rmdir with open trigger files"
out=$( (echo 'traceon' >&3) 2>&1 ) && fail "write after rmdir accepted"
case "$out" in *'No such device'*) ;; *) fail "write after rmdir: got '$out'" ;; esac
out=$( (cat <&4) 2>&1 ) && fail "read after rmdir succeeded: $out"
case "$out" in *'No such device'*) ;; *) fail "read after rmdir: got '$out'" ;; esac
exec 3>&- 4<&-

# --- A named histogram made in an instance and shared with the top one:
# the instance goes, the top one keeps the data, then goes too, and the
# name is free again.
mkdir $I || fail "mkdir instance"
add $I/events/sched/sched_process_exec 'hist:name=hostile:keys=common_pid'
add $X 'hist:name=hostile:keys=common_pid'
fire 3
rmdir $I || fail "rmdir with a shared named histogram"
fire 3
grep -q '^    Hits: ' $X/hist || fail "shared histogram unreadable: $(cat $X/hist)"
expect_eq "shared named kept" 'hist:name=hostile:keys=common_pid:vals=hitcount:sort=hitcount:size=2048 [active]' \
	"$(listing $X)"
add $X '!hist:name=hostile:keys=common_pid'
add $X 'hist:name=hostile:keys=pid'
add $X '!hist:name=hostile:keys=pid'
expect_eq "exec clean at the end" "$NONE" "$(listing $X)"

# --- A kprobe event refused deletion while it carries a trigger or is
# the target of one; deleted, as on the base, while an fd is open on its
# trigger file, which then fails with ENODEV.
if echo 'p:hostile_kp/open do_sys_openat2' >> $T/kprobe_events 2>/dev/null; then
	K=$T/events/hostile_kp/open
	del() { (echo '-:hostile_kp/open' >> $T/kprobe_events) 2>&1; }
	add $K 'traceon'
	out=$(del) && fail "kprobe deleted with a trigger"
	case "$out" in *'busy'*) ;; *) fail "delete with trigger: got '$out'" ;; esac
	add $K '!traceon'
	add $F 'enable_event:hostile_kp:open'
	out=$(del) && fail "kprobe deleted while a target"
	case "$out" in *'busy'*) ;; *) fail "delete of a target: got '$out'" ;; esac
	add $F '!enable_event:hostile_kp:open'
	# the fork of $(del) enabled it, and it stays so (see above)
	expect_eq "kprobe left on" 1 "$(cat $K/enable)"
	echo 0 > $K/enable
	exec 3< $K/trigger
	del > /dev/null || fail "kprobe not deleted with an fd on its trigger file"
	out=$( (cat <&3) 2>&1 ) && fail "read after delete succeeded: $out"
	case "$out" in *'No such device'*) ;; *) fail "read after delete: got '$out'" ;; esac
	exec 3<&-
fi
exit 0
