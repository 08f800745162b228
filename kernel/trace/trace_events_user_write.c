// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: write()/writev() of events.
 *
 * The first four bytes name the event through the fd's index table, the
 * rest is the payload.  Nothing is allocated: for each consumer the payload
 * is copied straight into a reserved ring-buffer event (or the per-CPU perf
 * buffer), checked there, then committed or discarded.  Checking the copy,
 * not the user's memory, is what makes a concurrent change of the user
 * buffer harmless.
 *
 * Reservation disables preemption, so the copy runs with page faults
 * disabled.  A page that is not present makes the copy come up short: the
 * reservation is discarded, the walk over the consumers stops, the pages
 * are faulted in with preemption enabled and the walk resumes at the
 * consumer that failed.  An address that cannot be faulted in is -EFAULT.
 */
#include <linux/perf_event.h>
#include <linux/uaccess.h>
#include <linux/uio.h>
#include <linux/unaligned.h>

#include "trace.h"
#include "trace_events_user.h"

/* How often a write faults pages in before giving up */
#define USER_EVENT_FAULT_TRIES	4

/* Signature of the probes hung on user_event.tp */
typedef int (*user_event_probe_t)(void *data, struct user_event *ev,
				  struct iov_iter *i, size_t len);

/* Do the loc fields of the record rec (size bytes) stay inside it? */
static bool user_event_record_ok(const struct user_event *ev, const void *rec,
				 size_t size)
{
	size_t fixed = sizeof(struct trace_entry) + ev->desc.fixed_size;
	const struct user_event_field *f;
	unsigned int i, off, len;
	u32 loc;

	if (!ev->desc.has_locs)
		return true;
	for (i = 0; i < ev->desc.nr_fields; i++) {
		f = &ev->desc.fields[i];
		if (f->kind != USER_FIELD_DATA_LOC &&
		    f->kind != USER_FIELD_REL_LOC)
			continue;
		loc = get_unaligned((const u32 *)(rec + f->offset));
		off = loc & 0xffff;
		len = loc >> 16;
		if (f->kind == USER_FIELD_REL_LOC)
			off += f->offset + sizeof(u32);
		if (!len && !f->is_string)
			continue;
		if (off < fixed || off + len > size)
			return false;
		if (f->is_string &&
		    (!len || ((const char *)rec)[off + len - 1] != '\0'))
			return false;
	}
	return true;
}

/*
 * User address of the next len bytes of i when they are contiguous, as they
 * are for write() and for the payload vector of writev(); NULL otherwise.
 */
static const void __user *user_event_flat(const struct iov_iter *i,
					  size_t len)
{
	/* With nothing left, an iovec iterator has no current segment */
	if (!len)
		return NULL;
	if (iter_is_ubuf(i))
		return i->ubuf + i->iov_offset;
	if (iter_is_iovec(i) && iter_iov_len(i) >= len)
		return iter_iov_addr(i);
	return NULL;
}

/* Scattered payload: copy from a private iterator, i stays for retries */
static noinline size_t user_event_copy_iter(void *dst, struct iov_iter *i,
					    size_t len)
{
	struct iov_iter from = *i;

	return len - copy_from_iter(dst, len, &from);
}

/* Copy the payload after the record header without taking page faults */
static bool user_event_copy(void *rec, struct iov_iter *i, size_t len)
{
	const void __user *src = user_event_flat(i, len);
	void *dst = rec + sizeof(struct trace_entry);
	size_t left = len;

	pagefault_disable();
	if (!src)
		left = user_event_copy_iter(dst, i, len);
	else if (access_ok(src, len))
		left = __copy_from_user_inatomic(dst, src, len);
	pagefault_enable();
	return !left;
}

/* The write index that leads every write */
static int user_event_read_index(struct iov_iter *i, int *idx)
{
	const int __user *src = user_event_flat(i, sizeof(*idx));

	if (!src)
		return copy_from_iter(idx, sizeof(*idx), i) == sizeof(*idx) ?
		       0 : -EFAULT;
	if (get_user(*idx, src))
		return -EFAULT;
	iov_iter_advance(i, sizeof(*idx));
	return 0;
}

int user_event_ftrace_probe(void *data, struct user_event *ev,
			    struct iov_iter *i, size_t len)
{
	struct trace_event_file *file = data;
	/* Filled by the reservation; not worth zeroing on every write */
	struct trace_event_buffer fbuf __uninitialized;
	size_t size = sizeof(struct trace_entry) + len;
	void *rec;
	int ret;

	if (trace_trigger_soft_disabled(file))
		return 0;
	rec = trace_event_buffer_reserve(&fbuf, file, size);
	if (!rec)
		return 0;
	if (!user_event_copy(rec, i, len))
		ret = -EAGAIN;
	else if (!user_event_record_ok(ev, rec, size))
		ret = -EFAULT;
	else
		ret = 0;
	if (ret)
		__trace_event_discard_commit(fbuf.buffer, fbuf.event);
	else
		trace_event_buffer_commit(&fbuf);
	return ret;
}

#ifdef CONFIG_PERF_EVENTS
int user_event_perf_probe(void *data, struct user_event *ev,
			  struct iov_iter *i, size_t len)
{
	struct hlist_head *head = this_cpu_ptr(ev->call.perf_events);
	size_t size = sizeof(struct trace_entry) + len;
	struct pt_regs *regs;
	void *rec;
	int rctx, ret;

	if (hlist_empty(head))
		return 0;
	/* perf wants u64 alignment once its u32 size header is added */
	size = ALIGN(size + sizeof(u32), sizeof(u64)) - sizeof(u32);
	rec = perf_trace_buf_alloc(size, &regs, &rctx);
	if (!rec)
		return 0;
	if (!user_event_copy(rec, i, len))
		ret = -EAGAIN;
	else if (!user_event_record_ok(ev, rec, sizeof(struct trace_entry) + len))
		ret = -EFAULT;
	else
		ret = 0;
	if (ret) {
		perf_swevent_put_recursion_context(rctx);
		return ret;
	}
	memset(rec + sizeof(struct trace_entry) + len, 0,
	       size - sizeof(struct trace_entry) - len);
	perf_fetch_caller_regs(regs);
	perf_trace_buf_submit(rec, size, rctx, ev->call.event.type, 1, regs,
			      head, NULL);
	return 0;
}
#endif

/*
 * Feed the consumers from *next on.  Returns 0 when all were served,
 * -EFAULT for a record that fails the checks, -EAGAIN for a page that was
 * not present, with *next left at the consumer to serve again.
 */
static int user_event_emit(struct user_event *ev, struct iov_iter *i,
			   size_t len, unsigned int *next)
{
	struct tracepoint_func *f;
	unsigned int n = 0;
	int ret = 0;

	rcu_read_lock_sched_notrace();
	f = rcu_dereference_sched(ev->tp.funcs);
	for (; f && f->func; f++, n++) {
		if (n < *next)
			continue;
		ret = ((user_event_probe_t)f->func)(f->data, ev, i, len);
		if (ret)
			break;
		*next = n + 1;
	}
	rcu_read_unlock_sched_notrace();
	return ret;
}

ssize_t user_event_write_iter(struct kiocb *kiocb, struct iov_iter *i)
{
	struct user_event_fd *ufd = kiocb->ki_filp->private_data;
	size_t count = iov_iter_count(i), len;
	struct user_event_refs *refs;
	struct user_event *ev = NULL;
	unsigned int next = 0, tries;
	int idx, ret;

	if (count < sizeof(idx))
		return -EINVAL;
	ret = user_event_read_index(i, &idx);
	if (ret)
		return ret;
	if (idx < 0)
		return -EINVAL;

	rcu_read_lock();
	refs = rcu_dereference(ufd->refs);
	if (refs && idx < refs->count)
		ev = refs->events[idx];
	rcu_read_unlock();
	if (!ev)
		return -ENOENT;

	len = iov_iter_count(i);
	if (len < ev->desc.fixed_size)
		return -EINVAL;
	if (len > USER_EVENT_PAYLOAD_MAX)
		return -E2BIG;

	/*
	 * Nobody consumes the event: the common, free case.  Status-page
	 * programs see the write succeed, remote-write ones -EBADF.
	 */
	if (likely(!rcu_access_pointer(ev->tp.funcs)))
		return READ_ONCE(ufd->idle_ret) ?: count;

	for (tries = 0; ; tries++) {
		ret = user_event_emit(ev, i, len, &next);
		if (ret != -EAGAIN)
			break;
		if (tries == USER_EVENT_FAULT_TRIES ||
		    fault_in_iov_iter_readable(i, len)) {
			ret = -EFAULT;
			break;
		}
	}
	return ret ? ret : count;
}
