#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The hist_debug files (CONFIG_HIST_TRIGGERS_DEBUG) of the wakeup-latency
# histograms the documentation walks through: the spec's own example
# (a variable on sched_waking, a reference and fields of sched_switch
# passed to onmatch().wakeup_latency()), a field of the matched event
# (sched.sched_waking.prio, a field variable made on sched_waking),
# onmax().save() and onchange().snapshot(), and hitcount.percent.
#
# Each pointer is replaced by H1, H2, ... in the order it first appears,
# so var.hist_data must name the hist_data: line of the histogram that
# defines the variable.  The output must equal hist_debug.expected.
# `make compare SCRIPT=tests/compare/hist_debug.sh` shows it beside the
# base kernel's, which differs where our structures do (see
# Documentation/trace/histogram-design.rst, "hist_debug").
T=/sys/kernel/tracing
W=$T/events/sched/sched_waking
S=$T/events/sched/sched_switch

# show FILE...: the files one after the other, pointers numbered across
# all of them
show() {
	awk -v t="$T/events/" '
	FNR == 1 { f = FILENAME; sub(t, "", f); print "== " f }
	{
		while (match($0, /[0-9a-f]{16}/)) {
			p = substr($0, RSTART, RLENGTH)
			if (!(p in id))
				id[p] = "H" ++n
			$0 = substr($0, 1, RSTART - 1) id[p] substr($0, RSTART + RLENGTH)
		}
		print
	}' "$@"
}

scenario() {
	echo 'wakeup_latency u64 lat; pid_t pid; char comm[16]' >> $T/synthetic_events
	echo 'hist:keys=pid:ts0=common_timestamp.usecs' >> $W/trigger; echo "rc=$?"
	echo 'hist:keys=next_pid:wakeup_lat=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).wakeup_latency($wakeup_lat,next_pid,next_comm)' >> $S/trigger; echo "rc=$?"
	show $W/hist_debug $S/hist_debug
	echo 'hist:keys=prev_pid:lat2=common_timestamp.usecs-$ts0:onmatch(sched.sched_waking).trace(wakeup_latency,$lat2,sched.sched_waking.prio,prev_comm)' >> $S/trigger; echo "rc=$?"
	echo 'hist:keys=pid,prio:vals=target_cpu,hitcount.percent:a=prio*2:onmax($a).save(comm,prio):onchange($a).snapshot()' >> $W/trigger; echo "rc=$?"
	show $W/hist_debug $S/hist_debug
}

teardown() {
	(echo > $S/trigger; echo > $W/trigger) 2>/dev/null
	echo '!wakeup_latency' >> $T/synthetic_events
}

if [ "$1" = print ]; then
	scenario 2>&1
	teardown
	exit 0
fi
. /tests/lib.sh
tracing_reset
[ -e $W/hist_debug ] || skip "no hist_debug (CONFIG_HIST_TRIGGERS_DEBUG)"
scenario > /tmp/hist_debug.out 2>&1
teardown
diff -u /tests/shell/hist_debug.expected /tmp/hist_debug.out || fail "hist_debug differs from hist_debug.expected"
expect_eq "all removed" "# Available triggers:" "$(head -1 $W/trigger)"
