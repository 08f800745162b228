// SPDX-License-Identifier: GPL-2.0
/*
 * trace_synth_event - a synthetic event as a trace event: its fields and
 * print fmt in the format file, its lines in the trace file, and writing
 * one into the ring buffer from a histogram action or the in-kernel API,
 * or into perf's buffer from a histogram action.
 *
 * A record is the common header followed by one u64 slot per field, in
 * definition order, except that a char[N] takes STR_VAR_LEN_MAX bytes in
 * place.  A char[] or long[] slot holds a __data_loc (offset and length of
 * bytes appended after the slots).  A stack arrives as a pointer to
 * [count, address...] and is stored the same way, stopping at the first
 * zero address or at HIST_STACKTRACE_DEPTH entries, with the count of
 * the addresses stored; its printout skips the count.
 *
 * Writing allocates nothing: the sizes of the appended parts are computed
 * first, then the record is reserved (nested, as a histogram action runs
 * inside another event's write) and filled.  perf gets the same record,
 * filled by the same code in its own per-CPU buffer.  See trace_synth.h
 * for the lifetime rules that make reading the definition safe here.
 *
 * A string arrives as an address that may be anything: a histogram may
 * pass a number of the right size (a kprobe's u64 argument that points to
 * a string, say).  So strings are read with the nofault accessors, and
 * one that cannot be read is stored as FAULT_STRING.  A stack comes only
 * from a histogram's own stack fields (the hist binder refuses anything
 * else) or the in-kernel API.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/trace_events.h>
#include <linux/uaccess.h>
#include <trace/events/mmflags.h>

#include "trace.h"
#include "trace_output.h"
#include "trace_synth.h"

struct synth_trace_event {
	struct trace_entry		ent;
	union trace_synth_field		fields[];
};

static int synth_define_fields(struct trace_event_call *call)
{
	struct synth_event *event = call->data;
	unsigned int i;
	int ret;

	for (i = 0; i < event->n_fields; i++) {
		struct synth_field *f = event->fields[i];

		ret = trace_define_field(call, f->type, f->name,
					 offsetof(struct synth_trace_event, fields) +
					 f->offset * sizeof(u64), f->size,
					 f->is_signed,
					 f->is_stack ? FILTER_STACKTRACE : FILTER_OTHER);
		if (ret)
			return ret;
	}
	return 0;
}

static struct trace_event_fields synth_fields_array[] = {
	{ .type = TRACE_FUNCTION_TYPE, .define_fields = synth_define_fields },
	{}
};

static void synth_print_num(struct trace_seq *s, struct synth_field *f,
			    union trace_synth_field *v)
{
	u32 small;

	switch (f->size) {
	case 1:
		small = v->as_u8;
		break;
	case 2:
		small = v->as_u16;
		break;
	case 4:
		small = v->as_u32;
		break;
	default:
		if (f->is_signed)
			trace_seq_printf(s, "%lld", (s64)v->as_u64);
		else
			trace_seq_printf(s, "%llu", v->as_u64);
		return;
	}
	if (f->size == 4 && f->is_signed)
		trace_seq_printf(s, "%d", (int)small);
	else if (f->fmt[1] == 'x')
		trace_seq_printf(s, "%x", small);
	else
		trace_seq_printf(s, "%u", small);
}

/* A string of the record, up to its NUL and never past its @n bytes */
static void synth_print_str(struct trace_seq *s, struct synth_field *f,
			    const char *p, unsigned int n, const char *sep)
{
	trace_seq_printf(s, "%s=", f->name);
	trace_seq_putmem(s, p, strnlen(p, n));
	trace_seq_puts(s, sep);
}

static enum print_line_t synth_print(struct trace_iterator *iter, int flags,
				     struct trace_event *trace_event)
{
	static const struct trace_print_flags gfp_names[] = {
		__def_gfpflag_names
	};
	struct synth_event *event = container_of(trace_event, struct synth_event,
						 call.event);
	struct synth_trace_event *entry = (void *)iter->ent;
	bool verbose = iter->tr && (iter->tr->trace_flags & TRACE_ITER(VERBOSE));
	struct trace_seq *s = &iter->seq;
	unsigned int i, j;

	trace_seq_printf(s, "%s: ", event->name);
	if (trace_event_record_bad(iter, trace_event)) {
		trace_seq_puts(s, "(bad record)\n");
		return trace_handle_return(s);
	}
	for (i = 0; i < event->n_fields; i++) {
		struct synth_field *f = event->fields[i];
		union trace_synth_field *v = &entry->fields[f->offset];
		const char *sep = i + 1 < event->n_fields ? " " : "";
		unsigned long *stack;

		if (trace_seq_has_overflowed(s))
			break;
		if (verbose)
			trace_seq_printf(s, "%s ", f->fmt);
		switch (f->kind) {
		case SYNTH_STR:
			synth_print_str(s, f, (char *)v, STR_VAR_LEN_MAX, sep);
			break;
		case SYNTH_DYN_STR:
			synth_print_str(s, f, (char *)entry + v->as_dynamic.offset,
					v->as_dynamic.len, sep);
			break;
		case SYNTH_STACK:
			stack = (void *)entry + v->as_dynamic.offset;
			trace_seq_printf(s, "%s=STACK:\n", f->name);
			for (j = 1; j < v->as_dynamic.len / sizeof(long); j++)
				trace_seq_printf(s, "=> %pS\n", (void *)stack[j]);
			break;
		default:
			trace_seq_printf(s, "%s=", f->name);
			synth_print_num(s, f, v);
			trace_seq_puts(s, sep);
			/* gfp_t: the flags follow the separator, as they always did */
			if (f->fmt[1] == 'x') {
				trace_seq_puts(s, " (");
				trace_print_flags_seq(s, "|", v->as_u32, gfp_names,
						      ARRAY_SIZE(gfp_names));
				trace_seq_putc(s, ')');
			}
			break;
		}
	}
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

static struct trace_event_functions synth_event_funcs = {
	.trace = synth_print,
};

/*
 * Bytes of the string at @s with its NUL, at most STR_VAR_LEN_MAX, read
 * without faulting; sizeof(FAULT_STRING) when it cannot be read.
 */
static unsigned int synth_str_size(const char *s)
{
	unsigned int len = 0;
	char chunk[32];
	long n;

	if (!s)
		return sizeof(FAULT_STRING);
	for (;;) {
		/* n bytes read; the last is a NUL, read or put there */
		n = strncpy_from_kernel_nofault(chunk, s + len, sizeof(chunk));
		if (n < 0)
			return sizeof(FAULT_STRING);
		if (n < (long)sizeof(chunk) || len + n >= STR_VAR_LEN_MAX)
			return min_t(unsigned int, len + n, STR_VAR_LEN_MAX);
		len += n - 1;	/* the last byte was not seen: read it again */
	}
}

/*
 * Copy the string at @s into @dst, at most @size bytes with its NUL, or
 * FAULT_STRING; the bytes after its NUL up to @room are zeroed, so the
 * record carries nothing the event did not write (a ring buffer's older
 * records, or perf's last sample, say).
 */
static void synth_str_copy(char *dst, const char *s, unsigned int size,
			   unsigned int room)
{
	long n = s ? strncpy_from_kernel_nofault(dst, s, size) : -EFAULT;

	if (n < 0) {
		strscpy(dst, FAULT_STRING, size);
		n = strnlen(dst, size) + 1;
	}
	if (n < room)
		memset(dst + n, 0, room - n);
}

/*
 * Bytes a char[] or long[] value appends to the record.  A string is cut
 * at STR_VAR_LEN_MAX - 1 characters; a stack, [count, address...], at its
 * count, its first zero address or HIST_STACKTRACE_DEPTH addresses,
 * whichever comes first.
 */
static unsigned int synth_dyn_len(struct synth_field *f, u64 val)
{
	const unsigned long *stack = (void *)(uintptr_t)val;
	unsigned long count, addr;
	unsigned int n;

	if (!f->is_stack)
		return synth_str_size((const char *)(uintptr_t)val);
	/* read without faulting, as strings are: a BPF program passes any address */
	if (!stack || get_kernel_nofault(count, stack) || !count)
		return 0;
	for (n = 0; n < HIST_STACKTRACE_DEPTH && n < count; n++)
		if (get_kernel_nofault(addr, &stack[n + 1]) || !addr)
			break;
	return (n + 1) * sizeof(long);
}

/*
 * A number of @size bytes (1, 2, 4 or 8) into @slot, its 8 bytes all
 * written: the rest of a short one's are zero.
 */
static __always_inline void synth_store_num(union trace_synth_field *slot,
					    unsigned int size, u64 val)
{
	if (size < sizeof(u64))
		slot->as_u64 = 0;
	switch (size) {
	case 1:
		slot->as_u8 = val;
		break;
	case 2:
		slot->as_u16 = val;
		break;
	case 4:
		slot->as_u32 = val;
		break;
	default:
		slot->as_u64 = val;
		break;
	}
}

/*
 * Store number @val of the width whose bits are @mask into @slot, as
 * synth_store_num() does.  Where a slot's low-order bytes come first, a
 * single masked store fills the number and zeroes the rest of the slot.
 */
static __always_inline void synth_store_masked(union trace_synth_field *slot,
					       u64 mask, u64 val)
{
	if (IS_ENABLED(CONFIG_CPU_BIG_ENDIAN))
		synth_store_num(slot, fls64(mask) / BITS_PER_BYTE, val);
	else
		slot->as_u64 = val & mask;
}

/* Store @val into the slot of @f; @tail is where appended bytes go. */
static void synth_store(struct synth_trace_event *entry, struct synth_field *f,
			u64 val, unsigned int *tail, unsigned int len)
{
	union trace_synth_field *slot = &entry->fields[f->offset];
	const char *str = (void *)(uintptr_t)val;

	switch (f->kind) {
	case SYNTH_NUM:
		synth_store_num(slot, f->size, val);
		break;
	case SYNTH_STR:
		/* a char[N] keeps N bytes of its slot; the rest is padding */
		synth_str_copy((char *)slot, str, f->str_len ?: STR_VAR_LEN_MAX,
			       STR_VAR_LEN_MAX);
		break;
	case SYNTH_DYN_STR:
	case SYNTH_STACK:
		slot->as_dynamic.offset = *tail;
		slot->as_dynamic.len = len;
		if (f->is_stack) {
			unsigned long *stack = (void *)entry + *tail;

			/* the count of what is stored, not of what was given */
			if (copy_from_kernel_nofault(stack, str, len))
				memset(stack, 0, len);
			if (len)
				stack[0] = len / sizeof(long) - 1;
		} else {
			synth_str_copy((void *)entry + *tail, str, len, len);
		}
		*tail += len;
		break;
	}
}

static __always_inline u64 synth_val(const u64 *vals, const unsigned int *idx,
				     unsigned int i)
{
	return idx ? vals[idx[i]] : vals[i];
}

/*
 * Synthetic events written inside one another.  Writing one runs its
 * triggers before it is committed, and a histogram among them may write
 * another synthetic event, directly or through an eprobe: each level
 * holds one or two reservations of the ring buffer, which takes only a
 * few nested ones per CPU.  So per CPU and context (task, softirq,
 * hardirq, NMI) at most SYNTH_NEST_MAX writes are in progress, and an
 * event is not written again inside its own write: that is a loop
 * (s2's histogram tracing s2, say, through an eprobe where no command
 * shows it), which stops there.  Contexts nest strictly on one CPU, so
 * only code of a context changes its entries, in call order.
 */
#define SYNTH_NEST_MAX		2

struct synth_nest {
	u8			depth[4];
	struct synth_event	*writing[4][SYNTH_NEST_MAX];
};

static DEFINE_PER_CPU(struct synth_nest, synth_nest);

/* Enter @event's write; false (and nothing entered) for a loop or too deep. */
static bool synth_nest_enter(struct synth_event *event, unsigned int ctx)
{
	struct synth_nest *n = this_cpu_ptr(&synth_nest);
	unsigned int i, depth = n->depth[ctx];

	if (depth == SYNTH_NEST_MAX)
		return false;
	for (i = 0; i < depth; i++)
		if (n->writing[ctx][i] == event)
			return false;
	n->writing[ctx][depth] = event;
	n->depth[ctx] = depth + 1;
	return true;
}

static void synth_nest_leave(unsigned int ctx)
{
	this_cpu_ptr(&synth_nest)->depth[ctx]--;
}

/*
 * Bytes of the record for these values: the slots, and after them what
 * each char[] or long[] field appends, its length put in @dyn_len.
 */
static __always_inline unsigned int
synth_record_size(struct synth_event *event, const u64 *vals,
		  const unsigned int *idx, unsigned int *dyn_len)
{
	unsigned int i, size;

	size = struct_size_t(struct synth_trace_event, fields, event->n_u64);
	for (i = 0; i < event->n_dynamic_fields; i++) {
		struct synth_field *f = event->dynamic_fields[i];

		dyn_len[i] = synth_dyn_len(f, synth_val(vals, idx, f->field_pos));
		size += dyn_len[i];
	}
	return size;
}

/*
 * Fill every byte of @entry after its common header, as
 * synth_record_size() measured it: ftrace and perf get the same record.
 */
static __always_inline void
synth_record_fill(struct synth_trace_event *entry, struct synth_event *event,
		  const u64 *vals, const unsigned int *idx,
		  const unsigned int *dyn_len)
{
	unsigned int i, tail = struct_size(entry, fields, event->n_u64);

	/*
	 * The usual event: numbers alone, field i in slot i (and histograms
	 * pass an index, the API does not: one test, not one per field).
	 */
	if (event->only_nums && idx) {
		for (i = 0; i < event->n_fields; i++)
			synth_store_masked(&entry->fields[i], event->num_mask[i],
					   vals[idx[i]]);
		return;
	}
	if (event->only_nums) {
		for (i = 0; i < event->n_fields; i++)
			synth_store_masked(&entry->fields[i], event->num_mask[i],
					   vals[i]);
		return;
	}
	for (i = 0; i < event->n_fields; i++) {
		struct synth_field *f = event->fields[i];
		u64 val = synth_val(vals, idx, i);

		/* Numbers, the usual field, without a call */
		if (f->kind == SYNTH_NUM)
			synth_store_num(&entry->fields[f->offset], f->size, val);
		else if (!f->is_dynamic)
			synth_store(entry, f, val, &tail, 0);
	}
	for (i = 0; i < event->n_dynamic_fields; i++) {
		struct synth_field *f = event->dynamic_fields[i];

		synth_store(entry, f, synth_val(vals, idx, f->field_pos),
			    &tail, dyn_len[i]);
	}
}

/*
 * Write one event: field i takes vals[idx[i]], or vals[i] without @idx.
 * Returns -ENOSPC when the ring buffer had no room, -EDEADLK when the
 * event is being written already (see synth_nest).  A file without
 * filter, triggers or soft disable, in an instance whose commit is plain,
 * has its record reserved and committed straight on the ring buffer, the
 * header filled as trace_event_buffer_reserve() fills it.
 */
static notrace int synth_event_write(struct trace_event_file *file,
				     struct synth_event *event,
				     const u64 *vals, const unsigned int *idx)
{
	/* Both are written before they are read: not zeroed on every event */
	unsigned int dyn_len[SYNTH_FIELDS_MAX] __uninitialized;
	struct trace_event_buffer fbuffer __uninitialized;
	unsigned long flags = READ_ONCE(file->flags);
	struct synth_trace_event *entry;
	struct trace_buffer *buffer;
	unsigned int size, ctx;
	int ret = 0;

	size = synth_record_size(event, vals, idx, dyn_len);
	/*
	 * A snapshot may swap the instance's buffer at any time: the nesting
	 * is counted on the buffer read here, the record committed on the
	 * one it was reserved on.
	 */
	buffer = READ_ONCE(file->tr->array_buffer.buffer);
	ring_buffer_nest_start(buffer);	/* preemption off from here */
	ctx = interrupt_context_level();
	if (!synth_nest_enter(event, ctx)) {
		ring_buffer_nest_end(buffer);
		return -EDEADLK;
	}
	if (trace_event_file_is_plain(file, flags)) {
		if (unlikely(flags & EVENT_FILE_FL_PID_FILTER) &&
		    trace_event_ignore_this_pid(file))
			goto out;
		entry = trace_event_plain_reserve(&fbuffer, file, size);
		if (!entry) {
			ret = -ENOSPC;
			goto out;
		}
		synth_record_fill(entry, event, vals, idx, dyn_len);
		trace_buffer_unlock_commit_nostack(fbuffer.buffer, fbuffer.event);
		goto out;
	}
	entry = trace_event_buffer_reserve(&fbuffer, file, size);
	if (!entry) {
		ret = -ENOSPC;
		goto out;
	}
	synth_record_fill(entry, event, vals, idx, dyn_len);
	trace_event_buffer_commit(&fbuffer);
out:
	synth_nest_leave(ctx);
	ring_buffer_nest_end(buffer);
	return ret;
}

/* The tracepoint probe a histogram action fires (see trace_synth()). */
static notrace void synth_event_probe(void *data, u64 *var_ref_vals,
				      unsigned int *var_ref_idx)
{
	struct trace_event_file *file = data;

	if (trace_trigger_soft_disabled(file))
		return;
	synth_event_write(file, file->event_call->data, var_ref_vals,
			  var_ref_idx);
}

typedef void (*synth_probe_t)(void *data, u64 *vals, unsigned int *idx);

/**
 * synth_event_fire - write a synthetic event wherever it is consumed
 * @event: the event
 * @vals: the values of its fields, a string or a stack by its address
 * @idx: field i takes vals[idx[i]]; NULL for vals[i]
 *
 * Runs the probes on the event's tracepoint: the instances where it is
 * enabled or soft disabled by a trigger, and perf.  Each probe reads the
 * values again, so a string or a stack may be cut differently in each
 * if it changes meanwhile; none reads past the field's size.
 *
 * Context: any, with preemption disabled.
 */
void synth_event_fire(struct synth_event *event, u64 *vals, unsigned int *idx)
{
	struct tracepoint_func *probe;

	lockdep_assert_preemption_disabled();
	if (!static_key_enabled(&event->tp->key))
		return;
	/*
	 * The probe array goes once a grace period of tracepoint_srcu ends,
	 * which the caller need not hold (a kprobe's, a syscall's)
	 */
	guard(srcu_fast_notrace)(&tracepoint_srcu);
	probe = rcu_dereference_sched(event->tp->funcs);
	for (; probe && probe->func; probe++)
		((synth_probe_t)probe->func)(probe->data, vals, idx);
}

#ifdef CONFIG_PERF_EVENTS
/*
 * perf puts a u32 size before the record and keeps each sample u64
 * aligned: the bytes it takes for a record of @size bytes.
 */
static unsigned int synth_perf_size(unsigned int size)
{
	return ALIGN(size + sizeof(u32), sizeof(u64)) - sizeof(u32);
}

/*
 * The probe perf registers on the event's tracepoint, beside the ftrace
 * ones, so that a histogram action feeds perf the same way (@data is the
 * event call).  Triggers run with preemption disabled (trace_trigger.h),
 * so this CPU's lists and buffer stay its own.  The record is built in
 * perf's per-CPU buffer, which perf_trace_buf_alloc() takes with a
 * recursion context of its own, so neither the nesting count of
 * synth_nest nor a lock is needed; nothing is allocated.
 * perf_tp_event() fills the common header and runs the perf events'
 * filters on the record.
 *
 * A record perf's buffer cannot hold (PERF_MAX_TRACE_SIZE) is dropped
 * before the buffer is asked for it: perf_trace_buf_alloc() would warn.
 * One whose slots alone cannot fit never comes here: perf cannot open
 * such an event (synth_event_reg()).  perf_trace_buf_alloc() zeroes the
 * last u64 of the sample, which holds the alignment's padding.
 */
static notrace void synth_event_perf_probe(void *data, u64 *var_ref_vals,
					   unsigned int *var_ref_idx)
{
	unsigned int dyn_len[SYNTH_FIELDS_MAX] __uninitialized;
	struct trace_event_call *call = data;
	struct synth_event *event = call->data;
	struct synth_trace_event *entry;
	struct hlist_head *head;
	struct pt_regs *regs;
	unsigned int size;
	int rctx;

	head = this_cpu_ptr(call->perf_events);
	if (hlist_empty(head) && !bpf_prog_array_valid(call))
		return;
	size = synth_record_size(event, var_ref_vals, var_ref_idx, dyn_len);
	size = synth_perf_size(size);
	if (size > PERF_MAX_TRACE_SIZE)
		return;
	entry = perf_trace_buf_alloc(size, &regs, &rctx);
	if (!entry)
		return;
	perf_fetch_caller_regs(regs);
	synth_record_fill(entry, event, var_ref_vals, var_ref_idx, dyn_len);
	perf_trace_run_bpf_submit(entry, size, rctx, call, 1, regs, head, NULL);
}

/* Can perf hold a record of @event whose char[] and long[] are empty? */
static bool synth_perf_fits(struct synth_event *event)
{
	unsigned int size = struct_size_t(struct synth_trace_event, fields,
					  event->n_u64);

	return synth_perf_size(size) <= PERF_MAX_TRACE_SIZE;
}
#endif /* CONFIG_PERF_EVENTS */

/*
 * Enabling the event, or perf opening it, pins the module that created
 * it.  perf cannot open an event whose every record would be too large
 * for its buffer (-E2BIG).
 */
static int synth_event_reg(struct trace_event_call *call, enum trace_reg type,
			   void *data)
{
	struct synth_event *event = call->data;
	bool get = type == TRACE_REG_REGISTER || type == TRACE_REG_PERF_REGISTER;
	bool put = type == TRACE_REG_UNREGISTER || type == TRACE_REG_PERF_UNREGISTER;
	int ret;

#ifdef CONFIG_PERF_EVENTS
	if (type == TRACE_REG_PERF_REGISTER && !synth_perf_fits(event))
		return -E2BIG;
#endif
	if (get && !try_module_get(event->mod))
		return -EBUSY;
	ret = trace_event_reg(call, type, data);
	if ((get && ret) || (put && !ret))
		module_put(event->mod);
	return ret;
}

/* "a=%llu b=%s", REC->a, __get_str(b): fields apart as in "trace" */
static char *synth_make_print_fmt(struct synth_event *event)
{
	size_t len = 8;
	struct seq_buf s;
	unsigned int i;
	char *buf;

	for (i = 0; i < event->n_fields; i++)
		len += 2 * strlen(event->fields[i]->name) + 32;
	buf = kmalloc(len, GFP_KERNEL);
	if (!buf)
		return NULL;
	seq_buf_init(&s, buf, len);
	seq_buf_putc(&s, '"');
	for (i = 0; i < event->n_fields; i++)
		seq_buf_printf(&s, "%s%s=%s", i ? " " : "",
			       event->fields[i]->name, event->fields[i]->fmt);
	seq_buf_putc(&s, '"');
	for (i = 0; i < event->n_fields; i++) {
		struct synth_field *f = event->fields[i];

		if (f->kind == SYNTH_DYN_STR)
			seq_buf_printf(&s, ", __get_str(%s)", f->name);
		else if (f->kind == SYNTH_STACK)
			seq_buf_printf(&s, ", __get_stacktrace(%s)", f->name);
		else
			seq_buf_printf(&s, ", REC->%s", f->name);
	}
	seq_buf_str(&s);
	return buf;
}

/* Make @event a trace event under events/synthetic/. */
int synth_event_setup_call(struct synth_event *event)
{
	struct trace_event_call *call = &event->call;
	int ret;

	event->tracepoint.name = event->name;
	event->tp = &event->tracepoint;
	event->class.system = SYNTH_SYSTEM;
	event->class.fields_array = synth_fields_array;
	event->class.reg = synth_event_reg;
	event->class.probe = synth_event_probe;
#ifdef CONFIG_PERF_EVENTS
	event->class.perf_probe = synth_event_perf_probe;
#endif
	INIT_LIST_HEAD(&event->class.fields);
	call->class = &event->class;
	call->event.funcs = &synth_event_funcs;
	call->flags = TRACE_EVENT_FL_TRACEPOINT;
	call->tp = event->tp;
	call->data = event;
	call->print_fmt = synth_make_print_fmt(event);
	if (!call->print_fmt)
		return -ENOMEM;

	if (!register_trace_event(&call->event)) {
		ret = -ENODEV;
		goto free_fmt;
	}
	ret = trace_add_event_call(call);
	if (ret) {
		pr_warn("Failed to register synthetic event: %s\n", event->name);
		unregister_trace_event(&call->event);
		goto free_fmt;
	}
	return 0;
free_fmt:
	kfree(call->print_fmt);
	call->print_fmt = NULL;
	return ret;
}

/*
 * Undo synth_event_setup_call(); fails (-EBUSY) while the event is used.
 * The type stays while records may remain: see dyn_event_retire().
 */
struct dyn_ghost *synth_event_remove_call(struct synth_event *event)
{
	return dyn_event_retire(&event->call);
}

/* The definition as synthetic_events lists it (without __data_loc). */
void synth_event_print_def(struct seq_file *m, struct synth_event *event)
{
	unsigned int i;

	seq_printf(m, "%s\t", event->name);
	for (i = 0; i < event->n_fields; i++) {
		const char *type = event->fields[i]->type;

		if (event->fields[i]->is_dynamic)
			type += strlen("__data_loc ");
		seq_printf(m, "%s%s %s", i ? "; " : "", type,
			   event->fields[i]->name);
	}
	seq_putc(m, '\n');
}

/* In-kernel API: tracing a synthetic event. */

/* Is the event of @file off in its instance, or soft disabled? */
static bool synth_trace_off(struct trace_event_file *file)
{
	return !(file->flags & EVENT_FILE_FL_ENABLED) ||
	       trace_trigger_soft_disabled(file);
}

/* Zero @state and decide whether the event records at all. */
static struct synth_event *synth_trace_open(struct trace_event_file *file,
					    struct synth_event_trace_state *state)
{
	memset(state, 0, sizeof(*state));
	state->event = file->event_call->data;
	state->disabled = synth_trace_off(file);
	return state->event;
}

/**
 * synth_event_trace_array - write a synthetic event from an array of values
 * @file: the event in one instance (from trace_get_event_file())
 * @vals: one value per field, in the order of the definition; a string
 *	or a stack trace is passed as its address
 * @n_vals: the number of entries in @vals, the event's number of fields
 *
 * Writes nothing, successfully, while the event is not enabled in that
 * instance or is soft disabled.  A string is read without faulting; one
 * that cannot be read is recorded as FAULT_STRING.
 *
 * Return: 0, -EINVAL when @n_vals is not the number of fields, -ENOSPC
 * when the ring buffer had no room, or -EDEADLK when the write would
 * nest inside a write of the same event, or too deep.
 */
int synth_event_trace_array(struct trace_event_file *file, u64 *vals,
			    unsigned int n_vals)
{
	struct synth_event *event = file->event_call->data;

	if (n_vals != event->n_fields)
		return -EINVAL;
	if (synth_trace_off(file))
		return 0;
	return synth_event_write(file, event, vals, NULL);
}
EXPORT_SYMBOL_GPL(synth_event_trace_array);

/**
 * synth_event_trace - write a synthetic event from a list of values
 * @file: the event in one instance (from trace_get_event_file())
 * @n_vals: the number of values that follow, the event's number of fields
 * @...: one u64 per field, in the order of the definition; a string or a
 *	stack trace is passed as its address
 *
 * As synth_event_trace_array(), with the values as arguments.
 *
 * Return: 0, -EINVAL when @n_vals is not the number of fields, -ENOSPC
 * when the ring buffer had no room, or -EDEADLK when the write would
 * nest inside a write of the same event, or too deep.
 */
int synth_event_trace(struct trace_event_file *file, unsigned int n_vals, ...)
{
	u64 vals[SYNTH_FIELDS_MAX];
	unsigned int i;
	va_list args;

	if (n_vals > SYNTH_FIELDS_MAX)
		return -EINVAL;
	va_start(args, n_vals);
	for (i = 0; i < n_vals; i++)
		vals[i] = va_arg(args, u64);
	va_end(args);
	return synth_event_trace_array(file, vals, n_vals);
}
EXPORT_SYMBOL_GPL(synth_event_trace);

/**
 * synth_event_trace_start - reserve a synthetic event to fill in piecewise
 * @file: the event in one instance (from trace_get_event_file())
 * @state: the caller's state of this write, set up here
 *
 * Reserves the record with every field zero.  synth_event_add_next_val()
 * or synth_event_add_val() then set its fields, and
 * synth_event_trace_end() commits it.  The record's size must be known
 * here, so an event with a char[] or a stack trace field cannot be
 * written this way.  While the event is not enabled in that instance or
 * is soft disabled, nothing is reserved and the other calls do nothing.
 *
 * Context: preemption stays disabled from a successful reservation to
 * synth_event_trace_end(), which the caller must then call.
 *
 * Return: 0, -EINVAL for a NULL @state or when the ring buffer had no
 * room, or -EOPNOTSUPP for an event with a field of variable size.
 */
int synth_event_trace_start(struct trace_event_file *file,
			    struct synth_event_trace_state *state)
{
	struct synth_event *event;
	size_t size;

	if (!state)
		return -EINVAL;
	event = synth_trace_open(file, state);
	if (state->disabled)
		return 0;
	/* the record is reserved before any value is known */
	if (event->n_dynamic_fields)
		return -EOPNOTSUPP;

	size = struct_size(state->entry, fields, event->n_u64);
	state->buffer = READ_ONCE(file->tr->array_buffer.buffer);
	ring_buffer_nest_start(state->buffer);
	state->entry = trace_event_buffer_reserve(&state->fbuffer, file, size);
	if (!state->entry) {
		ring_buffer_nest_end(state->buffer);
		return -EINVAL;
	}
	memset(state->entry->fields, 0, size - sizeof(state->entry->ent));
	return 0;
}
EXPORT_SYMBOL_GPL(synth_event_trace_start);

static int synth_add_val(const char *name, u64 val,
			 struct synth_event_trace_state *state)
{
	struct synth_event *event;
	struct synth_field *f = NULL;
	unsigned int i;

	if (!state)
		return -EINVAL;
	/* one trace sets fields either in order or by name, not both */
	if (name ? state->add_next : state->add_name)
		return -EINVAL;
	state->add_name = !!name;
	state->add_next = !name;
	if (state->disabled || !state->entry)
		return 0;

	event = state->event;
	if (name) {
		for (i = 0; i < event->n_fields && !f; i++)
			if (!strcmp(event->fields[i]->name, name))
				f = event->fields[i];
	} else if (state->cur_field < event->n_fields) {
		f = event->fields[state->cur_field++];
	}
	if (!f || f->is_dynamic || (f->is_string && !val))
		return -EINVAL;
	synth_store(state->entry, f, val, NULL, 0);
	return 0;
}

/**
 * synth_event_add_next_val - set the next field of a reserved event
 * @val: the value; for a char[N] field, the address of the string
 * @state: the state synth_event_trace_start() set up
 *
 * The first call sets the first field, each further call the next one.
 * A write sets its fields either in order with this function or by name
 * with synth_event_add_val(), never both.
 *
 * Return: 0 (also when nothing was reserved), or -EINVAL for a NULL
 * @state, a write whose fields were set by name, a call past the last
 * field, or a NULL string.
 */
int synth_event_add_next_val(u64 val, struct synth_event_trace_state *state)
{
	return synth_add_val(NULL, val, state);
}
EXPORT_SYMBOL_GPL(synth_event_add_next_val);

/**
 * synth_event_add_val - set a field of a reserved event by its name
 * @field_name: the field's name in the definition
 * @val: the value; for a char[N] field, the address of the string
 * @state: the state synth_event_trace_start() set up
 *
 * A write sets its fields either by name with this function or in order
 * with synth_event_add_next_val(), never both.
 *
 * Return: 0 (also when nothing was reserved), or -EINVAL for a NULL
 * name or @state, a write whose fields were set in order, a name the
 * event does not have, or a NULL string.
 */
int synth_event_add_val(const char *field_name, u64 val,
			struct synth_event_trace_state *state)
{
	if (!field_name)
		return -EINVAL;
	return synth_add_val(field_name, val, state);
}
EXPORT_SYMBOL_GPL(synth_event_add_val);

/**
 * synth_event_trace_end - commit an event reserved by synth_event_trace_start()
 * @state: the state synth_event_trace_start() set up
 *
 * Commits the record, with the fields that were not set left at zero,
 * and enables preemption again.  Does nothing when nothing was reserved.
 *
 * Return: 0, or -EINVAL for a NULL @state.
 */
int synth_event_trace_end(struct synth_event_trace_state *state)
{
	if (!state)
		return -EINVAL;
	if (state->entry) {
		trace_event_buffer_commit(&state->fbuffer);
		ring_buffer_nest_end(state->buffer);
		state->entry = NULL;
	}
	return 0;
}
EXPORT_SYMBOL_GPL(synth_event_trace_end);
