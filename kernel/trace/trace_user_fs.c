// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: tracefs files and ioctls.
 *
 * user_events_data: DIAG_IOCSREG registers an event and gives the fd a
 * write index for it (the size of the argument tells the status-page layout
 * from the remote-write one), DIAG_IOCSUNREG removes a remote-write word,
 * DIAG_IOCSDEL deletes an unreferenced event, write() emits.
 * user_events_status: mmap of the status page, read() of a summary.
 * Each group has both files (trace_user_group.c); an fd reaches the
 * events of its own group only.
 *
 * An fd's index table only grows, under user_event_fd.lock, by replacing
 * the whole table (RCU); the events it names stay pinned until release.
 */
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>

#include "trace.h"
#include "trace_user.h"

static int user_event_data_open(struct inode *inode, struct file *file)
{
	struct user_event_group *group = user_event_group_open(inode);
	struct user_event_fd *ufd;

	if (IS_ERR(group))
		return PTR_ERR(group);
	ufd = kzalloc(sizeof(*ufd), GFP_KERNEL);
	if (!ufd) {
		user_event_group_close(group);
		return -ENOMEM;
	}
	ufd->group = group;
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
	if (refs) {
		guard(mutex)(&event_mutex);
		for (i = 0; i < refs->count; i++)
			user_event_put(refs->events[i]);
	}
	kfree(refs);
	mutex_destroy(&ufd->lock);
	user_event_group_close(ufd->group);
	kfree(ufd);
	return 0;
}

/* Give the pinned ev a slot in ufd (or its existing one); consumes the pin */
static int user_event_fd_add(struct user_event_fd *ufd, struct user_event *ev)
{
	struct user_event_refs *old, *new;
	unsigned int i, n;

	scoped_guard(mutex, &ufd->lock) {
		old = rcu_dereference_protected(ufd->refs,
						lockdep_is_held(&ufd->lock));
		n = old ? old->count : 0;
		for (i = 0; i < n; i++) {
			/* The slot pins ev too: this cannot be the last pin */
			if (old->events[i] == ev) {
				refcount_dec(&ev->refs);
				return i;
			}
		}
		new = kmalloc(struct_size(new, events, n + 1), GFP_KERNEL);
		if (new) {
			new->count = n + 1;
			if (n)
				memcpy(new->events, old->events,
				       n * sizeof(*old->events));
			new->events[n] = ev;
			rcu_assign_pointer(ufd->refs, new);
			if (old)
				kfree_rcu(old, rcu);
			return n;
		}
	}
	/* Not under ufd->lock: the two locks are never nested */
	guard(mutex)(&event_mutex);
	user_event_put(ev);
	return -ENOMEM;
}

/* Register cmd at user address uargs; returns the pinned event */
static int user_event_reg_cmd(struct user_event_fd *ufd, u64 uargs,
			      const struct user_event_reg_opts *opts,
			      struct user_event **evp)
{
	struct trace_parse_err perr;
	char *cmd;
	int ret;

	cmd = strndup_user(u64_to_user_ptr(uargs), USER_EVENT_CMD_MAX);
	if (IS_ERR(cmd))
		return PTR_ERR(cmd);
	ret = user_event_register_cmd(ufd->group, cmd, opts, evp, &perr);
	kfree(cmd);
	return ret;
}

static long user_event_reg_status(struct user_event_fd *ufd,
				  struct user_status_reg __user *ureg, u32 size)
{
	struct user_event_reg_opts opts = { .keep = true, .status_bit = true };
	struct user_status_reg reg;
	struct user_event *ev;
	int ret, idx;

	ret = copy_struct_from_user(&reg, sizeof(reg), ureg, size);
	if (ret)
		return ret;
	ret = user_event_reg_cmd(ufd, reg.name_args, &opts, &ev);
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

/* The checks of a remote-write registration, before anything is created */
static int user_event_reg_check(const struct user_reg *reg)
{
	if (reg->flags & ~(USER_EVENT_REG_MAX - 1))
		return -EINVAL;
	if (reg->enable_size != 4 &&
	    (reg->enable_size != 8 || BITS_PER_LONG < 64))
		return -EINVAL;
	if (reg->enable_addr % reg->enable_size ||
	    reg->enable_bit >= reg->enable_size * BITS_PER_BYTE)
		return -EINVAL;
	if (!access_ok(u64_to_user_ptr(reg->enable_addr), reg->enable_size))
		return -EFAULT;
	if ((reg->flags & USER_EVENT_REG_PERSIST) && !perfmon_capable())
		return -EPERM;
	return 0;
}

static long user_event_reg_enabler(struct user_event_fd *ufd,
				   struct user_reg __user *ureg,
				   u32 size)
{
	struct user_event_reg_opts opts = {};
	struct user_reg reg;
	struct user_event *ev;
	int ret, idx;

	ret = copy_struct_from_user(&reg, sizeof(reg), ureg, size);
	if (ret)
		return ret;
	ret = user_event_reg_check(&reg);
	if (ret)
		return ret;
	opts.flags = reg.flags;
	opts.keep = reg.flags & USER_EVENT_REG_PERSIST;
	ret = user_event_reg_cmd(ufd, reg.name_args, &opts, &ev);
	if (ret)
		return ret;
	ret = user_event_enabler_add(ev, &reg);
	if (ret) {
		guard(mutex)(&event_mutex);
		user_event_put(ev);
		return ret;
	}
	WRITE_ONCE(ufd->idle_ret, -EBADF);
	idx = user_event_fd_add(ufd, ev);
	if (idx < 0)
		return idx;
	return put_user(idx, &ureg->write_index) ? -EFAULT : 0;
}

/* The layout is told by its size: 20 bytes status page, 28+ remote write */
static long user_event_ioctl_reg(struct user_event_fd *ufd, void __user *ureg)
{
	u32 size;

	if (get_user(size, (u32 __user *)ureg))
		return -EFAULT;
	if (size > PAGE_SIZE)
		return -E2BIG;
	if (size < sizeof(struct user_status_reg))
		return -EINVAL;
	if (size < sizeof(struct user_reg))
		return user_event_reg_status(ufd, ureg, size);
	return user_event_reg_enabler(ufd, ureg, size);
}

static long user_event_ioctl_unreg(struct user_event_fd *ufd,
				   struct user_unreg __user *uunreg)
{
	struct user_unreg unreg;
	u32 size;
	int ret;

	if (get_user(size, &uunreg->size))
		return -EFAULT;
	if (size > PAGE_SIZE)
		return -E2BIG;
	if (size < sizeof(unreg))
		return -EINVAL;
	ret = copy_struct_from_user(&unreg, sizeof(unreg), uunreg, size);
	if (ret)
		return ret;
	if (unreg.__reserved || unreg.__reserved2)
		return -EINVAL;
	return user_event_enabler_remove(ufd->group, &unreg);
}

static long user_event_ioctl_del(struct user_event_fd *ufd,
				 char __user *uname)
{
	char *name;
	int ret;

	name = strndup_user(uname, USER_EVENT_NAME_MAX + 1);
	if (IS_ERR(name))
		return PTR_ERR(name);
	ret = user_event_delete(ufd->group, name);
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
		return user_event_ioctl_del(ufd, (char __user *)arg);
	case DIAG_IOCSUNREG:
		return user_event_ioctl_unreg(ufd, (void __user *)arg);
	}
	return -ENOTTY;
}

const struct file_operations user_event_data_fops = {
	.open		= user_event_data_open,
	.write		= user_event_write,
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
	/* Without groups, the default group works on */
	if (user_event_groups_init())
		pr_warn("user_events: no user_events_groups\n");
	return 0;
err:
	pr_warn("user_events: not available (%d)\n", ret);
	return ret;
}
fs_initcall(user_events_init);
