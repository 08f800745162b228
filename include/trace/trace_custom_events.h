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

#undef TRACE_SYSTEM
#define TRACE_SYSTEM custom

#ifndef TRACE_SYSTEM_VAR
#define TRACE_SYSTEM_VAR TRACE_SYSTEM
#endif

#include "stages/fields.h"

#define __TE_SYS_STR	__TE_CAT(__te_system_, TRACE_SYSTEM_VAR)
static const char __TE_SYS_STR[] __maybe_unused = __stringify(TRACE_SYSTEM);

#undef TRACE_CUSTOM_EVENT
#define TRACE_CUSTOM_EVENT(name, proto, args, tstruct, assign, print)	\
	DECLARE_CUSTOM_EVENT_CLASS(name, PARAMS(proto), PARAMS(args),	\
				   PARAMS(tstruct), PARAMS(assign),	\
				   PARAMS(print));			\
	DEFINE_CUSTOM_EVENT(name, name, PARAMS(proto), PARAMS(args));

/* Text pass */
#include "stages/text.h"

#undef DECLARE_CUSTOM_EVENT_CLASS
#define DECLARE_CUSTOM_EVENT_CLASS(call, proto, args, tstruct, assign, print) \
	__TE_TYPES(trace_custom_event_raw_##call,			\
		   trace_custom_event_data_offsets_##call,		\
		   trace_custom_event_fields_##call,			\
		   trace_custom_event_get_offsets_##call,		\
		   PARAMS(proto), tstruct)				\
	static char custom_print_fmt_##call[] = print;
#undef DEFINE_CUSTOM_EVENT
#define DEFINE_CUSTOM_EVENT(template, name, proto, args)

#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

/* Code pass */
#include "stages/code.h"

#undef DECLARE_CUSTOM_EVENT_CLASS
#define DECLARE_CUSTOM_EVENT_CLASS(call, proto, args, tstruct, assign, print) \
	__TE_OUTPUT(trace_custom_raw_output_##call,			\
		    trace_custom_event_raw_##call, PARAMS(print))	\
	static struct trace_event_functions				\
	trace_custom_event_type_funcs_##call = {			\
		.trace = trace_custom_raw_output_##call,		\
	};								\
	__TE_PROBE(trace_custom_event_raw_event_##call,			\
		   trace_custom_event_raw_##call,			\
		   trace_custom_event_data_offsets_##call,		\
		   trace_custom_event_get_offsets_##call, PARAMS(proto), \
		   PARAMS(args), tstruct, PARAMS(assign))		\
	static struct trace_event_class __used __refdata		\
	custom_event_class_##call = {					\
		.system		= __TE_SYS_STR,				\
		.fields_array	= trace_custom_event_fields_##call,	\
		.fields		= LIST_HEAD_INIT(custom_event_class_##call.fields), \
		.raw_init	= trace_event_raw_init,			\
		.probe		= trace_custom_event_raw_event_##call,	\
		.reg		= trace_event_reg,			\
	};

#undef DEFINE_CUSTOM_EVENT
#define DEFINE_CUSTOM_EVENT(template, call, proto, args)		\
	static inline void ftrace_test_custom_probe_##call(void)	\
	{								\
		check_trace_callback_type_##call(trace_custom_event_raw_event_##template); \
	}								\
	static struct trace_event_call __used custom_event_##call = {	\
		.name		= #call,				\
		.class		= &custom_event_class_##template,	\
		.event.funcs	= &trace_custom_event_type_funcs_##template, \
		.print_fmt	= custom_print_fmt_##template,		\
		.flags		= TRACE_EVENT_FL_CUSTOM,		\
	};								\
	/* Attach to the tracepoint once it is found by name */	\
	static inline int trace_custom_event_##call##_update(struct tracepoint *tp) \
	{								\
		if (!tp->name || strcmp(tp->name, #call))		\
			return 0;					\
		custom_event_##call.tp = tp;				\
		custom_event_##call.flags = TRACE_EVENT_FL_TRACEPOINT;	\
		return 1;						\
	}								\
	static struct trace_event_call __used				\
	__section("_ftrace_events") *__custom_event_##call = &custom_event_##call

#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

#undef __TE_SYS_STR
