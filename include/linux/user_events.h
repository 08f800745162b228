/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Process life-cycle hooks of user_events.
 *
 * The status-page ABI keeps no per-process state: the page is shared by
 * every reader and write indexes belong to open files.  fork, exec and exit
 * therefore have nothing to do; the hooks stay so their callers build
 * unchanged.
 */
#ifndef _LINUX_USER_EVENTS_H
#define _LINUX_USER_EVENTS_H

#include <uapi/linux/user_events.h>

struct task_struct;

/* Never allocated: task_struct keeps a pointer of this type, always NULL */
struct user_event_mm;

static inline void user_events_fork(struct task_struct *child,
				    unsigned long flags)
{
}

static inline void user_events_execve(struct task_struct *task)
{
}

static inline void user_events_exit(struct task_struct *task)
{
}

#endif /* _LINUX_USER_EVENTS_H */
