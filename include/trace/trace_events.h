/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event layer: what a trace header's TRACE_EVENT()s become in the one
 * file that includes it with CREATE_TRACE_POINTS (see define_trace.h).
 *
 * For an event class "foo" of system "sys" (TRACE_EVENT(foo, ...) is the
 * class foo with the one event foo) the layer produces:
 *
 *   struct trace_event_raw_foo		the ring-buffer record: the common
 *					trace_entry, the fields, then the
 *					dynamic parts (__data[])
 *   struct trace_event_data_offsets_foo where this write's dynamic parts go
 *   trace_event_fields_foo[]		the fields as the format file, the
 *					filters and histograms see them
 *   trace_event_get_offsets_foo()	sizes the dynamic parts of one write
 *   print_fmt_foo[]			the "print fmt:" line of the format
 *   trace_raw_output_foo()		the text of one record in "trace"
 *   trace_event_raw_event_foo()	the ftrace probe on the tracepoint
 *   perf_trace_foo()			the perf probe (perf.h)
 *   event_class_foo, event_<name>	the class, and one trace_event_call
 *					per event, listed in _ftrace_events
 *
 * The trace header is read twice.  Field macros turn TP_STRUCT__entry()
 * into a list of records (stages/fields.h) that each pass walks as often
 * as it needs, so no pass is spent on a single product:
 *
 *   text pass	(stages/text.h)  types, field descriptions, sizing function,
 *		print formats, eval maps; TP_printk() is stringified here,
 *		with the record named REC and the print helpers as written.
 *   code pass	(stages/code.h)  output functions, probes, classes and
 *		calls; TP_fast_assign() and TP_printk() are compiled here,
 *		with the record named entry in every function.
 *
 * TRACE_EVENT_CONDITION's condition and TRACE_EVENT_FN's callbacks belong
 * to the tracepoint (define_trace.h); here they are plain events.
 */
#include <linux/trace_events.h>

#ifndef TRACE_SYSTEM_VAR
#define TRACE_SYSTEM_VAR TRACE_SYSTEM
#endif

#include "stages/fields.h"
#include "perf.h"

/* The system's name, once per system and file */
#define __TE_SYS_STR	__TE_CAT(__te_system_, TRACE_SYSTEM_VAR)
static const char __TE_SYS_STR[] __maybe_unused = __stringify(TRACE_SYSTEM);

#undef TRACE_EVENT
#define TRACE_EVENT(name, proto, args, tstruct, assign, print)		\
	DECLARE_EVENT_CLASS(name, PARAMS(proto), PARAMS(args),		\
			    PARAMS(tstruct), PARAMS(assign), PARAMS(print)); \
	DEFINE_EVENT(name, name, PARAMS(proto), PARAMS(args));
#undef TRACE_EVENT_FN
#define TRACE_EVENT_FN(name, proto, args, tstruct, assign, print, reg, unreg) \
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))
#undef TRACE_EVENT_CONDITION
#define TRACE_EVENT_CONDITION(name, proto, args, cond, tstruct, assign, print) \
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))
#undef TRACE_EVENT_FN_COND
#define TRACE_EVENT_FN_COND(name, proto, args, cond, tstruct, assign,	\
			    print, reg, unreg)				\
	TRACE_EVENT(name, PARAMS(proto), PARAMS(args), PARAMS(tstruct),	\
		    PARAMS(assign), PARAMS(print))
#undef DEFINE_EVENT_FN
#define DEFINE_EVENT_FN(template, name, proto, args, reg, unreg)	\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))
#undef DEFINE_EVENT_CONDITION
#define DEFINE_EVENT_CONDITION(template, name, proto, args, cond)	\
	DEFINE_EVENT(template, name, PARAMS(proto), PARAMS(args))

/* Text pass */
#include "stages/text.h"

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	__TE_TYPES(trace_event_raw_##call, trace_event_data_offsets_##call, \
		   trace_event_fields_##call, trace_event_get_offsets_##call, \
		   PARAMS(proto), tstruct)				\
	static char print_fmt_##call[] = print;
#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)
#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)		\
	static char print_fmt_##name[] = print
#undef TRACE_EVENT_FLAGS
#define TRACE_EVENT_FLAGS(name, value)
#undef TRACE_EVENT_PERF_PERM
#define TRACE_EVENT_PERF_PERM(name, expr...)

/* Enum and sizeof names in print formats, resolved when the event loads */
#define __TE_EVAL_MAP(a, text, value)					\
	static struct trace_eval_map __used __initdata			\
	__TE_CAT(__te_eval_, __TE_CAT(TRACE_SYSTEM_VAR, _##a)) = {	\
		.system = __TE_SYS_STR,					\
		.eval_string = text,					\
		.eval_value = value,					\
	};								\
	static struct trace_eval_map __used __section("_ftrace_eval_map") \
	*__TE_CAT(__te_eval_ptr_, __TE_CAT(TRACE_SYSTEM_VAR, _##a)) =	\
		&__TE_CAT(__te_eval_, __TE_CAT(TRACE_SYSTEM_VAR, _##a))
#undef TRACE_DEFINE_ENUM
#define TRACE_DEFINE_ENUM(a)	__TE_EVAL_MAP(a, #a, a)
#undef TRACE_DEFINE_SIZEOF
#define TRACE_DEFINE_SIZEOF(a)	__TE_EVAL_MAP(a, "sizeof(" #a ")", sizeof(a))

#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

/* Code pass */
#include "stages/code.h"

#undef TRACE_DEFINE_ENUM
#define TRACE_DEFINE_ENUM(a)
#undef TRACE_DEFINE_SIZEOF
#define TRACE_DEFINE_SIZEOF(a)

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(call, proto, args, tstruct, assign, print)	\
	__TE_OUTPUT(trace_raw_output_##call, trace_event_raw_##call,	\
		    PARAMS(print))					\
	static struct trace_event_functions trace_event_type_funcs_##call = { \
		.trace = trace_raw_output_##call,			\
	};								\
	__TE_PROBE(trace_event_raw_event_##call, trace_event_raw_##call, \
		   trace_event_data_offsets_##call,			\
		   trace_event_get_offsets_##call, PARAMS(proto),	\
		   PARAMS(args), tstruct, PARAMS(assign))		\
	__TE_PERF_PROBE(call, PARAMS(proto), PARAMS(args), tstruct,	\
			PARAMS(assign))					\
	static struct trace_event_class __used __refdata event_class_##call = { \
		.system		= __TE_SYS_STR,				\
		.fields_array	= trace_event_fields_##call,		\
		.fields		= LIST_HEAD_INIT(event_class_##call.fields), \
		.raw_init	= trace_event_raw_init,			\
		.probe		= trace_event_raw_event_##call,		\
		.reg		= trace_event_reg,			\
		__TE_PERF_HOOK(call)					\
	};

/* An event of a class; the probes must fit its tracepoint */
#define __TE_CALL(template, name, ops, fmt)				\
	static inline void ftrace_test_probe_##name(void)		\
	{								\
		check_trace_callback_type_##name(trace_event_raw_event_##template); \
		__TE_PERF_CHECK(template, name)				\
	}								\
	static struct trace_event_call __used event_##name = {		\
		.class		= &event_class_##template,		\
		{ .tp		= &__tracepoint_##name },		\
		.event.funcs	= &ops,					\
		.print_fmt	= fmt,					\
		.flags		= TRACE_EVENT_FL_TRACEPOINT,		\
	};								\
	static struct trace_event_call __used				\
	__section("_ftrace_events") *__event_##name = &event_##name

#undef DEFINE_EVENT
#define DEFINE_EVENT(template, name, proto, args)			\
	__TE_CALL(template, name, trace_event_type_funcs_##template,	\
		  print_fmt_##template)

/* Its own TP_printk(), printed as the base class's events of old did */
#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(template, name, proto, args, print)		\
	static notrace enum print_line_t				\
	trace_raw_output_##name(struct trace_iterator *iter, int flags,	\
				struct trace_event *ev)			\
	{								\
		struct trace_event_raw_##template __maybe_unused *entry; \
		struct trace_seq __maybe_unused *p = &iter->tmp_seq;	\
									\
		if (WARN_ON_ONCE(iter->ent->type != ev->type))		\
			return TRACE_TYPE_UNHANDLED;			\
		entry = (void *)iter->ent;				\
		trace_seq_init(p);					\
		return trace_output_call(iter, #name, print);		\
	}								\
	static struct trace_event_functions trace_event_type_funcs_##name = { \
		.trace = trace_raw_output_##name,			\
	};								\
	__TE_CALL(template, name, trace_event_type_funcs_##name,	\
		  print_fmt_##name)

#undef TRACE_EVENT_FLAGS
#define TRACE_EVENT_FLAGS(name, value)	__TRACE_EVENT_FLAGS(name, value)
#undef TRACE_EVENT_PERF_PERM
#define TRACE_EVENT_PERF_PERM(name, expr...) __TRACE_EVENT_PERF_PERM(name, expr)

#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

#undef __TE_CALL
#undef __TE_EVAL_MAP
#undef __TE_SYS_STR

/* Back to linux/tracepoint.h's forms, which it may define again */
#undef TRACE_EVENT_FLAGS
#define TRACE_EVENT_FLAGS(event, flag)
#undef TRACE_EVENT_PERF_PERM
#define TRACE_EVENT_PERF_PERM(event, expr...)
