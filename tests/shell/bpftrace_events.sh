#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Debian's bpftrace on a user event and on a synthetic event: its
# tracepoint probes (a BPF program attached through perf on every CPU)
# count exactly the records samples/user_events/example writes (count=i
# for i = 0..N-1), read by the field names of the format files, and the
# synthetic event uecopy, fed by a histogram's onmatch().trace() on each
# write, is counted the same way.  bpftrace and its LLVM come in an
# initramfs of their own (make check boots it for the bpftrace_* tests).
. /tests/lib.sh
command -v bpftrace > /dev/null || skip "no bpftrace in the VM"
[ -e $T/user_events_data ] || skip "no user_events"
[ -e $T/synthetic_events ] || skip "no synthetic events"
# The kernel's headers (see harness/initramfs.sh): no BTF here
export BPFTRACE_KERNEL_SOURCE=/usr/src/kernel BPFTRACE_KERNEL_BUILD=/usr/src/kernel
S=$T/synthetic_events
U=$T/events/user_events/example
UE='u:example u32 count; __data_loc char[] msg'
COPY='hist:keys=count:onmatch(user_events.example).trace(uecopy,count,msg)'
cleanup() {
	echo "!$COPY" >> $U/trigger 2>/dev/null
	echo '!uecopy u32 count; char msg[]' >> $S 2>/dev/null
	echo "!$UE" >> $T/dynamic_events 2>/dev/null
	tracing_reset
}
trap cleanup EXIT
tracing_reset
echo "$UE" >> $T/dynamic_events || fail "cannot declare the example event"

# counts PROBE N - the map bpftrace prints for PROBE { @[args->count] =
# count(); } while the example writes N events: "@[i]: 1" lines, sorted
# (what bpftrace printed is on stderr, for the log)
counts() {
	bounded 300 bpftrace -q -e "$1 { @[args->count] = count(); }" \
		-c "/samples/example $2" > /tmp/bpftrace.out 2>&1
	cat /tmp/bpftrace.out >&2
	grep '^@\[' /tmp/bpftrace.out | sort -t '[' -k2n
}

expect_eq "bpftrace on user_events:example" "@[0]: 1
@[1]: 1
@[2]: 1
@[3]: 1
@[4]: 1" "$(counts tracepoint:user_events:example 5)"

echo 'uecopy u32 count; char msg[]' >> $S || fail "cannot declare uecopy"
echo "$COPY" >> $U/trigger || fail "onmatch().trace(uecopy) refused"
expect_eq "bpftrace on synthetic:uecopy" "@[0]: 1
@[1]: 1
@[2]: 1" "$(counts tracepoint:synthetic:uecopy 3)"
exit 0
