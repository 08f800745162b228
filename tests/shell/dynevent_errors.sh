#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A dynamic_events line that no kind of dynamic event takes is refused
# with EINVAL and explained in error_log, the caret at the line's start;
# the events of every kind are as they were.
. /tests/lib.sh
[ -f "$T/dynamic_events" ] || skip "no dynamic_events"
before=$(cat "$T/dynamic_events")
refused "$T/dynamic_events" dynevent 'z:dyn_err_z u32 a' \
	'No matching dynamic event type' 0
refused "$T/dynamic_events" dynevent 'zz' 'No matching dynamic event type' 0
expect_eq "dynamic_events after the refusals" "$before" "$(cat "$T/dynamic_events")"
[ ! -d "$T/events/z" ] || fail "an event directory z/ appeared"
echo > "$T/error_log"
exit 0
