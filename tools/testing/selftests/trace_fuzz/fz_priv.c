// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz: the unprivileged worker, and what it must not reach.
 *
 * Distributions delegate user_events to a group: root gives the group
 * write access to user_events_data and read access to user_events_status,
 * and everyone a way through the tracefs root (mode 0711: the group of
 * the root is not changed, since every tracefs file takes it), nothing
 * else.  The unprivileged
 * worker is a process forked before any thread, which first opens, as
 * root, dynamic_events and user_events_data (an fd someone privileged
 * opened and handed down), then drops to uid/gid FZ_UID/FZ_GID with the
 * group FZ_GROUP, and runs its programs: registrations, writes, enablers,
 * status page, forks, like a root worker, and OP_PRIV probes.  Each
 * probe is something root owns; its success is a report:
 *
 * - opening trace, trace_marker, set_event_pid, an event's filter,
 *   trigger or enable file, dynamic_events, or making an instance;
 * - deleting a persistent user event (made by root through dynamic_events
 *   or with USER_EVENT_REG_PERSIST), through its own fd or root's, with
 *   DIAG_IOCSDEL or a "!u:" / "-:" line on root's dynamic_events fd;
 * - making a persistent event: "u:" on root's dynamic_events fd, or
 *   USER_EVENT_REG_PERSIST (both need CAP_PERFMON).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/user_events.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_fuzz.h"

#define FZ_UID 65534
#define FZ_GID 65534
#define FZ_GROUP 1999

/* Give the group what distributions give it, as root, at setup */
void fz_priv_setup(void)
{
	if (chown(T "user_events_data", 0, FZ_GROUP) ||
	    chmod(T "user_events_data", 0660) ||
	    chown(T "user_events_status", 0, FZ_GROUP) ||
	    chmod(T "user_events_status", 0640) ||
	    chmod(T, 0711))
		printf("fuzz: cannot delegate user_events to group %d: %s\n",
		       FZ_GROUP, strerror(errno));
}

/* In the unprivileged process: root's fds first, then no privilege */
int fz_priv_drop(int *dyn_fd, int *root_data)
{
	gid_t g = FZ_GROUP;

	*dyn_fd = open(T "dynamic_events", O_WRONLY | O_APPEND);
	*root_data = open(T "user_events_data", O_RDWR);
	if (setgroups(1, &g) || setgid(FZ_GID) || setuid(FZ_UID)) {
		printf("fuzz: cannot drop privileges: %s\n", strerror(errno));
		return -1;
	}
	if (!getuid() || !setuid(0)) {
		printf("fuzz: still root after dropping privileges\n");
		return -1;
	}
	return 0;
}

/* An open that must be refused */
static bool refused_open(const char *path, int flags)
{
	int fd = open(path, flags);

	if (fd < 0)
		return true;
	close(fd);
	fz_report("privilege", "the unprivileged worker opened %s (flags %#x)",
		  path, flags);
	return false;
}

static bool refused(int ret, const char *what, const char *name)
{
	if (ret < 0)
		return true;
	fz_report("privilege", "the unprivileged worker %s %s", what, name);
	return false;
}

void fz_priv_apply(struct fz_worker *w, const struct fz_op *op)
{
	const char *name = op->arg[1] ? "fz_p1" : "fz_p0";
	char line[64];
	bool ok = true;

	switch (op->arg[0] % 16) {
	case 0:
		ok = refused_open(T "trace", O_RDONLY);
		break;
	case 1:
		ok = refused_open(T "events/sched/sched_switch/filter", O_WRONLY);
		break;
	case 2:
		ok = refused_open(T "events/user_events/fz_u0/trigger", O_WRONLY);
		break;
	case 3:
		ok = refused_open(T "dynamic_events", O_WRONLY | O_APPEND);
		break;
	case 4:
		ok = refused(mkdir(T "instances/fz_priv", 0755), "made",
			     "instances/fz_priv");
		if (!ok)
			rmdir(T "instances/fz_priv");
		/* a user_events group takes CAP_SYS_ADMIN as well */
		if (ok && op->arg[1]) {
			ok = refused(mkdir(T "user_events_groups/fz_priv", 0755),
				     "made", "user_events_groups/fz_priv");
			if (!ok)
				rmdir(T "user_events_groups/fz_priv");
		}
		break;
	case 5:
		ok = refused_open(T "trace_marker", O_WRONLY);
		break;
	case 6:
		ok = refused_open(T "set_event_pid", O_WRONLY);
		break;
	case 7:
	case 8:
		ok = refused(ioctl(w->data[0], DIAG_IOCSDEL, name),
			     "deleted the persistent event", name);
		break;
	case 9:
	case 10:
		ok = refused(ioctl(w->root_data, DIAG_IOCSDEL, name),
			     "deleted, through root's fd, the persistent event", name);
		break;
	case 11:
		snprintf(line, sizeof(line), "%s%s", op->arg[2] & 1 ?
			 "!u:" : "-:user_events/", name);
		ok = refused(write(w->dyn_fd, line, strlen(line)),
			     "deleted, through root's dynamic_events fd,", name);
		break;
	case 12:
		snprintf(line, sizeof(line), "u:fz_pz u32 a");
		ok = refused(write(w->dyn_fd, line, strlen(line)),
			     "made, through root's dynamic_events fd,", "fz_pz");
		break;
	case 13: {
		struct user_reg reg = {
			.size = sizeof(reg),
			.enable_size = 4,
			.flags = 1,	/* USER_EVENT_REG_PERSIST */
			.enable_addr = (uintptr_t)w->enable_page + PAGE - 8,
			.name_args = (uintptr_t)"fz_u1 u64 x; u64 y",
		};

		ok = refused(ioctl(w->data[0], DIAG_IOCSREG, &reg),
			     "registered with USER_EVENT_REG_PERSIST", "fz_u1");
		if (!ok) {
			struct user_unreg u = {
				.size = sizeof(u),
				.disable_addr = reg.enable_addr,
			};

			ioctl(w->data[0], DIAG_IOCSUNREG, &u);
		}
		break;
	}
	case 14:
		ok = refused_open(T "events/user_events/fz_u0/enable", O_WRONLY);
		break;
	default: {
		/* what it was given: the status file opens */
		int fd = open(T "user_events_status", O_RDONLY);

		if (fd >= 0)
			close(fd);
		__atomic_add_fetch(&fz->kind_ok[OP_PRIV], fd >= 0, __ATOMIC_RELAXED);
		return;
	}
	}
	if (ok)
		__atomic_add_fetch(&fz->privs_refused, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&fz->kind_ok[OP_PRIV], ok, __ATOMIC_RELAXED);
}
