/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The text pass of the event layer: what TP_printk() reads as in an
 * event's format file.  The record is called REC there, the layer's print
 * helpers are left as written (user space tools know them by name), and
 * the two nanosecond helpers read as the arithmetic they stand for.
 * Included before each text pass: a code pass of an earlier trace header
 * of the same file may have defined the helpers.
 */
#undef __entry
#define __entry REC

#undef __get_dynamic_array
#undef __get_dynamic_array_len
#undef __get_str
#undef __get_bitmask
#undef __get_cpumask
#undef __get_sockaddr
#undef __get_rel_dynamic_array
#undef __get_rel_dynamic_array_len
#undef __get_rel_str
#undef __get_rel_bitmask
#undef __get_rel_cpumask
#undef __get_rel_sockaddr
#undef __get_buf
#undef __print_flags
#undef __print_symbolic
#undef __print_hex
#undef __print_hex_str
#undef __print_hex_dump
#undef __print_array
#undef __print_dynamic_array

/* On 64-bit the u64 forms are the plain ones, and read so */
#undef __print_flags_u64
#undef __print_symbolic_u64
#if BITS_PER_LONG == 64
#define __print_flags_u64(flag, delim, names...) __print_flags(flag, delim, names)
#define __print_symbolic_u64(val, names...)	__print_symbolic(val, names)
#endif

/*
 * The common flags by their values, which tools read in the format
 * (enum trace_flag_type: TRACE_FLAG_HARDIRQ 0x8, TRACE_FLAG_SOFTIRQ 0x10)
 */
#undef __event_in_hardirq
#define __event_in_hardirq() (REC->common_flags & 0x8)
#undef __event_in_softirq
#define __event_in_softirq() (REC->common_flags & 0x10)
#undef __event_in_irq
#define __event_in_irq() (REC->common_flags & 0x18)

#undef __print_ns_to_secs
#define __print_ns_to_secs(val) (val) / 1000000000UL
#undef __print_ns_without_secs
#define __print_ns_without_secs(val) (val) % 1000000000UL

#undef TP_printk
#define TP_printk(fmt, args...) "\"" fmt "\", " __stringify(args)
