#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For make profile: the enabled write() of bench/user_events_bench.c (the
# u32 + u64 + char[16] event in one buffer, recorded by ftrace), for ever.
#   make profile SCRIPT=tests/profile/ue_write.sh FUNC=vfs_write
exec /bench/user_events_bench profile write
