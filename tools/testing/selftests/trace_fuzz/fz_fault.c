// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz: fault injection on creation paths, and what must hold
 * after it.
 *
 * An OP_FAULT operation makes one object of the worker's own (names
 * fz_f<worker>...: nobody else touches them) with the N-th allocation
 * of the creating write failing: /proc/thread-self/fail-nth counts the
 * failslab and fail_page_alloc calls of this thread alone, so the fault
 * lands on the creation path, and N from 1 up reaches every unwind of
 * it.  The file is opened before the count is armed, so what fails is
 * the command, not the open.  The objects: a synthetic event, a user
 * event by dynamic_events, an eprobe, an instance, a histogram, a
 * status-page registration, a filter and a user_events group (mkdir).
 * Then:
 *
 * - a creation that failed left nothing: the object is not listed
 *   (synthetic_events, dynamic_events, instances/, the trigger or filter
 *   file), and one that succeeded is;
 * - either way the object is deleted again, and is gone;
 * - what it allocated is freed: kmemleak, scanned every few epochs and
 *   at the end, reports whatever an unwind forgot.
 *
 * Without fault injection in the kernel (a coverage kernel, say)
 * the operation still makes, checks and deletes the object.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/user_events.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace_fuzz.h"

#define DBG "/sys/kernel/debug/"

static bool fault_ready;
static __thread int nth_fd = -1;

/* Failures only where fail-nth asks, GFP_KERNEL and order 0 included */
void fz_fault_setup(void)
{
	static const char *const settings[][2] = {
		{ DBG "failslab/ignore-gfp-wait", "N" },
		{ DBG "failslab/verbose", "0" },
		{ DBG "failslab/probability", "0" },
		{ DBG "fail_page_alloc/ignore-gfp-wait", "N" },
		{ DBG "fail_page_alloc/ignore-gfp-highmem", "N" },
		{ DBG "fail_page_alloc/min-order", "0" },
		{ DBG "fail_page_alloc/verbose", "0" },
		{ DBG "fail_page_alloc/probability", "0" },
	};
	unsigned int i;

	fault_ready = true;
	for (i = 0; i < ARRAY_SIZE(settings); i++)
		if (fz_write_file(settings[i][0], settings[i][1],
				  strlen(settings[i][1]), O_TRUNC) < 0)
			fault_ready = false;
	if (!fault_ready)
		printf("fuzz: no fault injection in this kernel: OP_FAULT only makes and checks\n");
}

static void arm(unsigned int n)
{
	char buf[16];
	int len;

	if (!fault_ready)
		return;
	if (nth_fd < 0)
		nth_fd = open("/proc/thread-self/fail-nth", O_RDWR);
	len = snprintf(buf, sizeof(buf), "%u", n);
	if (nth_fd < 0 || pwrite(nth_fd, buf, len, 0) != len)
		return;
}

/* Disarm; whether the fault was injected (the count ran out) */
static bool disarm(void)
{
	char buf[16] = "";

	if (!fault_ready || nth_fd < 0)
		return false;
	if (pread(nth_fd, buf, sizeof(buf) - 1, 0) <= 0)
		buf[0] = '1';
	if (pwrite(nth_fd, "0", 1, 0) != 1)
		return false;
	return atoi(buf) == 0;
}

/* Whether listing file holds the word name (between separators) */
static bool listed(const char *file, const char *name)
{
	static __thread char buf[65536];
	size_t n = strlen(name);
	char *p;

	if (fz_read_file(file, buf, sizeof(buf)) < 0)
		return false;
	for (p = strstr(buf, name); p; p = strstr(p + 1, name))
		if ((p == buf || strchr(" :/\n", p[-1])) && strchr(" \t\n.", p[n]))
			return true;
	return false;
}

static bool exists(const char *path)
{
	struct stat st;

	return !stat(path, &st);
}

/* Write cmd to an open fd with the n-th allocation failing */
static int faulty_write(const char *path, const char *cmd, int flags,
			unsigned int n, bool *injected)
{
	int fd = open(path, O_WRONLY | flags), ret;

	if (fd < 0)
		return -errno;
	arm(n);
	ret = write(fd, cmd, strlen(cmd));
	if (ret < 0)
		ret = -errno;
	*injected = disarm();
	close(fd);
	return ret;
}

/*
 * Whether object @obj of fault_apply() named @name is there.  Another
 * worker may enable it through its subsystem ("events/user_events/
 * enable") between its creation and its delete: then the delete fails
 * with EBUSY, and the cleanup at the end of the epoch, every worker
 * idle, takes it down and checks that it went.
 */
static bool fault_present(unsigned int obj, const char *name, const char *path)
{
	switch (obj) {
	case 0:
		return listed(T "synthetic_events", name);
	case 3:
	case 7:
		return exists(path);
	case 5:
		return listed(T "user_events_status", name);
	default:
		return listed(T "dynamic_events", name);
	}
}

/* Delete it; 0 or the errno of the delete */
static int fault_delete(unsigned int obj, const char *name, const char *path)
{
	char cmd[200];
	int fd, err = 0, k;

	switch (obj) {
	case 0:
		snprintf(cmd, sizeof(cmd), "!%s", name);
		if (fz_write_file(T "synthetic_events", cmd, strlen(cmd), O_APPEND) < 0)
			err = errno;
		break;
	case 3:
	case 7:
		if (rmdir(path))
			err = errno;
		break;
	case 5:
		/*
		 * A transient event goes by itself once its last
		 * registration has (the reaper backs off up to 10s); the
		 * delete may meet it on its way out.
		 */
		fd = open(T "user_events_data", O_RDWR);
		if (fd >= 0) {
			if (ioctl(fd, DIAG_IOCSDEL, name))
				err = errno;
			close(fd);
		}
		for (k = 0; k < 240 && err != EBUSY && listed(T "user_events_status", name); k++)
			usleep(50000);
		break;
	case 4:
	case 6:
		/* its histogram or filter first, then the event */
		snprintf(cmd, sizeof(cmd), T "events/user_events/%s/%s", name,
			 obj == 4 ? "trigger" : "filter");
		fz_write_file(cmd, "0", 1, O_TRUNC);
		fallthrough;
	default:
		snprintf(cmd, sizeof(cmd), "-:%s%s", obj == 2 ? "fz_fault/" : "", name);
		if (fz_write_file(T "dynamic_events", cmd, strlen(cmd), O_APPEND) < 0)
			err = errno;
	}
	return err;
}

void fz_fault_apply(struct fz_worker *w, const struct fz_op *op)
{
	unsigned int n = op->arg[0], obj = op->arg[1] % 8;
	char name[32], cmd[200], path[200], buf[4096];
	bool injected = false, now, strict = true;
	unsigned long wide;
	int ret = -1, fd, del_err;

	snprintf(name, sizeof(name), "fz_f%u%c", w->id, "sueihrfg"[obj]);
	/* still there from an earlier one whose delete met a user: go now */
	snprintf(path, sizeof(path), T "%s/%s",
		 obj == 7 ? "user_events_groups" : "instances", name);
	if (fault_present(obj, name, path)) {
		fault_delete(obj, name, path);
		if (fault_present(obj, name, path))
			return;
	}
	/*
	 * A filter written meanwhile to the file of the user_events system,
	 * or of all events, replaces the filter made here (obj 6)
	 */
	wide = __atomic_load_n(&fz->wide_filter_writes, __ATOMIC_SEQ_CST);
	switch (obj) {
	case 0:
		snprintf(cmd, sizeof(cmd), "%s u64 a; char b[16]; char c[]", name);
		ret = faulty_write(T "synthetic_events", cmd, O_APPEND, n, &injected);
		snprintf(path, sizeof(path), T "synthetic_events");
		break;
	case 1:
		snprintf(cmd, sizeof(cmd), "u:%s u32 a; char[16] s; __data_loc char[] d",
			 name);
		ret = faulty_write(T "dynamic_events", cmd, O_APPEND, n, &injected);
		snprintf(path, sizeof(path), T "dynamic_events");
		break;
	case 2:
		snprintf(cmd, sizeof(cmd),
			 "e:fz_fault/%s sched/sched_switch %s", name,
			 "p=$prev_pid:u32 c=$next_comm:string");
		ret = faulty_write(T "dynamic_events", cmd, O_APPEND, n, &injected);
		snprintf(path, sizeof(path), T "dynamic_events");
		break;
	case 3:
	case 7:
		/* an instance or a user_events group: mkdir alone makes it */
		arm(n);
		ret = mkdir(path, 0755) ? -errno : 0;
		injected = disarm();
		break;
	case 4:
	case 6:
		/* a histogram or a filter on an event of its own */
		snprintf(cmd, sizeof(cmd), "u:%s u32 a; u64 b; char[8] s", name);
		fz_write_file(T "dynamic_events", cmd, strlen(cmd), O_APPEND);
		snprintf(path, sizeof(path), T "events/user_events/%s/%s", name,
			 obj == 4 ? "trigger" : "filter");
		if (obj == 4)
			snprintf(cmd, sizeof(cmd), "hist:keys=a:v=b:vals=hitcount,b:size=%u",
				 128u << (op->arg[2] % 3));
		else
			snprintf(cmd, sizeof(cmd), "a > 5 && s ~ \"x*\" || b == %u",
				 (unsigned int)op->arg[2] % 100);
		ret = faulty_write(path, cmd, obj == 4 ? O_APPEND : O_TRUNC, n,
				   &injected);
		break;
	case 5:
		/* a status-page registration: its event may stay when it fails */
		strict = false;
		snprintf(cmd, sizeof(cmd), "%s u64 x", name);
		fd = open(T "user_events_data", O_RDWR);
		if (fd >= 0) {
			struct user_status_reg r = {
				.size = sizeof(r),
				.name_args = (uintptr_t)cmd,
			};

			arm(n);
			ret = ioctl(fd, DIAG_IOCSREG, &r) ? -errno : 0;
			injected = disarm();
			close(fd);
		}
		snprintf(path, sizeof(path), T "user_events_status");
		break;
	}
	if (injected)
		__atomic_add_fetch(&fz->faults_injected, 1, __ATOMIC_RELAXED);

	/* what the outcome must look like */
	switch (obj) {
	case 3:
	case 7:
		now = exists(path);
		break;
	case 4:
		now = fz_read_file(path, buf, sizeof(buf)) > 0 && strstr(buf, "hist:");
		break;
	case 6:
		/*
		 * In force: a refused filter stays listed with its report
		 * ("Error: (-12)", "parse_error: ..."), as on the base
		 */
		now = fz_read_file(path, buf, sizeof(buf)) > 0 && !strstr(buf, "none") &&
		      !strstr(buf, "Error: (") && !strstr(buf, "parse_error:");
		break;
	default:
		now = listed(path, name);
	}
	if (ret < 0 && now && strict && ret != -EEXIST)
		fz_report("half-made", "%s is there after its creation failed (fail-nth %u, %s)",
			  name, n, strerror(-ret));
	if (ret >= 0 && !now &&
	    !(obj == 6 && wide != __atomic_load_n(&fz->wide_filter_writes, __ATOMIC_SEQ_CST)))
		fz_report("half-made", "%s is not there after its creation succeeded (fail-nth %u)",
			  name, n);
	__atomic_add_fetch(&fz->kind_ok[OP_FAULT], ret >= 0, __ATOMIC_RELAXED);

	/* and it goes again, unless another worker uses it just now */
	del_err = fault_delete(obj, name, path);
	if (fault_present(obj, name, path) && del_err != EBUSY)
		fz_report("half-made",
			  "%s not deletable after creation (fail-nth %u, %s, %s): %s",
			  name, n, injected ? "injected" : "not injected",
			  ret < 0 ? strerror(-ret) : "made", strerror(del_err));
}
