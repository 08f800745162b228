#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For make profile: the histogram of hist_bench's hist_string, keyed by a
# char[16] field (a 256-byte key in the map), fired for ever by an
# ignored signal sent to ourselves.
#   make profile SCRIPT=tests/profile/hist_string.sh FUNC=event_hist_trigger
E=/sys/kernel/tracing/events/signal/signal_generate
echo 'hist:keys=comm' > $E/trigger || exit 1
echo PROF-READY
trap '' URG
while :; do kill -URG $$; done
