#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Debian's perf on ftrace:function: a filter of "ip == name,..." terms
# (and "ip != name" to leave functions out) selects the functions the
# function tracer traces for that perf event alone; a name no function
# has, or a filter on anything but ip, makes perf fail.
. /tests/lib.sh
command -v perf > /dev/null || skip "no perf in the VM"
[ -d $T/events/ftrace/function ] || skip "no ftrace:function event"
# F: a function every open() runs, G: another one
F= G=
for f in do_sys_openat2 do_filp_open path_openat vfs_open; do
	grep -q "^$f\( \|$\)" $T/available_filter_functions 2>/dev/null || continue
	if [ -z "$F" ]; then F=$f; elif [ -z "$G" ]; then G=$f; fi
done
[ -n "$G" ] || skip "no two of the open path's functions to trace"

# count FILTER - the ftrace:function hits of a cat, which opens a file
# (up to three tries: perf stat now and then prints "<not counted>" in
# this VM, see client_perf.sh)
count() {
	for _try in 1 2 3; do
		_n=$(perf stat -x, -e ftrace:function --filter "$1" -- /bin/cat /proc/version 2>&1 >/dev/null |
			awk -F, '/ftrace:function/ { print $1 }')
		[ "$_n" = "<not counted>" ] || break
	done
	echo "$_n"
}

n=$(count "ip == $F")
[ "$n" -ge 1 ] 2>/dev/null || fail "ip == $F: [$n] hits"
n2=$(count "ip == $F,$G || ip == $G")
[ "$n2" -gt "$n" ] 2>/dev/null || fail "ip == $F,$G: [$n2] hits, not more than $F's [$n]"
n=$(count "ip == $F || ip != $F")
expect_eq "a function left out again" 0 "$n"

for bad in 'ip == no_such_function_here' 'common_pid == 1' 'ip < 5' \
	"ip == $F && ip == $G"; do
	if perf stat -e ftrace:function --filter "$bad" -- /bin/cat /proc/version > /dev/null 2>&1; then
		fail "perf took the filter '$bad' on ftrace:function"
	fi
done
exit 0
