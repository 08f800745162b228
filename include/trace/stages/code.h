/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The code pass of the event layer: what the helpers of TP_fast_assign()
 * and TP_printk() do.  Probes and output functions alike call the record
 * entry, so one set of definitions serves both; the output function's
 * scratch trace_seq is p.  Included before each code pass.
 */
#undef __entry
#define __entry entry

/* Reading the dynamic parts of a record */
#undef __get_dynamic_array
#define __get_dynamic_array(f)						\
	((void *)__entry + (__entry->__data_loc_##f & 0xffff))
#undef __get_dynamic_array_len
#define __get_dynamic_array_len(f)	(__entry->__data_loc_##f >> 16)
#undef __get_rel_dynamic_array
#define __get_rel_dynamic_array(f)					\
	((void *)(&__entry->__rel_loc_##f + 1) +			\
	 (__entry->__rel_loc_##f & 0xffff))
#undef __get_rel_dynamic_array_len
#define __get_rel_dynamic_array_len(f)	(__entry->__rel_loc_##f >> 16)
#undef __get_str
#define __get_str(f)		((char *)__get_dynamic_array(f))
#undef __get_rel_str
#define __get_rel_str(f)	((char *)__get_rel_dynamic_array(f))
#undef __get_sockaddr
#define __get_sockaddr(f)	((struct sockaddr *)__get_dynamic_array(f))
#undef __get_rel_sockaddr
#define __get_rel_sockaddr(f)	((struct sockaddr *)__get_rel_dynamic_array(f))

/* Filling them in (TP_fast_assign) */
#define __te_copy_str(d, n, src)					\
	do {								\
		char *__d = (d);					\
		int __n = (n) - 1;					\
									\
		memcpy(__d, (src) ?: EVENT_NULL_STR, __n);		\
		__d[__n] = '\0';					\
	} while (0)
#undef __assign_str
#define __assign_str(f)							\
	__te_copy_str(__get_str(f), __get_dynamic_array_len(f), __offs.f##_src)
#undef __assign_rel_str
#define __assign_rel_str(f)						\
	__te_copy_str(__get_rel_str(f), __get_rel_dynamic_array_len(f),	\
		      __offs.f##_src)
#undef __assign_vstr
#define __assign_vstr(f, fmt, va)					\
	__te_vstr(__get_str(f), __get_dynamic_array_len(f), fmt, va)
#undef __assign_bitmask
#define __assign_bitmask(f, src, nr_bits)				\
	memcpy(__get_dynamic_array(f), (src), __te_mask_bytes(nr_bits))
#undef __assign_rel_bitmask
#define __assign_rel_bitmask(f, src, nr_bits)				\
	memcpy(__get_rel_dynamic_array(f), (src), __te_mask_bytes(nr_bits))
#undef __assign_cpumask
#define __assign_cpumask(f, src)					\
	__assign_bitmask(f, src, nr_cpumask_bits)
#undef __assign_rel_cpumask
#define __assign_rel_cpumask(f, src)					\
	__assign_rel_bitmask(f, src, nr_cpumask_bits)
#undef __assign_sockaddr
#define __assign_sockaddr(f, src, n)	memcpy(__get_dynamic_array(f), src, n)
#undef __assign_rel_sockaddr
#define __assign_rel_sockaddr(f, src, n)				\
	memcpy(__get_rel_dynamic_array(f), src, n)

#undef TP_fast_assign
#define TP_fast_assign(code...) code

/* Arguments that tell the perf probe its count and target task */
#undef __perf_count
#define __perf_count(c)		(__te_count = (c))
#undef __perf_task
#define __perf_task(t)		(__te_task = (t))

/* Printing (TP_printk), into the iterator's scratch sequence p */
#undef __get_bitmask
#define __get_bitmask(f)						\
	trace_print_bitmask_seq(iter, __get_dynamic_array(f),		\
				__get_dynamic_array_len(f))
#undef __get_rel_bitmask
#define __get_rel_bitmask(f)						\
	trace_print_bitmask_seq(iter, __get_rel_dynamic_array(f),	\
				__get_rel_dynamic_array_len(f))
#undef __get_cpumask
#define __get_cpumask(f)	__get_bitmask(f)
#undef __get_rel_cpumask
#define __get_rel_cpumask(f)	__get_rel_bitmask(f)
#undef __get_buf
#define __get_buf(len)		trace_seq_acquire(p, (len))

#undef __print_flags
#define __print_flags(flag, delim, names...)				\
	({								\
		static const struct trace_print_flags __names[] = { names }; \
									\
		trace_print_flags_seq(p, delim, flag, __names,		\
				      ARRAY_SIZE(__names));		\
	})
#undef __print_symbolic
#define __print_symbolic(val, names...)					\
	({								\
		static const struct trace_print_flags __names[] = { names }; \
									\
		trace_print_symbols_seq(p, val, __names,		\
					ARRAY_SIZE(__names));		\
	})
#undef __print_flags_u64
#undef __print_symbolic_u64
#if BITS_PER_LONG == 64
#define __print_flags_u64(flag, delim, names...) __print_flags(flag, delim, names)
#define __print_symbolic_u64(val, names...)	__print_symbolic(val, names)
#else
#define __print_flags_u64(flag, delim, names...)			\
	({								\
		static const struct trace_print_flags_u64 __names[] =	\
			{ names };					\
									\
		trace_print_flags_seq_u64(p, delim, flag, __names,	\
					  ARRAY_SIZE(__names));		\
	})
#define __print_symbolic_u64(val, names...)				\
	({								\
		static const struct trace_print_flags_u64 __names[] =	\
			{ names };					\
									\
		trace_print_symbols_seq_u64(p, val, __names,		\
					    ARRAY_SIZE(__names));	\
	})
#endif

#undef __print_hex
#define __print_hex(buf, len)	trace_print_hex_seq(p, buf, len, false)
#undef __print_hex_str
#define __print_hex_str(buf, len) trace_print_hex_seq(p, buf, len, true)
#undef __print_hex_dump
#define __print_hex_dump(prefix, type, rowsize, groupsize, buf, len, ascii) \
	trace_print_hex_dump_seq(p, prefix, type, rowsize, groupsize,	\
				 buf, len, ascii)
#undef __print_array
#define __print_array(array, count, el_size)				\
	({								\
		BUILD_BUG_ON((el_size) != 1 && (el_size) != 2 &&	\
			     (el_size) != 4 && (el_size) != 8);		\
		trace_print_array_seq(p, array, count, el_size);	\
	})
#undef __print_dynamic_array
#define __print_dynamic_array(f, el_size)				\
	__print_array(__get_dynamic_array(f),				\
		      __get_dynamic_array_len(f) / (el_size), el_size)
#undef __print_ns_to_secs
#define __print_ns_to_secs(val)		div_u64((u64)(val), NSEC_PER_SEC)
#undef __print_ns_without_secs
#define __print_ns_without_secs(val)					\
	({								\
		u32 __rem;						\
									\
		div_u64_rem((u64)(val), NSEC_PER_SEC, &__rem);		\
		__rem;							\
	})

/* Where the record was written: the flags of its common header */
#undef __event_in_hardirq
#define __event_in_hardirq()	(__entry->ent.flags & TRACE_FLAG_HARDIRQ)
#undef __event_in_softirq
#define __event_in_softirq()	(__entry->ent.flags & TRACE_FLAG_SOFTIRQ)
#undef __event_in_irq
#define __event_in_irq()						\
	(__entry->ent.flags & (TRACE_FLAG_HARDIRQ | TRACE_FLAG_SOFTIRQ))

#undef TP_printk
#define TP_printk(fmt, args...) fmt "\n", args
