// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: remote-write words (enablers) and the per-mm state.
 *
 * A remote-write registration names a 32- or 64-bit word of the caller's
 * memory and a bit of it; the kernel keeps that bit equal to "the event is
 * consumed".  The words of one address space hang off its user_event_mm,
 * which the tasks sharing the address space point to; fork() copies them
 * for a new address space, exec() and exit() drop the task's reference.
 *
 * Bits are written under event_mutex without faulting in pages that
 * code outside the kernel may have to provide (the page is pinned with
 * FOLL_NOFAULT).  A page that is present but write-protected in a private
 * mapping that no userfaultfd watches (copy-on-write after fork(), a
 * private file page not written yet) is made writable at once: that write
 * fault copies or reuses the page and calls no file system, no
 * userfaultfd, no I/O.  So the word is right when the change of consumers
 * returns, which programs that fork() rely on.  Any other page (absent,
 * swapped out, shared, watched) makes the word pending, and the
 * user_event_mm's work item faults it in with only the mmap lock held and
 * tries again.  See trace_user.h for the lifetime rules.
 *
 * A word's bit is set after the event's new consumer is published, with
 * the fully ordered mmget_not_zero() in between, so a program that sees
 * the bit and writes finds the consumer: checked by
 * tools/memory-model/litmus-tests/tracing/user-enabler-bit.litmus.
 */
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/user_events.h>
#include <linux/userfaultfd_k.h>
#include <linux/workqueue.h>

#include "trace.h"
#include "trace_user.h"

/* Rounds of fault-in and retry one work run makes before giving up */
#define USER_EVENT_FAULT_ROUNDS	8
/* user_event_mm_retry(): give up every pending word */
#define USER_EVENT_ADDR_ALL	ULONG_MAX

/* Atomic: the program may change other bits of the word meanwhile */
static void user_event_word_update(void *word, u8 size, u8 bit, bool on)
{
#if BITS_PER_LONG == 64
	if (size == 8) {
		if (on)
			atomic64_or(BIT_ULL(bit), word);
		else
			atomic64_andnot(BIT_ULL(bit), word);
		return;
	}
#endif
	if (on)
		atomic_or(BIT(bit), word);
	else
		atomic_andnot(BIT(bit), word);
}

/*
 * Make the present page at addr writable if only copy-on-write stands in
 * the way, in a mapping where that fault runs no code but the kernel's
 * (see the top of this file); with the mmap lock held.  True when done.
 */
static bool user_event_unshare_present(struct mm_struct *mm,
				       unsigned long addr)
{
	struct vm_area_struct *vma = vma_lookup(mm, addr);
	struct page *page;

	if (!vma || (vma->vm_flags & (VM_SHARED | VM_IO | VM_PFNMAP |
				      VM_MIXEDMAP)) ||
	    userfaultfd_armed(vma))
		return false;
	if (get_user_pages_remote(mm, addr, 1, FOLL_NOFAULT, &page, NULL) != 1)
		return false;
	put_page(page);
	return !fixup_user_fault(mm, addr, FAULT_FLAG_WRITE | FAULT_FLAG_REMOTE,
				 NULL);
}

/*
 * Set or clear the enabler's bit if its page is present and writable, or
 * can be made writable at once (copy-on-write).  Returns 0 when written
 * (or when the address space is gone), -EFAULT when the page would have
 * to be faulted in.
 */
static int user_event_enabler_set(struct user_event_enabler *e, bool on)
{
	struct mm_struct *mm = e->umm->mm;
	struct page *page;
	void *word;
	long n;

	lockdep_assert_held(&event_mutex);
	if (!mmget_not_zero(mm))
		return 0;
	mmap_read_lock(mm);
	n = pin_user_pages_remote(mm, e->addr & PAGE_MASK, 1,
				  FOLL_WRITE | FOLL_NOFAULT, &page, NULL);
	if (n != 1 && user_event_unshare_present(mm, e->addr))
		n = pin_user_pages_remote(mm, e->addr & PAGE_MASK, 1,
					  FOLL_WRITE | FOLL_NOFAULT, &page,
					  NULL);
	mmap_read_unlock(mm);
	if (n == 1) {
		word = kmap_local_page(page) + offset_in_page(e->addr);
		user_event_word_update(word, e->size, e->bit, on);
		kunmap_local(word);
		unpin_user_pages_dirty_lock(&page, 1, true);
	}
	/* Never the last mmput() here: that would tear down under our lock */
	mmput_async(mm);
	return n == 1 ? 0 : -EFAULT;
}

/* Make e's bit true, now or from the fault work */
static void user_event_enabler_sync(struct user_event_enabler *e)
{
	struct user_event_mm *umm = e->umm;

	e->pending = user_event_enabler_set(e, user_event_consumed(e->ev));
	if (!e->pending || !refcount_inc_not_zero(&umm->refs))
		return;
	/* Already queued: that run holds its own count and sees e */
	if (!queue_work(system_unbound_wq, &umm->fault_work))
		refcount_dec(&umm->refs);
}

/* Consumers of ev came or went: update every word naming it */
void user_event_enablers_update(struct user_event *ev)
{
	struct user_event_enabler *e;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(e, &ev->enablers, ev_link)
		user_event_enabler_sync(e);
}

static void user_event_enabler_free(struct user_event_enabler *e)
{
	lockdep_assert_held(&event_mutex);
	list_del(&e->mm_link);
	list_del(&e->ev_link);
	user_event_put(e->ev);
	kfree(e);
}

static struct user_event_enabler *
user_event_enabler_find(struct user_event_mm *umm, unsigned long addr, u8 bit)
{
	struct user_event_enabler *e;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(e, &umm->enablers, mm_link)
		if (e->addr == addr && e->bit == bit)
			return e;
	return NULL;
}

/* Retry pending words; return the address of one that still faults, or 0 */
static unsigned long user_event_mm_retry(struct user_event_mm *umm,
					 unsigned long bad)
{
	struct user_event_enabler *e;
	unsigned long next = 0;

	guard(mutex)(&event_mutex);
	list_for_each_entry(e, &umm->enablers, mm_link) {
		if (!e->pending)
			continue;
		if (bad == USER_EVENT_ADDR_ALL || e->addr == bad ||
		    !user_event_enabler_set(e, user_event_consumed(e->ev)))
			e->pending = false;
		else if (!next)
			next = e->addr;
	}
	return next;
}

/* Fault the word at addr in for writing (breaks copy-on-write) */
static int user_event_mm_fault_in(struct mm_struct *mm, unsigned long addr)
{
	int ret;

	if (!mmget_not_zero(mm))
		return -ESRCH;
	mmap_read_lock(mm);
	ret = fixup_user_fault(mm, addr, FAULT_FLAG_WRITE | FAULT_FLAG_REMOTE,
			       NULL);
	mmap_read_unlock(mm);
	mmput(mm);
	return ret;
}

static void user_event_mm_put(struct user_event_mm *umm);

static void user_event_mm_fault_work(struct work_struct *work)
{
	struct user_event_mm *umm = container_of(work, struct user_event_mm,
						 fault_work);
	unsigned long addr, bad = 0;
	int round;

	for (round = 0; round < USER_EVENT_FAULT_ROUNDS; round++) {
		addr = user_event_mm_retry(umm, bad);
		if (!addr)
			break;
		bad = user_event_mm_fault_in(umm->mm, addr) ? addr : 0;
	}
	if (round == USER_EVENT_FAULT_ROUNDS)
		user_event_mm_retry(umm, USER_EVENT_ADDR_ALL);
	user_event_mm_put(umm);
}

static struct user_event_mm *user_event_mm_alloc(struct mm_struct *mm)
{
	struct user_event_mm *umm;

	umm = kzalloc_obj(*umm, GFP_KERNEL_ACCOUNT);
	if (!umm)
		return NULL;
	refcount_set(&umm->tasks, 1);
	refcount_set(&umm->refs, 1);
	mmgrab(mm);
	umm->mm = mm;
	INIT_LIST_HEAD(&umm->enablers);
	INIT_WORK(&umm->fault_work, user_event_mm_fault_work);
	return umm;
}

static void user_event_mm_put(struct user_event_mm *umm)
{
	/* The enablers went with the last task; no work is queued */
	if (!refcount_dec_and_test(&umm->refs))
		return;
	WARN_ON_ONCE(!list_empty(&umm->enablers));
	mmdrop(umm->mm);
	kfree(umm);
}

/* current's user_event_mm, created on first use; only current sets it */
static struct user_event_mm *user_event_mm_current(void)
{
	if (!current->user_event_mm && current->mm)
		current->user_event_mm = user_event_mm_alloc(current->mm);
	return current->user_event_mm;
}

static struct user_event_enabler *
user_event_enabler_alloc(struct user_event_mm *umm, struct user_event *ev,
			 unsigned long addr, u8 bit, u8 size)
{
	struct user_event_enabler *e;

	lockdep_assert_held(&event_mutex);
	e = kzalloc_obj(*e, GFP_KERNEL_ACCOUNT);
	if (!e)
		return NULL;
	user_event_get(ev);
	e->ev = ev;
	e->umm = umm;
	e->addr = addr;
	e->bit = bit;
	e->size = size;
	list_add_tail(&e->mm_link, &umm->enablers);
	list_add_tail(&e->ev_link, &ev->enablers);
	return e;
}

/* A checked remote-write registration of the pinned ev by current */
int user_event_enabler_add(struct user_event *ev,
			   const struct user_reg *reg)
{
	struct user_event_enabler *e;
	struct user_event_mm *umm;

	umm = user_event_mm_current();
	if (!umm)
		return -ENOMEM;
	guard(mutex)(&event_mutex);
	if (user_event_enabler_find(umm, reg->enable_addr, reg->enable_bit))
		return -EADDRINUSE;
	e = user_event_enabler_alloc(umm, ev, reg->enable_addr,
				     reg->enable_bit, reg->enable_size);
	if (!e)
		return -ENOMEM;
	user_event_enabler_sync(e);
	return 0;
}

/*
 * DIAG_IOCSUNREG: forget current's word and clear its bit; only a word
 * naming an event of group, the group of the fd asking.
 */
int user_event_enabler_remove(struct user_event_group *group,
			      const struct user_unreg *unreg)
{
	struct user_event_mm *umm = current->user_event_mm;
	struct user_event_enabler *e;
	int tries;

	if (!umm)
		return -ENOENT;
	for (tries = 0; ; tries++) {
		scoped_guard(mutex, &event_mutex) {
			e = user_event_enabler_find(umm, unreg->disable_addr,
						    unreg->disable_bit);
			if (!e || e->ev->group != group)
				return -ENOENT;
			if (!user_event_enabler_set(e, false) ||
			    tries == USER_EVENT_FAULT_ROUNDS) {
				user_event_enabler_free(e);
				return 0;
			}
		}
		/* Own memory, outside event_mutex */
		if (user_event_mm_fault_in(umm->mm, unreg->disable_addr))
			tries = USER_EVENT_FAULT_ROUNDS - 1;
	}
}

/*
 * A new task: share the parent's words (CLONE_VM) or copy them.  The
 * child's words hold what the parent's held when its memory was copied;
 * a consumer change between that copy and this list copy reaches only
 * the parent (pending words are synced in the child too).
 */
void user_event_mm_fork(struct task_struct *child, u64 clone_flags)
{
	struct user_event_mm *parent = child->user_event_mm, *umm;
	struct user_event_enabler *e, *copy;

	child->user_event_mm = NULL;
	if (clone_flags & CLONE_VM) {
		refcount_inc(&parent->tasks);
		child->user_event_mm = parent;
		return;
	}
	if (!child->mm)
		return;
	umm = user_event_mm_alloc(child->mm);
	if (!umm)
		return;
	scoped_guard(mutex, &event_mutex) {
		list_for_each_entry(e, &parent->enablers, mm_link) {
			copy = user_event_enabler_alloc(umm, e->ev, e->addr,
							e->bit, e->size);
			if (!copy)
				break;
			/* The child's copy of the page may lack the bit too */
			if (e->pending)
				user_event_enabler_sync(copy);
		}
	}
	child->user_event_mm = umm;
}

/*
 * exec or exit: the task lets go of its address space's words.  The last
 * task takes them down now, not when a queued fault work finishes, so
 * that the events they pinned are free once the process is reaped.
 */
void user_event_mm_drop(struct task_struct *task)
{
	struct user_event_mm *umm = task->user_event_mm;
	struct user_event_enabler *e, *tmp;

	task->user_event_mm = NULL;
	if (!refcount_dec_and_test(&umm->tasks))
		return;
	scoped_guard(mutex, &event_mutex)
		list_for_each_entry_safe(e, tmp, &umm->enablers, mm_link)
			user_event_enabler_free(e);
	user_event_mm_put(umm);
}
