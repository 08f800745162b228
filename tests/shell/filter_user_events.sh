#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Filters on a user event created through dynamic_events: its u32,
# char[8] and __rel_loc string fields take the operators of their kind
# and refuse the others with the usual report.
. /tests/lib.sh
[ -f $T/dynamic_events ] || skip "no dynamic_events"
CMD='u:filt_ue u32 a; char[8] s; __rel_loc char[] r'
echo "$CMD" >> $T/dynamic_events 2>/dev/null || skip "cannot create user events"
E=$T/events/user_events/filt_ue

cleanup() {
	echo 0 > $E/filter
	echo "!$CMD" >> $T/dynamic_events
	echo > $T/error_log
}
trap cleanup EXIT

good() {
	echo "$1" > $E/filter || fail "refused: $1"
	expect_eq "filter file for [$1]" "$1" "$(cat $E/filter)"
}

# bad EXPR COLUMN MESSAGE
bad() {
	(echo "$1" > $E/filter) 2>/dev/null && fail "accepted: $1"
	caret=$(printf "%$(($2 + 1))s" "^")
	expect_eq "report for [$1]" "$1
$caret
parse_error: $3" "$(cat $E/filter)"
}

good 'a == 1'
good 'a > 0x10 && a & 3'
good 's == "abc"'
good 's ~ "ab*" || s != x'
good 'r == "x" && r ~ "*[xy]?"'
good '(a == 1 || s == y) && !(r ~ "z*")'
good 'common_pid > 0 && a <= 4294967295'
bad 'a == -1' 5 'Illegal integer value'
bad 'a == "1"' 5 'Expecting numeric field'
bad 's == 1' 5 'Expecting string field'
bad 's < "a"' 2 'Illegal operation for field type'
bad 'r & 1' 4 'Expecting string field'
bad 'a ~ 1' 2 'Illegal operation for field type'
bad 'b == 1' 2 'Field not found'
bad 'a == 1 && r ==' 14 'Invalid value (did you forget quotes)?'
echo 0 > $E/filter
expect_eq "cleared" none "$(cat $E/filter)"
exit 0
