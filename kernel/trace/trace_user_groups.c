// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: groups made and removed in user_events_groups/.
 *
 * mkdir user_events_groups/NAME (CAP_SYS_ADMIN) makes a group, whose
 * events live in system "user_events_NAME", and its folder of four files:
 * user_events_data and user_events_status as the default group has them
 * (trace_user_fs.c), and
 *
 * user_events_max: the most events the group may hold.
 * user_events_persist: 1 lets whoever may write the group's
 *   user_events_data make and delete persistent events.
 *
 * rmdir removes the group and its events, or nothing (-EBUSY) while one of
 * its files is open or one of its events is in use.  A container is given
 * a group by binding its two files onto its /sys/kernel/tracing/ paths;
 * the files can be chown'ed to the container's users.  See trace_user.h
 * ("Groups") for the locking.
 */
#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/init.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>

#include "trace.h"
#include "trace_user.h"

/* Where error_log says the refusal of a group name comes from */
#define USER_EVENT_GROUP_LOC	"user_events_groups"
/* Events a new group may hold until its user_events_max is written */
#define USER_EVENT_GROUP_MAX_DEFAULT	1024

/* A group made by mkdir: the group, and what its folder needs */
struct user_event_dir_group {
	struct user_event_group	group;
	unsigned long		id;		/* i_private of its files */
	unsigned int		open_files;	/* user_event_group_mutex */
	bool			persist;	/* PERSIST delegated; READ_ONCE */
	struct dentry		*dir;		/* user_events_groups/NAME */
	struct list_head	link;		/* user_event_groups */
};

/* Guards user_event_groups, open_files and the ids */
static DEFINE_MUTEX(user_event_group_mutex);
/* The groups made by mkdir */
static LIST_HEAD(user_event_groups);
/* Id of the next group; never reused (user_event_group_mutex) */
static unsigned long user_event_group_next_id = 1;
/* tracefs user_events_groups/ */
static struct dentry *user_event_groups_dir;

static struct user_event_dir_group *
user_event_dir_group(const struct user_event_group *group)
{
	return container_of(group, struct user_event_dir_group, group);
}

static struct user_event_dir_group *user_event_group_find(const char *name)
{
	struct user_event_dir_group *dg;

	lockdep_assert_held(&user_event_group_mutex);
	list_for_each_entry(dg, &user_event_groups, link)
		if (!strcmp(dg->group.name, name))
			return dg;
	return NULL;
}

/**
 * user_event_group_open() - the group of a file being opened
 * @inode: the file's inode, whose i_private is its group's id (NULL: the
 *	default group)
 *
 * Counts the file open in its group until user_event_group_close().
 *
 * Return: the group; tracefs's own refusal of the open; or -ENODEV when the
 * group is gone (a bind mount of its file outlives rmdir).
 */
struct user_event_group *user_event_group_open(struct inode *inode)
{
	unsigned long id = (unsigned long)inode->i_private;
	struct user_event_dir_group *dg;
	int ret = tracing_check_open_get_tr(NULL);

	if (ret)
		return ERR_PTR(ret);
	if (!id)
		return &user_event_default_group;
	guard(mutex)(&user_event_group_mutex);
	list_for_each_entry(dg, &user_event_groups, link) {
		if (dg->id == id) {
			dg->open_files++;
			return &dg->group;
		}
	}
	return ERR_PTR(-ENODEV);
}

/**
 * user_event_group_close() - a file of group is released
 * @group: what user_event_group_open() gave for it
 */
void user_event_group_close(struct user_event_group *group)
{
	if (group == &user_event_default_group)
		return;
	guard(mutex)(&user_event_group_mutex);
	user_event_dir_group(group)->open_files--;
}

/**
 * user_event_group_persist() - has group's creator delegated persistence
 * @group: the group of the events
 *
 * Return: true when the group's user_events_persist holds 1; never for the
 * default group, which has no such file.
 */
bool user_event_group_persist(const struct user_event_group *group)
{
	return group != &user_event_default_group &&
	       READ_ONCE(user_event_dir_group(group)->persist);
}

/* ---- user_events_max and user_events_persist ---- */

static int user_event_knob_open(struct inode *inode, struct file *file)
{
	struct user_event_group *group = user_event_group_open(inode);

	if (IS_ERR(group))
		return PTR_ERR(group);
	file->private_data = user_event_dir_group(group);
	return nonseekable_open(inode, file);
}

static int user_event_knob_release(struct inode *inode, struct file *file)
{
	struct user_event_dir_group *dg = file->private_data;

	user_event_group_close(&dg->group);
	return 0;
}

/*
 * What the knobs' writers must be: whoever opened the file (it can be
 * given to a container) must also have held CAP_SYS_ADMIN then, so a
 * delegated group cannot raise its own limit nor grant itself persistence,
 * not even by handing its fd to a privileged program that writes what it
 * is given.
 */
static bool user_event_knob_writer(struct file *file)
{
	return file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN);
}

static ssize_t user_event_max_read(struct file *file, char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct user_event_dir_group *dg = file->private_data;
	char buf[16];
	int len;

	len = snprintf(buf, sizeof(buf), "%u\n", READ_ONCE(dg->group.max));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/* A limit below the count only stops creation */
static ssize_t user_event_max_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	struct user_event_dir_group *dg = file->private_data;
	unsigned int max;
	int ret;

	if (!user_event_knob_writer(file))
		return -EPERM;
	ret = kstrtouint_from_user(ubuf, count, 10, &max);
	if (ret)
		return ret;
	WRITE_ONCE(dg->group.max, max);
	return count;
}

static const struct file_operations user_event_max_fops = {
	.open		= user_event_knob_open,
	.read		= user_event_max_read,
	.write		= user_event_max_write,
	.release	= user_event_knob_release,
};

static ssize_t user_event_persist_read(struct file *file, char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	struct user_event_dir_group *dg = file->private_data;
	char buf[2] = { READ_ONCE(dg->persist) ? '1' : '0', '\n' };

	return simple_read_from_buffer(ubuf, count, ppos, buf, sizeof(buf));
}

/*
 * Taking persistence back leaves the group's persistent events; deleting
 * them then needs CAP_PERFMON again.
 */
static ssize_t user_event_persist_write(struct file *file,
					const char __user *ubuf,
					size_t count, loff_t *ppos)
{
	struct user_event_dir_group *dg = file->private_data;
	bool persist;
	int ret;

	if (!user_event_knob_writer(file))
		return -EPERM;
	ret = kstrtobool_from_user(ubuf, count, &persist);
	if (ret)
		return ret;
	WRITE_ONCE(dg->persist, persist);
	return count;
}

static const struct file_operations user_event_persist_fops = {
	.open		= user_event_knob_open,
	.read		= user_event_persist_read,
	.write		= user_event_persist_write,
	.release	= user_event_knob_release,
};

/* ---- mkdir and rmdir ---- */

static void user_event_group_free(struct user_event_dir_group *dg)
{
	user_event_status_free(&dg->group);
	kfree(dg->group.system);
	kfree(dg->group.name);
	kfree(dg);
}

static struct user_event_dir_group *user_event_group_alloc(const char *name)
{
	struct user_event_dir_group *dg;
	struct user_event_group *group;

	dg = kzalloc_obj(*dg);
	if (!dg)
		return NULL;
	group = &dg->group;
	group->name = kstrdup(name, GFP_KERNEL);
	group->system = kasprintf(GFP_KERNEL, "%s_%s", USER_EVENTS_SYSTEM,
				  name);
	if (!group->name || !group->system ||
	    user_event_status_alloc(group)) {
		kfree(group->system);
		kfree(group->name);
		kfree(dg);
		return NULL;
	}
	/* Multi-format names hold a '.': they cannot meet the others */
	group->multi_system = group->system;
	group->max = USER_EVENT_GROUP_MAX_DEFAULT;
	return dg;
}

/* The folder and its files, which name the group by its id */
static int user_event_group_files(struct user_event_dir_group *dg)
{
	void *id = (void *)dg->id;

	dg->dir = tracefs_create_dir(dg->group.name, user_event_groups_dir);
	if (!dg->dir)
		return -ENOMEM;
	if (user_event_files_create(dg->dir, id) ||
	    !tracefs_create_file("user_events_max", TRACE_MODE_WRITE,
				 dg->dir, id, &user_event_max_fops) ||
	    !tracefs_create_file("user_events_persist", TRACE_MODE_WRITE,
				 dg->dir, id, &user_event_persist_fops)) {
		tracefs_remove(dg->dir);
		return -ENOMEM;
	}
	return 0;
}

static int user_event_group_mkdir(const char *name)
{
	struct user_event_dir_group *dg;
	struct trace_parse_err perr;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	ret = user_event_group_name_check(name, &perr);
	if (ret) {
		tracing_log_err(NULL, USER_EVENT_GROUP_LOC, name,
				user_event_errs, perr.err, perr.pos);
		return ret;
	}

	guard(mutex)(&user_event_group_mutex);
	if (user_event_group_find(name)) {
		tracing_log_err(NULL, USER_EVENT_GROUP_LOC, name,
				user_event_errs, USER_ERR_GROUP_EXISTS, 0);
		return -EEXIST;
	}
	dg = user_event_group_alloc(name);
	if (!dg)
		return -ENOMEM;
	dg->id = user_event_group_next_id++;
	ret = user_event_group_files(dg);
	if (ret) {
		user_event_group_free(dg);
		return ret;
	}
	list_add_tail(&dg->link, &user_event_groups);
	return 0;
}

static int user_event_group_rmdir(const char *name)
{
	struct user_event_dir_group *dg;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	guard(mutex)(&user_event_group_mutex);
	dg = user_event_group_find(name);
	if (!dg)
		return -ENOENT;
	if (dg->open_files)
		return -EBUSY;
	ret = user_event_group_destroy_events(&dg->group);
	if (ret)
		return ret;
	/* No file opens it from now on: its id is nowhere to be found */
	list_del(&dg->link);
	tracefs_remove(dg->dir);
	user_event_group_free(dg);
	return 0;
}

/**
 * user_event_groups_init() - make tracefs user_events_groups/
 *
 * Return: 0, or -ENODEV when tracefs could not make the folder.
 */
int __init user_event_groups_init(void)
{
	user_event_groups_dir =
		tracefs_create_instance_dir(USER_EVENT_GROUP_LOC, NULL,
					    user_event_group_mkdir,
					    user_event_group_rmdir);
	return user_event_groups_dir ? 0 : -ENODEV;
}
