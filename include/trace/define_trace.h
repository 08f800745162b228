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
 * and syscall forms.  A TP_CONDITION() is the tracepoint's business where
 * it is declared (linux/tracepoint.h), not here.  A bare tracepoint of
 * DECLARE_TRACE() is named with a _tp suffix, one of
 * DECLARE_TRACE_EVENT() as its event would be.
 */
#define __te_tp(ev, pr, ar)		DEFINE_TRACE(ev, PARAMS(pr), PARAMS(ar))
#define __te_tp_fn(ev, pr, ar, on, off)					\
	DEFINE_TRACE_FN(ev, on, off, PARAMS(pr), PARAMS(ar))

#include "stages/forms.h"
#define DECLARE_EVENT_CLASS(...)
#define DECLARE_EVENT_SYSCALL_CLASS(...)
#define DECLARE_TRACE(ev, pr, ar)	__te_tp(ev##_tp, PARAMS(pr), PARAMS(ar))
#define DECLARE_TRACE_CONDITION(ev, pr, ar, ...)			\
	__te_tp(ev##_tp, PARAMS(pr), PARAMS(ar))
#define DECLARE_TRACE_EVENT(ev, pr, ar)	__te_tp(ev, PARAMS(pr), PARAMS(ar))
#define DECLARE_TRACE_EVENT_CONDITION(ev, pr, ar, ...)			\
	__te_tp(ev, PARAMS(pr), PARAMS(ar))
#define DEFINE_EVENT(cls, ev, pr, ar)	__te_tp(ev, PARAMS(pr), PARAMS(ar))
#define DEFINE_EVENT_CONDITION(cls, ev, pr, ar, ...)			\
	__te_tp(ev, PARAMS(pr), PARAMS(ar))
#define DEFINE_EVENT_FN(cls, ev, pr, ar, on, off)			\
	__te_tp_fn(ev, PARAMS(pr), PARAMS(ar), on, off)
#define DEFINE_EVENT_NOP(...)
#define DEFINE_EVENT_PRINT(cls, ev, pr, ar, ...)			\
	__te_tp(ev, PARAMS(pr), PARAMS(ar))
#define TRACE_EVENT(ev, pr, ar, ...)	__te_tp(ev, PARAMS(pr), PARAMS(ar))
#define TRACE_EVENT_CONDITION(ev, pr, ar, ...)				\
	__te_tp(ev, PARAMS(pr), PARAMS(ar))
#define TRACE_EVENT_FN(ev, pr, ar, st, as, pt, on, off)			\
	__te_tp_fn(ev, PARAMS(pr), PARAMS(ar), on, off)
#define TRACE_EVENT_FN_COND(ev, pr, ar, co, st, as, pt, on, off)	\
	__te_tp_fn(ev, PARAMS(pr), PARAMS(ar), on, off)
#define TRACE_EVENT_NOP(...)
#define TRACE_EVENT_SYSCALL(ev, pr, ar, st, as, pt, on, off)		\
	DEFINE_TRACE_SYSCALL(ev, on, off, PARAMS(pr), PARAMS(ar))

/* The Rust helpers that call the tracepoints, when the file asks */
#ifdef CREATE_RUST_TRACE_POINTS
#undef DEFINE_RUST_DO_TRACE
#define DEFINE_RUST_DO_TRACE(ev, pr, ar)				\
	__DEFINE_RUST_DO_TRACE(ev, PARAMS(pr), PARAMS(ar))
#endif

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
#undef DECLARE_TRACE_CONDITION
#define DECLARE_TRACE_CONDITION(...)
#undef DECLARE_TRACE_EVENT
#define DECLARE_TRACE_EVENT(...)
#undef DECLARE_TRACE_EVENT_CONDITION
#define DECLARE_TRACE_EVENT_CONDITION(...)

#ifdef TRACEPOINTS_ENABLED
#include <trace/trace_events.h>
#include <trace/bpf_probe.h>
#endif

/* Leave the forms to linux/tracepoint.h again, and drop our helpers */
#include "stages/forms.h"
#undef TRACE_HEADER_MULTI_READ
#undef __te_include
#undef __te_tp
#undef __te_tp_fn
#ifdef CREATE_RUST_TRACE_POINTS
#undef DEFINE_RUST_DO_TRACE
#define DEFINE_RUST_DO_TRACE(ev, pr, ar)
#endif

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
