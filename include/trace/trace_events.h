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
 *
 * The probes run wherever their tracepoint fires, NMI included, under the
 * tracepoint's SRCU and nothing else (RCU tasks trace for a syscall
 * event's, which may fault): each disables preemption for its run, takes
 * no lock and allocates nothing.  The record is reserved in the ring buffer (perf's
 * per-CPU buffer for the perf probe), filled in place and committed;
 * filters and triggers decide at the commit.  A small record of fixed size
 * whose event has a filter and nothing else to run is built on the probe's
 * stack instead (at most __TE_STACK_MAX bytes of it), and reaches the ring
 * buffer only if the filter keeps it (stages/fields.h).  Output functions
 * run in the reader's context on records that are complete.
 */
#include <linux/trace_events.h>

#ifndef TRACE_SYSTEM_VAR
#define TRACE_SYSTEM_VAR TRACE_SYSTEM
#endif

#include "stages/fields.h"
#include "perf.h"

/*
 * Macro parameters below: cls a class, ev an event, pr its TP_PROTO(), ar
 * its TP_ARGS(), st its TP_STRUCT__entry(), as its TP_fast_assign(), pt
 * its TP_printk().
 */

/* The system's name, once per system and file */
#define __TE_SYS_STR	__TE_CAT(__te_system_, TRACE_SYSTEM_VAR)
static const char __TE_SYS_STR[] __maybe_unused = __stringify(TRACE_SYSTEM);

/* Every form is a class and its events; conditions and callbacks are gone */
#undef DEFINE_EVENT_CONDITION
#define DEFINE_EVENT_CONDITION(cls, ev, pr, ar, ...)			\
	DEFINE_EVENT(cls, ev, PARAMS(pr), PARAMS(ar))
#undef DEFINE_EVENT_FN
#define DEFINE_EVENT_FN(cls, ev, pr, ar, ...)				\
	DEFINE_EVENT(cls, ev, PARAMS(pr), PARAMS(ar))
#undef TRACE_EVENT
#define TRACE_EVENT(ev, pr, ar, st, as, pt)				\
	DECLARE_EVENT_CLASS(ev, PARAMS(pr), PARAMS(ar), PARAMS(st),	\
			    PARAMS(as), PARAMS(pt));			\
	DEFINE_EVENT(ev, ev, PARAMS(pr), PARAMS(ar));
#undef TRACE_EVENT_CONDITION
#define TRACE_EVENT_CONDITION(ev, pr, ar, co, st, as, pt)		\
	TRACE_EVENT(ev, PARAMS(pr), PARAMS(ar), PARAMS(st), PARAMS(as),	\
		    PARAMS(pt))
#undef TRACE_EVENT_FN
#define TRACE_EVENT_FN(ev, pr, ar, st, as, pt, ...)			\
	TRACE_EVENT(ev, PARAMS(pr), PARAMS(ar), PARAMS(st), PARAMS(as),	\
		    PARAMS(pt))
#undef TRACE_EVENT_FN_COND
#define TRACE_EVENT_FN_COND(ev, pr, ar, co, st, as, pt, ...)		\
	TRACE_EVENT(ev, PARAMS(pr), PARAMS(ar), PARAMS(st), PARAMS(as),	\
		    PARAMS(pt))
/* A syscall event: its class's probes may fault */
#undef TRACE_EVENT_SYSCALL
#define TRACE_EVENT_SYSCALL(ev, pr, ar, st, as, pt, ...)		\
	DECLARE_EVENT_SYSCALL_CLASS(ev, PARAMS(pr), PARAMS(ar),	\
				    PARAMS(st), PARAMS(as), PARAMS(pt)); \
	DEFINE_EVENT(ev, ev, PARAMS(pr), PARAMS(ar));

/* Text pass */
#include "stages/text.h"

#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(cls, pr, ar, st, as, pt)			\
	__TE_TYPES(trace_event_raw_##cls, trace_event_data_offsets_##cls, \
		   trace_event_fields_##cls, trace_event_get_offsets_##cls, \
		   PARAMS(pr), st)					\
	static char print_fmt_##cls[] = pt;
#undef DECLARE_EVENT_SYSCALL_CLASS
#define DECLARE_EVENT_SYSCALL_CLASS DECLARE_EVENT_CLASS
#undef DEFINE_EVENT
#define DEFINE_EVENT(...)
#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(cls, ev, pr, ar, pt)				\
	static char print_fmt_##ev[] = pt
#undef TRACE_EVENT_FLAGS
#define TRACE_EVENT_FLAGS(...)
#undef TRACE_EVENT_PERF_PERM
#define TRACE_EVENT_PERF_PERM(...)

/*
 * Enum and sizeof names in print formats, resolved when the event loads.
 * The name's own token is pasted (as _name) before anything can expand
 * it: the names are often macros themselves (TICK_DEP_MASK_*).
 */
#define __TE_EVAL_NAME(pfx, id)	__TE_CAT(pfx, __TE_CAT(TRACE_SYSTEM_VAR, id))
#define __TE_EVAL_MAP(id, text, value)					\
	static struct trace_eval_map __used __initdata			\
	__TE_EVAL_NAME(__te_eval_, id) = {				\
		.eval_value = value,					\
		.eval_string = text,					\
		.system = __TE_SYS_STR,					\
	};								\
	static struct trace_eval_map __used __section("_ftrace_eval_map") \
	*__TE_EVAL_NAME(__te_eval_ptr_, id) = &__TE_EVAL_NAME(__te_eval_, id)
#undef TRACE_DEFINE_ENUM
#define TRACE_DEFINE_ENUM(a)	__TE_EVAL_MAP(_##a, #a, a)
#undef TRACE_DEFINE_SIZEOF
#define TRACE_DEFINE_SIZEOF(a)	__TE_EVAL_MAP(_##a, "sizeof(" #a ")", sizeof(a))

#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

/* Code pass */
#include "stages/code.h"

#undef TRACE_DEFINE_ENUM
#define TRACE_DEFINE_ENUM(a)
#undef TRACE_DEFINE_SIZEOF
#define TRACE_DEFINE_SIZEOF(a)

#define __TE_CLASS(cls, pr, ar, st, as, pt, enter)			\
	__TE_OUTPUT(trace_raw_output_##cls, trace_event_raw_##cls,	\
		    PARAMS(pt))						\
	static struct trace_event_functions trace_event_type_funcs_##cls = { \
		.trace = trace_raw_output_##cls,			\
	};								\
	__TE_PROBE(trace_event_raw_event_##cls, trace_event_raw_##cls,	\
		   trace_event_data_offsets_##cls,			\
		   trace_event_get_offsets_##cls, PARAMS(pr), PARAMS(ar), \
		   st, PARAMS(as), enter)				\
	__TE_PERF_PROBE(cls, PARAMS(pr), PARAMS(ar), st, PARAMS(as),	\
			enter)						\
	static struct trace_event_class __used __refdata event_class_##cls = { \
		.system		= __TE_SYS_STR,				\
		.probe		= trace_event_raw_event_##cls,		\
		__TE_PERF_HOOK(cls)					\
		.reg		= trace_event_reg,			\
		.raw_init	= trace_event_raw_init,			\
		.fields_array	= trace_event_fields_##cls,		\
		.fields		= LIST_HEAD_INIT(event_class_##cls.fields), \
	};
#undef DECLARE_EVENT_CLASS
#define DECLARE_EVENT_CLASS(cls, pr, ar, st, as, pt)			\
	__TE_CLASS(cls, PARAMS(pr), PARAMS(ar), PARAMS(st), PARAMS(as),	\
		   PARAMS(pt), guard(preempt_notrace)())
#undef DECLARE_EVENT_SYSCALL_CLASS
#define DECLARE_EVENT_SYSCALL_CLASS(cls, pr, ar, st, as, pt)		\
	__TE_CLASS(cls, PARAMS(pr), PARAMS(ar), PARAMS(st), PARAMS(as),	\
		   PARAMS(pt), might_fault(); guard(preempt_notrace)())

/* An event of a class; the probes must fit its tracepoint */
#define __TE_CALL(cls, ev, ops, fmt)					\
	static inline void ftrace_test_probe_##ev(void)			\
	{								\
		check_trace_callback_type_##ev(trace_event_raw_event_##cls); \
		__TE_PERF_CHECK(cls, ev)				\
	}								\
	static struct trace_event_call __used event_##ev = {		\
		.print_fmt	= fmt,					\
		.event.funcs	= &ops,					\
		.flags		= TRACE_EVENT_FL_TRACEPOINT,		\
		/* the union after .class: the tracepoint, not a name */ \
		.class		= &event_class_##cls,			\
		{ .tp		= &__tracepoint_##ev },			\
	};								\
	static struct trace_event_call __used				\
	__section("_ftrace_events") *__event_##ev = &event_##ev

#undef DEFINE_EVENT
#define DEFINE_EVENT(cls, ev, ...)					\
	__TE_CALL(cls, ev, trace_event_type_funcs_##cls, print_fmt_##cls)

/* Its own TP_printk(): its own output, through trace_output_call() */
#undef DEFINE_EVENT_PRINT
#define DEFINE_EVENT_PRINT(cls, ev, pr, ar, pt)				\
	static notrace enum print_line_t				\
	trace_raw_output_##ev(struct trace_iterator *iter, int flags,	\
			      struct trace_event *te)			\
	{								\
		struct trace_event_raw_##cls __maybe_unused *entry;	\
		struct trace_seq __maybe_unused *p = &iter->tmp_seq;	\
									\
		if (WARN_ON_ONCE(iter->ent->type != te->type))		\
			return TRACE_TYPE_UNHANDLED;			\
		entry = (void *)iter->ent;				\
		trace_seq_init(p);					\
		if (unlikely(trace_event_record_bad(iter, te))) {	\
			trace_seq_puts(&iter->seq, #ev ": (bad record)\n"); \
			return trace_handle_return(&iter->seq);		\
		}							\
		return trace_output_call(iter, #ev, pt);		\
	}								\
	static struct trace_event_functions trace_event_type_funcs_##ev = { \
		.trace = trace_raw_output_##ev,				\
	};								\
	__TE_CALL(cls, ev, trace_event_type_funcs_##ev, print_fmt_##ev)

#undef TRACE_EVENT_FLAGS
#define TRACE_EVENT_FLAGS(ev, fl)	__TRACE_EVENT_FLAGS(ev, fl)
#undef TRACE_EVENT_PERF_PERM
#define TRACE_EVENT_PERF_PERM(ev, ex...) __TRACE_EVENT_PERF_PERM(ev, ex)

#include TRACE_INCLUDE(TRACE_INCLUDE_FILE)

#undef __TE_CALL
#undef __TE_CLASS
#undef __TE_EVAL_MAP
#undef __TE_EVAL_NAME
#undef __TE_SYS_STR

/* Back to linux/tracepoint.h's forms, which it may define again */
#undef TRACE_EVENT_FLAGS
#define TRACE_EVENT_FLAGS(event, flag)
#undef TRACE_EVENT_PERF_PERM
#define TRACE_EVENT_PERF_PERM(event, expr...)
