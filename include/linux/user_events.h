/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Process life-cycle hooks of user_events.
 *
 * Copyright (c) 2022, Microsoft Corporation.
 *
 * Authors:
 *   Beau Belgrave <beaub@linux.microsoft.com>
 *
 * A program that registers through the remote-write ABI owns enablers:
 * words of its memory the kernel updates when an event's consumers come
 * and go.  They belong to the address space: fork() gives the child copies
 * (threads and vfork children share them), exec() and exit() drop them.
 * The state behind task_struct.user_event_mm is private to user_events;
 * a task that never registered pays one pointer test per hook.
 */
#ifndef _LINUX_USER_EVENTS_H
#define _LINUX_USER_EVENTS_H

#include <linux/sched.h>
#include <uapi/linux/user_events.h>

#ifdef CONFIG_USER_EVENTS

void user_event_mm_fork(struct task_struct *child, u64 clone_flags);
void user_event_mm_drop(struct task_struct *task);

/* dup_task_struct() copied the parent's pointer: give the child its own */
static inline void user_events_fork(struct task_struct *child,
				    u64 clone_flags)
{
	if (child->user_event_mm)
		user_event_mm_fork(child, clone_flags);
}

static inline void user_events_execve(struct task_struct *task)
{
	if (task->user_event_mm)
		user_event_mm_drop(task);
}

static inline void user_events_exit(struct task_struct *task)
{
	if (task->user_event_mm)
		user_event_mm_drop(task);
}

#else /* !CONFIG_USER_EVENTS */

static inline void user_events_fork(struct task_struct *child,
				    u64 clone_flags)
{
}

static inline void user_events_execve(struct task_struct *task)
{
}

static inline void user_events_exit(struct task_struct *task)
{
}

#endif /* CONFIG_USER_EVENTS */

#endif /* _LINUX_USER_EVENTS_H */
