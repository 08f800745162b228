// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: groups, made and removed in tracefs user_events_groups/.
 *
 * mkdir user_events_groups/NAME (CAP_SYS_ADMIN) makes a group with its own
 * user_events_data, user_events_status and user_events_max; its events
 * live in system "user_events_NAME".  rmdir removes the group and its
 * events, or nothing (-EBUSY) while one of its files is open or one of
 * its events is in use.  The default group, the top-level files, is never
 * removed.  A container is given a group by binding its two files onto
 * its /sys/kernel/tracing/ paths; the files can be chown'ed to the
 * container's users.  See trace_user.h ("Groups") for the locking.
 */
#include <linux/capability.h>
#include <linux/ctype.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>
#include <linux/uaccess.h>

#include "trace.h"
#include "trace_user.h"

/* Where error_log says the refusal of a group name comes from */
#define USER_EVENT_GROUP_LOC	"user_events_groups"

/* The top-level files: no folder, no limit but kernel.user_events_max */
struct user_event_group user_event_default_group = {
	.system		= USER_EVENTS_SYSTEM,
	.multi_system	= USER_EVENTS_MULTI_SYSTEM,
	.max		= UINT_MAX,
};

/* Guards user_event_groups, open_files and the ids */
static DEFINE_MUTEX(user_event_group_mutex);
/* The groups made by mkdir */
static LIST_HEAD(user_event_groups);
/* Id of the next group; never reused (user_event_group_mutex) */
static unsigned long user_event_group_next_id = 1;
/* tracefs user_events_groups/ */
static struct dentry *user_event_groups_dir;

/*
 * Names whose system would be one that exists for other reasons: the
 * default group's multi-format events and the registry's tracepoints.
 */
static const char * const user_event_group_reserved[] = {
	"multi",
	"registry",
};

/*
 * Can name be a group?  It becomes part of a system name, which tools
 * (perf's "system:event") read as an identifier.  On refusal perr says
 * why and where; -ENAMETOOLONG for a long name, -EINVAL otherwise.
 */
int user_event_group_name_check(const char *name,
				struct trace_parse_err *perr)
{
	size_t i, len = strlen(name);

	if (!len)
		return trace_parse_fail(perr, USER_ERR_GROUP_NO_NAME, 0);
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && name[i] != '_')
			return trace_parse_fail(perr, USER_ERR_GROUP_BAD_NAME,
						i);
	if (len > USER_EVENT_GROUP_NAME_MAX) {
		trace_parse_fail(perr, USER_ERR_GROUP_NAME_LONG,
				 USER_EVENT_GROUP_NAME_MAX);
		return -ENAMETOOLONG;
	}
	for (i = 0; i < ARRAY_SIZE(user_event_group_reserved); i++)
		if (!strcmp(name, user_event_group_reserved[i]))
			return trace_parse_fail(perr, USER_ERR_GROUP_RESERVED,
						0);
	perr->err = USER_ERR_NONE;
	return 0;
}

static struct user_event_group *user_event_group_find(const char *name)
{
	struct user_event_group *group;

	lockdep_assert_held(&user_event_group_mutex);
	list_for_each_entry(group, &user_event_groups, link)
		if (!strcmp(group->name, name))
			return group;
	return NULL;
}

/*
 * The group of a file being opened, counted open in it: after tracefs's
 * own check of the open (its error), or -ENODEV when the group is gone
 * (a bind mount of its file outlives rmdir).
 */
struct user_event_group *user_event_group_open(struct inode *inode)
{
	unsigned long id = (unsigned long)inode->i_private;
	struct user_event_group *group;
	int ret = tracing_check_open_get_tr(NULL);

	if (ret)
		return ERR_PTR(ret);
	if (!id)
		return &user_event_default_group;
	guard(mutex)(&user_event_group_mutex);
	list_for_each_entry(group, &user_event_groups, link) {
		if (group->id == id) {
			group->open_files++;
			return group;
		}
	}
	return ERR_PTR(-ENODEV);
}

void user_event_group_close(struct user_event_group *group)
{
	if (group == &user_event_default_group)
		return;
	guard(mutex)(&user_event_group_mutex);
	group->open_files--;
}

static int user_event_max_open(struct inode *inode, struct file *file)
{
	struct user_event_group *group = user_event_group_open(inode);

	if (IS_ERR(group))
		return PTR_ERR(group);
	file->private_data = group;
	return nonseekable_open(inode, file);
}

static int user_event_max_release(struct inode *inode, struct file *file)
{
	user_event_group_close(file->private_data);
	return 0;
}

static ssize_t user_event_max_read(struct file *file, char __user *ubuf,
				   size_t count, loff_t *ppos)
{
	struct user_event_group *group = file->private_data;
	char buf[16];
	int len;

	len = snprintf(buf, sizeof(buf), "%u\n", READ_ONCE(group->max));
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

/*
 * The group's limit: whoever opened the file (it can be given to a
 * container) must also have held CAP_SYS_ADMIN then, so a delegated group
 * cannot raise its own limit, not even by handing its fd to a privileged
 * program that writes what it is given.  A limit below the count only
 * stops creation.
 */
static ssize_t user_event_max_write(struct file *file, const char __user *ubuf,
				    size_t count, loff_t *ppos)
{
	struct user_event_group *group = file->private_data;
	unsigned int max;
	int ret;

	if (!file_ns_capable(file, &init_user_ns, CAP_SYS_ADMIN))
		return -EPERM;
	ret = kstrtouint_from_user(ubuf, count, 10, &max);
	if (ret)
		return ret;
	WRITE_ONCE(group->max, max);
	return count;
}

static const struct file_operations user_event_max_fops = {
	.open		= user_event_max_open,
	.read		= user_event_max_read,
	.write		= user_event_max_write,
	.release	= user_event_max_release,
};

static void user_event_group_free(struct user_event_group *group)
{
	user_event_status_free(group);
	kfree(group->system);
	kfree(group->name);
	kfree(group);
}

static struct user_event_group *user_event_group_alloc(const char *name)
{
	struct user_event_group *group;

	group = kzalloc(sizeof(*group), GFP_KERNEL);
	if (!group)
		return NULL;
	group->name = kstrdup(name, GFP_KERNEL);
	group->system = kasprintf(GFP_KERNEL, "%s_%s", USER_EVENTS_SYSTEM,
				  name);
	if (!group->name || !group->system ||
	    user_event_status_alloc(group)) {
		kfree(group->system);
		kfree(group->name);
		kfree(group);
		return NULL;
	}
	/* Multi-format names hold a '.': they cannot meet the others */
	group->multi_system = group->system;
	group->max = USER_EVENT_GROUP_MAX_DEFAULT;
	return group;
}

/* The folder and its files, which name the group by its id */
static int user_event_group_files(struct user_event_group *group)
{
	void *id = (void *)group->id;

	group->dir = tracefs_create_dir(group->name, user_event_groups_dir);
	if (!group->dir)
		return -ENOMEM;
	if (!tracefs_create_file("user_events_data", TRACE_MODE_WRITE,
				 group->dir, id, &user_event_data_fops) ||
	    !tracefs_create_file("user_events_status", TRACE_MODE_READ,
				 group->dir, id, &user_event_status_fops) ||
	    !tracefs_create_file("user_events_max", TRACE_MODE_WRITE,
				 group->dir, id, &user_event_max_fops)) {
		tracefs_remove(group->dir);
		return -ENOMEM;
	}
	return 0;
}

static int user_event_group_mkdir(const char *name)
{
	struct user_event_group *group;
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
	group = user_event_group_alloc(name);
	if (!group)
		return -ENOMEM;
	group->id = user_event_group_next_id++;
	ret = user_event_group_files(group);
	if (ret) {
		user_event_group_free(group);
		return ret;
	}
	list_add_tail(&group->link, &user_event_groups);
	return 0;
}

static int user_event_group_rmdir(const char *name)
{
	struct user_event_group *group;
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	guard(mutex)(&user_event_group_mutex);
	group = user_event_group_find(name);
	if (!group)
		return -ENOENT;
	if (group->open_files)
		return -EBUSY;
	ret = user_event_group_destroy_events(group);
	if (ret)
		return ret;
	/* No file opens it from now on: its id is nowhere to be found */
	list_del(&group->link);
	tracefs_remove(group->dir);
	user_event_group_free(group);
	return 0;
}

int __init user_event_groups_init(void)
{
	user_event_groups_dir =
		tracefs_create_instance_dir(USER_EVENT_GROUP_LOC, NULL,
					    user_event_group_mkdir,
					    user_event_group_rmdir);
	return user_event_groups_dir ? 0 : -ENODEV;
}
