#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A dynamic (synthetic) event that a trigger refers to, or that carries a
# trigger, cannot be removed until the trigger is gone.
. /tests/lib.sh
P=$T/events/ftrace/print/trigger
E=$T/events/synthetic/trig_lt
cleanup() {
	echo '!enable_event:synthetic:trig_lt' > $P 2>/dev/null
	[ -d $E ] && echo '!traceon' > $E/trigger
	echo '!trig_lt' >> $T/synthetic_events 2>/dev/null
	tracing_reset
}
tracing_reset
[ -f $T/synthetic_events ] || skip "no synthetic events"
echo 'trig_lt u64 x' >> $T/synthetic_events || fail "create synthetic event"

# As the target of enable_event.
echo 'enable_event:synthetic:trig_lt' > $P
expect_eq "target soft" "0*" "$(cat $E/enable)"
out=$( (echo '!trig_lt' >> $T/synthetic_events) 2>&1 ) && { cleanup; fail "removed a referenced event"; }
case "$out" in *'busy'*) ;; *) cleanup; fail "removal: expected EBUSY, got '$out'" ;; esac
[ -d $E ] || fail "event gone after refused removal"
expect_eq "trigger kept" "enable_event:synthetic:trig_lt:unlimited" "$(cat $P)"
echo '!enable_event:synthetic:trig_lt' > $P
expect_eq "target released" 0 "$(cat $E/enable)"

# Carrying a trigger itself.
echo 'traceon' > $E/trigger
expect_fail sh -c "echo '!trig_lt' >> $T/synthetic_events"
[ -d $E ] || fail "event with trigger removed"
echo '!traceon' > $E/trigger

echo '!trig_lt' >> $T/synthetic_events || fail "removal after triggers are gone"
[ -d $E ] && fail "event still there"
cleanup
