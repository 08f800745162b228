/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Custom events: an event of our own making on an existing tracepoint,
 * with its own record and print format (see define_custom_trace.h and
 * samples/trace_events/trace_custom_sched.h).  Made by the same two passes
 * as ordinary events (trace_events.h) under their own names, in the
 * "custom" system, without a perf probe.  The tracepoint is found when
 * the module walks the kernel's tracepoints and calls
 * trace_custom_event_<event>_update() on each.
 */
#include <linux/trace_events.h>

/* Every custom event is of the "custom" system */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM custom
#ifndef TRACE_SYSTEM_VAR
#define TRACE_SYSTEM_VAR custom
#endif

#include "stages/fields.h"

/* Parameters as in trace_events.h: cls a class, ev an event, ... */
#define __TE_SYS_STR	__TE_CAT(__te_system_, TRACE_SYSTEM_VAR)
static const char __TE_SYS_STR[] __maybe_unused = __stringify(TRACE_SYSTEM);

#undef TRACE_CUSTOM_EVENT
#define TRACE_CUSTOM_EVENT(ev, pr, ar, st, as, pt)			\
	DECLARE_CUSTOM_EVENT_CLASS(ev, PARAMS(pr), PARAMS(ar), PARAMS(st), \
				   PARAMS(as), PARAMS(pt));		\
	DEFINE_CUSTOM_EVENT(ev, ev, PARAMS(pr), PARAMS(ar));

/* Text pass */
#include "stages/text.h"

#undef DECLARE_CUSTOM_EVENT_CLASS
#define DECLARE_CUSTOM_EVENT_CLASS(cls, pr, ar, st, as, pt)		\
	__TE_TYPES(trace_custom_event_raw_##cls,			\
		   trace_custom_event_data_offsets_##cls,		\
		   trace_custom_event_fields_##cls,			\
		   trace_custom_event_get_offsets_##cls, PARAMS(pr), st) \
	static char custom_print_fmt_##cls[] = pt;
#undef DEFINE_CUSTOM_EVENT
#define DEFINE_CUSTOM_EVENT(...)

#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

/* Code pass */
#include "stages/code.h"

#undef DECLARE_CUSTOM_EVENT_CLASS
#define DECLARE_CUSTOM_EVENT_CLASS(cls, pr, ar, st, as, pt)		\
	__TE_OUTPUT(trace_custom_raw_output_##cls,			\
		    trace_custom_event_raw_##cls, PARAMS(pt))		\
	static struct trace_event_functions				\
	trace_custom_event_type_funcs_##cls = {				\
		.trace = trace_custom_raw_output_##cls,			\
	};								\
	__TE_PROBE(trace_custom_event_raw_event_##cls,			\
		   trace_custom_event_raw_##cls,			\
		   trace_custom_event_data_offsets_##cls,		\
		   trace_custom_event_get_offsets_##cls, PARAMS(pr),	\
		   PARAMS(ar), st, PARAMS(as), guard(preempt_notrace)())	\
	static struct trace_event_class __used __refdata		\
	custom_event_class_##cls = {					\
		.system		= __TE_SYS_STR,				\
		.probe		= trace_custom_event_raw_event_##cls,	\
		.reg		= trace_event_reg,			\
		.raw_init	= trace_event_raw_init,			\
		.fields_array	= trace_custom_event_fields_##cls,	\
		.fields		= LIST_HEAD_INIT(custom_event_class_##cls.fields), \
	};

/*
 * An event waits, named and flagged custom, until the module that defines
 * it finds its tracepoint by name and hands it to the _update() function.
 */
#undef DEFINE_CUSTOM_EVENT
#define DEFINE_CUSTOM_EVENT(cls, ev, ...)				\
	static inline void ftrace_test_custom_probe_##ev(void)		\
	{								\
		check_trace_callback_type_##ev(trace_custom_event_raw_event_##cls); \
	}								\
	static struct trace_event_call __used custom_event_##ev = {	\
		.print_fmt	= custom_print_fmt_##cls,		\
		.event.funcs	= &trace_custom_event_type_funcs_##cls,	\
		.flags		= TRACE_EVENT_FL_CUSTOM,		\
		.class		= &custom_event_class_##cls,		\
		.name		= #ev,					\
	};								\
	static inline int trace_custom_event_##ev##_update(struct tracepoint *tp) \
	{								\
		struct trace_event_call *call = &custom_event_##ev;	\
									\
		if (!tp->name || strcmp(tp->name, #ev))			\
			return 0;					\
		call->flags = TRACE_EVENT_FL_TRACEPOINT;		\
		call->tp = tp;						\
		return 1;						\
	}								\
	static struct trace_event_call __used				\
	__section("_ftrace_events") *__custom_event_##ev = &custom_event_##ev

#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

#undef __TE_SYS_STR
