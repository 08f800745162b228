#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What users see of synthetic events: the format file of every field
# type, the synthetic_events and dynamic_events listings, creates and
# deletes through both files, busy deletes, error_log entries with their
# carets, and the trace line of an onmatch().trace() action.
#
# The output must equal synth_events.expected, which is what the base
# kernel prints (`make compare SCRIPT=tests/compare/synth_events.sh` runs
# this with "print" on both kernels).
T=/sys/kernel/tracing
S=$T/synthetic_events

scenario() {
	echo 'alltypes u8 a; u16 b; u32 c; u64 d; s8 e; s16 f; s32 g; s64 h; int i; unsigned int j; long k; unsigned long l; pid_t m; gfp_t n; bool o; char p; unsigned char q; char[16] r; char s[]; unsigned long[] t; long u[]; char v[256]' >> $S; echo "rc=$?"
	echo 'old u64 a u32 b   char c[4]' >> $S; echo "rc=$?"
	echo 's:synthetic/dyn pid_t pid; char[] comm;' >> $T/dynamic_events; echo "rc=$?"
	cat $S
	cat $T/dynamic_events
	for e in alltypes old dyn; do cat $T/events/synthetic/$e/format | grep -v '^ID:'; done
	ls -1 $T/events/synthetic/alltypes

	err() {
		echo > $T/error_log
		echo "$1" >> $2; echo "rc=$? for $1"
		cat $T/error_log | sed 's/^\[[ 0-9.]*\] //'
	}
	for c in 'myevent chr arg' 'myevent unsigned arg' 'myevent char str]; int v' \
		'mye-vent char str[]' 'myevent char st-r[]' 'myevent char str;[]' \
		'myevent char str; int' 'myevent char str[; int v' 'myevent char str[kdjdk]' \
		'myevent char str[257]' 'mye;vent char str[]' 'myevent ; char str[]' \
		'myevent' 'alltypes u64 x' 'myevent u32[4] x' 'myevent char[0x100] x'; do
		err "$c" $S
	done
	err 's:junk/myevent char str[' $T/dynamic_events
	err 's:myevent' $T/dynamic_events
	echo '!nothere' >> $S; echo "rc=$?"
	echo '-:synthetic/nothere' >> $T/dynamic_events; echo "rc=$?"

	# onmatch().trace() from two trace_marker writes
	echo 'lat u64 lat; pid_t pid; u64 k' >> $S
	echo 'hist:keys=common_pid:ts0=common_timestamp.usecs if buf == "start"' > $T/events/ftrace/print/trigger
	echo 'hist:keys=common_pid:lat=common_timestamp.usecs-$ts0,p=common_pid,k=7:onmatch(ftrace.print).trace(lat,$lat,$p,$k) if buf == "end"' >> $T/events/ftrace/print/trigger
	echo 1 > $T/events/synthetic/lat/enable
	echo -n start > $T/trace_marker
	echo -n end > $T/trace_marker
	grep -v "^#" $T/trace | sed "s/^.*[0-9]\+\.[0-9]\+: //; s/lat=[0-9]*/lat=N/; s/pid=[0-9]*/pid=P/"
	# busy: enabled, then referenced by the histogram
	echo '!lat' >> $S; echo "rc=$?"
	echo 0 > $T/events/synthetic/lat/enable
	echo '!lat' >> $S; echo "rc=$?"
	echo '!s:lat' >> $T/dynamic_events; echo "rc=$?"
	echo '!hist:keys=common_pid:lat=common_timestamp.usecs-$ts0,p=common_pid,k=7:onmatch(ftrace.print).trace(lat,$lat,$p,$k) if buf == "end"' >> $T/events/ftrace/print/trigger
	echo '!hist:keys=common_pid:ts0=common_timestamp.usecs if buf == "start"' >> $T/events/ftrace/print/trigger
	echo '!s:lat' >> $T/dynamic_events; echo "rc=$?"
	echo '-:dyn' >> $T/dynamic_events; echo "rc=$?"
	echo '!alltypes' >> $S; echo "rc=$?"
	echo > $S; echo "rc=$?"
	cat $S $T/dynamic_events
}

if [ "$1" = print ]; then
	scenario 2>&1
	exit 0
fi
. /tests/lib.sh
tracing_reset
[ -e $S ] || skip "no synthetic events"
scenario > /tmp/synth_events.out 2>&1
diff -u /tests/shell/synth_events.expected /tmp/synth_events.out || fail "output differs from the base's"
