// SPDX-License-Identifier: GPL-2.0
/*
 * trace_filter_eval - run a compiled filter on one record.
 *
 * filter_match_preds() is called for every event that has a filter, in
 * whatever context the event fires: task, softirq, hardirq or NMI, with
 * preemption disabled (tracepoints, perf) or under SRCU.  It therefore
 * takes no lock, allocates nothing and cannot recurse: it walks the
 * program forward, one test per entry, until a verdict.
 *
 * Reads are bounded by what the record says about itself: a char[N]
 * field is never read past N bytes even if it holds no NUL, and a
 * __data_loc/__rel_loc string never past the length in its descriptor.
 * Strings behind pointers are first copied, at most FILTER_STRBUF_LEN
 * bytes, with the fault-safe helpers into a per-CPU buffer.  There is one
 * buffer per context level, so an interrupt that evaluates its own filter
 * on this CPU never overwrites a copy still in use by the code it
 * interrupted; preemption is disabled while a buffer is in use.
 *
 * trace_event_filter_record() is the event layer's way in for an event
 * whose filter alone decides: it runs the filter on a record the probe
 * built on its stack, and only a record the filter keeps reaches the ring
 * buffer, through its lockless reserve and commit.
 */
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/unaligned.h>

#include "trace_filter.h"
#include "trace_loc.h"

/**
 * filter_pattern_match - compare a bounded string with a pattern
 * @pat: the compiled pattern
 * @str: the string; it ends at its first NUL or after @len bytes
 * @len: bytes of @str that may be read
 *
 * Return: true when the string matches the pattern the way @pat says
 * (whole, front, middle, end or glob).
 */
bool filter_pattern_match(const struct filter_pattern *pat,
			  const char *str, int len)
{
	int n;

	if (len <= 0) {
		str = "";
		len = 1;
	}
	/*
	 * Compared with strncmp(), which stops at the first NUL of @str:
	 * the flexible char[] that ends ftrace's print record is bounded by
	 * its NUL only (@len is a page), and memcmp() may read a whole word
	 * past it.  The pattern has no NUL, so a match of pat->len bytes
	 * means @str has at least one more byte, and the full match may
	 * read it.
	 */
	switch (pat->how) {
	case FILTER_MATCH_FULL:
		return pat->len <= len && !strncmp(str, pat->text, pat->len) &&
		       (pat->len == len || !str[pat->len]);
	case FILTER_MATCH_FRONT:
		return pat->len <= len && !strncmp(str, pat->text, pat->len);
	default:
		break;
	}
	n = strnlen(str, len);
	if (pat->how == FILTER_MATCH_GLOB)
		return filter_glob_match(pat->glob, str, n);
	if (pat->how == FILTER_MATCH_MIDDLE)
		return strnstr(str, pat->text, n);
	return n >= pat->len && !memcmp(str + n - pat->len, pat->text, pat->len);
}

/* A string behind a kernel or user pointer stored in the record. */
static noinline bool filter_test_pointer(const struct prog_entry *e, void *rec)
{
	const char *ptr = *(const char **)(rec + e->offset);
	struct filter_strbuf __percpu *bufs = READ_ONCE(filter_strbuf);
	bool match = false;
	char *buf;
	long len;

	if (!bufs)
		return false;
	preempt_disable_notrace();
	buf = this_cpu_ptr(bufs)->buf[interrupt_context_level()];
	if (e->code == FILTER_T_USTR)
		len = strncpy_from_user_nofault(buf, (const char __user *)ptr,
						FILTER_STRBUF_LEN);
	else
		len = strncpy_from_kernel_nofault(buf, ptr, FILTER_STRBUF_LEN);
	if (len > 0)
		match = filter_pattern_match(e->pat, buf, len);
	preempt_enable_notrace();
	return match;
}

static noinline bool filter_test_string(const struct prog_entry *e, void *rec)
{
	const char *str;
	u32 loc, len;

	switch (e->code) {
	case FILTER_T_STR:
		str = rec + e->offset;
		len = e->val;
		break;
	case FILTER_T_DSTR:
	case FILTER_T_RSTR:
		loc = *(u32 *)(rec + e->offset);
		str = rec + trace_loc_start(loc, e->offset,
					    e->code == FILTER_T_RSTR);
		len = trace_loc_len(loc);
		break;
	case FILTER_T_COMM:
		str = current->comm;
		len = TASK_COMM_LEN;
		break;
	default:
		return filter_test_pointer(e, rec);
	}
	return filter_pattern_match(e->pat, str, len);
}

/* Word @i of a bitmap of @bytes bytes in the record; zero past its end. */
static unsigned long filter_rec_word(const void *bits, u32 bytes,
				     unsigned int i)
{
	if ((i + 1) * sizeof(long) > bytes)
		return 0;
	return get_unaligned((const unsigned long *)bits + i);
}

/* A __data_loc cpumask field against a CPU or a set of CPUs. */
static noinline bool filter_test_mask(const struct prog_entry *e, void *rec)
{
	u32 loc = *(u32 *)(rec + e->offset);
	const void *bits = rec + trace_loc_start(loc, e->offset, false);
	unsigned int size = trace_loc_len(loc);
	unsigned int words = BITS_TO_LONGS(nr_cpu_ids);
	unsigned int i;

	if (e->code == FILTER_T_MASK_HAS)
		return e->val < nr_cpu_ids &&
		       (filter_rec_word(bits, size, e->val / BITS_PER_LONG) >>
			(e->val % BITS_PER_LONG)) & 1;

	for (i = 0; i < words; i++) {
		unsigned long have = filter_rec_word(bits, size, i);
		unsigned long want;

		if (i == words - 1 && nr_cpu_ids % BITS_PER_LONG)
			have &= BIT(nr_cpu_ids % BITS_PER_LONG) - 1;
		if (e->code == FILTER_T_MASK_ONLY)
			want = i == e->val / BITS_PER_LONG ?
			       BIT(e->val % BITS_PER_LONG) : 0;
		else
			want = cpumask_bits(e->mask)[i];
		if (e->code == FILTER_T_MASK_BAND) {
			if (have & want)
				return true;
		} else if (have != want) {
			return false;
		}
	}
	return e->code != FILTER_T_MASK_BAND;
}

static noinline bool filter_cpu_in(u64 cpu, const struct cpumask *mask)
{
	return cpu < nr_cpu_ids && cpumask_test_cpu(cpu, mask);
}

/* Everything but the range tests, which filter_test() handles inline. */
static __always_inline bool filter_test_other(const struct prog_entry *e,
					      void *rec)
{
	void *field = rec + e->offset;
	unsigned long addr;

	switch (e->code) {
	case FILTER_T_CONST:
		return e->val;
	case FILTER_T_BAND8:
		return *(u8 *)field & e->val;
	case FILTER_T_BAND16:
		return *(u16 *)field & e->val;
	case FILTER_T_BAND32:
		return *(u32 *)field & e->val;
	case FILTER_T_BAND64:
		return *(u64 *)field & e->val;
	case FILTER_T_IN8:
		return filter_cpu_in(*(u8 *)field, e->mask);
	case FILTER_T_IN16:
		return filter_cpu_in(*(u16 *)field, e->mask);
	case FILTER_T_IN32:
		return filter_cpu_in(*(u32 *)field, e->mask);
	case FILTER_T_IN64:
		return filter_cpu_in(*(u64 *)field, e->mask);
	case FILTER_T_CPU_EQ:
		return raw_smp_processor_id() == (int)e->val;
	case FILTER_T_CPU_LT:
		return raw_smp_processor_id() < (int)e->val;
	case FILTER_T_CPU_LE:
		return raw_smp_processor_id() <= (int)e->val;
	case FILTER_T_CPU_BAND:
		return raw_smp_processor_id() & (int)e->val;
	case FILTER_T_CPU_IN:
		return filter_cpu_in(raw_smp_processor_id(), e->mask);
	case FILTER_T_MASK_EQ:
	case FILTER_T_MASK_BAND:
	case FILTER_T_MASK_ONLY:
	case FILTER_T_MASK_HAS:
		return filter_test_mask(e, rec);
	case FILTER_T_STR:
	case FILTER_T_DSTR:
	case FILTER_T_RSTR:
	case FILTER_T_PSTR:
	case FILTER_T_USTR:
	case FILTER_T_COMM:
		return filter_test_string(e, rec);
	case FILTER_T_FUNC:
		addr = *(unsigned long *)field;
		return addr >= e->val && addr < e->val2;
	default:
		return false;
	}
}

/*
 * The range tests: load the field into @v as the code says and return
 * true, or return false for any other code.  int, unsigned int and long
 * fields are the common case and are tried first, one compare each.
 */
static __always_inline bool filter_range_load(const struct prog_entry *e,
					      const void *rec, u64 *v)
{
	const void *field = rec + e->offset;
	unsigned int code = e->code;

	if (code == FILTER_T_RANGE_S32)
		*v = *(s32 *)field;
	else if (code == FILTER_T_RANGE_U32)
		*v = *(u32 *)field;
	else if (code == FILTER_T_RANGE_64)
		*v = *(u64 *)field;
	else if (code == FILTER_T_RANGE_S16)
		*v = *(s16 *)field;
	else if (code == FILTER_T_RANGE_U16)
		*v = *(u16 *)field;
	else if (code == FILTER_T_RANGE_S8)
		*v = *(s8 *)field;
	else if (code == FILTER_T_RANGE_U8)
		*v = *(u8 *)field;
	else
		return false;
	return true;
}

/* Is @e one of the two verdicts rather than an entry to run? */
#define FILTER_VERDICT(e)	((e) <= FILTER_NEXT_ACCEPT)

/* Run the program from @e to its verdict, every kind of test included. */
static noinline int filter_run(const struct prog_entry *e, void *rec)
{
	u64 v;

	for (;;) {
		if (filter_range_load(e, rec, &v))
			e = e->next[v - e->val <= e->val2];
		else
			e = e->next[filter_test_other(e, rec)];
		if (FILTER_VERDICT(e))
			return e == FILTER_NEXT_ACCEPT;
	}
}

/* A filter's program; NULL when there is nothing to test. */
static __always_inline const struct prog_entry *
filter_prog(struct event_filter *filter)
{
	/* Protected by preempt_disable() or SRCU, see the file comment. */
	return filter ? rcu_dereference_raw(filter->prog) : NULL;
}

/* The body of filter_match_preds(), for trace_event_filter_record() too. */
static __always_inline int filter_match(const struct prog_entry *e, void *rec)
{
	u64 v;

	if (!e)
		return 1;
	for (;;) {
		if (!filter_range_load(e, rec, &v))
			return filter_run(e, rec);
		e = e->next[v - e->val <= e->val2];
		if (FILTER_VERDICT(e))
			return e == FILTER_NEXT_ACCEPT;
	}
}

/**
 * filter_match_preds - does a record pass a filter?
 * @filter: the filter, or NULL for "no filter"
 * @rec: the record (its fields start at offset 0)
 *
 * Runs the range tests itself, calling nothing, and hands the rest of
 * the program to filter_run() at the first other test: a filter of
 * numeric comparisons is then evaluated by a leaf function that saves no
 * register.
 *
 * Return: 1 when the record matches (or there is nothing to test), else 0.
 */
int filter_match_preds(struct event_filter *filter, void *rec)
{
	return filter_match(filter_prog(filter), rec);
}
EXPORT_SYMBOL_GPL(filter_match_preds);

/*
 * Frames between the probe and the commit of a record the filter kept:
 * trace_event_filter_record() and filter_record_keep().  The commit
 * leaves them out of a stack trace recorded with the event, which then
 * starts where it starts for an event the probe commits itself.
 */
#define FILTER_RECORD_FRAMES	2

/* A record the filter kept: into the ring buffer, committed as any other. */
static noinline void filter_record_keep(struct trace_event_buffer *fbuf,
					struct trace_event_file *file,
					void *rec, unsigned int len)
{
	/* less the tracepoint's own preempt_disable() */
	unsigned int trace_ctx = tracing_gen_ctx_dec();

	tracing_generic_entry_update(rec, file->event_call->event.type,
				     trace_ctx);
	fbuf->trace_file = file;
	fbuf->trace_ctx = trace_ctx;
	fbuf->regs = NULL;
	fbuf->buffer = READ_ONCE(file->tr->array_buffer.buffer);
	fbuf->event = trace_buffer_lock_reserve(fbuf->buffer,
						file->event_call->event.type,
						len, trace_ctx);
	fbuf->entry = NULL;
	if (!fbuf->event)
		return;
	fbuf->entry = ring_buffer_event_data(fbuf->event);
	memcpy(fbuf->entry, rec, len);
	trace_event_buffer_commit_skip(fbuf, FILTER_RECORD_FRAMES);
	/* a call, not a jump: this frame is one of FILTER_RECORD_FRAMES */
	barrier();
}

/**
 * trace_event_filter_record - record an event if its filter keeps it
 * @fbuf: the probe's descriptor of a reserved event, filled in here
 * @file: the event; trace_event_filter_first() said its filter alone
 *	decides
 * @rec: the record, built by the event's probe on its stack, every field
 *	filled in but the common header, which is filled in here
 * @len: the size of the record
 *
 * Most events that have a filter are dropped by it, and building their
 * records in the ring buffer (or in the per-CPU buffered event) only to
 * take them back costs more than the filter itself.  So the probe of a
 * small fixed-size event builds it on its stack, and only a record the
 * filter keeps is copied into the ring buffer.  It is then committed as
 * any other event, by trace_event_buffer_commit_skip(), which checks once
 * more what may have changed since the probe read the flags (a trigger
 * attached, the event soft disabled, the filter replaced) and runs the
 * filter again on the copy: what is recorded is exactly what the general
 * path records.  A trigger attached in between gets the copy, an event
 * of the ring buffer as on that path, never the record on the stack.
 *
 * A record of a task that the instance's pid filter (set_event_pid,
 * set_event_notrace_pid) leaves out is dropped before its filter runs, as
 * trace_event_buffer_reserve() drops it; an instance with pids marked
 * keeps this path.
 *
 * The header's flags and preempt count (tracing_gen_ctx_dec()) take longer
 * to gather than a numeric filter takes to run, so only a program that
 * reads them (FILTER_FL_HEADER_CTX) has them before it runs; a record kept
 * gets them in filter_record_keep().  Its type and pid are always there.
 *
 * Called from the probe, with preemption disabled by the tracepoint; the
 * filter is freed only after tracepoint_synchronize_unregister(), see
 * trace_filter.h.
 */
void trace_event_filter_record(struct trace_event_buffer *fbuf,
			       struct trace_event_file *file, void *rec,
			       unsigned int len)
{
	const struct prog_entry *prog;
	struct trace_entry *ent = rec;

	if (unlikely(file->flags & EVENT_FILE_FL_PID_FILTER) &&
	    trace_event_ignore_this_pid(file))
		return;
	prog = filter_prog(rcu_dereference_raw(file->filter));
	if (prog && (prog->flags & FILTER_FL_HEADER_CTX)) {
		tracing_generic_entry_update(ent, file->event_call->event.type,
					     tracing_gen_ctx_dec());
	} else {
		ent->type = file->event_call->event.type;
		ent->pid = current->pid;
	}
	if (filter_match(prog, rec)) {
		filter_record_keep(fbuf, file, rec, len);
		/* a call, not a jump: this frame is one of FILTER_RECORD_FRAMES */
		barrier();
	}
}
EXPORT_SYMBOL_GPL(trace_event_filter_record);
