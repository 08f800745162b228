#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Demo part: a user program's own event, registered, enabled, written, seen.
T=/sys/kernel/tracing
step() { printf '\n### %s\n' "$*"; }
[ -e $T/user_events_data ] || { step "user_events: not built in"; exit 0; }

step "user_events: declare 'example' (the sample registers the same one)"
echo 'u:example u32 count; __data_loc char[] msg' >> $T/dynamic_events
grep '^u:example' $T/dynamic_events
cat $T/events/user_events/example/format | sed -n '/field:u32/,$p'

step "user_events: enable it, run samples/user_events/example 3"
echo 1 > $T/events/user_events/example/enable
cat $T/user_events_status
/samples/example 3
grep ' example: ' $T/trace

step "user_events: disabled again, the sample writes nothing"
echo 0 > $T/events/user_events/example/enable
echo > $T/trace
/samples/example 2
echo "records: $(grep -c ' example: ' $T/trace)"

step "user_events: an EventHeader tracepoint"
EH='u8 eventheader_flags; u8 version; u16 id; u16 tag; u8 opcode; u8 level'
echo "u:SampleProvider_L4K1 $EH" >> $T/dynamic_events
echo 1 > $T/events/user_events/SampleProvider_L4K1/enable
/samples/eventheader 4 1 2
grep ' SampleProvider_L4K1: ' $T/trace
echo 0 > $T/events/user_events/SampleProvider_L4K1/enable
echo '!u:SampleProvider_L4K1' >> $T/dynamic_events
echo '!u:example' >> $T/dynamic_events
echo > $T/trace
