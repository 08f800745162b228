/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf probe of an event class, made in the code pass of
 * trace_events.h: the record is built in perf's per-CPU buffer and handed
 * to the perf events attached on this CPU (and to BPF programs).  A class
 * whose TP_ARGS() name a target task (__perf_task()) is also delivered to
 * that task's events, so it goes on with an empty list.  __perf_count()
 * sets how many events one hit counts as.
 */
#ifndef _TRACE_PERF_H
#define _TRACE_PERF_H

#ifdef CONFIG_PERF_EVENTS

#define __TE_PERF_PROBE(call, proto, args, tstruct, assign)		\
	static notrace void perf_trace_##call(void *__data, proto)	\
	{								\
		struct trace_event_call *event_call = __data;		\
		struct trace_event_data_offsets_##call __maybe_unused __offs; \
		struct trace_event_raw_##call *entry;			\
		struct task_struct *__task = NULL;			\
		struct hlist_head *head;				\
		struct pt_regs *__regs;					\
		u64 __count = 1;					\
		int __size, rctx;					\
									\
		__size = trace_event_get_offsets_##call(&__offs, args);	\
		head = this_cpu_ptr(event_call->perf_events);		\
		if (!bpf_prog_array_valid(event_call) &&		\
		    __builtin_constant_p(!__task) && !__task &&		\
		    hlist_empty(head))					\
			return;						\
		/* perf adds a u32 size; the sample stays u64 aligned */ \
		__size = ALIGN(sizeof(*entry) + __size + sizeof(u32),	\
			       sizeof(u64)) - sizeof(u32);		\
		entry = perf_trace_buf_alloc(__size, &__regs, &rctx);	\
		if (!entry)						\
			return;						\
		perf_fetch_caller_regs(__regs);				\
		__TE_EACH(LOC, tstruct)					\
		{ assign; }						\
		perf_trace_run_bpf_submit(entry, __size, rctx, event_call, \
					  __count, __regs, head, __task); \
	}
#define __TE_PERF_HOOK(call)		.perf_probe = perf_trace_##call,
#define __TE_PERF_CHECK(template, name)					\
	check_trace_callback_type_##name(perf_trace_##template);

#else

#define __TE_PERF_PROBE(call, proto, args, tstruct, assign)
#define __TE_PERF_HOOK(call)
#define __TE_PERF_CHECK(template, name)

#endif /* CONFIG_PERF_EVENTS */

#endif /* _TRACE_PERF_H */
