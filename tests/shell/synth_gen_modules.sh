#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The base's in-kernel API clients as modules: synth_event_gen_test and
# kprobe_event_gen_test load, create and trace their events (exact trace
# lines, definitions and formats), then unload and take their events
# with them.
. /tests/lib.sh
variant=$(sed -n 's/.*ts\.variant=\([^ ]*\).*/\1/p' /proc/cmdline)
M=/modules/${variant:-ours}
[ -f $M/synth_event_gen_test.ko ] || skip "no synth_event_gen_test.ko for ${variant:-ours}"
tracing_reset
trap 'rmmod synth_event_gen_test 2>/dev/null; rmmod kprobe_event_gen_test 2>/dev/null; echo 0 > $T/events/enable; echo > $T/trace' EXIT

# trace lines with the cpu number the module records replaced by C
synth_lines() { trace_lines | grep "_synth_test:" | sed 's/ cpu=[0-9]* / cpu=C /'; }

insmod $M/synth_event_gen_test.ko || fail "insmod synth_event_gen_test"
expect_eq "synthetic_events after load" \
"gen_synth_test	pid_t next_pid_field; char[16] next_comm_field; u64 ts_ns; u64 ts_ms; unsigned int cpu; char[64] my_string_field; int my_int_field
empty_synth_test	pid_t next_pid_field; char[16] next_comm_field; u64 ts_ns; u64 ts_ms; unsigned int cpu; char[64] my_string_field; int my_int_field
create_synth_test	pid_t next_pid_field; char[16] next_comm_field; u64 ts_ns; char[] dynstring_field_1; u64 ts_ms; unsigned int cpu; char[64] my_string_field; char[] dynstring_field_2; int my_int_field" \
	"$(cat $T/synthetic_events)"
expect_eq "trace after load" \
"gen_synth_test: next_pid_field=777 next_comm_field=hula hoops ts_ns=1000000 ts_ms=1000 cpu=C my_string_field=thneed my_int_field=598
empty_synth_test: next_pid_field=777 next_comm_field=tiddlywinks ts_ns=1000000 ts_ms=1000 cpu=C my_string_field=thneed_2.0 my_int_field=399
create_synth_test: next_pid_field=777 next_comm_field=tiddlywinks ts_ns=1000000 dynstring_field_1=xrayspecs ts_ms=1000 cpu=C my_string_field=thneed dynstring_field_2=kerplunk my_int_field=398
gen_synth_test: next_pid_field=777 next_comm_field=slinky ts_ns=1000000 ts_ms=1000 cpu=C my_string_field=thneed_2.01 my_int_field=395
gen_synth_test: next_pid_field=777 next_comm_field=silly putty ts_ns=1000000 ts_ms=1000 cpu=C my_string_field=thneed_9 my_int_field=3999
create_synth_test: next_pid_field=444 next_comm_field=clackers ts_ns=1000000 dynstring_field_1=viewmaster ts_ms=1000 cpu=C my_string_field=Thneed dynstring_field_2=yoyos my_int_field=999" \
	"$(synth_lines)"
expect_eq "gen_synth_test format" \
"name: gen_synth_test
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:pid_t next_pid_field;	offset:8;	size:4;	signed:1;
	field:char next_comm_field[];	offset:16;	size:16;	signed:1;
	field:u64 ts_ns;	offset:272;	size:8;	signed:0;
	field:u64 ts_ms;	offset:280;	size:8;	signed:0;
	field:unsigned int cpu;	offset:288;	size:4;	signed:0;
	field:char my_string_field[];	offset:296;	size:64;	signed:1;
	field:int my_int_field;	offset:552;	size:4;	signed:1;

print fmt: \"next_pid_field=%d next_comm_field=%s ts_ns=%llu ts_ms=%llu cpu=%u my_string_field=%s my_int_field=%d\", REC->next_pid_field, REC->next_comm_field, REC->ts_ns, REC->ts_ms, REC->cpu, REC->my_string_field, REC->my_int_field" \
	"$(grep -v '^ID:' $T/events/synthetic/gen_synth_test/format)"
# enabled events hold the module: delete refused while loaded
expect_fail sh -c "echo '!gen_synth_test' >> $T/synthetic_events"
rmmod synth_event_gen_test || fail "rmmod synth_event_gen_test"
expect_eq "synthetic_events after unload" "" "$(cat $T/synthetic_events)"
[ -d $T/events/synthetic/gen_synth_test ] && fail "events/synthetic/gen_synth_test left behind"
echo > $T/trace

[ -f $M/kprobe_event_gen_test.ko ] || skip "no kprobe_event_gen_test.ko"
# The module probes do_sys_open(), which a kernel built -O2 inlines into
# every system call that opens: its out-of-line copy, the one probed,
# then never runs.  Whether it does is seen with a probe of our own.
echo 'p:ts_gen_open do_sys_open' >> $T/kprobe_events || fail "probe do_sys_open"
echo 1 > $T/events/kprobes/ts_gen_open/enable
cat /proc/version > /dev/null
echo 0 > $T/events/kprobes/ts_gen_open/enable
called=$(trace_lines | grep -c '^ts_gen_open:')
echo '-:ts_gen_open' >> $T/kprobe_events || fail "probe do_sys_open removed"
echo > $T/trace
insmod $M/kprobe_event_gen_test.ko || fail "insmod kprobe_event_gen_test"
# The module names each architecture's argument registers (its #ifdefs).
case $(uname -m) in
aarch64) args='dfd=%x0 filename=%x1 flags=%x2 mode=%x3' ;;
*) args='dfd=%ax filename=%dx flags=%cx mode=+4($stack)' ;;
esac
expect_eq "kprobe events" \
"p:kprobes/gen_kprobe_test do_sys_open $args
r10:kprobes/gen_kretprobe_test do_sys_open arg1=\$retval" \
	"$(cat $T/dynamic_events)"
expect_eq "kprobes enabled" "1 1" \
	"$(cat $T/events/kprobes/gen_kprobe_test/enable) $(cat $T/events/kprobes/gen_kretprobe_test/enable)"
cat /proc/version > /dev/null
if [ "$called" -gt 0 ]; then
	trace_lines | grep -q '^gen_kprobe_test: (do_sys_open+0x[0-9a-f]*/0x[0-9a-f]*) dfd=0x[0-9a-f]* filename=0x[0-9a-f]* flags=0x[0-9a-f]* mode=0x[0-9a-f]*$' ||
		fail "no gen_kprobe_test line in: $(trace_lines | head -n 4)"
	trace_lines | grep -q '^gen_kretprobe_test: (.*<- do_sys_open) arg1=0x[0-9a-f]*$' ||
		fail "no gen_kretprobe_test line in: $(trace_lines | head -n 4)"
else
	echo "note: do_sys_open() does not run in this kernel: no record to check"
fi
rmmod kprobe_event_gen_test || fail "rmmod kprobe_event_gen_test"
expect_eq "dynamic_events after unload" "" "$(cat $T/dynamic_events)"
