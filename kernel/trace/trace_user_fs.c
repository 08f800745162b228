// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: the tracefs files of a group.
 *
 * Every group has these two, the default group at the top of tracefs,
 * the others in user_events_groups/NAME/ (trace_user_groups.c):
 *
 * user_events_data: DIAG_IOCSREG registers an event and gives the fd a
 *   write index for it (the size of the argument tells the status-page
 *   layout from the remote-write one; DIAG_IOCSSTATUS takes the
 *   status-page layout at any size), DIAG_IOCSUNREG removes a
 *   remote-write word, DIAG_IOCSDEL deletes an unreferenced event, write()
 *   emits (trace_user_write.c).  An fd reaches the events of its own group
 *   only.  Its index table only grows, under user_event_fd.lock, by
 *   replacing the whole table (RCU); the events it names stay pinned until
 *   release.
 * user_events_status: mmap of the group's status page
 *   (trace_user_status.c), read() of a summary of its events.
 *
 * 32-bit programs on a 64-bit kernel use the same structures, which are
 * packed and hold addresses in __u64 fields, so only two things differ for
 * them: the numbers of the ioctls whose type is a pointer (the number
 * encodes the pointer's size), which user_event_data_compat_ioctl() maps,
 * and the bits above an address, which user_event_uaddr() drops.
 *
 * Everything here reaches events through the registry
 * (trace_events_user.c) and the enablers (trace_user_enabler.c), never
 * the other way round.
 */
#include <linux/compat.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>

#include "trace.h"
#include "trace_user.h"

/* ---- user_events_data ---- */

static int user_event_data_open(struct inode *inode, struct file *file)
{
	struct user_event_group *group = user_event_group_open(inode);
	struct user_event_fd *ufd;

	if (IS_ERR(group))
		return PTR_ERR(group);
	ufd = kzalloc_obj(*ufd);
	if (!ufd) {
		user_event_group_close(group);
		return -ENOMEM;
	}
	ufd->group = group;
	mutex_init(&ufd->lock);
	file->private_data = ufd;
	/*
	 * A write has no position: as a stream, write() and writev() leave
	 * f_pos alone, and threads writing through one fd do not queue on
	 * its f_pos_lock.  pwrite() and pwritev() still write the event,
	 * their offset ignored; lseek() fails with -ESPIPE as it did.
	 */
	file->f_mode &= ~FMODE_ATOMIC_POS;
	file->f_mode |= FMODE_STREAM;
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
		for (i = 0; i < refs->count; i++) {
			user_event_put(refs->events[i]);
			kfree(user_event_slot_loss(refs, i));
		}
	}
	kfree(refs);
	mutex_destroy(&ufd->lock);
	user_event_group_close(ufd->group);
	kfree(ufd);
	return 0;
}

/*
 * A copy of old (NULL: none) with n slots, room for their loss counts
 * when some slot has or gets them (loss), the slots past old's empty.
 */
static struct user_event_refs *user_event_refs_grow(struct user_event_refs *old,
						    unsigned int n, bool loss)
{
	unsigned int i, had = old ? old->count : 0;
	struct user_event_refs *new;
	size_t size = struct_size(new, events, n);

	loss = loss || (old && old->loss);
	if (loss)
		size += n * sizeof(*new->loss);
	new = kzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!new)
		return NULL;
	new->count = n;
	if (loss)
		new->loss = (struct user_event_loss **)&new->events[n];
	for (i = 0; i < had; i++) {
		new->events[i] = old->events[i];
		if (loss)
			new->loss[i] = user_event_slot_loss(old, i);
	}
	return new;
}

/*
 * Give the pinned ev a slot in ufd, or its existing one, with loss counts
 * when report asks for them; consumes the pin.  The table is replaced,
 * never changed in place: a slot that starts counting is a new table too.
 */
static int user_event_fd_add(struct user_event_fd *ufd, struct user_event *ev,
			     bool report)
{
	struct user_event_loss *loss = NULL;
	struct user_event_refs *old, *new;
	unsigned int i, n;

	if (report) {
		loss = kzalloc_obj(*loss, GFP_KERNEL_ACCOUNT);
		if (!loss)
			goto nomem;
	}
	scoped_guard(mutex, &ufd->lock) {
		old = rcu_dereference_protected(ufd->refs,
						lockdep_is_held(&ufd->lock));
		n = old ? old->count : 0;
		for (i = 0; i < n && old->events[i] != ev; i++)
			;
		/* The slot pins ev too: this cannot be the last pin */
		if (i < n && (!loss || user_event_slot_loss(old, i))) {
			user_event_put_not_last(ev);
			kfree(loss);
			return i;
		}
		new = user_event_refs_grow(old, max(i + 1, n), loss);
		if (new) {
			if (i < n)
				user_event_put_not_last(ev);
			new->events[i] = ev;
			if (loss)
				new->loss[i] = loss;
			rcu_assign_pointer(ufd->refs, new);
			if (old)
				kfree_rcu(old, rcu);
			return i;
		}
	}
	kfree(loss);
nomem:
	/* Not under ufd->lock: the two locks are never nested */
	mutex_lock(&event_mutex);
	user_event_put(ev);
	mutex_unlock(&event_mutex);
	return -ENOMEM;
}

/*
 * An address from a registration, as wide as the caller's pointers: a
 * 32-bit program's address is the low 32 bits of the field, as a 32-bit
 * kernel reads it.  The C conversion of a pointer to __u64 may fill the
 * bits above (GCC sign-extends on i386): they are not part of the address.
 */
static u64 user_event_uaddr(u64 addr)
{
	if (in_compat_syscall())
		return (unsigned long)compat_ptr((compat_uptr_t)addr);
	return (unsigned long)u64_to_user_ptr(addr);
}

/* Register cmd at user address uargs; returns the pinned event */
static int user_event_reg_cmd(struct user_event_fd *ufd, u64 uargs,
			      const struct user_event_reg_opts *opts,
			      struct user_event **evp)
{
	struct trace_parse_err perr;
	char *cmd;
	int ret;

	cmd = strndup_user(u64_to_user_ptr(user_event_uaddr(uargs)),
			   USER_EVENT_CMD_MAX);
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
	/* The 20 bytes of struct user_status_reg read with flags 0 */
	struct user_status_reg_flags reg;
	struct user_event *ev;
	int ret, idx;

	ret = copy_struct_from_user(&reg, sizeof(reg), ureg, size);
	if (ret)
		return ret;
	if (reg.flags & ~USER_EVENT_REG_REPORT_LOSS)
		return -EINVAL;
	opts.flags = reg.flags;
	ret = user_event_reg_cmd(ufd, reg.name_args, &opts, &ev);
	if (ret)
		return ret;
	idx = user_event_fd_add(ufd, ev, reg.flags);
	if (idx < 0)
		return idx;
	/* The fd now pins ev: it cannot go away under us */
	if (put_user(ev->bit, &ureg->status_bit) ||
	    put_user(idx, &ureg->write_index))
		return -EFAULT;
	return 0;
}

/* The checks of a remote-write registration, before anything is created */
static int user_event_reg_check(const struct user_event_group *group,
				const struct user_reg *reg)
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
	if ((reg->flags & USER_EVENT_REG_PERSIST) &&
	    !user_event_may_persist(group))
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
	reg.enable_addr = user_event_uaddr(reg.enable_addr);
	ret = user_event_reg_check(ufd->group, &reg);
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
	idx = user_event_fd_add(ufd, ev,
				reg.flags & USER_EVENT_REG_REPORT_LOSS);
	if (idx < 0)
		return idx;
	return put_user(idx, &ureg->write_index) ? -EFAULT : 0;
}

/*
 * The u32 size an ioctl's argument starts with, at least @min and at most
 * a page; copy_struct_from_user() later checks that bytes past what the
 * kernel reads are 0.
 */
static int user_event_ioctl_size(const void __user *uarg, size_t min,
				 u32 *size)
{
	if (get_user(*size, (const u32 __user *)uarg))
		return -EFAULT;
	if (*size > PAGE_SIZE)
		return -E2BIG;
	if (*size < min)
		return -EINVAL;
	return 0;
}

/*
 * DIAG_IOCSREG: the layout is told by its size, 20-27 bytes status page
 * (as Linux 6.1's programs pass it), 28 and more remote write.
 */
static long user_event_ioctl_reg(struct user_event_fd *ufd, void __user *ureg)
{
	u32 size;
	long ret;

	ret = user_event_ioctl_size(ureg, sizeof(struct user_status_reg), &size);
	if (ret)
		return ret;
	if (size < sizeof(struct user_reg))
		return user_event_reg_status(ufd, ureg, size);
	return user_event_reg_enabler(ufd, ureg, size);
}

/* DIAG_IOCSSTATUS: the status-page layout, whatever its size */
static long user_event_ioctl_status(struct user_event_fd *ufd,
				    void __user *ureg)
{
	u32 size;
	long ret;

	ret = user_event_ioctl_size(ureg, sizeof(struct user_status_reg), &size);
	if (ret)
		return ret;
	return user_event_reg_status(ufd, ureg, size);
}

/*
 * Copy the argument of an ioctl that starts with its u32 size into dst
 * (ksize bytes): at least ksize, at most a page, bytes past ksize zero.
 */
static int user_event_ioctl_arg(void *dst, size_t ksize,
				const void __user *uarg)
{
	u32 size;
	int ret;

	ret = user_event_ioctl_size(uarg, ksize, &size);
	if (ret)
		return ret;
	return copy_struct_from_user(dst, ksize, uarg, size);
}

static long user_event_ioctl_unreg(struct user_event_fd *ufd,
				   struct user_unreg __user *uunreg)
{
	struct user_unreg unreg;
	int ret;

	ret = user_event_ioctl_arg(&unreg, sizeof(unreg), uunreg);
	if (ret)
		return ret;
	if (unreg.__reserved || unreg.__reserved2)
		return -EINVAL;
	unreg.disable_addr = user_event_uaddr(unreg.disable_addr);
	return user_event_enabler_remove(ufd->group, &unreg);
}

/* The loss counts of the registration behind a write index */
static long user_event_ioctl_loss(struct user_event_fd *ufd,
				  struct user_loss __user *uloss)
{
	struct user_event_refs *refs;
	struct user_event_loss *loss;
	struct user_loss kloss;
	int ret;

	ret = user_event_ioctl_arg(&kloss, sizeof(kloss), uloss);
	if (ret)
		return ret;
	/* Slots only grow and keep their counts while the fd is open */
	scoped_guard(mutex, &ufd->lock) {
		refs = rcu_dereference_protected(ufd->refs,
						 lockdep_is_held(&ufd->lock));
		if (!refs || kloss.write_index >= refs->count)
			return -ENOENT;
		loss = user_event_slot_loss(refs, kloss.write_index);
	}
	if (!loss)
		return -EINVAL;
	kloss.lost = atomic64_read(&loss->n[USER_LOSS_ANY]);
	kloss.ring_full = atomic64_read(&loss->n[USER_LOSS_RING]);
	kloss.perf_full = atomic64_read(&loss->n[USER_LOSS_PERF]);
	kloss.too_big = atomic64_read(&loss->n[USER_LOSS_SIZE]);
	return copy_to_user(uloss, &kloss, sizeof(kloss)) ? -EFAULT : 0;
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
	case DIAG_IOCGLOSS:
		return user_event_ioctl_loss(ufd, (void __user *)arg);
	case DIAG_IOCSSTATUS:
		return user_event_ioctl_status(ufd, (void __user *)arg);
	}
	return -ENOTTY;
}

#ifdef CONFIG_COMPAT
/*
 * The three ioctls are typed by a pointer, so the size in their numbers
 * is a pointer's: a 32-bit program issues these.  Their arguments are
 * laid out alike for both (packed, addresses in __u64).
 */
#define DIAG_IOCSREG32		_IOWR(DIAG_IOC_MAGIC, 0, compat_uptr_t)
#define DIAG_IOCSDEL32		_IOW(DIAG_IOC_MAGIC, 1, compat_uptr_t)
#define DIAG_IOCSUNREG32	_IOW(DIAG_IOC_MAGIC, 2, compat_uptr_t)

/* Any other number is the same for both: it goes through as it is */
static long user_event_data_compat_ioctl(struct file *file, unsigned int cmd,
					 unsigned long arg)
{
	switch (cmd) {
	case DIAG_IOCSREG32:
		cmd = DIAG_IOCSREG;
		break;
	case DIAG_IOCSDEL32:
		cmd = DIAG_IOCSDEL;
		break;
	case DIAG_IOCSUNREG32:
		cmd = DIAG_IOCSUNREG;
		break;
	}
	return user_event_data_ioctl(file, cmd, (unsigned long)compat_ptr(arg));
}
#endif

static const struct file_operations user_event_data_fops = {
	.open		= user_event_data_open,
	.write		= user_event_write,
	.write_iter	= user_event_write_iter,
	.unlocked_ioctl	= user_event_data_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl	= user_event_data_compat_ioctl,
#endif
	.release	= user_event_data_release,
};

/* ---- user_events_status ---- */

/*
 * Only whole, read-only, shared views of the group's page.  The view may
 * never become writable (no VM_MAYWRITE) nor grow (VM_DONTEXPAND); fork()
 * copies it like any shared mapping, so a child reads the bits its parent
 * registered for.
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

static void user_event_status_loss(struct seq_file *m,
				   const struct user_event_loss *loss)
{
	seq_printf(m, user_event_status_text.lost,
		   (u64)atomic64_read(&loss->n[USER_LOSS_ANY]),
		   (u64)atomic64_read(&loss->n[USER_LOSS_RING]),
		   (u64)atomic64_read(&loss->n[USER_LOSS_PERF]),
		   (u64)atomic64_read(&loss->n[USER_LOSS_SIZE]));
}

/*
 * "bit:name [# Used by ftrace, perf] [# Lost ...]" lines (bit 0: none;
 * the loss counts of events some registration asked them for), then
 * totals: the events of the file's group only.
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
		seq_printf(m, "%u:%s", ev->bit, ev->tp.name);
		if (ev->ftrace_users || ev->perf_users) {
			busy++;
			seq_puts(m, user_event_status_text.used_by);
			if (ev->ftrace_users)
				seq_printf(m, " %s", user_event_status_text.ftrace);
			if (ev->perf_users)
				seq_printf(m, "%s %s", ev->ftrace_users ? "," : "",
					   user_event_status_text.perf);
		}
		if (ev->reports_loss)
			user_event_status_loss(m, &ev->loss);
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

static const struct file_operations user_event_status_fops = {
	.open		= user_event_status_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= user_event_status_release,
	.mmap		= user_event_status_mmap,
};

/**
 * user_event_files_create() - make a group's user_events_data and
 *	user_events_status
 * @parent: their folder (NULL: the top of tracefs)
 * @id: what their inodes' i_private holds: the group's id, NULL for the
 *	default group (user_event_group_open())
 *
 * Return: 0, or -ENOMEM when tracefs could not make one; the caller removes
 * what was made.
 */
int user_event_files_create(struct dentry *parent, void *id)
{
	if (!tracefs_create_file("user_events_data", TRACE_MODE_WRITE, parent,
				 id, &user_event_data_fops) ||
	    !tracefs_create_file("user_events_status", TRACE_MODE_READ, parent,
				 id, &user_event_status_fops))
		return -ENOMEM;
	return 0;
}

static int __init user_events_init(void)
{
	int ret;

	ret = user_event_status_alloc(&user_event_default_group);
	if (ret)
		goto err;
	user_event_status_init();
	ret = dyn_event_register(&user_event_dyn_ops);
	if (ret)
		goto err;
	ret = user_event_files_create(NULL, NULL);
	if (ret)
		goto err;
	/* Without groups, the default group works on */
	if (user_event_groups_init())
		pr_warn("user_events: no user_events_groups\n");
	return 0;
err:
	pr_warn("user_events: not available (%d)\n", ret);
	return ret;
}
fs_initcall(user_events_init);
