#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For make profile: signal:signal_generate with a filter that rejects
# every record, fired for ever by an ignored signal sent to ourselves.
#   make profile SCRIPT=tests/profile/filter_numeric.sh \
#                FUNC=trace_event_raw_event_signal_generate
E=/sys/kernel/tracing/events/signal/signal_generate
echo "sig == 28" > $E/filter || exit 1
echo 1 > $E/enable
echo PROF-READY
trap '' URG
while :; do kill -URG $$; done
