/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Events of event_layer_bench.c, shaped like the kernel's own: a fixed
 * record (sched_switch's fields), one with a string and one with a
 * dynamic array.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM layer_bench

#if !defined(_EVENT_LAYER_BENCH_H) || defined(TRACE_HEADER_MULTI_READ)
#define _EVENT_LAYER_BENCH_H

#include <linux/tracepoint.h>

TRACE_EVENT(bench_fixed,
	TP_PROTO(const char *prev, int prev_pid, long state, const char *next,
		 int next_pid),
	TP_ARGS(prev, prev_pid, state, next, next_pid),
	TP_STRUCT__entry(
		__array(char, prev_comm, 16)
		__field(pid_t, prev_pid)
		__field(int, prev_prio)
		__field(long, prev_state)
		__array(char, next_comm, 16)
		__field(pid_t, next_pid)
		__field(int, next_prio)
	),
	TP_fast_assign(
		memcpy(__entry->prev_comm, prev, 16);
		__entry->prev_pid = prev_pid;
		__entry->prev_prio = 120;
		__entry->prev_state = state;
		memcpy(__entry->next_comm, next, 16);
		__entry->next_pid = next_pid;
		__entry->next_prio = 120;
	),
	TP_printk("prev_comm=%s prev_pid=%d prev_state=%ld next_comm=%s next_pid=%d",
		  __entry->prev_comm, __entry->prev_pid, __entry->prev_state,
		  __entry->next_comm, __entry->next_pid)
);

TRACE_EVENT(bench_string,
	TP_PROTO(const char *name, int a, u64 b),
	TP_ARGS(name, a, b),
	TP_STRUCT__entry(
		__string(name, name)
		__field(int, a)
		__field(u64, b)
	),
	TP_fast_assign(
		__assign_str(name);
		__entry->a = a;
		__entry->b = b;
	),
	TP_printk("name=%s a=%d b=%llu", __get_str(name), __entry->a, __entry->b)
);

TRACE_EVENT(bench_dynarray,
	TP_PROTO(const u32 *vals, unsigned int n),
	TP_ARGS(vals, n),
	TP_STRUCT__entry(
		__field(unsigned int, n)
		__dynamic_array(u32, vals, n)
	),
	TP_fast_assign(
		__entry->n = n;
		memcpy(__get_dynamic_array(vals), vals, n * sizeof(u32));
	),
	TP_printk("n=%u vals=%s", __entry->n,
		  __print_array(__get_dynamic_array(vals), __entry->n, 4))
);

#endif /* _EVENT_LAYER_BENCH_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#define TRACE_INCLUDE_FILE event_layer_bench
#include <trace/define_trace.h>
