/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Events of the event layer's sample (trace_layer_sample.c): together they
 * use every field macro, every helper of TP_fast_assign() and TP_printk(),
 * and every kind of event definition the layer knows.  Each event says
 * which of them it shows.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM layer_sample

#if !defined(_TRACE_LAYER_SAMPLE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_LAYER_SAMPLE_H

#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/socket.h>
#include <linux/tracepoint.h>

/* Types of the events: defined once, however often the header is read */
#ifndef _TRACE_LAYER_SAMPLE_TYPES
#define _TRACE_LAYER_SAMPLE_TYPES
/* Named in print formats: user space learns their values at load */
enum layer_sample_mode {
	LAYER_SAMPLE_IDLE = 1,
	LAYER_SAMPLE_BUSY = 2,
};

/* A name that is a macro: TRACE_DEFINE_ENUM() must not expand it too soon */
#define LAYER_SAMPLE_BOTH	(LAYER_SAMPLE_IDLE | LAYER_SAMPLE_BUSY)

struct layer_sample_pair {
	u16 lo;
	u16 hi;
};

int layer_sample_reg(void);
void layer_sample_unreg(void);
extern unsigned int layer_sample_last;
#endif

TRACE_DEFINE_ENUM(LAYER_SAMPLE_IDLE);
TRACE_DEFINE_ENUM(LAYER_SAMPLE_BUSY);
TRACE_DEFINE_ENUM(LAYER_SAMPLE_BOTH);
TRACE_DEFINE_SIZEOF(u64);

/*
 * Fixed fields: __field, __field_ext (a filter type of its own),
 * __field_struct and __field_struct_ext (no sign), __array; printed with
 * __print_flags, __print_symbolic and their u64 forms, __print_hex,
 * __print_array and the nanosecond helpers.
 */
TRACE_EVENT(layer_fixed,
	    TP_PROTO(unsigned int n, const struct layer_sample_pair *pair),
	    TP_ARGS(n, pair),
	    TP_STRUCT__entry(__field(unsigned int, n)
			     __field_ext(int, neg, FILTER_OTHER)
			     __field_struct(struct layer_sample_pair, pair)
			     __field_struct_ext(struct layer_sample_pair, twin,
						FILTER_OTHER)
			     __field(unsigned long, flags)
			     __field(u64, wide)
			     __field(u64, ns)
			     __array(u8, bytes, 4)
			     __array(char, tag, 8)),
	    TP_fast_assign(__entry->n = n;
			   __entry->neg = -(int)n;
			   __entry->pair = *pair;
			   __entry->twin = *pair;
			   __entry->flags = n & 7;
			   __entry->wide = (u64)n << 40;
			   __entry->ns = (u64)n * 1500000000ULL;
			   memset(__entry->bytes, n & 0xff, 4);
			   scnprintf(__entry->tag, 8, "t%u", n);),
	    TP_printk("n=%u neg=%d pair=%u/%u/%u flags=%s mode=%s wide=%s wflags=%s ns=%llu.%09u bytes=%s arr={%s} tag=%s",
		      __entry->n, __entry->neg, __entry->pair.lo,
		      __entry->twin.hi, (unsigned int)sizeof(u64),
		      __print_flags(__entry->flags, "|",
				    { 1, "ONE" }, { 2, "TWO" }, { 4, "FOUR" }),
		      __print_symbolic(__entry->n & 3,
				       { 0, "ZERO" },
				       { LAYER_SAMPLE_IDLE, "IDLE" },
				       { LAYER_SAMPLE_BUSY, "BUSY" },
				       { LAYER_SAMPLE_BOTH, "BOTH" }),
		      __print_symbolic_u64(__entry->wide, { 0, "none" },
					   { 1ULL << 40, "one" },
					   { 2ULL << 40, "two" }),
		      __print_flags_u64(__entry->wide, "|",
					{ 1ULL << 40, "B40" },
					{ 2ULL << 40, "B41" }),
		      __print_ns_to_secs(__entry->ns),
		      __print_ns_without_secs(__entry->ns),
		      __print_hex(__entry->bytes, 4),
		      __print_array(__entry->bytes, 4, 1),
		      __entry->tag)
);

/*
 * Dynamic parts located from the record's start: __dynamic_array,
 * __string (NULL is recorded as "(null)"), __string_len, __vstring,
 * __bitmask, __cpumask and __sockaddr; printed with __get_str,
 * __get_dynamic_array(_len), __print_dynamic_array, __print_hex_str,
 * __get_bitmask, __get_cpumask, __get_sockaddr and a scratch buffer.
 */
TRACE_EVENT(layer_dynamic,
	    TP_PROTO(unsigned int n, const u32 *vals, const char *name,
		     const char *text, unsigned int text_len,
		     const unsigned long *mask, const struct cpumask *cpus,
		     const struct sockaddr *addr, int addr_len,
		     struct va_format *vaf),
	    TP_ARGS(n, vals, name, text, text_len, mask, cpus, addr, addr_len,
		    vaf),
	    TP_STRUCT__entry(__field(unsigned int, n)
			     __dynamic_array(u32, vals, n % 4)
			     __string(name, name)
			     __string_len(text, text, text_len)
			     __vstring(msg, vaf->fmt, vaf->va)
			     __bitmask(mask, 16)
			     __cpumask(cpus)
			     __sockaddr(addr, addr_len)),
	    TP_fast_assign(__entry->n = n;
			   memcpy(__get_dynamic_array(vals), vals,
				  __get_dynamic_array_len(vals));
			   __assign_str(name);
			   __assign_str(text);
			   __assign_vstr(msg, vaf->fmt, vaf->va);
			   __assign_bitmask(mask, mask, 16);
			   __assign_cpumask(cpus, cpumask_bits(cpus));
			   __assign_sockaddr(addr, addr, addr_len);),
	    TP_printk("n=%u vals=%d {%s} raw=%s name=%s text=%s msg=%s mask=%s cpus=%s addr=%pISpc buf=%s",
		      __entry->n, __get_dynamic_array_len(vals),
		      __print_dynamic_array(vals, sizeof(u32)),
		      __print_hex_str(__get_dynamic_array(vals),
				      __get_dynamic_array_len(vals)),
		      __get_str(name), __get_str(text), __get_str(msg),
		      __get_bitmask(mask), __get_cpumask(cpus),
		      __get_sockaddr(addr),
		      ({
			char *b = __get_buf(8);

			snprintf(b, 8, "b%u", __entry->n);
			b;
		      }))
);

/*
 * The same, located from the location word itself: __rel_dynamic_array,
 * __rel_string, __rel_string_len, __rel_bitmask, __rel_cpumask and
 * __rel_sockaddr, with their __get_rel_* and __assign_rel_* helpers.
 */
TRACE_EVENT(layer_relative,
	    TP_PROTO(unsigned int n, const char *name, const unsigned long *mask,
		     const struct cpumask *cpus, const struct sockaddr *addr,
		     int addr_len),
	    TP_ARGS(n, name, mask, cpus, addr, addr_len),
	    TP_STRUCT__entry(__field(unsigned int, n)
			     __rel_dynamic_array(u8, bytes, 3)
			     __rel_string(name, name)
			     __rel_string_len(part, name, 2)
			     __rel_bitmask(mask, 16)
			     __rel_cpumask(cpus)
			     __rel_sockaddr(addr, addr_len)),
	    TP_fast_assign(__entry->n = n;
			   memset(__get_rel_dynamic_array(bytes), 0xa0 + n % 16,
				  3);
			   __assign_rel_str(name);
			   __assign_rel_str(part);
			   __assign_rel_bitmask(mask, mask, 16);
			   __assign_rel_cpumask(cpus, cpumask_bits(cpus));
			   __assign_rel_sockaddr(addr, addr, addr_len);),
	    TP_printk("n=%u bytes=%s/%d name=%s part=%s mask=%s cpus=%s addr=%pISpc",
		      __entry->n,
		      __print_hex(__get_rel_dynamic_array(bytes),
				  __get_rel_dynamic_array_len(bytes)),
		      __get_rel_dynamic_array_len(bytes),
		      __get_rel_str(name), __get_rel_str(part),
		      __get_rel_bitmask(mask), __get_rel_cpumask(cpus),
		      __get_rel_sockaddr(addr))
);

/*
 * A class and its events: DEFINE_EVENT, DEFINE_EVENT_PRINT (its own
 * print), DEFINE_EVENT_CONDITION (recorded for even n only) and
 * DEFINE_EVENT_FN (callbacks when the event is first enabled and last
 * disabled).  __print_hex_dump prints the class's bytes.
 */
DECLARE_EVENT_CLASS(layer_class,
		    TP_PROTO(unsigned int n),
		    TP_ARGS(n),
		    TP_STRUCT__entry(__field(unsigned int, n)
				     __array(u8, dump, 4)),
		    TP_fast_assign(__entry->n = n;
				   memset(__entry->dump, 0x41 + n % 26, 4);),
		    TP_printk("n=%u dump=%s", __entry->n,
			      __print_hex_dump("", DUMP_PREFIX_NONE, 16, 1,
					       __entry->dump, 4, true))
);

DEFINE_EVENT(layer_class, layer_member,
	     TP_PROTO(unsigned int n),
	     TP_ARGS(n)
);

DEFINE_EVENT_PRINT(layer_class, layer_member_print,
		   TP_PROTO(unsigned int n),
		   TP_ARGS(n),
		   TP_printk("member n=%u first=%c", __entry->n,
			     __entry->dump[0])
);

DEFINE_EVENT_CONDITION(layer_class, layer_member_even,
		       TP_PROTO(unsigned int n),
		       TP_ARGS(n),
		       TP_CONDITION(!(n & 1))
);

DEFINE_EVENT_FN(layer_class, layer_member_fn,
		TP_PROTO(unsigned int n),
		TP_ARGS(n),
		layer_sample_reg, layer_sample_unreg
);

/* TRACE_EVENT_CONDITION: recorded only when n is a multiple of 3 */
TRACE_EVENT_CONDITION(layer_cond,
		      TP_PROTO(unsigned int n),
		      TP_ARGS(n),
		      TP_CONDITION(n % 3 == 0),
		      TP_STRUCT__entry(__field(unsigned int, n)),
		      TP_fast_assign(__entry->n = n;),
		      TP_printk("n=%u", __entry->n)
);

/* TRACE_EVENT_FN and TRACE_EVENT_FN_COND share the callbacks above */
TRACE_EVENT_FN(layer_fn,
	       TP_PROTO(unsigned int n),
	       TP_ARGS(n),
	       TP_STRUCT__entry(__field(unsigned int, n)),
	       TP_fast_assign(__entry->n = n;),
	       TP_printk("n=%u", __entry->n),
	       layer_sample_reg, layer_sample_unreg
);

TRACE_EVENT_FN_COND(layer_fn_cond,
		    TP_PROTO(unsigned int n),
		    TP_ARGS(n),
		    TP_CONDITION(n > 10),
		    TP_STRUCT__entry(__field(unsigned int, n)),
		    TP_fast_assign(__entry->n = n;),
		    TP_printk("n=%u", __entry->n),
		    layer_sample_reg, layer_sample_unreg
);

/*
 * __perf_count() and __perf_task() in a class's TP_ARGS() (never in the
 * tracepoint's own, which does not know them): a perf event counts a hit
 * of layer_perf as count hits, and the events of task see it too.
 * TRACE_EVENT_PERF_PERM refuses perf users while the last fire was 13.
 */
DECLARE_EVENT_CLASS(layer_perf_class,
		    TP_PROTO(unsigned int n, u64 count,
			     struct task_struct *task),
		    TP_ARGS(n, __perf_count(count), __perf_task(task)),
		    TP_STRUCT__entry(__field(unsigned int, n)
				     __field(u64, count)
				     __field(pid_t, pid)),
		    TP_fast_assign(__entry->n = n;
				   __entry->count = count;
				   __entry->pid = task ? task->pid : -1;),
		    TP_printk("n=%u count=%llu pid=%d", __entry->n,
			      __entry->count, __entry->pid)
);

DEFINE_EVENT(layer_perf_class, layer_perf,
	     TP_PROTO(unsigned int n, u64 count, struct task_struct *task),
	     TP_ARGS(n, count, task)
);

TRACE_EVENT_PERF_PERM(layer_perf, layer_sample_last == 13 ? -EPERM : 0);

/* Compiled out: tracepoints that exist in the source only */
TRACE_EVENT_NOP(layer_nop,
		TP_PROTO(unsigned int n),
		TP_ARGS(n),
		TP_STRUCT__entry(__field(unsigned int, n)),
		TP_fast_assign(__entry->n = n;),
		TP_printk("n=%u", __entry->n)
);

DEFINE_EVENT_NOP(layer_class, layer_member_nop,
		 TP_PROTO(unsigned int n),
		 TP_ARGS(n)
);

#endif /* _TRACE_LAYER_SAMPLE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE trace_layer_sample
#include <trace/define_trace.h>
