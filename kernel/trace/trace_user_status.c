// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: the status page.
 *
 * One zeroed page per group, mapped read-only into every program that asks
 * (through the group's user_events_status), holds one bit per event of the
 * group that a program registered through the status-page layout
 * (little-endian bit order: bit n is byte n / 8, mask 1 << (n % 8)).  A
 * bit is set while ftrace or perf consume its event.  Bits are handed out
 * from a kernel-private bitmap at an event's first status-page
 * registration and taken back when the event is destroyed; events only
 * ever registered otherwise (remote write, dynamic_events) have none and
 * show bit 0, which is never handed out so programs can keep it as an
 * "always off" slot.
 *
 * Everything here runs under event_mutex, except user space reading the
 * page, which needs no lock: bits flip with atomic set_bit_le/clear_bit_le
 * and a stale read only means one more or one less event gets written.
 * A group's page goes with the group; a program that still maps it keeps
 * the page (vm_insert_page() took a reference), with every bit clear.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/sysctl.h>

#include <trace/events/user_events_registry.h>

#include "trace.h"
#include "trace_user.h"

/* Events registered in every group, with a bit or not (event_mutex) */
static unsigned int user_event_active;
/*
 * Most events that may exist at once, sysctl kernel.user_events_max: any
 * value, 32768 by default, as on kernels before this one.  Only events a
 * status-page program registered hold a bit of the page, which has one
 * fewer (bit 0 is never handed out); remote-write events need none.
 */
static unsigned int user_event_max = 32768;

static struct ctl_table user_event_sysctls[] = {
	{
		.procname	= "user_events_max",
		.data		= &user_event_max,
		.maxlen		= sizeof(unsigned int),
		.mode		= 0644,
		.proc_handler	= proc_douintvec,
	},
};

static unsigned long *user_event_status_bits(const struct user_event *ev)
{
	return page_address(ev->group->status_page);
}

/* A group's page and bitmap, bit 0 reserved */
int user_event_status_alloc(struct user_event_group *group)
{
	group->bits_used = bitmap_zalloc(USER_EVENT_STATUS_BITS, GFP_KERNEL);
	if (!group->bits_used)
		return -ENOMEM;
	group->status_page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!group->status_page) {
		bitmap_free(group->bits_used);
		return -ENOMEM;
	}
	__set_bit(0, group->bits_used);
	return 0;
}

/* The group has no events left: mappings keep their own page reference */
void user_event_status_free(struct user_event_group *group)
{
	__free_page(group->status_page);
	bitmap_free(group->bits_used);
}

int __init user_event_status_init(void)
{
	int ret = user_event_status_alloc(&user_event_default_group);

	if (!ret)
		register_sysctl_init("kernel", user_event_sysctls);
	return ret;
}

/*
 * Count a new event of group, or -EMFILE when kernel.user_events_max
 * events exist in all, or the group's user_events_max in the group.
 */
int user_event_count_add(struct user_event_group *group)
{
	lockdep_assert_held(&event_mutex);
	/* The sysctl and the group's max are written without event_mutex */
	if (user_event_active >= READ_ONCE(user_event_max) ||
	    group->count >= READ_ONCE(group->max))
		return -EMFILE;
	user_event_active++;
	group->count++;
	return 0;
}

void user_event_count_sub(struct user_event_group *group)
{
	lockdep_assert_held(&event_mutex);
	user_event_active--;
	group->count--;
}

/*
 * Give ev a status bit unless it has one: its first status-page
 * registration asks for it, and the event keeps it until destroyed.  The
 * bit is set at once when ev is already consumed.
 */
int user_event_bit_get(struct user_event *ev)
{
	unsigned long *used = ev->group->bits_used;
	unsigned long nr;

	lockdep_assert_held(&event_mutex);
	if (ev->bit)
		return 0;
	nr = find_next_zero_bit(used, USER_EVENT_STATUS_BITS, 1);
	if (nr >= USER_EVENT_STATUS_BITS)
		return -ENOSPC;
	__set_bit(nr, used);
	ev->bit = nr;
	if (ev->status_on)
		set_bit_le(nr, user_event_status_bits(ev));
	return 0;
}

/* The event goes: its bit, if it has one, is free for another */
void user_event_bit_put(struct user_event *ev)
{
	lockdep_assert_held(&event_mutex);
	if (!ev->bit)
		return;
	clear_bit_le(ev->bit, user_event_status_bits(ev));
	__clear_bit(ev->bit, ev->group->bits_used);
	ev->bit = 0;
}

/* Publish whether anything consumes ev (on its bit, when it has one) */
void user_event_bit_update(struct user_event *ev)
{
	bool on = user_event_consumed(ev);

	lockdep_assert_held(&event_mutex);
	if (on == ev->status_on)
		return;
	ev->status_on = on;
	if (ev->bit && on)
		set_bit_le(ev->bit, user_event_status_bits(ev));
	else if (ev->bit)
		clear_bit_le(ev->bit, user_event_status_bits(ev));
	trace_user_event_status(ev->call.name, ev->bit, on, ev->ftrace_users,
				ev->perf_users);
}

/*
 * Only whole, read-only, shared views of the group's page.  The view may
 * never become writable (no VM_MAYWRITE) nor grow (VM_DONTEXPAND); fork()
 * copies it like any shared mapping, so a child reads the bits its parent
 * registered for, as on Linux 6.1.
 */
static int user_event_status_mmap(struct file *file,
				  struct vm_area_struct *vma)
{
	struct seq_file *m = file->private_data;
	struct user_event_group *group = m->private;

	if (vma->vm_pgoff || vma->vm_end - vma->vm_start != PAGE_SIZE)
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	vm_flags_mod(vma, VM_DONTEXPAND, VM_MAYWRITE);
	return vm_insert_page(vma, vma->vm_start, group->status_page);
}

/*
 * "bit:name [# Used by ftrace, perf]" lines (bit 0: none), then totals:
 * the events of the file's group only.
 */
static int user_event_status_show(struct seq_file *m, void *v)
{
	struct user_event_group *group = m->private;
	unsigned int active = 0, busy = 0;
	struct user_event *ev;

	guard(mutex)(&event_mutex);
	list_for_each_entry(ev, &user_event_list, link) {
		if (ev->group != group)
			continue;
		active++;
		seq_printf(m, "%u:%s", ev->bit, ev->call.name);
		if (ev->ftrace_users || ev->perf_users) {
			busy++;
			seq_puts(m, user_event_status_text.used_by);
			if (ev->ftrace_users)
				seq_printf(m, " %s", user_event_status_text.ftrace);
			if (ev->perf_users)
				seq_printf(m, "%s %s", ev->ftrace_users ? "," : "",
					   user_event_status_text.perf);
		}
		seq_putc(m, '\n');
	}
	seq_putc(m, '\n');
	seq_printf(m, user_event_status_text.active, active);
	seq_printf(m, user_event_status_text.busy, busy);
	seq_printf(m, user_event_status_text.max, (unsigned int)USER_EVENT_STATUS_BITS);
	return 0;
}

static int user_event_status_open(struct inode *inode, struct file *file)
{
	struct user_event_group *group = user_event_group_open(inode);
	int ret;

	if (IS_ERR(group))
		return PTR_ERR(group);
	ret = single_open(file, user_event_status_show, group);
	if (ret)
		user_event_group_close(group);
	return ret;
}

static int user_event_status_release(struct inode *inode, struct file *file)
{
	struct seq_file *m = file->private_data;

	user_event_group_close(m->private);
	return single_release(inode, file);
}

const struct file_operations user_event_status_fops = {
	.open		= user_event_status_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= user_event_status_release,
	.mmap		= user_event_status_mmap,
};
