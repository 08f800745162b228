#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# BPF programs fire a synthetic event through bpf_synth_event_lookup(),
# bpf_synth_event_trace() and bpf_synth_event_release()
# (/samples/synth_bpf assembles them).  The records are exact in trace
# and in perf script, pass the event's filter and feed its histogram, as
# those of onmatch().trace() do; a char[8] keeps 7 characters of a longer
# string.  A program on sched_switch fires it each time a child of the
# tool is switched out; one on the event's own perf event that fires it
# again makes one more record, not a loop.  Refused: a wrong number of values (EINVAL, no
# record), an unknown name (the lookup's NULL), programs the verifier
# must reject (a reference not released, not checked for NULL, a name
# the program could change) and an unprivileged loader (EPERM).  A
# deleted event is no longer found by a loaded program.
. /tests/lib.sh
[ -e /sys/kernel/btf/vmlinux ] || skip "no BTF"
[ -e $T/synthetic_events ] || skip "no synthetic events"
B=/samples/synth_bpf
S=$T/synthetic_events
E=$T/events/synthetic/bpf_fired
DEF='bpf_fired u64 a; s32 b; char s[8]; char d[]'
UNPRIV=$(cat /proc/sys/kernel/unprivileged_bpf_disabled)
# kfunc calls need the JIT, which 32-bit x86 leaves off by default
JIT=/proc/sys/net/core/bpf_jit_enable
JITWAS=$(cat $JIT 2>/dev/null)
cd /tmp
cleanup() {
	echo "$UNPRIV" > /proc/sys/kernel/unprivileged_bpf_disabled
	[ -n "$JITWAS" ] && echo "$JITWAS" > $JIT
	[ -d $E ] && { echo > $E/trigger 2>/dev/null; echo 0 > $E/filter; echo 0 > $E/enable; }
	echo "!bpf_fired" >> $S 2>/dev/null
	rm -f perf.data perf.data.old
	tracing_reset
}
trap cleanup EXIT
tracing_reset

[ -n "$JITWAS" ] && echo 1 > $JIT
echo "$DEF" >> $S || fail "cannot define bpf_fired"
# fire A B S D [SIZE] - run the program once
fire() { bounded 30 $B fire bpf_fired "$@"; }

expect_eq "fired, nothing enabled" "ret 0" "$(fire 1 -2 longer-than-eight 'from bpf')"
expect_eq "nothing recorded" "" "$(trace_lines)"

echo 1 > $E/enable
expect_eq "fired" "ret 0" "$(fire 5 -2 longer-than-eight 'from bpf')"
expect_eq "the record" "bpf_fired: a=5 b=-2 s=longer- d=from bpf" "$(trace_lines)"

echo > $T/trace
expect_eq "too many values" "ret -22" "$(fire 6 0 x y 40)"
expect_eq "too few values" "ret -22" "$(fire 6 0 x y 24)"
expect_eq "unknown event" "ret 1000" "$(bounded 30 $B fire no_such_event 6 0 x y)"
expect_eq "nothing recorded when refused" "" "$(trace_lines)"

# the event's filter and a histogram see what the program fires
echo 'a >= 10' > $E/filter || fail "filter refused"
echo 'hist:keys=a:vals=hitcount:sort=a' > $E/trigger || fail "hist refused"
for a in 3 10 12 10; do
	expect_eq "fired a=$a" "ret 0" "$(fire $a 1 s "n$a")"
done
expect_eq "filtered records" "bpf_fired: a=10 b=1 s=s d=n10
bpf_fired: a=12 b=1 s=s d=n12
bpf_fired: a=10 b=1 s=s d=n10" "$(trace_lines)"
# the filter keeps records out of the buffer, not out of the triggers
expect_eq "histogram" "{ a:          3 } hitcount:          1
{ a:         10 } hitcount:          2
{ a:         12 } hitcount:          1" "$(grep '^{' $E/hist)"
echo '!hist:keys=a:vals=hitcount:sort=a' > $E/trigger
echo 0 > $E/filter
echo 0 > $E/enable
echo > $T/trace

# a program on the event's own perf event fires it again: once, for
# the program cannot run inside its own run, nor perf inside its probe
echo 1 > $E/enable
expect_eq "fired with a loop" "ret 0" "$(bounded 30 $B loop bpf_fired 1 2 outer x)"
expect_eq "the loop stops" "bpf_fired: a=1 b=2 s=outer d=x
bpf_fired: a=99 b=0 s=loop d=inner" "$(trace_lines)"
echo 0 > $E/enable
echo > $T/trace

# perf records the same record
if command -v perf > /dev/null; then
	bounded 60 perf record -q -e synthetic:bpf_fired -o perf.data -- \
		$B fire bpf_fired 7 -3 abcdefghij 'to perf' > /dev/null 2>&1 ||
		fail "perf record failed"
	expect_eq "perf script" "a=7 b=-3 s=abcdefg d=to perf" \
		"$(perf script -F event,trace 2>/dev/null | sed -n 's/^ *synthetic:bpf_fired: *//p')"
fi

# from sched_switch: each time the child is switched out
echo 1 > $E/enable
out=$(bounded 60 $B switch bpf_fired -7 longer-than-eight 'from sched_switch' 20)
pid=${out#switched }
[ "$out" = "switched $pid" ] || fail "switch: $out"
echo 0 > $E/enable
n=$(trace_lines | grep -c .)
[ "$n" -ge 20 ] || fail "$n records from sched_switch, expected 20 or more"
expect_eq "every sched_switch record" \
	"bpf_fired: a=$pid b=-7 s=longer- d=from sched_switch" "$(trace_lines | sort -u)"
echo > $T/trace

# the program types that may call the kfuncs
for t in kprobe tracepoint raw_tp perf_event; do
	expect_eq "loads as $t" "loaded" "$(bounded 30 $B load $t bpf_fired)"
done

# what the verifier refuses
r=$(bounded 30 $B refuse unreleased bpf_fired)
case $r in "EINVAL Unreleased reference id="*) ;; *) fail "unreleased: $r" ;; esac
expect_eq "not checked for NULL" "EACCES Possibly NULL pointer passed to trusted R1" \
	"$(bounded 30 $B refuse unchecked bpf_fired)"
expect_eq "a name the program may write" "EACCES R1 does not point to a readonly map'" \
	"$(bounded 30 $B refuse writable bpf_fired)"

# an unprivileged loader: bpf() refused, and with unprivileged bpf()
# allowed, the tracing program still is
expect_eq "unprivileged" "EPERM map" \
	"$(bounded 30 su -s /bin/sh nobody -c "$B fire bpf_fired 1 2 s d")"
echo 0 > /proc/sys/kernel/unprivileged_bpf_disabled
expect_eq "unprivileged, bpf() allowed" "EPERM load" \
	"$(bounded 30 su -s /bin/sh nobody -c "$B fire bpf_fired 1 2 s d" 2>/dev/null)"
echo "$UNPRIV" > /proc/sys/kernel/unprivileged_bpf_disabled

# the event goes: a program no longer finds it
echo "!bpf_fired" >> $S || fail "cannot delete bpf_fired"
expect_eq "deleted" "ret 1000" "$(fire 1 2 s d)"
exit 0
