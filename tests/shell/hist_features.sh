#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What users see of histograms, feature by feature: the hist file (header,
# entries, sort order, every key modifier, .percent and .graph, totals)
# and the trigger listing of keys, values, sort, size, name, nohitcount,
# pause/cont/clear, named and several histograms per event, !hist, and
# each handler and action; on trace_marker, on a synthetic event fed with
# known numbers, and on sched_process_exec.
#
# The output must equal hist_features.expected, which is what the base
# kernel prints (`make compare SCRIPT=tests/compare/hist_features.sh`
# runs this with "print" on both kernels).  What the base prints
# differently by design (variable references in the listing) stays out.
T=/sys/kernel/tracing
S=$T/synthetic_events
P=$T/events/ftrace/print
N=$T/events/synthetic/nums
X=$T/events/sched/sched_process_exec

show() {
	echo "== $1"
	sed "s/common_pid: *[0-9]*/common_pid: P/; s/pid: *[0-9]*/pid: P/" $1
}

mark() { for m in "$@"; do echo -n "$m" > $T/trace_marker; done; }

# feed A B [CMD]: one nums event with a=A, b=B and s the path of CMD
# (default true), through an onmatch() histogram on sched_process_exec
# that fires when /bin/CMD is run.
feed() {
	f="hist:keys=common_pid:fa=$1,fb=$2:onmatch(sched.sched_process_exec).trace(nums,\$fa,\$fb,filename) if filename == \"/bin/${3:-true}\""
	echo "$f" >> $X/trigger || echo "rc=$? feed $*"
	/bin/${3:-true} > /dev/null
	echo "!$f" >> $X/trigger
}

scenario() {
	# ---- string keys, sort, size, several per event, pause/cont/clear
	echo 'hist:keys=s' > $N/trigger; echo "rc=$?"
	echo 'hist:key=s:val=hitcount:sort=hitcount.descending:size=256' >> $N/trigger; echo "rc=$?"
	echo 'hist:keys=s' >> $N/trigger; echo "rc=$? duplicate"
	echo 'hist:keys=s:nohitcount' >> $N/trigger; echo "rc=$? nohitcount alone"
	feed 1 1 echo; feed 1 1 pwd; feed 1 1 echo; feed 1 1 ls; feed 1 1 echo; feed 1 1 pwd
	show $N/hist
	cat $N/trigger
	echo 'hist:keys=s:pause' >> $N/trigger; echo "rc=$?"
	feed 1 1 echo
	cat $N/trigger
	echo 'hist:keys=s:cont' >> $N/trigger; echo "rc=$?"
	feed 1 1 echo
	echo 'hist:key=s:sort=hitcount.descending:size=256:clear' >> $N/trigger; echo "rc=$?"
	feed 1 1 date
	show $N/hist
	echo 'hist:keys=a:clear' >> $N/trigger; echo "rc=$? clear nothing"
	echo 'hist:keys=s:cont' >> $N/trigger; echo "rc=$? cont of an active one"
	echo '!hist:keys=s' >> $N/trigger; echo "rc=$?"
	echo '!hist:keys=s:sort=hitcount.descending' >> $N/trigger; echo "rc=$?"
	echo '!hist:keys=s' >> $N/trigger; echo "rc=$? again"
	cat $N/trigger

	# a filter is part of what makes a histogram
	echo 'hist:keys=s if s ~ "*e*"' >> $N/trigger; echo "rc=$?"
	echo 'hist:keys=s if s ~ "*w*"' >> $N/trigger; echo "rc=$?"
	feed 1 1 echo; feed 1 1 pwd; feed 1 1 echo
	show $N/hist
	echo '!hist:keys=s if s ~ "*e*"' >> $N/trigger
	echo '!hist:keys=s if s ~ "*w*"' >> $N/trigger

	# named: two events, one histogram
	echo 'hist:name=both:keys=common_pid' > $P/trigger; echo "rc=$?"
	echo 'hist:name=both:keys=common_pid' > $N/trigger; echo "rc=$?"
	echo 'hist:name=both:keys=common_pid:vals=hitcount,a' > $N/trigger; echo "rc=$? mismatch"
	mark one two; feed 1 1
	sed 's/common_pid: *[0-9]*/common_pid: P/' $P/trigger $N/trigger
	show $N/hist
	echo '!hist:name=both:keys=common_pid' > $P/trigger
	show $N/hist
	echo '!hist:name=both:keys=common_pid' > $N/trigger
	cat $N/trigger

	# ---- numbers: a synthetic event fed with known values
	echo 'hist:keys=a:vals=b:sort=a' >> $N/trigger; echo "rc=$?"
	echo 'hist:keys=a.hex,s:vals=hitcount,b:sort=b.descending,a' >> $N/trigger; echo "rc=$?"
	echo 'hist:keys=a.log2:vals=a:sort=a.descending' >> $N/trigger; echo "rc=$?"
	echo 'hist:keys=a.buckets=10:vals=a.percent,b.graph' >> $N/trigger; echo "rc=$?"
	echo 'hist:keys=s:vals=a:sort=a:nohitcount' >> $N/trigger; echo "rc=$?"
	echo 'hist:keys=b:vals=hitcount:x=a*2+b,y=a/3:sort=b' >> $N/trigger; echo "rc=$?"
	feed 1 5; feed 3 7; feed 17 2; feed 3 10; feed 1000 1; feed 12 4; feed 3 7
	cat $N/trigger
	show $N/hist
	echo > $N/trigger 2>/dev/null	# the base refuses the empty line
	cat $N/trigger

	# ---- sched_process_exec: a dynamic string key, filtered
	echo 'hist:keys=filename:vals=hitcount if filename ~ "*busybox"' > $X/trigger; echo "rc=$?"
	/bin/busybox true; /bin/busybox true
	show $X/hist
	echo 'disable_hist:sched:sched_process_exec' > $P/trigger; echo "rc=$?"
	echo 'enable_hist:sched:sched_process_exec if buf == "on"' >> $P/trigger; echo "rc=$?"
	cat $P/trigger | sort
	mark off
	/bin/busybox true
	cat $X/trigger
	mark on
	/bin/busybox true
	show $X/hist
	echo '!disable_hist:sched:sched_process_exec' > $P/trigger
	echo '!enable_hist:sched:sched_process_exec' > $P/trigger
	echo > $X/trigger 2>/dev/null
}

setup() {
	echo 'nums u64 a; u64 b; char s[]' >> $S
}

teardown() {
	(echo > $P/trigger; echo > $N/trigger; echo > $X/trigger) 2>/dev/null
	echo '!nums' >> $S
}

if [ "$1" = print ]; then
	setup
	scenario 2>&1
	teardown
	exit 0
fi
. /tests/lib.sh
tracing_reset
[ -e $P/hist ] || skip "no histograms"
setup
scenario > /tmp/hist_features.out 2>&1
teardown
diff -u /tests/shell/hist_features.expected /tmp/hist_features.out || fail "output differs from the base's"
