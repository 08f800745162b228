/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf probe of an event class, made in the code pass of
 * trace_events.h: the record is built in perf's per-CPU buffer and handed
 * to the perf events attached on this CPU (and to BPF programs).  A class
 * whose TP_ARGS() name a target task (__perf_task()) is also delivered to
 * that task's events, so it goes on with an empty list.  __perf_count()
 * sets how many events one hit counts as.  @enter runs first, as in
 * __TE_PROBE().
 */
#ifndef _TRACE_PERF_H
#define _TRACE_PERF_H

#ifdef CONFIG_PERF_EVENTS

#define __TE_PERF_PROBE(cls, pr, ar, st, as, enter)			\
	static notrace void perf_trace_##cls(void *__data, pr)		\
	{								\
		enter;							\
		struct trace_event_data_offsets_##cls __maybe_unused __offs; \
		struct trace_event_call *__te_ec = __data;		\
		struct task_struct *__te_task = NULL;			\
		struct trace_event_raw_##cls *entry;			\
		struct hlist_head *__te_events;				\
		struct pt_regs *__te_regs;				\
		int __te_size, __te_rctx;				\
		u64 __te_count = 1;					\
									\
		__te_size = trace_event_get_offsets_##cls(&__offs, ar);	\
		__te_events = this_cpu_ptr(__te_ec->perf_events);	\
		/* Nobody here, no BPF, and no task named at build time */ \
		if (hlist_empty(__te_events) &&				\
		    !bpf_prog_array_valid(__te_ec) &&			\
		    __builtin_constant_p(!__te_task) && !__te_task)	\
			return;						\
		/* perf adds a u32 size; the sample stays u64 aligned */ \
		__te_size = ALIGN(sizeof(*entry) + __te_size + sizeof(u32), \
				  sizeof(u64)) - sizeof(u32);		\
		entry = perf_trace_buf_alloc(__te_size, &__te_regs,	\
					     &__te_rctx);		\
		if (!entry)						\
			return;						\
		perf_fetch_caller_regs(__te_regs);			\
		__TE_EACH(LOC, st)					\
		{ as; }							\
		perf_trace_run_bpf_submit(entry, __te_size, __te_rctx,	\
					  __te_ec, __te_count, __te_regs, \
					  __te_events, __te_task);	\
	}
#define __TE_PERF_HOOK(cls)		.perf_probe = perf_trace_##cls,
#define __TE_PERF_CHECK(cls, ev)	check_trace_callback_type_##ev(perf_trace_##cls);

#else

#define __TE_PERF_PROBE(...)
#define __TE_PERF_HOOK(cls)
#define __TE_PERF_CHECK(cls, ev)

#endif

#endif /* _TRACE_PERF_H */
