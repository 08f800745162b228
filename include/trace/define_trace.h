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

/* Tracepoints: one per event, with its registration callbacks if any */
#undef TRACE_EVENT
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	DEFINE_TRACE(name, PARAMS(proto), PARAMS(args))
#undef TRACE_EVENT_CONDITION
#define TRACE_EVENT_CONDITION(name, proto, args, cond, tstruct, assign, print) \
	DEFINE_TRACE(name, PARAMS(proto), PARAMS(args))
#undef TRACE_EVENT_FN
#define TRACE_EVENT_FN(name, proto, args, tstruct, assign, print, reg, unreg) \
	DEFINE_TRACE_FN(name, reg, unreg, PARAMS(proto), PARAMS(args))
#undef TRACE_EVENT_FN_COND
#define TRACE_EVENT_FN_COND(name, proto, args, cond, tstruct, assign,	\
			    print, reg, unreg)				\
	DEFINE_TRACE_FN(name, reg, unreg, PARAMS(proto), PARAMS(args))
#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)			\
	DEFINE_TRACE(name, PARAMS(proto), PARAMS(args))
#undef DEFINE_EVENT_FN
#define DEFINE_EVENT_FN(template, name, proto, args, reg, unreg)	\
	DEFINE_TRACE_FN(name, reg, unreg, PARAMS(proto), PARAMS(args))
#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)		\
	DEFINE_TRACE(name, PARAMS(proto), PARAMS(args))
#undef DEFINE_EVENT_CONDITION
#define DEFINE_EVENT_CONDITION(template, name, proto, args, cond)	\
	DEFINE_TRACE(name, PARAMS(proto), PARAMS(args))
#undef DECLARE_TRACE
#define DECLARE_TRACE(name, proto, args)				\
	DEFINE_TRACE(name, PARAMS(proto), PARAMS(args))
/* Events compiled out, here and in the event layer */
#undef TRACE_EVENT_NOP
#define TRACE_EVENT_NOP(name, proto, args, tstruct, assign, print)
#undef DEFINE_EVENT_NOP
#define DEFINE_EVENT_NOP(template, name, proto, args)

#undef TRACE_INCLUDE
#undef __TRACE_INCLUDE
#ifndef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE TRACE_SYSTEM
#define __TE_OWN_INCLUDE_FILE
#endif
#ifdef TRACE_INCLUDE_PATH
#define __TRACE_INCLUDE(file) __stringify(TRACE_INCLUDE_PATH/file.h)
#else
#define __TRACE_INCLUDE(file) <trace/events/file.h>
#define __TE_OWN_INCLUDE_PATH
#endif
#define TRACE_INCLUDE(file) __TRACE_INCLUDE(file)

#define TRACE_HEADER_MULTI_READ
#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

/* Bare tracepoints have no event */
#undef DECLARE_TRACE
#define DECLARE_TRACE(name, proto, args)

#ifdef TRACEPOINTS_ENABLED
#include <trace/trace_events.h>
#include <trace/bpf_probe.h>
#endif

#undef TRACE_EVENT
#undef TRACE_EVENT_FN
#undef TRACE_EVENT_FN_COND
#undef TRACE_EVENT_CONDITION
#undef TRACE_EVENT_NOP
#undef DEFINE_EVENT_NOP
#undef DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#undef DEFINE_EVENT_FN
#undef DEFINE_EVENT_PRINT
#undef DEFINE_EVENT_CONDITION
#undef TRACE_HEADER_MULTI_READ
#undef DECLARE_TRACE

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

#endif /* CREATE_TRACE_POINTS */
