// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: the status page, and the counts of events.
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
 * page, which needs no lock: bits flip with atomic set_bit_le/clear_bit_le.
 * A bit is set only after the event's new consumer is in its
 * tracepoint's array, with a full barrier between: a program that sees
 * its bit and writes finds the consumer
 * (tools/memory-model/litmus-tests/tracing/user-status-bit.litmus).  A
 * bit cleared late only means one more write that nobody records.
 * The bit changes in the same hold of event_mutex as the consumer counts
 * (tools/memory-model/litmus-tests/tracing/user-status-update.litmus).
 * A group's page goes with the group; a program that still maps it keeps
 * the page (vm_insert_page() took a reference), with every bit clear.
 * The file that maps it and shows the bits in text is in trace_user_fs.c.
 */
#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/sysctl.h>

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

static const struct ctl_table user_event_sysctls[] = {
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

/* kernel.user_events_max */
void __init user_event_status_init(void)
{
	register_sysctl_init("kernel", user_event_sysctls);
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

/*
 * Publish whether anything consumes ev (on its bit, when it has one);
 * true when that changed.
 */
bool user_event_bit_update(struct user_event *ev)
{
	bool on = user_event_consumed(ev);

	lockdep_assert_held(&event_mutex);
	if (on == ev->status_on)
		return false;
	ev->status_on = on;
	if (ev->bit && on) {
		/*
		 * The new consumer's probe is in the tracepoint's array:
		 * a program that sees its bit and writes finds it
		 * (user-status-bit.litmus)
		 */
		smp_mb__before_atomic();
		set_bit_le(ev->bit, user_event_status_bits(ev));
	} else if (ev->bit) {
		clear_bit_le(ev->bit, user_event_status_bits(ev));
	}
	return true;
}
