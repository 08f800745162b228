// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: write()/writev() of events.
 *
 * The first four bytes name the event through the fd's index table, the
 * rest is the payload.  Nothing is allocated: for each consumer the payload
 * is copied straight from the user's segments into a reserved ring-buffer
 * event (or the per-CPU perf buffer), checked there, then committed or
 * discarded.  Checking the copy, not the user's memory, is what makes a
 * concurrent change of the user buffer harmless.
 *
 * Reservation disables preemption, so the copy runs with page faults
 * disabled.  A page that is not present makes the copy come up short: the
 * reservation is discarded, the walk over the consumers stops, the pages
 * are faulted in with preemption enabled and the walk starts again.  The
 * consumers may have changed meanwhile (a new array replaced the one
 * walked), so no index into the old array is kept: the ones already served
 * are noted by their probe data and skipped.  Consumers that came during
 * the fault-in are served, those that went are not.  An address that
 * cannot be faulted in is -EFAULT.
 *
 * A write is one event however many walks it takes: whatever a consumer
 * does before its copy (the triggers that need no record) happens on its
 * first try only.  The consumer whose copy came up short is noted as
 * tried, and its next try skips those triggers (see
 * trace_trigger_soft_disabled_again()).  Everything else a consumer does
 * (filter, triggers on the record, stack trace, perf sample) comes after
 * a copy that worked, once.
 *
 * Size: a ring buffer holds records up to ring_buffer_max_event_size(),
 * which grows with buffer_subbuf_size_kb; perf up to what its sample
 * header can describe (see user_event_perf_room()).  A write too large
 * for one of the event's consumers is refused with -E2BIG before any of
 * them sees it.  Every consumer holds half a page, so only larger writes
 * ask them.
 *
 * Loss: a registration made with USER_EVENT_REG_REPORT_LOSS has counts in
 * its slot, and its writes take the walk, which reads each consumer's
 * count of dropped records around its turn (user_event_probe_counted()).
 * A write some consumer dropped is counted, in the slot and the event; a
 * write every consumer that received it dropped fails.  Other writes pay
 * one test of their table (and walk when another slot of their file
 * counts).
 */
#include <linux/pagemap.h>
#include <linux/perf_event.h>
#include <linux/ring_buffer.h>
#include <linux/sizes.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/unaligned.h>

#include "trace.h"
#include "trace_loc.h"
#include "trace_trigger.h"
#include "trace_user.h"

/* How often a write faults pages in before giving up */
#define USER_EVENT_FAULT_TRIES	4

/* Segments up to this long, in whole 4-byte words, are copied as words */
#define USER_EVENT_WORD_COPY	64

/* Segments this long are copied around the cache */
#define USER_EVENT_LONG_SEGMENT	256

/* Records up to this size fit every consumer: no need to ask them */
#define USER_EVENT_SMALL_RECORD	(PAGE_SIZE / 2)

/*
 * Consumers served before a fault, at most this many: a write that faults
 * after serving more ends with -EFAULT, the ones served keeping it (there
 * is one consumer per instance the event is enabled in, and one for perf).
 */
#define USER_EVENT_SERVED_MAX	8

/*
 * The consumers a write has served or tried, by probe data (unique per
 * consumer): entry i was tried, its copy coming up short, when bit i of
 * tried is set, and served otherwise.
 */
struct user_event_served {
	unsigned int	nr;				/* entries in data */
	bool		overflow;			/* more than fit */
	unsigned long	tried;				/* bits of entries */
	void		*data[USER_EVENT_SERVED_MAX];	/* probe data */
};

/*
 * What the consumers did with one write of a registration that counts its
 * losses: the causes of the stores that failed (bits of enum
 * user_loss_cause), and whether some consumer that received the record
 * did not lose it.
 */
struct user_event_outcome {
	unsigned long	lost;
	bool		taken;
};

/* Do the loc fields of the record rec (size bytes) stay inside it? */
static noinline bool user_event_locs_ok(const struct user_event *ev,
					const void *rec, size_t size)
{
	size_t fixed = sizeof(struct trace_entry) + ev->desc.fixed_size;
	const struct user_event_field *f;
	unsigned int i, off, len;
	u32 loc;

	for (i = 0; i < ev->desc.nr_fields; i++) {
		f = &ev->desc.fields[i];
		if (f->kind != USER_FIELD_DATA_LOC &&
		    f->kind != USER_FIELD_REL_LOC)
			continue;
		loc = get_unaligned((const u32 *)(rec + f->offset));
		off = trace_loc_start(loc, f->offset,
				      f->kind == USER_FIELD_REL_LOC);
		len = trace_loc_len(loc);
		if (!len && !f->is_string)
			continue;
		if (off < fixed || !trace_loc_fits(off, len, size))
			return false;
		if (f->is_string &&
		    (!len || ((const char *)rec)[off + len - 1] != '\0'))
			return false;
	}
	return true;
}

/* A record of an event without loc fields needs no check: no call for it */
static __always_inline bool user_event_record_ok(const struct user_event *ev,
						 const void *rec, size_t size)
{
	return !ev->desc.has_locs || user_event_locs_ok(ev, rec, size);
}

/* Point src at len bytes after skip in one user buffer, base */
static __always_inline void user_event_src_ubuf(struct user_event_src *src,
						void __user *base, size_t skip,
						size_t len)
{
	src->ubuf.iov_base = base;
	src->ubuf.iov_len = skip + len;
	src->iov = &src->ubuf;
	src->skip = skip;
	src->len = len;
}

/*
 * Point src at what is left of i.  An iterator with nothing left may point
 * past its last segment, which must not be read: it becomes an empty
 * segment of src's own.
 */
static void user_event_src_at(struct user_event_src *src,
			      const struct iov_iter *i)
{
	src->len = iov_iter_count(i);
	src->skip = i->iov_offset;
	src->iter = i;
	if (!src->len)
		user_event_src_ubuf(src, NULL, 0, 0);
	else if (iter_is_ubuf(i))
		user_event_src_ubuf(src, i->ubuf, i->iov_offset, src->len);
	else if (iter_is_iovec(i))
		src->iov = iter_iov(i);
	else
		src->iov = NULL;
}

/*
 * Read the write index that leads every write (i holds at least its four
 * bytes) and point src at the payload after it.  The index nearly always
 * sits whole in the first segment.
 */
static int user_event_src_init(struct user_event_src *src,
			       struct iov_iter *i, int *idx)
{
	const struct iovec *iov;

	user_event_src_at(src, i);
	iov = src->iov;
	if (iov && iov->iov_len - src->skip >= sizeof(*idx)) {
		if (get_user(*idx, (const int __user *)(iov->iov_base +
							 src->skip)))
			return -EFAULT;
		src->skip += sizeof(*idx);
		src->len -= sizeof(*idx);
		/* writev() usually gives the index a segment of its own */
		if (src->skip == iov->iov_len && src->len) {
			src->iov++;
			src->skip = 0;
		}
		return 0;
	}
	if (copy_from_iter(idx, sizeof(*idx), i) != sizeof(*idx))
		return -EFAULT;
	user_event_src_at(src, i);
	return 0;
}

/*
 * Copy n bytes of one segment.  Fields and small records are a few words
 * long: where unaligned loads are cheap, a segment of whole 4-byte words
 * up to USER_EVENT_WORD_COPY bytes moves as words inside one user-access
 * section, which costs less than setting up the string copy.  Long
 * segments (strings, batches) bypass the cache, as the reader of the ring
 * buffer is not the writer.
 */
static __always_inline bool user_event_copy_seg(char *dst,
						const char __user *p, size_t n)
{
	const char __user *end;
	u64 w;
	u32 v;

	if (!IS_ENABLED(CONFIG_HAVE_EFFICIENT_UNALIGNED_ACCESS) ||
	    n > USER_EVENT_WORD_COPY || (n & 3)) {
		if (!access_ok(p, n))
			return false;
		if (n >= USER_EVENT_LONG_SEGMENT)
			return !copy_from_user_inatomic_nontemporal(dst, p, n);
		return !__copy_from_user_inatomic(dst, p, n);
	}
	/*
	 * Masking costs less than access_ok() and its fence: a kernel
	 * address becomes one that faults, and a read of at most
	 * USER_EVENT_WORD_COPY bytes upwards from a user address cannot
	 * leave the user half past its guard page.
	 */
	if (can_do_masked_user_access())
		p = masked_user_access_begin(p);
	else if (!user_access_begin(p, n))
		return false;
	for (end = p + (n & ~(sizeof(w) - 1)); p != end;
	     p += sizeof(w), dst += sizeof(w)) {
		unsafe_get_user(w, (const u64 __user *)p, fault);
		put_unaligned(w, (u64 *)dst);
	}
	if (n & sizeof(v)) {
		unsafe_get_user(v, (const u32 __user *)p, fault);
		put_unaligned(v, (u32 *)dst);
	}
	user_access_end();
	return true;
fault:
	user_access_end();
	return false;
}

/* Kernel memory: copy through a private iterator, src stays put */
static noinline bool user_event_copy_kernel(char *dst,
					    const struct user_event_src *src)
{
	struct iov_iter from = *src->iter;

	return copy_from_iter(dst, src->len, &from) == src->len;
}

/*
 * The copy must not sleep on a fault.  It always runs in a preempt-disabled
 * section (a ring buffer reservation, or the walk over the consumers),
 * which the fault handler sees as atomic where preemption is counted
 * (faulthandler_disabled()); only without CONFIG_PREEMPT_COUNT does it
 * need telling.
 */
static __always_inline void user_event_nofault_begin(void)
{
	if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
		pagefault_disable();
}

static __always_inline void user_event_nofault_end(void)
{
	if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
		pagefault_enable();
}

/*
 * Copy the payload after the record header, segment by segment, without
 * taking page faults.  Each segment is checked here, as the iov_iter
 * helpers would: with access_ok(), or for a short one by masking its
 * address.
 */
static __always_inline bool user_event_copy(void *rec,
					    const struct user_event_src *src)
{
	const struct iovec *iov = src->iov;
	size_t left = src->len, skip = src->skip, n;
	char *dst = rec + sizeof(struct trace_entry);
	bool ok;

	if (unlikely(!iov))
		return user_event_copy_kernel(dst, src);
	user_event_nofault_begin();
	if (likely(iov->iov_len - skip >= left)) {
		/* One segment holds it all: write(), most writev()s */
		ok = user_event_copy_seg(dst, iov->iov_base + skip, left);
	} else {
		for (; left; iov++, skip = 0) {
			n = min(iov->iov_len - skip, left);
			if (!user_event_copy_seg(dst, iov->iov_base + skip, n))
				break;
			dst += n;
			left -= n;
		}
		ok = !left;
	}
	user_event_nofault_end();
	return ok;
}

/* Fault in the pages of the payload; false when some cannot be */
static bool user_event_fault_in(const struct user_event_src *src)
{
	const struct iovec *iov = src->iov;
	size_t left = src->len, skip = src->skip, n;

	if (!iov)
		return false;
	for (; left; iov++, skip = 0) {
		n = min(iov->iov_len - skip, left);
		if (fault_in_readable(iov->iov_base + skip, n))
			return false;
		left -= n;
	}
	return true;
}

/*
 * ftrace consumer.  A file without filter, triggers or soft disable, in an
 * instance whose commit is plain (the usual case), has its record
 * reserved and committed straight in the ring buffer, as trace_marker
 * does, once the pid filter, if the instance has pids marked, lets the
 * writer through; anything else goes through trace_event_buffer_*().
 * again: a try after one whose copy came up short, whose triggers that
 * need no record ran already.  Inlined into the write path, the one caller
 * that counts.
 */
static __always_inline int
user_event_ftrace_record(struct trace_event_file *file, struct user_event *ev,
			 const struct user_event_src *src, bool again)
{
	/* Filled by the reservation; not worth zeroing on every write */
	struct trace_event_buffer fbuf __uninitialized;
	size_t size = sizeof(struct trace_entry) + src->len;
	unsigned long flags = READ_ONCE(file->flags);
	bool plain;
	void *rec;
	int ret;

	plain = trace_event_file_is_plain(file, flags);
	if (plain) {
		if (unlikely(flags & EVENT_FILE_FL_PID_FILTER) &&
		    trace_event_ignore_this_pid(file))
			return 0;
		rec = trace_event_plain_reserve(&fbuf, file, size);
		if (!rec)
			return 0;
	} else {
		if (again ? trace_trigger_soft_disabled_again(file) :
			    trace_trigger_soft_disabled(file))
			return 0;
		rec = trace_event_buffer_reserve(&fbuf, file, size);
		if (!rec)
			return 0;
	}
	if (!user_event_copy(rec, src))
		ret = -EAGAIN;
	else if (!user_event_record_ok(ev, rec, size))
		ret = -EFAULT;
	else
		ret = 0;
	if (ret)
		__trace_event_discard_commit(fbuf.buffer, fbuf.event);
	else if (plain)
		trace_buffer_unlock_commit_nostack(fbuf.buffer, fbuf.event);
	else
		trace_event_buffer_commit(&fbuf);
	return ret;
}

/* Registered on the tracepoint: its address tells the ftrace consumer */
int user_event_ftrace_probe(void *data, struct user_event *ev,
			    const struct user_event_src *src)
{
	return user_event_ftrace_record(data, ev, src, false);
}

/*
 * The large-record buffers, one per CPU, exist while some user event has
 * a perf consumer or reports loss.  perf builds records larger than its
 * per-CPU trace buffer (PERF_MAX_TRACE_SIZE) there; loss reporting copies
 * a record that a full ring buffer dropped there to run the filter that
 * would have left it out (user_event_ring_drop_counts()).  Only system
 * calls write events, each consumer in turn with preemption disabled, so
 * one buffer per CPU is enough.  The largest record any perf sample can
 * carry fits it.
 */
#define USER_EVENT_BIG_BUF_SIZE	SZ_64K

static DEFINE_PER_CPU(void *, user_event_big_bufs);
static unsigned int user_event_big_bufs_users;	/* event_mutex */

static void user_event_big_bufs_free(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		kvfree(per_cpu(user_event_big_bufs, cpu));
		WRITE_ONCE(per_cpu(user_event_big_bufs, cpu), NULL);
	}
}

/**
 * user_event_big_bufs_get - make sure the large-record buffers exist
 *
 * Called before perf's probe is registered on a user event, and when an
 * event first reports loss; each call is paired with
 * user_event_big_bufs_put().
 *
 * Return: 0, or -ENOMEM.
 */
int user_event_big_bufs_get(void)
{
	void *buf;
	int cpu;

	lockdep_assert_held(&event_mutex);
	if (user_event_big_bufs_users) {
		user_event_big_bufs_users++;
		return 0;
	}
	for_each_possible_cpu(cpu) {
		buf = kvmalloc_node(USER_EVENT_BIG_BUF_SIZE, GFP_KERNEL,
				    cpu_to_node(cpu));
		if (!buf) {
			/* No user event has perf's probe: nobody saw them */
			user_event_big_bufs_free();
			return -ENOMEM;
		}
		WRITE_ONCE(per_cpu(user_event_big_bufs, cpu), buf);
	}
	user_event_big_bufs_users = 1;
	return 0;
}

/**
 * user_event_big_bufs_put - drop what user_event_big_bufs_get() took
 *
 * Called after perf's probe was unregistered, and when an event that
 * reports loss is freed.  The last put waits until no probe can still be
 * writing into a buffer, then frees them.
 */
void user_event_big_bufs_put(void)
{
	lockdep_assert_held(&event_mutex);
	if (--user_event_big_bufs_users)
		return;
	tracepoint_synchronize_unregister();
	user_event_big_bufs_free();
}

/* This CPU's buffer, or NULL when none exists */
static void *user_event_big_buf(void)
{
	/*
	 * Pairs with the release that published perf's probe on the event
	 * (the tracepoint's array), or the index of a registration that
	 * reports loss (its table), each after the buffers were allocated:
	 * a write that found either finds them.
	 */
	smp_rmb();
	return this_cpu_read(user_event_big_bufs);
}

#ifdef CONFIG_PERF_EVENTS
/* perf wants u64 alignment once its u32 size header is added */
static size_t user_event_perf_size(size_t size)
{
	return ALIGN(size + sizeof(u32), sizeof(u64)) - sizeof(u32);
}

static DEFINE_PER_CPU(struct pt_regs, user_event_perf_regs);

/*
 * The bytes a sample of event leaves for the raw data (its u32 size and
 * the record): a sample is described by a u16 size (perf_event_header),
 * and perf_prepare_sample() does not check that the raw data fits.  The
 * fields of fixed size are in header_size and id_header_size; the others
 * a tracepoint's sample may carry are counted at their largest, the user
 * stack as asked for although perf would shrink it.  An event that does
 * not sample only counts: any record will do.
 */
static size_t user_event_perf_room(struct perf_event *event)
{
	const struct perf_event_attr *attr = &event->attr;
	u64 type = attr->sample_type;
	size_t used;

	if (!is_sampling_event(event) || !(type & PERF_SAMPLE_RAW))
		return SIZE_MAX;
	used = sizeof(struct perf_event_header) + event->header_size +
	       event->id_header_size;
	if (type & PERF_SAMPLE_CALLCHAIN)
		used += (1 + attr->sample_max_stack +
			 READ_ONCE(sysctl_perf_event_max_contexts_per_stack)) *
			sizeof(u64);
	if (type & PERF_SAMPLE_BRANCH_STACK)
		used += sizeof(u64);
	if (type & PERF_SAMPLE_REGS_USER)
		used += (1 + hweight64(attr->sample_regs_user)) * sizeof(u64);
	if (type & PERF_SAMPLE_STACK_USER)
		used += 2 * sizeof(u64) + attr->sample_stack_user;
	if (type & PERF_SAMPLE_REGS_INTR)
		used += (1 + hweight64(attr->sample_regs_intr)) * sizeof(u64);
	if (type & PERF_SAMPLE_AUX)
		used += sizeof(u64);
	return used < U16_MAX ? round_down(U16_MAX - used, sizeof(u64)) : 0;
}

/*
 * Can each perf event of head (this CPU's) take a record of size bytes,
 * u64-aligned with its u32 size?  Called with preemption disabled.
 */
static bool user_event_perf_room_ok(struct hlist_head *head, size_t size)
{
	struct perf_event *event;

	hlist_for_each_entry_rcu(event, head, hlist_entry)
		if (user_event_perf_room(event) < size + sizeof(u32))
			return false;
	return true;
}

/* Can perf take a record of len bytes for the event of call? */
static bool user_event_perf_fits(struct trace_event_call *call, size_t len)
{
	size_t size = user_event_perf_size(len);

	if (size <= PERF_MAX_TRACE_SIZE)
		return true;
	return size <= USER_EVENT_BIG_BUF_SIZE &&
	       user_event_big_buf() &&
	       user_event_perf_room_ok(this_cpu_ptr(call->perf_events), size);
}

/*
 * Copy the payload into rec (perf's or the large-record buffer), check
 * it and zero the padding perf adds up to size: 0, -EAGAIN or -EFAULT.
 */
static __always_inline int user_event_perf_fill(struct user_event *ev,
						void *rec,
						const struct user_event_src *src,
						size_t len, size_t size)
{
	if (!user_event_copy(rec, src))
		return -EAGAIN;
	if (!user_event_record_ok(ev, rec, len))
		return -EFAULT;
	memset(rec + len, 0, size - len);
	return 0;
}

/*
 * Hand rec to the event's BPF programs, if any, then to perf; releases
 * rctx.  Straight to perf when no program is attached, the usual case.
 */
static __always_inline void user_event_perf_submit(struct user_event *ev,
						   void *rec, size_t size,
						   int rctx,
						   struct pt_regs *regs,
						   struct hlist_head *head)
{
	perf_fetch_caller_regs(regs);
	if (bpf_prog_array_valid(&ev->call))
		perf_trace_run_bpf_submit(rec, size, rctx, &ev->call, 1, regs,
					  head, NULL);
	else
		perf_trace_buf_submit(rec, size, rctx, ev->call.event.type, 1,
				      regs, head, NULL);
}

/*
 * A record larger than perf's buffer, built in this CPU's large-record
 * buffer.  Interrupts are off from the last check of the perf events'
 * room to the submission: an event joins this CPU's list, or grows its
 * sample (a group member added), only from an interrupt or a context
 * switch here, so the events served are the ones checked.  A write that
 * loses the race with such a change since user_event_emit() checked is
 * refused here, after the consumers before perf kept it.
 */
static noinline int user_event_perf_large(struct user_event *ev,
					  const struct user_event_src *src,
					  struct hlist_head *head, size_t len,
					  size_t size)
{
	void *rec = user_event_big_buf();
	unsigned long flags;
	int rctx, ret;

	if (!rec || size > USER_EVENT_BIG_BUF_SIZE)
		return -E2BIG;
	rctx = perf_swevent_get_recursion_context();
	if (rctx < 0)
		return 0;
	ret = user_event_perf_fill(ev, rec, src, len, size);
	if (!ret) {
		local_irq_save(flags);
		if (user_event_perf_room_ok(head, size)) {
			user_event_perf_submit(ev, rec, size, rctx,
					       this_cpu_ptr(&user_event_perf_regs),
					       head);
			local_irq_restore(flags);
			return 0;
		}
		local_irq_restore(flags);
		ret = -E2BIG;
	}
	perf_swevent_put_recursion_context(rctx);
	return ret;
}

int user_event_perf_probe(void *data, struct user_event *ev,
			  const struct user_event_src *src)
{
	struct hlist_head *head = this_cpu_ptr(ev->call.perf_events);
	size_t len = sizeof(struct trace_entry) + src->len;
	size_t size = user_event_perf_size(len);
	struct pt_regs *regs;
	int rctx, ret;
	void *rec;

	/* BPF programs run on every record, perf events only on their CPU */
	if (hlist_empty(head) && !bpf_prog_array_valid(&ev->call))
		return 0;
	if (size > PERF_MAX_TRACE_SIZE)
		return user_event_perf_large(ev, src, head, len, size);
	rec = perf_trace_buf_alloc(size, &regs, &rctx);
	if (!rec)
		return 0;
	ret = user_event_perf_fill(ev, rec, src, len, size);
	if (ret) {
		perf_swevent_put_recursion_context(rctx);
		return ret;
	}
	user_event_perf_submit(ev, rec, size, rctx, regs, head);
	return 0;
}
#endif

#ifdef CONFIG_PERF_EVENTS
/*
 * Samples this CPU's perf events of call lost so far (counted by perf in
 * the event that owns the buffer: the parent of an inherited one), and
 * how many perf events there are in *nr.
 */
static u64 user_event_perf_lost(struct trace_event_call *call,
				unsigned int *nr)
{
	struct hlist_head *head = this_cpu_ptr(call->perf_events);
	struct perf_event *event;
	u64 lost = 0;

	*nr = 0;
	hlist_for_each_entry_rcu(event, head, hlist_entry) {
		lost += atomic64_read(&(event->parent ?: event)->lost_samples);
		(*nr)++;
	}
	return lost;
}
#endif

/*
 * Did the full ring buffer of file drop a record the consumer would have
 * kept?  A record too large for the per-CPU buffered event, or any record
 * of an instance whose histograms need ring-buffer timestamps, is
 * reserved in the ring buffer before the filter and the soft disable
 * judge it, so a full ring buffer fails it first.  A soft-disabled event
 * keeps no record; a filter is run on a copy of the record in the
 * large-record buffer.  A record that cannot be judged (larger than that
 * buffer, or its pages gone) counts.
 */
static noinline bool user_event_ring_drop_counts(struct trace_event_file *file,
						 struct user_event *ev,
						 const struct user_event_src *src)
{
	size_t size = sizeof(struct trace_entry) + src->len;
	unsigned long flags = READ_ONCE(file->flags);
	struct event_filter *filter;
	void *rec;

	if (flags & EVENT_FILE_FL_SOFT_DISABLED)
		return false;
	if (!(flags & EVENT_FILE_FL_FILTERED))
		return true;
	filter = rcu_dereference_sched(file->filter);
	rec = user_event_big_buf();
	if (!filter || !rec || size > USER_EVENT_BIG_BUF_SIZE)
		return true;
	tracing_generic_entry_update(rec, ev->call.event.type,
				     tracing_gen_ctx_dec());
	if (!user_event_copy(rec, src) || !user_event_record_ok(ev, rec, size))
		return true;
	return filter_match_preds(filter, rec);
}

/*
 * user_event_probe() of a registration that counts its losses.  Each
 * consumer counts the records it dropped for want of room: a ring buffer
 * without overwrite per CPU, perf per perf event.  Their counts before
 * and after the record tell whether it was dropped.  Drops are all that
 * is counted: a filter, a pid filter or tracing_on at 0 that leaves the
 * record out is the consumer's choice.  A ring buffer's count is shared
 * by all the events of its instance, so an interrupt that loses a record
 * of another event in the same instance on this CPU, in the same moment,
 * is counted too; the perf count of an event inherited by threads on
 * other CPUs likewise.
 */
static noinline int user_event_probe_counted(const struct tracepoint_func *f,
					     struct user_event *ev,
					     const struct user_event_src *src,
					     bool again,
					     struct user_event_outcome *out)
{
	unsigned int cause, nr = 1;
	u64 before, after;
	int ret;

	if (f->func == (void *)user_event_ftrace_probe) {
		struct trace_event_file *file = f->data;
		struct trace_array *tr = file->tr;
		/* a snapshot may swap it: both counts are of one buffer */
		struct trace_buffer *buffer = READ_ONCE(tr->array_buffer.buffer);
		int cpu = smp_processor_id();

		before = ring_buffer_dropped_events_cpu(buffer, cpu);
		ret = user_event_ftrace_record(file, ev, src, again);
		after = ring_buffer_dropped_events_cpu(buffer, cpu);
		cause = USER_LOSS_RING;
		/* only a record the consumer would have kept is lost */
		if (!ret && after != before &&
		    !user_event_ring_drop_counts(file, ev, src))
			return 0;
#ifdef CONFIG_PERF_EVENTS
	} else if (f->func == (void *)user_event_perf_probe) {
		before = user_event_perf_lost(f->data, &nr);
		ret = user_event_perf_probe(f->data, ev, src);
		after = user_event_perf_lost(f->data, &nr);
		cause = USER_LOSS_PERF;
		/* No perf event here: only BPF programs, if any, ran */
		if (!nr) {
			if (!ret && bpf_prog_array_valid(&ev->call))
				out->taken = true;
			return ret;
		}
#endif
	} else {
		return 0;
	}
	if (ret)
		return ret;
	if (after != before)
		__set_bit(cause, &out->lost);
	if (after - before < nr)
		out->taken = true;
	return 0;
}

/*
 * Count a write of a registration that counts its losses (ret: what the
 * walk returns) and turn a write no consumer took into its error: ENOSPC
 * when a ring buffer was full, else ENOBUFS.
 */
static noinline ssize_t user_event_count_loss(struct user_event *ev,
					      struct user_event_loss *loss,
					      const struct user_event_outcome *out,
					      ssize_t ret)
{
	unsigned long causes = out->lost;
	unsigned int c;

	if (ret == -E2BIG)
		__set_bit(USER_LOSS_SIZE, &causes);
	if (!causes)
		return ret;
	__set_bit(USER_LOSS_ANY, &causes);
	for_each_set_bit(c, &causes, USER_LOSS_NR) {
		atomic64_inc(&loss->n[c]);
		atomic64_inc(&ev->loss.n[c]);
	}
	if (ret < 0 || out->taken)
		return ret;
	return test_bit(USER_LOSS_RING, &causes) ? -ENOSPC : -ENOBUFS;
}

/* Can every consumer take a record of size bytes, unasked? */
static __always_inline bool user_event_small(size_t size)
{
	return size <= USER_EVENT_SMALL_RECORD;
}

/* Can the consumer behind f take a record of size bytes? */
static bool user_event_fits(const struct tracepoint_func *f, size_t size)
{
	const struct trace_event_file *file;

	if (f->func == (void *)user_event_ftrace_probe) {
		file = f->data;
		return size <=
		       ring_buffer_max_event_size(file->tr->array_buffer.buffer);
	}
#ifdef CONFIG_PERF_EVENTS
	if (f->func == (void *)user_event_perf_probe)
		return user_event_perf_fits(f->data, size);
#endif
	return true;
}

/*
 * Direct calls, no cast of the tracepoint's pointers: only our two probes
 * are ever registered on user_event.tp.
 */
static __always_inline int user_event_probe(const struct tracepoint_func *f,
					    struct user_event *ev,
					    const struct user_event_src *src,
					    bool again)
{
	if (f->func == (void *)user_event_ftrace_probe)
		return user_event_ftrace_record(f->data, ev, src, again);
#ifdef CONFIG_PERF_EVENTS
	if (f->func == (void *)user_event_perf_probe)
		return user_event_perf_probe(f->data, ev, src);
#endif
	/* The stub the tracepoint core leaves when it cannot shrink the array */
	return 0;
}

/* The entry of data in served, or served->nr */
static unsigned int user_event_served_at(const struct user_event_served *served,
					 const void *data)
{
	unsigned int i;

	for (i = 0; i < served->nr; i++)
		if (served->data[i] == data)
			break;
	return i;
}

/* Note data as served, or as tried when its copy came up short */
static void user_event_note(struct user_event_served *served, void *data,
			    bool tried)
{
	unsigned int i = user_event_served_at(served, data);

	if (i == served->nr) {
		if (i == USER_EVENT_SERVED_MAX) {
			served->overflow = true;
			return;
		}
		served->data[served->nr++] = data;
	}
	if (tried)
		served->tried |= BIT(i);
	else
		served->tried &= ~BIT(i);
}

/* A fault at end: note [funcs, end) as served and end as tried */
static void user_event_note_fault(struct user_event_served *served,
				  const struct tracepoint_func *funcs,
				  const struct tracepoint_func *end)
{
	const struct tracepoint_func *f;

	for (f = funcs; f < end; f++)
		user_event_note(served, f->data, false);
	user_event_note(served, end->data, true);
}

/*
 * Feed the consumers not served yet.  Returns 0 when all were served,
 * -E2BIG when one of them cannot hold the record (this walk serves none
 * then), -EFAULT for a record that fails the checks, -EAGAIN for a page
 * that was not present, with the consumers before the one that failed
 * noted in served and that one noted as tried: those of an earlier walk
 * were skipped, not served again, and a tried one is tried again.
 * counted: each consumer goes through user_event_probe_counted(), which
 * notes in out what it did (a constant: two copies of the walk).
 */
static __always_inline int __user_event_emit(struct user_event *ev,
					     const struct user_event_src *src,
					     struct user_event_served *served,
					     bool counted,
					     struct user_event_outcome *out)
{
	size_t size = sizeof(struct trace_entry) + src->len;
	struct tracepoint_func *funcs, *f;
	int ret = 0;

	/* A probe array goes once a grace period of tracepoint_srcu ends */
	guard(srcu_fast_notrace)(&tracepoint_srcu);
	rcu_read_lock_sched_notrace();
	funcs = rcu_dereference_sched(ev->tp.funcs);
	for (f = funcs; !user_event_small(size) && f && f->func; f++) {
		if (!user_event_fits(f, size)) {
			ret = -E2BIG;
			goto out;
		}
	}
	for (f = funcs; f && f->func; f++) {
		unsigned int i = served->nr ?
				 user_event_served_at(served, f->data) : 0;

		if (i < served->nr && !(served->tried & BIT(i)))
			continue;
		if (counted)
			ret = user_event_probe_counted(f, ev, src,
						       i < served->nr, out);
		else
			ret = user_event_probe(f, ev, src, i < served->nr);
		if (ret)
			break;
	}
	if (ret == -EAGAIN)
		user_event_note_fault(served, funcs, f);
out:
	rcu_read_unlock_sched_notrace();
	return ret;
}

static noinline int user_event_emit_all(struct user_event *ev,
					const struct user_event_src *src,
					struct user_event_served *served)
{
	return __user_event_emit(ev, src, served, false, NULL);
}

static noinline int user_event_emit_counted(struct user_event *ev,
					    const struct user_event_src *src,
					    struct user_event_served *served,
					    struct user_event_outcome *out)
{
	return __user_event_emit(ev, src, served, true, out);
}

/*
 * Feed the consumers (see __user_event_emit()), noting what they did in
 * out when it is not NULL: a walk of its own, so that the usual walk
 * tests nothing for it.
 */
static __always_inline int user_event_emit(struct user_event *ev,
					   const struct user_event_src *src,
					   struct user_event_served *served,
					   struct user_event_outcome *out)
{
	if (out)
		return user_event_emit_counted(ev, src, served, out);
	return user_event_emit_all(ev, src, served);
}

/*
 * Serve the event's consumers through user_event_emit(), faulting the
 * payload's pages in whenever a copy comes up short; count is what the
 * write returns when it works.  tried: the probe data of the lone ftrace
 * consumer, when its copy came up short before any walk (nothing was
 * served yet, and it is to be tried again), or NULL.  out: what the
 * consumers did, for a registration that counts its losses, or NULL.
 */
static __always_inline ssize_t
__user_event_walk(struct user_event *ev, const struct user_event_src *src,
		  size_t count, void *tried, struct user_event_outcome *out)
{
	/* Only nr, overflow and tried are read before a fault sets entries */
	struct user_event_served served __uninitialized;
	unsigned int tries;
	int ret = -EAGAIN;

	served.nr = 0;
	served.overflow = false;
	served.tried = 0;
	if (tried)
		user_event_note(&served, tried, true);
	else
		ret = user_event_emit(ev, src, &served, out);
	for (tries = 0; ret == -EAGAIN; tries++) {
		if (served.overflow || tries == USER_EVENT_FAULT_TRIES ||
		    !user_event_fault_in(src))
			return -EFAULT;
		ret = user_event_emit(ev, src, &served, out);
	}
	return ret ? ret : count;
}

/* The walk of a registration that counts its losses */
static noinline ssize_t user_event_walk_counted(struct user_event *ev,
						const struct user_event_src *src,
						size_t count,
						struct user_event_loss *loss)
{
	struct user_event_outcome out = {};
	ssize_t ret = __user_event_walk(ev, src, count, NULL, &out);

	/* Drops before a fault count too: those consumers were served */
	return user_event_count_loss(ev, loss, &out, ret);
}

/*
 * The walk of a write; loss: the counts of its slot, when it counts its
 * losses, or NULL.
 */
static noinline ssize_t user_event_walk(struct user_event *ev,
					const struct user_event_src *src,
					size_t count, void *tried,
					struct user_event_loss *loss)
{
	if (unlikely(loss))
		return user_event_walk_counted(ev, src, count, loss);
	return __user_event_walk(ev, src, count, tried, NULL);
}

/*
 * Write the event at slot idx of ufd's table, with src pointing at the
 * payload after the index; count is what the write returns when it works.
 *
 * The table is replaced, never changed in place, and the old one freed
 * after a grace period; a preempt-disabled section is a reader of that
 * grace period, and the cheapest one.  The same section reads the event's
 * consumers (the tracepoint's array, also freed after a sched grace
 * period) and serves the usual enabled case there: one ftrace consumer
 * and a record every consumer can hold.  Anything else, and a write that
 * must fault a page in, or a file where some slot counts its losses,
 * takes user_event_walk().  The event stays pinned by its slot, and the
 * slot's counts stay, as long as the file is open, so they are used after
 * the section.  Inlined into write() and writev(): the call would cost
 * more than the second copy.
 */
static __always_inline ssize_t
user_event_write_src(struct user_event_fd *ufd, const struct user_event_src *src,
		     int idx, size_t count)
{
	struct tracepoint_func *funcs = NULL;
	struct user_event_loss *loss;
	struct user_event_refs *refs;
	struct user_event *ev = NULL;
	struct srcu_ctr __percpu *scp;
	int ret;

	if (idx < 0)
		return -EINVAL;
	/* tracepoint_srcu keeps the probe array; the section, refs */
	scp = srcu_read_lock_fast_notrace(&tracepoint_srcu);
	preempt_disable_notrace();
	refs = rcu_dereference_sched(ufd->refs);
	if (refs && idx < refs->count)
		ev = refs->events[idx];
	if (ev && src->len >= ev->desc.fixed_size)
		funcs = rcu_dereference_sched(ev->tp.funcs);
	if (funcs && !funcs[1].func &&
	    funcs->func == (void *)user_event_ftrace_probe &&
	    user_event_small(sizeof(struct trace_entry) + src->len) &&
	    !refs->loss) {
		/* Only compared once the section ends: the array may go */
		void *data = funcs->data;

		ret = user_event_ftrace_record(data, ev, src, false);
		preempt_enable_notrace();
		srcu_read_unlock_fast_notrace(&tracepoint_srcu, scp);
		if (likely(ret != -EAGAIN))
			return ret ? ret : count;
		return user_event_walk(ev, src, count, data, NULL);
	}
	if (likely(!funcs)) {
		preempt_enable_notrace();
		srcu_read_unlock_fast_notrace(&tracepoint_srcu, scp);
		if (!ev)
			return -ENOENT;
		if (src->len < ev->desc.fixed_size)
			return -EINVAL;
		/*
		 * Nobody consumes the event: the common, free case.
		 * Status-page programs see the write succeed, remote-write
		 * ones -EBADF.
		 */
		return READ_ONCE(ufd->idle_ret) ?: count;
	}
	/* Off the idle path, and the fast one (taken by files without counts) */
	loss = user_event_slot_loss(refs, idx);
	preempt_enable_notrace();
	srcu_read_unlock_fast_notrace(&tracepoint_srcu, scp);
	return user_event_walk(ev, src, count, NULL, loss);
}

/*
 * write(): the buffer is one user segment, which vfs_write() has checked
 * with access_ok(); no iov_iter or kiocb is built for it.
 */
ssize_t user_event_write(struct file *file, const char __user *buf,
			 size_t count, loff_t *ppos)
{
	struct user_event_src src;
	int idx;

	/* No whole index to read: the copy of it comes up short */
	if (count < sizeof(idx))
		return -EFAULT;
	if (get_user(idx, (const int __user *)buf))
		return -EFAULT;
	user_event_src_ubuf(&src, (void __user *)buf, sizeof(idx),
			    count - sizeof(idx));
	src.iter = NULL;
	return user_event_write_src(file->private_data, &src, idx, count);
}

/* writev(), and writes of kernel memory (an iov_iter of no user iovec) */
ssize_t user_event_write_iter(struct kiocb *kiocb, struct iov_iter *i)
{
	size_t count = iov_iter_count(i);
	/* Every field is set by user_event_src_init() */
	struct user_event_src src __uninitialized;
	int idx, ret;

	if (count < sizeof(idx))
		return -EFAULT;
	ret = user_event_src_init(&src, i, &idx);
	if (ret)
		return ret;
	return user_event_write_src(kiocb->ki_filp->private_data, &src, idx,
				    count);
}
