#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Filters on sched:sched_process_exec (a __data_loc string and two pids):
# exactly the exec records the expression accepts reach the trace, the
# filter file reads back the expression, and "0" clears it.
. /tests/lib.sh
use_event sched/sched_process_exec
tracing_reset
echo 0 > $E/filter

# check FILTER EXPECTED: run four execs, compare "event: filename" lines
check() {
	echo "$1" > $E/filter || fail "filter rejected: $1"
	expect_eq "filter file for [$1]" "$1" "$(cat $E/filter)"
	echo > $T/trace
	echo 1 > $E/enable
	/bin/true; /bin/false; /bin/true; /bin/echo -n
	echo 0 > $E/enable
	expect_eq "records for [$1]" "$2" \
		"$(trace_lines | sed 's/ pid=[0-9]* old_pid=[0-9]*$//')"
}

ALL='sched_process_exec: filename=/bin/true
sched_process_exec: filename=/bin/false
sched_process_exec: filename=/bin/true
sched_process_exec: filename=/bin/echo'
TRUE='sched_process_exec: filename=/bin/true
sched_process_exec: filename=/bin/true'
FE='sched_process_exec: filename=/bin/false
sched_process_exec: filename=/bin/echo'

check 'filename == "/bin/true"' "$TRUE"
check 'filename == /bin/true' "$TRUE"
check "filename ~ '*/true'" "$TRUE"
check 'filename ~ "/bin/t*"' "$TRUE"
check 'filename ~ "*in/tru*"' "$TRUE"
check 'filename ~ "/bin/[t]?ue"' "$TRUE"
check 'filename != "/bin/true"' "$FE"
check 'filename == "/bin/false" || filename == /bin/echo' "$FE"
check '!(filename ~ "*true") && pid > 0' "$FE"
check '(pid > 0 && common_pid > 0) && (filename ~ "*e" || filename ~ "*o")' "$ALL"
check 'pid < 0 || common_pid < 0' ""
(echo 'pid == old_pid' > $E/filter) 2>/dev/null && fail "accepted a field as a value"
check 'pid >= 1 && pid <= 0x7fffffff && pid != -1' "$ALL"
check 'filename ~ "!*true"' "$FE"
check 'common_preempt_count & 0xff || pid & 0xfffffff' "$ALL"

# "0" clears the filter: every exec is recorded again.
echo 0 > $E/filter
expect_eq "cleared filter file" "none" "$(cat $E/filter)"
echo > $T/trace
echo 1 > $E/enable
/bin/true; /bin/false; /bin/true; /bin/echo -n
echo 0 > $E/enable
expect_eq "records without filter" "$ALL" \
	"$(trace_lines | sed 's/ pid=[0-9]* old_pid=[0-9]*$//')"
exit 0
