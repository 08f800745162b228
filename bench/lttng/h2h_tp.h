/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LTTng-UST tracepoints of the head-to-head benchmark (h2h.c): the
 * same payloads as its user events, a u32, a u64 and 16 characters, and
 * one string of up to 1 KiB.  Declared with LTTng-UST 2.13's macros, as
 * its documentation describes a tracepoint provider header.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER h2h

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./h2h_tp.h"

#if !defined(H2H_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define H2H_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(h2h, ev,
	LTTNG_UST_TP_ARGS(uint32_t, a, uint64_t, b, const char *, c),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint32_t, a, a)
		lttng_ust_field_integer(uint64_t, b, b)
		lttng_ust_field_array_text(char, c, c, 16)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(h2h, str,
	LTTNG_UST_TP_ARGS(const char *, s),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_string(s, s)
	)
)

#endif

#include <lttng/tracepoint-event.h>
