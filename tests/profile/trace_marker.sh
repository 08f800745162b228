#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For make profile: the trace_marker write that user events are measured
# against in bench/user_events_bench.c, for ever.
#   make profile SCRIPT=tests/profile/trace_marker.sh FUNC=vfs_write
exec /bench/user_events_bench profile marker
