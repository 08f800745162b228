// SPDX-License-Identifier: GPL-2.0
/* The probes of h2h_tp.h, compiled once and linked into h2h. */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "h2h_tp.h"
