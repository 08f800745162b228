/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A trace header includes this file last.  In the one compilation unit
 * that defines CREATE_TRACE_POINTS before including the header, this file
 * defines the header's tracepoints and then has the event layer
 * (trace_events.h) make the events of them; elsewhere it does nothing.
 *
 * The header may set, before including this file:
 *   TRACE_SYSTEM	 the system of its events (required)
 *   TRACE_INCLUDE_FILE	 its file name without ".h", when not TRACE_SYSTEM
 *   TRACE_INCLUDE_PATH	 its directory relative to this one (or absolute,
 *			 for modules built out of tree), when not
 *			 include/trace/events
 *
 * The header is read again here (TRACE_HEADER_MULTI_READ lets it past its
 * include guard) once for the tracepoints and twice by the event layer.
 */
#ifdef CREATE_TRACE_POINTS

/* The header below includes this file again: that time it does nothing */
#undef CREATE_TRACE_POINTS

#include <linux/stringify.h>

/*
 * Tracepoints: one per event, with the registration callbacks of the _FN
 * forms.  A TP_CONDITION() is the tracepoint's business where it is
 * declared (linux/tracepoint.h), not here.
 */
#define __te_tp(ev, pr, ar)		DEFINE_TRACE(ev, PARAMS(pr), PARAMS(ar))
#define __te_tp_fn(ev, pr, ar, on, off)					\
	DEFINE_TRACE_FN(ev, on, off, PARAMS(pr), PARAMS(ar))

#undef DECLARE_TRACE
#define DECLARE_TRACE(ev, pr, ar)	__te_tp(ev, PARAMS(pr), PARAMS(ar))
#undef DEFINE_EVENT
#define DEFINE_EVENT(cls, ev, pr, ar)	__te_tp(ev, PARAMS(pr), PARAMS(ar))
#undef DEFINE_EVENT_CONDITION
#define DEFINE_EVENT_CONDITION(cls, ev, pr, ar, ...)			\
	__te_tp(ev, PARAMS(pr), PARAMS(ar))
#undef DEFINE_EVENT_FN
#define DEFINE_EVENT_FN(cls, ev, pr, ar, on, off)			\
	__te_tp_fn(ev, PARAMS(pr), PARAMS(ar), on, off)
#undef DEFINE_EVENT_NOP
#define DEFINE_EVENT_NOP(...)
#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(cls, ev, pr, ar, ...)			\
	__te_tp(ev, PARAMS(pr), PARAMS(ar))
#undef TRACE_EVENT
#define TRACE_EVENT(ev, pr, ar, ...)	__te_tp(ev, PARAMS(pr), PARAMS(ar))
#undef TRACE_EVENT_CONDITION
#define TRACE_EVENT_CONDITION(ev, pr, ar, ...)				\
	__te_tp(ev, PARAMS(pr), PARAMS(ar))
#undef TRACE_EVENT_FN
#define TRACE_EVENT_FN(ev, pr, ar, st, as, pt, on, off)			\
	__te_tp_fn(ev, PARAMS(pr), PARAMS(ar), on, off)
#undef TRACE_EVENT_FN_COND
#define TRACE_EVENT_FN_COND(ev, pr, ar, co, st, as, pt, on, off)	\
	__te_tp_fn(ev, PARAMS(pr), PARAMS(ar), on, off)
#undef TRACE_EVENT_NOP
#define TRACE_EVENT_NOP(...)

/* Where the header is: TRACE_INCLUDE(TRACE_INCLUDE_FILE) names it */
#undef TRACE_INCLUDE
#ifndef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE TRACE_SYSTEM
#define __TE_OWN_INCLUDE_FILE
#endif
#ifdef TRACE_INCLUDE_PATH
#define __te_include(f)		__stringify(TRACE_INCLUDE_PATH/f.h)
#else
#define __te_include(f)		<trace/events/f.h>
#define __TE_OWN_INCLUDE_PATH
#endif
#define TRACE_INCLUDE(f)	__te_include(f)

#define TRACE_HEADER_MULTI_READ
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

/* Bare tracepoints have no event */
#undef DECLARE_TRACE
#define DECLARE_TRACE(...)

#ifdef TRACEPOINTS_ENABLED
#include <trace/trace_events.h>
#include <trace/bpf_probe.h>
#endif

/*
 * Leave the names as linux/tracepoint.h expects to find them, and drop
 * our helpers with the forms that use them.
 */
#undef __te_include
#undef TRACE_HEADER_MULTI_READ
#undef DECLARE_EVENT_CLASS
#undef DECLARE_TRACE
#undef DEFINE_EVENT_NOP
#undef TRACE_EVENT_NOP
#undef __te_tp_fn
#undef DEFINE_EVENT_FN
#undef TRACE_EVENT_FN
#undef TRACE_EVENT_FN_COND
#undef __te_tp
#undef DEFINE_EVENT
#undef DEFINE_EVENT_CONDITION
#undef DEFINE_EVENT_PRINT
#undef TRACE_EVENT
#undef TRACE_EVENT_CONDITION

#ifdef __TE_OWN_INCLUDE_FILE
#undef TRACE_INCLUDE_FILE
#undef __TE_OWN_INCLUDE_FILE
#endif
#ifdef __TE_OWN_INCLUDE_PATH
#undef TRACE_INCLUDE_PATH
#undef __TE_OWN_INCLUDE_PATH
#endif

/* The file may define the tracepoints of another header next */
#define CREATE_TRACE_POINTS

#endif
