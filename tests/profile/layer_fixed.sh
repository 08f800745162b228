#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For make profile: signal:signal_generate enabled with nothing attached,
# its record committed to the ring buffer, fired for ever by an ignored
# signal sent to ourselves: the event layer's own path.
#   make profile SCRIPT=tests/profile/layer_fixed.sh \
#                FUNC=trace_event_raw_event_signal_generate OPT=2
E=/sys/kernel/tracing/events/signal/signal_generate
echo 1 > $E/enable || exit 1
echo PROF-READY
trap '' URG
while :; do kill -URG $$; done
