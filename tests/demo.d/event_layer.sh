#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Demo part: events made by our TRACE_EVENT() layer (the sample fired on
# demand, and its print format), and the user_events registry watched
# through its own tracepoints in an instance.
T=/sys/kernel/tracing
S=$T/events/layer_sample
I=$T/instances/registry
step() { printf '\n### %s\n' "$*"; }

if [ -d $S ]; then
	step "the event layer's sample: fire n=4, read the lines back"
	echo 1 > $S/layer_fixed/enable
	echo 1 > $S/layer_dynamic/enable
	echo 1 > $S/layer_relative/enable
	echo 4 > /sys/module/trace_layer_sample/parameters/fire
	echo 0 > $S/enable
	grep layer_ $T/trace
	echo > $T/trace
	step "its print format, as user space tools read it"
	grep '^print fmt' $S/layer_relative/format
fi

step "who registers what: the user_events_registry events, in an instance"
mkdir $I
echo 1 > $I/events/user_events_registry/enable
echo 'u:demo_reg u32 count' >> $T/dynamic_events
echo 1 > $T/events/user_events/demo_reg/enable
echo 0 > $T/events/user_events/demo_reg/enable
echo '!u:demo_reg' >> $T/dynamic_events
grep user_event_ $I/trace
rmdir $I
