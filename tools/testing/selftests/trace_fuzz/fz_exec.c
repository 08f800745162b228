// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz: operations on tracefs files, perf and processes.
 *
 * Writes go to the file an operation names (a trigger, filter or enable
 * file of an event at the top or in an instance, synthetic_events,
 * dynamic_events, trace_marker); instances are made and removed with
 * mkdir and rmdir; event files are read now, or opened and kept across
 * the operations after (deletes, rmdir, removed histograms) and read
 * then; perf events attach to events and stay until a later operation
 * closes them; a program is exec'ed so that sched_process_exec, fork and
 * exit fire.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace_fuzz.h"

/* An event's id now (it changes when the event is made again) */
int fz_event_id(const struct fz_event *e)
{
	char path[200], buf[32];

	snprintf(path, sizeof(path), T "events/%s/%s/id", e->sys, e->name);
	if (fz_read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	return atoi(buf);
}

static int op_path(const struct fz_op *op, char *buf, size_t n)
{
	return snprintf(buf, n, T "%s", op->path);
}

static bool exec_write(const struct fz_op *op)
{
	char path[FZ_PATH_MAX + 32];
	int ret;

	op_path(op, path, sizeof(path));
	ret = fz_write_file(path, op->text, op->len, op->arg[0] ? O_TRUNC : O_APPEND);
	return ret >= 0;
}

/*
 * A read at an odd offset in odd sizes: now, or through an fd kept in a
 * slot while other operations change or delete what it shows.  A file
 * whose event is gone must fail the read, not touch freed memory.
 */
static bool exec_read(struct fz_worker *w, const struct fz_op *op)
{
	char path[FZ_PATH_MAX + 32], buf[4096];
	unsigned int slot = op->arg[1] % FZ_HELD, n = 0;
	size_t size = op->arg[2] % sizeof(buf) + 1;
	struct pollfd pfd;
	int fd;

	op_path(op, path, sizeof(path));
	switch (op->arg[0] % 3) {
	case 0:
		fd = open(path, O_RDONLY);
		break;
	case 1:		/* open and keep */
		if (w->held[slot] >= 0)
			close(w->held[slot]);
		w->held[slot] = open(path, O_RDONLY);
		return w->held[slot] >= 0;
	default:	/* read what was kept, then close it */
		fd = w->held[slot];
		w->held[slot] = -1;
	}
	if (fd < 0)
		return false;
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN | POLLPRI };
	poll(&pfd, 1, 0);
	if (op->arg[3] & 1)
		lseek(fd, (op->arg[3] >> 1) % 8192, SEEK_SET);
	/* "trace" may be long: a few reads of it are enough */
	while (n++ < (strstr(path, "/trace") && !strstr(path, "trigger") ? 4 : 64) &&
	       read(fd, buf, size) > 0)
		;
	close(fd);
	return true;
}

/* A perf event on the event of op->path, kept in a slot, or closed */
static bool exec_perf(struct fz_worker *w, const struct fz_op *op)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(a),
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_RAW,
	};
	unsigned int slot = op->arg[1] % FZ_PERF;
	char path[FZ_PATH_MAX + 32], buf[32];
	int fd, cpu = -1, pid = 0;

	if (w->perf[slot] >= 0) {
		close(w->perf[slot]);
		w->perf[slot] = -1;
	}
	if (op->arg[0])
		return true;
	snprintf(path, sizeof(path), T "%s/id", op->path);
	if (fz_read_file(path, buf, sizeof(buf)) <= 0)
		return false;
	a.config = atoi(buf);
	/* this thread only, or everything on one CPU */
	if (op->arg[2] & 1) {
		pid = -1;
		cpu = (op->arg[2] >> 1) & 1;
	}
	fd = syscall(SYS_perf_event_open, &a, pid, cpu, -1, 0);
	if (fd < 0)
		return false;
	if (op->len)
		ioctl(fd, PERF_EVENT_IOC_SET_FILTER, op->text);
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	w->perf[slot] = fd;
	return true;
}

/*
 * Wait for a child of ours, at most the watchdog's bound; a child that
 * the kernel killed (SIGSEGV, SIGBUS: it touched memory it still maps)
 * or that does not end is a report.
 */
int fz_wait_child(pid_t pid, const char *what)
{
	uint64_t t0 = fz_now_ns();
	int status, sleep_us = 100;
	pid_t got;

	for (;;) {
		got = waitpid(pid, &status, WNOHANG);
		if (got == pid)
			break;
		if (got < 0)
			return -1;
		if (fz_now_ns() - t0 > (uint64_t)fz_bound_s * 1000000000ULL) {
			fz_report("stuck", "a child (%s) did not end within %us",
				  what, fz_bound_s);
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		usleep(sleep_us);
		if (sleep_us < 20000)
			sleep_us *= 2;
	}
	__atomic_add_fetch(&fz->children, 1, __ATOMIC_RELAXED);
	if (WIFSIGNALED(status)) {
		fz_report("child", "a child (%s) was killed by signal %d (%s)",
			  what, WTERMSIG(status), strsignal(WTERMSIG(status)));
		return -1;
	}
	return WEXITSTATUS(status);
}

/*
 * exec of this program in -E mode: it writes one event through the data
 * fd it inherits (the user_event_mm goes at exec, the fd stays) and
 * exits; sched_process_fork, exec and exit fire on the way.
 */
static bool exec_exec(struct fz_worker *w, const struct fz_op *op)
{
	char fd[16], idx[16], seed[24];
	struct fz_reg *reg = w->nregs ? &w->regs[op->arg[1] % w->nregs] : NULL;
	pid_t pid;

	snprintf(fd, sizeof(fd), "%d", op->arg[0] && reg ? w->data[reg->fd] : -1);
	snprintf(idx, sizeof(idx), "%u", reg ? reg->index : 0);
	snprintf(seed, sizeof(seed), "%llu", (unsigned long long)op->arg[1]);
	pid = fork();
	if (pid < 0)
		return false;
	if (!pid) {
		execl(fz_self, "fz_exec", "-E", fd, idx, reg ? "0" : "-1", seed,
		      (char *)NULL);
		_exit(127);
	}
	return fz_wait_child(pid, "exec") == 0;
}

void fz_exec_apply(struct fz_worker *w, const struct fz_op *op)
{
	char path[FZ_PATH_MAX + 32];
	bool ok = false;

	switch (op->kind) {
	case OP_WRITE:
		ok = exec_write(op);
		if (op->arg[1] < ROLE_COUNT) {
			__atomic_add_fetch(&fz->role_count[op->arg[1]], 1, __ATOMIC_RELAXED);
			__atomic_add_fetch(&fz->role_ok[op->arg[1]], ok, __ATOMIC_RELAXED);
		}
		break;
	case OP_MKDIR:
		op_path(op, path, sizeof(path));
		ok = !mkdir(path, 0755);
		break;
	case OP_RMDIR:
		op_path(op, path, sizeof(path));
		ok = !rmdir(path);
		break;
	case OP_READ:
		ok = exec_read(w, op);
		break;
	case OP_PERF:
		ok = exec_perf(w, op);
		break;
	case OP_EXEC:
		ok = exec_exec(w, op);
		break;
	}
	__atomic_add_fetch(&fz->kind_ok[op->kind], ok, __ATOMIC_RELAXED);
}
