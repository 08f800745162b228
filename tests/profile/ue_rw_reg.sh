#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For make profile: one remote-write registration of an event that exists
# (bench/user_events_enabler_bench.c, ue_rw_register_unregister), for ever.
#   make profile SCRIPT=tests/profile/ue_rw_reg.sh FUNC=__x64_sys_ioctl
exec /bench/user_events_enabler_bench profile reg
