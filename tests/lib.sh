# SPDX-License-Identifier: GPL-2.0
# Helpers for the shell tests run inside the VM (busybox ash).  Source it:
#   . /tests/lib.sh
# A test exits 0 when it passed, 4 when it skipped, anything else on failure.

T=${TRACEFS:-/sys/kernel/tracing}

fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "SKIP: $*"; exit 4; }

# expect_eq WHAT EXPECTED ACTUAL
expect_eq() {
	[ "$2" = "$3" ] && return 0
	printf 'FAIL: %s\n  expected: [%s]\n  actual:   [%s]\n' "$1" "$2" "$3"
	exit 1
}

# expect_fail CMD... - the command (usually an echo into tracefs) must fail.
expect_fail() { if "$@" 2>/dev/null; then fail "expected to fail: $*"; fi; }

# trace_lines - the records in the trace buffer, without the header and with
# the task/cpu/flags/timestamp columns cut off: "event: payload".
trace_lines() { grep -v '^#' "$T/trace" | sed 's/^.*[0-9]\+\.[0-9]\+: //'; }

# tracing_reset - stop tracing everything this suite may have touched.
tracing_reset() {
	echo 0 > "$T/events/enable"
	echo 1 > "$T/tracing_on"
	echo > "$T/trace"
	echo > "$T/error_log" 2>/dev/null
	pids_reset
}

# pids_reset - no event pid filtering, and no event marked as filtered by
# pid.  A write to set_event_pid or set_event_notrace_pid marks every event
# of the instance, even the write of an empty line ("echo >", as trace-cmd
# and ftracetest reset it): the base clears the marks only when a truncating
# open empties a list that was not empty.  So both lists get this shell's
# pid, then both are emptied without a write.
pids_reset() {
	echo $$ > "$T/set_event_pid"
	echo $$ > "$T/set_event_notrace_pid"
	: > "$T/set_event_pid"
	: > "$T/set_event_notrace_pid"
}

# Frames of the trace core a build may keep at the top of an event's stack
# trace or not, as its compiler inlines or tail-calls them: the optimized
# kernels jump from trace_event_buffer_commit() to
# trace_event_commit_full() and from that (the general path) and from
# trace_event_trigger_record() (a record built on the probe's stack
# for its triggers) to event_triggers_post_call() and from that to the
# trigger, while gcov and the debug kernel keep their frames.  A stack
# trace starts at its first frame that is none of them.
STACK_CORE_FRAMES='trace_event_buffer_commit|trace_event_commit_full|trace_event_trigger_record|event_triggers_post_call'

# stack_starts [PATTERN] - where each stack trace of the trace starts (see
# STACK_CORE_FRAMES), one line each, in the order of the trace; with
# PATTERN, only those of the records whose lines match it.
stack_starts() {
	awk -v p="${1:-.}" -v core="^($STACK_CORE_FRAMES)\$" '
		/<stack trace>/ { if (want) start = 1; want = 0; next }
		start && /^ *=> / {
			f = $0; sub(/^ *=> /, "", f)
			if (f !~ core) { print f; start = 0 }
			next
		}
		{ start = 0; want = ($0 ~ p) }' "$T/trace"
}

# use_event SYSTEM/EVENT - point $E at the event's folder, skip the test
# when this kernel lacks the event, and leave it disabled, unfiltered and
# the trace and error_log empty when the test exits.
use_event() {
	E=$T/events/$1
	[ -d "$E" ] || skip "no $1 event"
	trap 'echo 0 > $E/enable; echo 0 > $E/filter; echo > $T/trace; echo > $T/error_log' EXIT
}

# bounded SECONDS CMD... - run CMD and return its status, failing the test
# when it has not returned within SECONDS: a kernel path that hangs then
# fails this test, named, instead of silently stopping the run.
bounded() {
	_limit=$(($1 * 10))
	shift
	rm -f /tmp/bounded.rc
	( "$@"; echo $? > /tmp/bounded.rc ) &
	_n=0
	while [ ! -s /tmp/bounded.rc ]; do
		_n=$((_n + 1))
		[ $_n -le $_limit ] || fail "no return within $((_limit / 10))s: $*"
		usleep 100000
	done
	return "$(cat /tmp/bounded.rc)"
}

# refused FILE LOC CMD MESSAGE CARET - writing the line CMD to FILE fails
# within 10 s, and error_log holds "LOC: error: MESSAGE" for CMD with the
# caret under its column CARET.
refused() {
	echo > "$T/error_log"
	bounded 10 sh -c 'printf "%s\n" "$1" >> "$2"' sh "$3" "$1" 2>/dev/null &&
		fail "accepted: $3"
	_log=$(awk -v m="$2: error: $4" 'index($0, m) { n = 3 } n { print; n-- }' "$T/error_log")
	[ -n "$_log" ] || fail "'$3': error_log lacks '$4': [$(cat "$T/error_log")]"
	expect_eq "'$3' command line" "  Command: $3" "$(echo "$_log" | sed -n 2p)"
	expect_eq "'$3' caret" "$(printf '%*s^' $((11 + $5)) '')" "$(echo "$_log" | sed -n 3p)"
}
