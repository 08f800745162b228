#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Filters on signal:signal_generate: signed int fields, a char[16] field
# and the generic "comm" and "cpu" fields select exactly the signals the
# shell sends to itself.
. /tests/lib.sh
use_event signal/signal_generate
tracing_reset
trap '' WINCH URG

# check FILTER EXPECTED-SIGNALS: send WINCH (28), URG (23), WINCH to $$
check() {
	echo "$1" > $E/filter || fail "filter rejected: $1"
	echo > $T/trace
	echo 1 > $E/enable
	kill -s WINCH $$; kill -s URG $$; kill -s WINCH $$
	echo 0 > $E/enable
	expect_eq "signals for [$1]" "$2" \
		"$(trace_lines | sed -n 's/^signal_generate: sig=\([0-9]*\) .*/\1/p' | tr '\n' ' ')"
}

check "sig == 28 && pid == $$" "28 28 "
check "sig != 28 && pid == $$" "23 "
check "(sig == 23 || sig == 28) && pid == $$" "28 23 28 "
check "sig >= 23 && sig < 28 && pid == $$" "23 "
check "pid == $$ && comm == \"sh\"" "28 23 28 "
check "pid == $$ && comm ~ \"s*\" && sig > 27" "28 28 "
check "pid == $$ && COMM == sh && sig == 23" "23 "
check "pid == $$ && cpu >= 0 && sig == 23" "23 "
check "pid == $$ && cpu < 0" ""
check "pid == $$ && (sig & 4) && errno == 0" "28 23 28 "
check "pid == $$ && sig & 8" "28 28 "
check "pid == $$ && !(comm == sh)" ""
check "pid == -$$" ""

# The whole line of an accepted record is the event's own format.
echo "sig == 23 && pid == $$" > $E/filter
echo > $T/trace
echo 1 > $E/enable
kill -s URG $$
echo 0 > $E/enable
expect_eq "full record" "signal_generate: sig=23 errno=0 code=0 comm=sh pid=$$ grp=1 res=1" \
	"$(trace_lines)"
exit 0
