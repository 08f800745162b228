/* SPDX-License-Identifier: GPL-2.0 */
/* The events of ut_sample.c, for make harness-selftest. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM ut_sample
#if !defined(_UT_SAMPLE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _UT_SAMPLE_H
#include <linux/tracepoint.h>
TRACE_EVENT(ut_fired,
	TP_PROTO(int n), TP_ARGS(n),
	TP_STRUCT__entry(__field(int, n)),
	TP_fast_assign(__entry->n = n;),
	TP_printk("n=%d", __entry->n));
TRACE_EVENT(ut_never,
	TP_PROTO(int n), TP_ARGS(n),
	TP_STRUCT__entry(__field(int, n)),
	TP_fast_assign(__entry->n = n;),
	TP_printk("n=%d", __entry->n));
#endif
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE ut_sample
#include <trace/define_trace.h>
