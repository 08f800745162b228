/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The field list of an event as data, and what the event layer makes of it.
 *
 * Inside TP_STRUCT__entry() every field macro (__field, __array, __string,
 * ...) expands to one parenthesised record, so the whole list becomes a
 * sequence such as
 *
 *	(val, pid_t, pid, "pid_t", "pid", is_signed_type(pid_t), FILTER_OTHER)
 *	(dyn, data_loc, name, "name", "__data_loc char[]", 1, size, src)
 *
 * which one expansion of the event can walk as often as it likes, each time
 * with another operation: declare the record's members (DECL), the dynamic
 * offsets (OFFS), the field descriptions behind the format file (DESC), the
 * sizes of the dynamic parts (SIZE) and their locations in a reserved
 * record (LOC).  Three kinds of record exist:
 *
 *	(val, type, item, "type", "item", is_signed, filter_type)
 *	(arr, type, item, len, "type[len]", "item")
 *	(dyn, loc, item, "item", "<loc> type[]", is_signed, bytes, src)
 *
 * where loc is data_loc (offset from the record's start) or rel_loc (offset
 * from the end of the location word itself), bytes the size of the dynamic
 * part in the record and src what __assign_str() copies from, or NULL.
 * Type and name strings are made by the field macros themselves, so they
 * read as the format file has always shown them (see __field below).
 *
 * __TE_EACH(OP, seq) walks a sequence by alternating two macros, each of
 * which handles one record and names the other as its last token, so the
 * next record is its argument list; the walk ends on a name pasted with
 * _END that expands to nothing.  The handler of each record is deferred
 * (OP __TE_NIL() (record)), so records whose handling produces commas do
 * not disturb the paste, and runs when the pasted result is rescanned.
 */
#ifndef _TRACE_STAGES_FIELDS_H
#define _TRACE_STAGES_FIELDS_H

#include <linux/bitops.h>
#include <linux/minmax.h>
#include <linux/sprintf.h>
#include <linux/stdarg.h>
#include <linux/string.h>
#include <linux/stringify.h>

#undef TP_STRUCT__entry
#define TP_STRUCT__entry(fields...) fields

/*
 * The format file has always shown __field()'s type after macro expansion
 * ("void *" for "void __percpu *") and __field_ext()'s as written, and
 * tools read it so: the types here follow that rule.
 */
#undef __field
#define __field(t, i)		__field_ext(t, i, FILTER_OTHER)
#undef __field_ext
#define __field_ext(t, i, f)	(val, t, i, #t, #i, is_signed_type(t), f)
#undef __field_struct
#define __field_struct(t, i)	__field_struct_ext(t, i, FILTER_OTHER)
#undef __field_struct_ext
#define __field_struct_ext(t, i, f) (val, t, i, #t, #i, 0, f)
#undef __array
#define __array(t, i, n)	(arr, t, i, n, #t "[" __stringify(n) "]", #i)

/* Dynamic parts: what the record holds, and the type the format file shows */
#define __te_dyn(loc, i, type, sgn, bytes, src)				\
	(dyn, loc, i, #i, __stringify(__##loc) " " type, sgn, bytes, src)
#define __te_mask_bytes(nr_bits) (BITS_TO_LONGS(nr_bits) * sizeof(long))

/*
 * Each dynamic kind, located from the record (data_loc) or from its word
 * (rel_loc).  Type strings are made by the outer macro, as written.
 */
#define __te_array(loc, t, tstr, i, n)					\
	__te_dyn(loc, i, tstr "[]", is_signed_type(t), (n) * sizeof(t), NULL)
#define __te_string(loc, i, src)					\
	__te_dyn(loc, i, "char[]", is_signed_type(char), __te_str_bytes(src), (src))
#define __te_string_len(loc, i, src, n)					\
	__te_dyn(loc, i, "char[]", is_signed_type(char),		\
		 __te_strn_bytes(src, n), (src))
#define __te_bitmask(loc, i, nr_bits)					\
	__te_dyn(loc, i, "unsigned long[]", 0, __te_mask_bytes(nr_bits), NULL)
#define __te_cpumask(loc, i)						\
	__te_dyn(loc, i, "cpumask_t", 0, __te_mask_bytes(nr_cpumask_bits), NULL)
#define __te_sockaddr(loc, i, n)	__te_dyn(loc, i, "u8[]", 0, (n), NULL)

#undef __dynamic_array
#define __dynamic_array(t, i, n)	__te_array(data_loc, t, #t, i, n)
#undef __string
#define __string(i, src)		__te_string(data_loc, i, src)
#undef __string_len
#define __string_len(i, src, n)		__te_string_len(data_loc, i, src, n)
#undef __vstring
#define __vstring(i, fmt, ap)						\
	__te_dyn(data_loc, i, "char[]", is_signed_type(char),		\
		 __te_vstr(NULL, 0, fmt, ap), NULL)
#undef __bitmask
#define __bitmask(i, nr_bits)		__te_bitmask(data_loc, i, nr_bits)
#undef __cpumask
#define __cpumask(i)			__te_cpumask(data_loc, i)
#undef __sockaddr
#define __sockaddr(i, n)		__te_sockaddr(data_loc, i, n)

#undef __rel_dynamic_array
#define __rel_dynamic_array(t, i, n)	__te_array(rel_loc, t, #t, i, n)
#undef __rel_string
#define __rel_string(i, src)		__te_string(rel_loc, i, src)
#undef __rel_string_len
#define __rel_string_len(i, src, n)	__te_string_len(rel_loc, i, src, n)
#undef __rel_bitmask
#define __rel_bitmask(i, nr_bits)	__te_bitmask(rel_loc, i, nr_bits)
#undef __rel_cpumask
#define __rel_cpumask(i)		__te_cpumask(rel_loc, i)
#undef __rel_sockaddr
#define __rel_sockaddr(i, n)		__te_sockaddr(rel_loc, i, n)

/*
 * Bytes a string takes in the record: __string()'s whole, __string_len()'s
 * first n bytes, and a NULL one as "(null)", so that __assign_str() copies
 * the record's length from its source, never more.
 */
static inline int __te_str_bytes(const char *s)
{
	return s ? strlen(s) + 1 : sizeof(EVENT_NULL_STR);
}

#define __te_strn_bytes(s, n)	((s) ? (n) + 1 : sizeof(EVENT_NULL_STR))

/*
 * __vstring(): format *va into buf (len bytes), or with len 0 only size
 * it; returns the bytes the record gives it, at most TRACE_EVENT_STR_MAX.
 * The format is the caller's, so its probes are no printf functions.
 */
__diag_push();
__diag_ignore_all("-Wsuggest-attribute=format",
		  "a __vstring() format comes from the tracepoint's caller");
static inline int __te_vstr(char *buf, int len, const char *fmt, va_list *va)
{
	va_list ap;
	int n;

	va_copy(ap, *va);
	n = vsnprintf(buf, len, fmt, ap) + 1;
	va_end(ap);
	return min(n, TRACE_EVENT_STR_MAX);
}

__diag_pop();

/* Walking a sequence of records */
#define __TE_NIL()
#define __TE_CAT(a, b)		__TE_CAT_(a, b)
#define __TE_CAT_(a, b)		a ## b
#define __TE_EACH(op, seq)	__TE_CAT(__TE_##op##_A seq, _END)
#define __TE_STEP(op, kind, ...) __TE_##op##_##kind(__VA_ARGS__)

#define __TE_DECL_A(...)	__TE_STEP __TE_NIL() (DECL, __VA_ARGS__) __TE_DECL_B
#define __TE_DECL_B(...)	__TE_STEP __TE_NIL() (DECL, __VA_ARGS__) __TE_DECL_A
#define __TE_DECL_A_END
#define __TE_DECL_B_END
#define __TE_OFFS_A(...)	__TE_STEP __TE_NIL() (OFFS, __VA_ARGS__) __TE_OFFS_B
#define __TE_OFFS_B(...)	__TE_STEP __TE_NIL() (OFFS, __VA_ARGS__) __TE_OFFS_A
#define __TE_OFFS_A_END
#define __TE_OFFS_B_END
#define __TE_DESC_A(...)	__TE_STEP __TE_NIL() (DESC, __VA_ARGS__) __TE_DESC_B
#define __TE_DESC_B(...)	__TE_STEP __TE_NIL() (DESC, __VA_ARGS__) __TE_DESC_A
#define __TE_DESC_A_END
#define __TE_DESC_B_END
#define __TE_SIZE_A(...)	__TE_STEP __TE_NIL() (SIZE, __VA_ARGS__) __TE_SIZE_B
#define __TE_SIZE_B(...)	__TE_STEP __TE_NIL() (SIZE, __VA_ARGS__) __TE_SIZE_A
#define __TE_SIZE_A_END
#define __TE_SIZE_B_END
#define __TE_LOC_A(...)		__TE_STEP __TE_NIL() (LOC, __VA_ARGS__) __TE_LOC_B
#define __TE_LOC_B(...)		__TE_STEP __TE_NIL() (LOC, __VA_ARGS__) __TE_LOC_A
#define __TE_LOC_A_END
#define __TE_LOC_B_END

/* DECL: the members of struct trace_event_raw_<event> */
#define __TE_DECL_val(t, i, ...)		t i;
#define __TE_DECL_arr(t, i, n, ...)		t i[n];
#define __TE_DECL_dyn(loc, i, ...)		u32 __##loc##_##i;

/* OFFS: where each dynamic part goes, and its source */
#define __TE_OFFS_val(...)
#define __TE_OFFS_arr(...)
#define __TE_OFFS_dyn(loc, i, ...)		u32 i; const void *i##_src;

/*
 * DESC: one struct trace_event_fields per field.  The trace core lays the
 * fields out again from size and align, so align is the type's alignment
 * as a member of a struct (4 for u64 on i386, not 8).
 */
#define __te_align(t)	((int)__alignof__(struct { t __m; }))
#define __TE_DESC_val(t, i, tstr, istr, sgn, filter)			\
	{ .type = tstr, .name = istr, .size = sizeof(t),		\
	  .align = __te_align(t), .is_signed = sgn, .filter_type = filter },
#define __TE_DESC_arr(t, i, n, tstr, istr)				\
	{ .type = tstr, .name = istr, .size = sizeof(t[n]),		\
	  .align = __te_align(t), .is_signed = is_signed_type(t),	\
	  .filter_type = FILTER_OTHER, .len = n },
#define __TE_DESC_dyn(loc, i, istr, tstr, sgn, ...)			\
	{ .type = tstr, .name = istr, .size = 4, .align = 4,		\
	  .is_signed = sgn, .filter_type = FILTER_OTHER },

/*
 * SIZE: in trace_event_get_offsets_<event>(), place each dynamic part
 * after the fixed record and encode its location word (length << 16 |
 * offset).  A __field() whose name carries an array ("arr[4]") is refused
 * at build time: the pasted enumerator is no identifier.
 */
#define __te_rel_base_data_loc(i)	0
#define __te_rel_base_rel_loc(i)					\
	(offsetof(typeof(*entry), __rel_loc_##i) + sizeof(u32))
#define __TE_SIZE_val(t, i, ...)	{ enum { __te_plain_name_##i }; }
#define __TE_SIZE_arr(...)
#define __TE_SIZE_dyn(loc, i, istr, tstr, sgn, bytes, src)		\
	__len = (bytes);						\
	__offs->i = (__size + offsetof(typeof(*entry), __data) -	\
		     __te_rel_base_##loc(i)) | (u32)__len << 16;	\
	__offs->i##_src = (src);					\
	__size += __len;

/* LOC: store the location words in a reserved record */
#define __TE_LOC_val(...)
#define __TE_LOC_arr(...)
#define __TE_LOC_dyn(loc, i, ...)	entry->__##loc##_##i = __offs.i;

/*
 * The parts of one event class that do not depend on how its fields are
 * printed: the record, the dynamic offsets, the field descriptions and the
 * sizing function.  Names are passed in, so that custom events
 * (trace_custom_events.h) share them.
 */
#define __TE_TYPES(raw, offs, fields, get_offs, proto, tstruct)	\
	struct raw {							\
		struct trace_entry	ent;				\
		__TE_EACH(DECL, tstruct)				\
		char			__data[];			\
	};								\
	struct offs {							\
		__TE_EACH(OFFS, tstruct)				\
	};								\
	static struct trace_event_fields fields[] = {			\
		__TE_EACH(DESC, tstruct)				\
		{}							\
	};								\
	static inline notrace int get_offs(struct offs *__offs, proto)	\
	{								\
		struct raw __maybe_unused *entry;			\
		int __maybe_unused __len;				\
		int __size = 0;						\
									\
		__TE_EACH(SIZE, tstruct)				\
		return __size;						\
	}

/*
 * The ftrace probe: reserve, fill in, commit (or let a trigger decide).
 *
 * A record of fixed size, at most __TE_STACK_MAX bytes, whose event has a
 * filter and nothing else to run (trace_event_filter_first()) is built on
 * the probe's stack instead, and trace_event_filter_record() reserves
 * room in the ring buffer only if the filter keeps it: most such events
 * are dropped.  __te_stack has room for the record only where that can be.
 *
 * __fbuf is filled in by trace_event_filter_record() for a record it
 * keeps, which it commits itself.
 *
 * A kept record is copied whole, so the stack record starts zeroed:
 * padding between fields, a string array filled only up to its NUL, a
 * field the assignment leaves alone never carry what the stack held.
 */
#define __TE_STACK_MAX		128
#define __te_stack_bytes(raw, offs)					\
	(sizeof(struct offs) == 0 && sizeof(struct raw) <= __TE_STACK_MAX ? \
	 sizeof(struct raw) : 0)

/*
 * Flags that send a probe off its plain path: triggers, soft disable, and
 * a filter where the record may be built on the stack.  One test of them
 * is all an event without any pays; the rest of
 * trace_trigger_soft_disabled()'s tests are left to its out of line half,
 * which makes them all.  The pid filter is not one of them: the plain
 * path's trace_event_buffer_reserve() and the stack's
 * trace_event_filter_record() check it themselves, so pids marked in the
 * instance cost an event only that check.
 */
#define __te_slow_flags(stack_bytes)					\
	(EVENT_FILE_FL_TRIGGER_MODE | EVENT_FILE_FL_SOFT_DISABLED |	\
	 ((stack_bytes) ? EVENT_FILE_FL_FILTERED : 0))

/*
 * The ftrace probe of a class.  @enter runs first: it disables preemption
 * for the whole probe (the tracepoint calls its probes preemptible, under
 * SRCU), after might_fault() for a class of syscall events, whose
 * tracepoint may fault.
 */
#define __TE_PROBE(fn, raw, offs, get_offs, proto, args, tstruct, assign, \
		   enter)						\
	static notrace void fn(void *__data, proto)			\
	{								\
		enter;							\
		struct trace_event_file *trace_file = __data;		\
		struct offs __maybe_unused __offs;			\
		struct task_struct __maybe_unused *__te_task;		\
		u64 __maybe_unused __te_count;				\
		struct trace_event_buffer __fbuf __uninitialized;	\
		char __te_stack[__te_stack_bytes(raw, offs)]		\
			__aligned(__alignof__(struct raw)) __uninitialized; \
		bool __te_on_stack = false;				\
		struct raw *entry;					\
									\
		if (unlikely(trace_file->flags &			\
			     __te_slow_flags(sizeof(__te_stack)))) {	\
			__te_on_stack = sizeof(__te_stack) &&		\
				trace_event_filter_first(trace_file);	\
			if (!__te_on_stack &&				\
			    __trace_trigger_soft_disabled(trace_file))	\
				return;					\
		}							\
		if (__te_on_stack) {					\
			memset(__te_stack, 0, sizeof(__te_stack));	\
			entry = (struct raw *)__te_stack;		\
		} else {						\
			entry = trace_event_buffer_reserve(&__fbuf, trace_file, \
				sizeof(*entry) + get_offs(&__offs, args)); \
			if (!entry)					\
				return;					\
		}							\
		__TE_EACH(LOC, tstruct)					\
		{ assign; }						\
		if (__te_on_stack)					\
			trace_event_filter_record(&__fbuf, trace_file,	\
						  entry, sizeof(*entry)); \
		else							\
			trace_event_buffer_commit(&__fbuf);		\
	}

/* The text output of a class: "<event>: " and its TP_printk() */
#define __TE_OUTPUT(fn, raw, print)					\
	static notrace enum print_line_t				\
	fn(struct trace_iterator *iter, int flags, struct trace_event *ev) \
	{								\
		struct raw __maybe_unused *entry = (void *)iter->ent;	\
		struct trace_seq __maybe_unused *p = &iter->tmp_seq;	\
		int ret = trace_raw_output_prep(iter, ev);		\
									\
		if (ret != TRACE_TYPE_HANDLED)				\
			return ret;					\
		if (unlikely(trace_event_record_bad(iter, ev)))		\
			trace_seq_puts(&iter->seq, "(bad record)\n");	\
		else							\
			trace_event_printf(iter, print);		\
		return trace_handle_return(&iter->seq);			\
	}

#endif /* _TRACE_STAGES_FIELDS_H */
