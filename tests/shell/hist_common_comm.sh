#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# common_comm, the comm of the task an event fires in, in histograms
# and filters: a string key sorted by name, "comm" and "COMM" its other
# names, a variable passed to a synthetic event's char[16], a filter on
# it, and modifiers that make no sense on a string refused.
. /tests/lib.sh
P=$T/events/ftrace/print
F=$T/events/sched/sched_process_fork
[ -e $P/hist ] || skip "no histograms"
[ -d $F ] || skip "no sched_process_fork"
cleanup() {
	echo > $P/trigger
	echo 0 > $F/enable
	echo 0 > $F/filter
	echo 0 > $T/events/synthetic/s_comm/enable 2>/dev/null
	echo '!s_comm' >> $T/synthetic_events 2>/dev/null
	tracing_reset
}
trap cleanup EXIT
tracing_reset
PL='hist:ftrace:print'
add() { bounded 10 sh -c 'printf "%s\n" "$1" >> "$2"' sh "$2" "$1" || fail "refused: $2"; }
# as - run the shell words $2 in a task whose comm is $1
as() { sh -c "printf $1 > /proc/self/comm; $2"; }
mark() { as "$1" "echo x > $T/trace_marker"; }

# a key, sorted by name; the listing keeps the name as written
add $P/trigger 'hist:keys=common_comm:vals=hitcount:sort=common_comm'
for n in gamma beta alpha gamma beta gamma; do mark $n; done
expect_eq "listing" \
	"hist:keys=common_comm:vals=hitcount:sort=common_comm:size=2048 [active]" \
	"$(cat $P/trigger)"
expect_eq "entries" "$(printf '%s\n' \
	"{ common_comm: alpha                                              } hitcount:          1" \
	"{ common_comm: beta                                               } hitcount:          2" \
	"{ common_comm: gamma                                              } hitcount:          3")" \
	"$(grep '^{' $P/hist)"
echo > $P/trigger

# "comm" and "COMM", the filter's names, are common_comm in histograms
# too, on an event without a field of that name, and listed by that name
for n in comm COMM; do
	add $P/trigger "hist:keys=$n"
	mark delta
	expect_eq "$n listing" \
		"hist:keys=common_comm:vals=hitcount:sort=hitcount:size=2048 [active]" \
		"$(cat $P/trigger)"
	expect_eq "$n entry" \
		"{ common_comm: delta                                              } hitcount:          1" \
		"$(grep '^{' $P/hist)"
	echo > $P/trigger
done

# in the histogram's filter
add $P/trigger 'hist:keys=common_comm if common_comm ~ "g*"'
mark gamma; mark alpha; mark gimel
expect_eq "filtered" "$(printf '%s\n' \
	"{ common_comm: gamma                                              } hitcount:          1" \
	"{ common_comm: gimel                                              } hitcount:          1")" \
	"$(grep '^{' $P/hist | sort)"
echo > $P/trigger

# a variable, into a synthetic event's char[16]
echo 's_comm char[16] c' >> $T/synthetic_events || fail "s_comm"
echo 1 > $T/events/synthetic/s_comm/enable
add $P/trigger 'hist:keys=common_pid:c=common_comm:onmatch(ftrace.print).trace(s_comm,$c)'
echo > $T/trace
mark delta
expect_eq "s_comm" "s_comm: c=delta" "$(trace_lines | grep '^s_comm')"
echo > $P/trigger

# an event filter
echo 'common_comm == "beta"' > $F/filter || fail "filter refused"
expect_eq "filter listing" 'common_comm == "beta"' "$(cat $F/filter)"
echo 1 > $F/enable
echo > $T/trace
as alpha "sh -c true; true"; as beta "sh -c true; true"
expect_eq "forks of beta" "beta" \
	"$(trace_lines | sed -n 's/^sched_process_fork: comm=\([a-z]*\) .*/\1/p')"
echo 0 > $F/enable

# what a string cannot take
refused $P/trigger $PL 'hist:keys=common_comm.log2' 'Invalid field modifier' 22
refused $P/trigger $PL 'hist:keys=common_comm.execname' 'Invalid field modifier' 22
exit 0
