// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: tracefs files and ioctls.
 *
 * user_events_data: DIAG_IOCSREG registers an event and gives the fd a
 * write index for it, DIAG_IOCSDEL deletes an unreferenced event, write()
 * emits.  user_events_status: mmap of the status page, read() of a summary.
 *
 * An fd's index table only grows, under user_event_fd.lock, by replacing
 * the whole table (RCU); the events it names stay pinned until release.
 */
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>

#include "trace.h"
#include "trace_events_user.h"

static int user_event_data_open(struct inode *inode, struct file *file)
{
	struct user_event_fd *ufd;
	int ret;

	ret = tracing_check_open_get_tr(NULL);
	if (ret)
		return ret;
	ufd = kzalloc(sizeof(*ufd), GFP_KERNEL);
	if (!ufd)
		return -ENOMEM;
	mutex_init(&ufd->lock);
	file->private_data = ufd;
	return 0;
}

static int user_event_data_release(struct inode *inode, struct file *file)
{
	struct user_event_fd *ufd = file->private_data;
	struct user_event_refs *refs;
	unsigned int i;

	/* Last reference to the file: no writer can be running */
	refs = rcu_dereference_protected(ufd->refs, true);
	for (i = 0; refs && i < refs->count; i++)
		refcount_dec(&refs->events[i]->refs);
	kfree(refs);
	mutex_destroy(&ufd->lock);
	kfree(ufd);
	return 0;
}

/* Give the pinned ev a slot in ufd (or its existing one); consumes the pin */
static int user_event_fd_add(struct user_event_fd *ufd, struct user_event *ev)
{
	struct user_event_refs *old, *new;
	unsigned int i, n;

	guard(mutex)(&ufd->lock);
	old = rcu_dereference_protected(ufd->refs, lockdep_is_held(&ufd->lock));
	n = old ? old->count : 0;
	for (i = 0; i < n; i++) {
		if (old->events[i] == ev) {
			refcount_dec(&ev->refs);
			return i;
		}
	}
	new = kmalloc(struct_size(new, events, n + 1), GFP_KERNEL);
	if (!new) {
		refcount_dec(&ev->refs);
		return -ENOMEM;
	}
	new->count = n + 1;
	if (n)
		memcpy(new->events, old->events, n * sizeof(*old->events));
	new->events[n] = ev;
	rcu_assign_pointer(ufd->refs, new);
	if (old)
		kfree_rcu(old, rcu);
	return n;
}

static long user_event_ioctl_reg(struct user_event_fd *ufd,
				 struct user_reg __user *ureg)
{
	struct user_event_parse_err perr;
	struct user_event *ev;
	struct user_reg reg;
	char *cmd;
	u32 size;
	int ret, idx;

	if (get_user(size, &ureg->size))
		return -EFAULT;
	if (size < sizeof(reg))
		return -EINVAL;
	if (size > PAGE_SIZE)
		return -E2BIG;
	ret = copy_struct_from_user(&reg, sizeof(reg), ureg, size);
	if (ret)
		return ret;

	cmd = strndup_user(u64_to_user_ptr(reg.name_args), USER_EVENT_CMD_MAX);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	ret = user_event_register_cmd(cmd, true, &ev, &perr);
	kfree(cmd);
	if (ret)
		return ret;

	idx = user_event_fd_add(ufd, ev);
	if (idx < 0)
		return idx;
	/* The fd now pins ev: it cannot go away under us */
	if (put_user(ev->bit, &ureg->status_bit) ||
	    put_user(idx, &ureg->write_index))
		return -EFAULT;
	return 0;
}

static long user_event_ioctl_del(char __user *uname)
{
	char *name;
	int ret;

	name = strndup_user(uname, USER_EVENT_NAME_MAX + 1);
	if (IS_ERR(name))
		return PTR_ERR(name);
	ret = user_event_delete(name);
	kfree(name);
	return ret;
}

static long user_event_data_ioctl(struct file *file, unsigned int cmd,
				  unsigned long arg)
{
	struct user_event_fd *ufd = file->private_data;

	switch (cmd) {
	case DIAG_IOCSREG:
		return user_event_ioctl_reg(ufd, (void __user *)arg);
	case DIAG_IOCSDEL:
		return user_event_ioctl_del((char __user *)arg);
	}
	return -ENOTTY;
}

const struct file_operations user_event_data_fops = {
	.open		= user_event_data_open,
	.write_iter	= user_event_write_iter,
	.unlocked_ioctl	= user_event_data_ioctl,
	.release	= user_event_data_release,
};

static int __init user_events_init(void)
{
	int ret;

	ret = user_event_status_init();
	if (ret)
		goto err;
	ret = dyn_event_register(&user_event_dyn_ops);
	if (ret)
		goto err;
	if (!tracefs_create_file("user_events_data", TRACE_MODE_WRITE, NULL,
				 NULL, &user_event_data_fops) ||
	    !tracefs_create_file("user_events_status", TRACE_MODE_READ, NULL,
				 NULL, &user_event_status_fops)) {
		ret = -ENODEV;
		goto err;
	}
	return 0;
err:
	pr_warn("user_events: not available (%d)\n", ret);
	return ret;
}
fs_initcall(user_events_init);
