#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bad trigger commands fail with the conventional error code, leave an
# error_log entry pointing at the culprit, and add nothing.
. /tests/lib.sh
F=$T/events/sched/sched_process_fork
LOC='trigger:sched:sched_process_fork: error: '
tracing_reset

# try CMD ERRNO-TEXT MESSAGE CARET-COLUMN
try() {
	echo > $T/error_log
	out=$( (echo "$1" > $F/trigger) 2>&1 ) && fail "'$1' was accepted"
	case "$out" in
	*"$2"*) ;;
	*) fail "'$1': expected '$2', got '$out'" ;;
	esac
	# The entry, and the two lines under it.
	log=$(awk -v m="$LOC$3" 'index($0, m) { n = 3 } n { print; n-- }' $T/error_log)
	[ -n "$log" ] || fail "'$1': error_log lacks '$3': [$(cat $T/error_log)]"
	expect_eq "'$1' command line" "  Command: $1" "$(echo "$log" | sed -n 2p)"
	caret=$(echo "$log" | sed -n 3p)
	expect_eq "'$1' caret" "$(printf '%*s^' $((11 + $4)) '')" "$caret"
	expect_eq "'$1' added nothing" "# Available triggers:" "$(head -1 $F/trigger)"
	expect_eq "'$1' no soft mode left" 0 "$(cat $F/enable)"
}

try 'bogus' 'Invalid argument' 'Unknown trigger command' 0
try '!nosuch:1' 'Invalid argument' 'Unknown trigger command' 1
try 'traceoff:0' 'Invalid argument' 'Count must be' 9
try 'traceoff:5x' 'Invalid argument' 'Count must be' 9
try 'stacktrace:foo' 'Invalid argument' "Expected ':count' or 'if <filter>'" 11
try 'traceon ifx == 1' 'Invalid argument' "Expected ':count' or 'if <filter>'" 8
try 'traceoff if' 'Invalid argument' 'Invalid trigger filter' 9
try 'traceoff if nosuchfield == 1' 'Invalid argument' 'Field not found' 24
try 'traceoff:3 if child_pid ==' 'Invalid argument' 'Invalid value (did you forget quotes)?' 26
try 'traceon if (child_pid == 1' 'Invalid argument' "Too many '('" 11
try 'enable_event' 'Invalid argument' 'Expected <system>:<event>' 0
try 'enable_event:sched' 'Invalid argument' 'Expected <system>:<event>' 13
try 'enable_event:nogroup:noevent' 'Invalid argument' 'No such event in this instance' 13
try 'disable_event:sched:nosuch:2' 'Invalid argument' 'No such event in this instance' 14
try 'enable_event:sched:sched_switch:x1' 'Invalid argument' 'Count must be' 32
expect_eq "target untouched" 0 "$(cat $T/events/sched/sched_switch/enable)"

# Duplicates: -EEXIST, first trigger kept.
echo 'traceon' > $F/trigger
echo > $T/error_log
out=$( (echo 'traceoff:1' > $F/trigger) 2>&1 ) && fail "duplicate accepted"
case "$out" in *'File exists'*) ;; *) fail "duplicate: got '$out'" ;; esac
grep -q "${LOC}A trigger of this kind is already set" $T/error_log ||
	fail "no error_log entry for duplicate"
expect_eq "first kept" "traceon:unlimited" "$(cat $F/trigger)"
echo '!traceon' > $F/trigger

# Removing what is not there is not an error; an empty line is refused
# as on the base (trigger_write_test has the details).
echo '!snapshot' > $F/trigger || fail "removing absent trigger failed"
echo > $T/error_log
out=$( (echo '' >> $F/trigger) 2>&1 ) && fail "empty line accepted"
case "$out" in *'Invalid argument'*) ;; *) fail "empty line: got '$out'" ;; esac
expect_eq "empty line logs nothing" "" "$(cat $T/error_log)"
expect_eq "still empty" "# Available triggers:" "$(head -1 $F/trigger)"
tracing_reset
