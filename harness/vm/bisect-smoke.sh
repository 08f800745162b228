#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# bisect-smoke.sh - what make bisect checks on every step of the series, in
# the VM it boots (as /job/script, ts.mode=smoke): an event is traced, and
# filtered, triggered on and counted in a histogram where the step has the
# files for it.  One "TSRESULT smoke-NAME pass|fail|skip [why]" line per
# check, then "TSRESULT smoke pass" or "... fail" for the whole.
#
# The event is signal:signal_generate, fired at will: SIGCONT (18) and
# SIGWINCH (28) sent to a sleeping child, which ignores both.  A few
# seconds in all.
T=/sys/kernel/tracing
E=$T/events/signal/signal_generate
failed=0

result() {
	echo "TSRESULT smoke-$1 $2${3:+ $3}"
	if [ "$2" = fail ]; then failed=1; fi
}
# check NAME WHY CMD... - pass when CMD succeeds, else fail with WHY
check() {
	name=$1 why=$2
	shift 2
	if "$@"; then result "$name" pass; else result "$name" fail "$why"; fi
}
# has PATTERN [FILE] - an extended regex matches a line of the file
has() { grep -qE "$1" "${2:-$T/trace}"; }
hasnt() { ! has "$@"; }

sleep 60 &
child=$!
cont() { kill -CONT "$child"; }
winch() { kill -WINCH "$child"; }

# Tracing an event.
echo > $T/trace
echo 1 > $E/enable
cont
check trace "no signal_generate line for SIGCONT" has "signal_generate: sig=18 "
echo 1 > $T/events/sched/sched_switch/enable
sleep 1
echo 0 > $T/events/sched/sched_switch/enable
check sched "no sched_switch line" has "sched_switch: prev_comm="

# A filter, and one refused.
echo > $T/trace
if echo 'sig == 28' > $E/filter; then
	cont; winch
	check filter "the filter let SIGCONT through or kept out SIGWINCH" \
		sh -c "grep -qE 'signal_generate: sig=28 ' $T/trace && ! grep -qE 'signal_generate: sig=18 ' $T/trace"
	if echo 'sig == ' > $E/filter 2> /dev/null; then
		result filter-refused fail "an incomplete filter was accepted"
	else
		result filter-refused pass
	fi
	echo 0 > $E/filter
else
	result filter fail "'sig == 28' was refused"
fi

# A counted trigger with a filter.
echo 1 > $T/tracing_on
if echo 'traceoff:1 if sig == 28' > $E/trigger; then
	cont
	check trigger-filter "traceoff fired on SIGCONT" has '^1$' $T/tracing_on
	winch
	check trigger "traceoff did not fire on SIGWINCH" has '^0$' $T/tracing_on
	check trigger-count "the trigger file does not show the count spent" \
		has '^traceoff:count=0 if sig == 28' $E/trigger
	echo '!traceoff' >> $E/trigger
	check trigger-removed "the trigger is still listed" hasnt '^traceoff' $E/trigger
else
	result trigger fail "'traceoff:1 if sig == 28' was refused"
fi
echo 1 > $T/tracing_on

# A histogram, where the step has the hist file.
if [ -e $E/hist ]; then
	cmd='hist:keys=sig if sig == 18 || sig == 28'
	if echo "$cmd" > $E/trigger; then
		cont; cont; winch
		check hist "the hist file does not count 2 SIGCONT and 1 SIGWINCH" \
			sh -c "grep -qE '^\{ sig: +18 \} hitcount: +2$' $E/hist &&
				grep -qE '^\{ sig: +28 \} hitcount: +1$' $E/hist &&
				grep -qE '^    Hits: 3$' $E/hist"
		echo "!$cmd" >> $E/trigger
		check hist-removed "the histogram is still listed" hasnt '^hist:' $E/trigger
	else
		result hist fail "'$cmd' was refused"
	fi
else
	result hist skip "no hist file"
fi

echo 0 > $E/enable
kill "$child"
if [ $failed = 0 ]; then echo "TSRESULT smoke pass"; else echo "TSRESULT smoke fail"; fi
