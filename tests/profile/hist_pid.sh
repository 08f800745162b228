#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For make profile: a histogram keyed by common_pid (hitcount only) on a
# soft-disabled event, as hist_bench's hist_pid, fired for ever by an
# ignored signal sent to ourselves.  The whole event's path:
#   make profile SCRIPT=tests/profile/hist_pid.sh \
#	FUNC=trace_event_raw_event_signal_generate
E=/sys/kernel/tracing/events/signal/signal_generate
echo 'hist:keys=common_pid' > $E/trigger || exit 1
echo PROF-READY
trap '' URG
while :; do kill -URG $$; done
