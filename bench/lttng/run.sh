#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The head-to-head of make bench-lttng, run in the bench VM as
# /bench/lttng-h2h (harness/bench-lttng.sh packs it): one event written by
# LTTng-UST, user_events (status page, remote write) and trace_marker,
# timed per event by h2h with each consumer set up in turn, then a burst
# of each into a 1 MiB buffer to see what every tracer loses and how it
# says so.  Lines for the host: "H2H STATE ROW THREAD_NS MONO_NS" (h2h),
# "H2H-LOSS TRACER ROW WRITTEN KEPT LOST" and "H2H-NOTE text".
T=/sys/kernel/tracing
H2H=/bench-lttng/h2h
TRACE=/tmp/lttng-trace
N_EV=${H2H_N_EV:-100000}
N_1K=${H2H_N_1K:-10000}

note() { echo "H2H-NOTE $*"; }
fail() { echo "H2H-FAIL $*"; exit 1; }
put() { echo "$2" > "$T/$1" || fail "cannot write '$2' to $1"; }

# What LTTng needs of a system: shared memory, its run directory, a home
mkdir -p /dev/shm /var/run /root && mount -t tmpfs tmpfs /dev/shm
export HOME=/root LTTNG_UST_REGISTER_TIMEOUT=-1
note "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
note "lttng $(lttng --version | head -n 1)"

# The four user events, persistent so that they can be enabled before h2h
# registers them (h2h registers h2h_sp* through the status page, h2h_rw*
# through a remote-write word)
for e in h2h_sp h2h_rw; do
	echo "u:$e u32 a; u64 b; char[16] c" >> $T/dynamic_events || fail "u:$e"
	echo "u:${e}_1k __data_loc char[] s" >> $T/dynamic_events || fail "u:${e}_1k"
done
ue_enable() {
	for e in h2h_sp h2h_rw h2h_sp_1k h2h_rw_1k; do
		put "events/user_events/$e/enable" "$1"
	done
}
# stat NAME - one counter of CPU 0's ring buffer ("overrun", "entries"...)
stat() { sed -n "s/^$1: //p" $T/per_cpu/cpu0/stats; }

lttng-sessiond --daemonize --no-kernel || fail "lttng-sessiond"
# lttng_session SUBBUF NUM - a session recording h2h:* into $TRACE
lttng_session() {
	rm -rf $TRACE
	lttng create h2h --output=$TRACE > /dev/null &&
		lttng enable-channel -u ch --subbuf-size="$1" --num-subbuf="$2" > /dev/null &&
		lttng enable-event -u -c ch 'h2h:*' > /dev/null &&
		lttng start > /dev/null || fail "lttng session"
}
# lttng_end - stop and destroy the session; print "DISCARDED RECORDED"
lttng_end() {
	lttng stop > /dev/null 2>&1 || fail "lttng stop"
	d=$(lttng list h2h | sed -n 's/^ *Discarded events: //p')
	lttng destroy > /dev/null || fail "lttng destroy"
	r=$(babeltrace2 $TRACE -c sink.utils.counter 2>/dev/null |
		sed -n 's/^ *\([0-9]*\) Event messages$/\1/p' | tail -n 1)
	echo "${d:-?} ${r:-?}"
}

ALL_EV="ue_sp_ev ue_rw_ev marker_ev lttng_ev"
ALL_1K="ue_sp_1k ue_rw_1k marker_1k lttng_1k"

# 1. Nobody consumes: the user events disabled, tracing off (the marker
# write fails), no LTTng session (the program has registered with the
# session daemon all the same)
put tracing_on 0
$H2H cost off null_ev null_1k nullw_ev nullw_1k $ALL_EV $ALL_1K \
	ue_spw_ev ue_spw_1k || fail "h2h off"

# 2. ftrace records the user events and the marker (4 MiB, overwriting,
# nobody reading it)
put buffer_size_kb 4096
put trace ""
put tracing_on 1
ue_enable 1
$H2H cost ftrace ue_sp_ev ue_rw_ev marker_ev ue_sp_1k ue_rw_1k marker_1k \
	ue_spw_ev ue_spw_1k || fail "h2h ftrace"
note "ftrace cost run: entries $(stat entries) overrun $(stat overrun)"
ue_enable 0
put tracing_on 0

# 3. perf alone, attached by h2h in its own task (perf has no trace_marker)
$H2H cost perf ue_sp_ev ue_rw_ev ue_sp_1k ue_rw_1k ue_spw_ev ue_spw_1k ||
	fail "h2h perf"

# 4. An LTTng session, 4 sub-buffers of 1 MiB: nothing is discarded
lttng_session 1M 4
$H2H cost lttng lttng_ev lttng_1k || fail "h2h lttng"
set -- $(lttng_end)
note "lttng cost run: discarded $1 recorded $2"

# Overload: N events written as fast as the program can into a 1 MiB buffer
# while the tracer's consumer shares the one vCPU, saving to tmpfs.
# ftrace: a reader of trace_pipe_raw, overwrite off (new events are dropped,
# as LTTng and perf do); lost = the ring buffer's "dropped events"
burst_ftrace() {	# ROW N EVENT
	put buffer_size_kb 1024
	put options/overwrite 0
	put trace ""
	[ "$3" = marker ] || put "events/user_events/$3/enable" 1
	put tracing_on 1
	cat $T/per_cpu/cpu0/trace_pipe_raw > /tmp/ftrace.raw &
	reader=$!
	$H2H burst ftrace "$1" "$2" || fail "burst $1"
	put tracing_on 0
	kill $reader; wait $reader 2>/dev/null
	echo "H2H-LOSS ftrace $1 $2 $(($(stat 'read events') + $(stat entries))) $(stat 'dropped events')"
	note "ftrace $1: $(tr '\n' ' ' < $T/per_cpu/cpu0/stats)"
	[ "$3" = marker ] || put "events/user_events/$3/enable" 0
	put options/overwrite 1
}
burst_ftrace ue_sp_ev "$N_EV" h2h_sp
burst_ftrace ue_sp_1k "$N_1K" h2h_sp_1k
burst_ftrace marker_ev "$N_EV" marker
burst_ftrace marker_1k "$N_1K" marker
put tracing_on 0

# perf record with a 1 MiB buffer (256 pages); lost = the samples its
# PERF_RECORD_LOST records count, which perf report --stats gives as the
# event's LOST_SAMPLES (its last such line; the first counts records)
burst_perf() {	# ROW N EVENT
	perf record -q -e "user_events:$3" -m 256 -o /tmp/perf.data -- \
		$H2H burst perf-record "$1" "$2" || fail "perf record $1"
	kept=$(perf script -i /tmp/perf.data -F event 2>/dev/null | wc -l)
	perf report --stats -i /tmp/perf.data > /tmp/perf.stats 2>&1
	lost=$(sed -n 's/^ *LOST_SAMPLES events: *\([0-9]*\).*/\1/p' /tmp/perf.stats | tail -n 1)
	echo "H2H-LOSS perf $1 $2 $kept ${lost:-0}"
	note "perf $1: $(grep LOST /tmp/perf.stats | tr -s ' \n' ' ')"
	rm -f /tmp/perf.data
}
burst_perf ue_sp_ev "$N_EV" h2h_sp
burst_perf ue_sp_1k "$N_1K" h2h_sp_1k

# LTTng, 4 sub-buffers of 256 KiB, discard mode (its default); lost = the
# channel's "Discarded events" (lttng list; lttng stop warns of them)
burst_lttng() {	# ROW N
	lttng_session 256k 4
	$H2H burst lttng "$1" "$2" || fail "burst $1"
	set -- "$1" "$2" $(lttng_end)
	echo "H2H-LOSS lttng $1 $2 $4 $3"
}
burst_lttng lttng_ev "$N_EV"
burst_lttng lttng_1k "$N_1K"
note "clocksource at the end $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
echo "H2H-END"
