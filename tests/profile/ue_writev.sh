#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For make profile: the enabled writev() of bench/user_events_bench.c (a
# u32 + u64 + char[16] event in four iovecs, recorded by ftrace), for ever.
#   make profile SCRIPT=tests/profile/ue_writev.sh FUNC=vfs_writev
exec /bench/user_events_bench profile
