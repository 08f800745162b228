#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# System call events that only triggers read (soft disabled, with a
# histogram or a filtered trigger) build their record on the probe's
# stack: what the triggers see must be what they see on the general path.
# Histograms count the right keys on enter and exit, a stacktrace trigger
# starts at the probe, a latency through common_timestamp is sane, a
# filtered traceon works while tracing is off, an enabled event is still
# recorded beside its histogram, a pid filter still keeps the triggers
# from other tasks' events, an event probe reads the fields, and
# triggers come and go under fire.
. /tests/lib.sh
use_event syscalls/sys_enter_kill
X=$T/events/syscalls/sys_exit_kill
trap 'echo 0 > $E/enable; pids_reset; echo 1 > $T/tracing_on
      echo "-:ep_kill" >> $T/dynamic_events 2>/dev/null
      for f in $E/trigger $X/trigger; do
	      grep -v "^#" $f | sed "s/^/!/; s/ \[active\]//" > $f 2>/dev/null
      done; echo > $T/trace' EXIT
tracing_reset
self() { kill -0 $$; }
body() { grep -v '^#' "$1/hist" | grep -v '^$'; }
# Only ours: busybox's timeout, which runs this test, polls with kill(pid, 0)
mine="if common_pid == $$"

# Keys from the record on enter and on exit (ESRCH is -3).
echo "hist:keys=sig $mine" > $E/trigger
echo "hist:keys=ret $mine" > $X/trigger
expect_eq "soft disabled" "0*" "$(cat $E/enable)"
self; self; self
kill -0 99999 2>/dev/null
expect_eq "enter hist" "{ sig:          0 } hitcount:          4
Totals:
    Hits: 4
    Entries: 1
    Dropped: 0" "$(body $E)"
expect_eq "exit hist" "{ ret: 18446744073709551613 } hitcount:          1
{ ret:          0 } hitcount:          3
Totals:
    Hits: 4
    Entries: 2
    Dropped: 0" "$(body $X)"
echo "!hist:keys=sig $mine" > $E/trigger
echo "!hist:keys=ret $mine" > $X/trigger

# A filtered stacktrace trigger starts at the probe, as on the base kernel
# (config/arch-x86_64.config builds with ORC; other unwinders differ).
echo "stacktrace $mine" > $E/trigger
self
echo "!stacktrace $mine" > $E/trigger
top=$(stack_starts | head -n 1)
[ -n "$top" ] || fail "no stack trace recorded"
if [ "$(uname -m)" = x86_64 ] && [ "$top" != ftrace_syscall_enter ]; then
	grep -v '^#' $T/trace | head -n 30
	fail "stack trace starts at [$top], not [ftrace_syscall_enter]"
fi
echo > $T/trace

# common_timestamp on a record kept nowhere: a latency of a kill() in
# microseconds, neither 0-based nor negative (it would show as 2^64 - n).
# Only this shell's: another task's kill() (busybox's timeout polling)
# would add a second entry and a second max.
echo "hist:keys=common_pid:ts0=common_timestamp.usecs $mine" > $E/trigger
echo "hist:keys=common_pid:lat=common_timestamp.usecs-\$ts0:onmax(\$lat).save(ret) $mine" > $X/trigger
self; self
max=$(sed -n 's/^[[:space:]]*max: *\([0-9]*\).*/\1/p' $X/hist)
[ -n "$max" ] || fail "no max: [$(cat $X/hist)]"
[ "$max" -lt 10000000 ] || fail "latency of a kill(): $max us"
echo "!hist:keys=common_pid:lat=common_timestamp.usecs-\$ts0:onmax(\$lat).save(ret) $mine" > $X/trigger
echo "!hist:keys=common_pid:ts0=common_timestamp.usecs $mine" > $E/trigger

# Triggers run whether or not the ring buffer records.
echo 0 > $T/tracing_on
echo 'traceon if sig == 0' > $E/trigger
self
expect_eq "traceon while off" 1 "$(cat $T/tracing_on)"
echo '!traceon if sig == 0' > $E/trigger

# Enabled, the event is recorded beside its histogram.
echo "hist:keys=sig $mine" > $E/trigger
echo 1 > $E/enable
self
echo 0 > $E/enable
expect_eq "recorded" 1 "$(grep -c "^ *sh-$$ .*sys_kill(pid: " $T/trace)"
expect_eq "counted" "{ sig:          0 } hitcount:          1" "$(body $E | head -1)"
echo "!hist:keys=sig $mine" > $E/trigger

# A pid filter that leaves us out keeps our events from the triggers.
echo 1 > $T/set_event_pid
echo "hist:keys=sig $mine" > $E/trigger
self
expect_eq "pid filtered" "    Hits: 0" "$(body $E | grep Hits)"
echo "!hist:keys=sig $mine" > $E/trigger
pids_reset

# An event probe on the soft-disabled event reads the record's fields.
echo 'e:ep_kill syscalls/sys_enter_kill sig=$sig pid=$pid' >> $T/dynamic_events
echo 1 > $T/events/eprobes/ep_kill/enable
expect_eq "eprobe's event soft disabled" "0*" "$(cat $E/enable)"
self
echo 0 > $T/events/eprobes/ep_kill/enable
expect_eq "eprobe" "ep_kill: (syscalls.sys_enter_kill) sig=0x0 pid=$(printf 0x%x $$)" \
	"$(grep " sh-$$ .*ep_kill:" $T/trace | sed 's/^.*: ep_kill/ep_kill/')"
echo '-:ep_kill' >> $T/dynamic_events
echo > $T/trace

# Histograms attached and removed while another task keeps firing.
( while :; do kill -0 $$ 2>/dev/null || exit; done ) &
loop=$!
churn() {
	for i in $(seq 50); do
		echo 'hist:keys=sig:vals=hitcount' > $E/trigger || return 1
		echo 'hist:keys=ret if ret == 0' > $X/trigger || return 1
		echo '!hist:keys=sig:vals=hitcount' > $E/trigger || return 1
		echo '!hist:keys=ret if ret == 0' > $X/trigger || return 1
	done
}
bounded 120 churn || fail "attaching and removing histograms failed"
kill $loop; wait $loop 2>/dev/null
expect_eq "no trigger left" "# Available triggers:" "$(head -1 $E/trigger)"
expect_eq "event off" 0 "$(cat $E/enable)"
exit 0
