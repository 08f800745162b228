// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz: what counts as a report, and the watchdog.
 *
 * Reports come from three places: the kernel's log (/dev/kmsg, read by
 * the root workers after each operation and by the watchdog), the
 * fuzzer's own checks (an oracle, a privilege probe, a child killed, a
 * listing after cleanup, kmemleak), and the watchdog, which sees every
 * worker's operation start (struct fz_slot, in the shared region) and
 * reports one that has run longer than the bound: every operation that
 * takes event_mutex or the registry lock must return within it.  A stuck
 * worker cannot be recovered (it holds what the others wait for), so
 * the watchdog shows what the tasks do (their kernel stacks, sysrq w and
 * l), saves the program and restarts the machine.
 *
 * A report prints the operations in flight and saves the epoch's
 * program, once per epoch: written to the output directory and sent on
 * stdout, in base64, between FUZZ-FILE and FUZZ-END lines, so that it
 * leaves the machine even when the run ends there.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace_fuzz.h"

static int kmsg_fd = -1;
/* KCSAN: count only races whose stacks pass through these (ours), if given */
static char **ours;
static size_t n_ours;
static unsigned long kcsan_ignored;

void fz_kmsg_open(void)
{
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void fz_load_symbols(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];
	size_t cap = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n ")] = '\0';
		if (!line[0])
			continue;
		if (n_ours == cap) {
			cap = cap ? 2 * cap : 1024;
			ours = realloc(ours, cap * sizeof(*ours));
		}
		ours[n_ours++] = strdup(line);
	}
	fclose(f);
	qsort(ours, n_ours, sizeof(*ours), cmp_str);
}

static bool is_ours(const char *sym, size_t len)
{
	char name[128];
	const char *key = name;

	if (!len || len >= sizeof(name))
		return false;
	memcpy(name, sym, len);
	name[len] = '\0';
	/* "func+0x12/0x40", "func.isra.0": the name before the first '+' or '.' */
	name[strcspn(name, "+.")] = '\0';
	return bsearch(&key, ours, n_ours, sizeof(*ours), cmp_str);
}

/*
 * A KCSAN report, gathered from "BUG: KCSAN: ..." to the line of '='
 * that closes it: its title, and which of our functions its two stacks
 * pass through ("  func+0x12/0x40" a frame).
 */
static struct {
	bool open;
	char title[256];
	char ours[256];
} kcsan;

static void kcsan_frame(const char *msg)
{
	size_t used = strlen(kcsan.ours), l;
	char name[130];

	msg += strspn(msg, " ");
	l = strcspn(msg, "+\n ");
	if (msg[l] != '+' || !is_ours(msg, l))
		return;
	/* each function once, as " name " */
	snprintf(name, sizeof(name), " %.*s ", (int)strcspn(msg, "+."), msg);
	if (!strstr(kcsan.ours, name))
		snprintf(kcsan.ours + used, sizeof(kcsan.ours) - used, "%s", name + !!used);
}

/*
 * One record of the kernel's log, while a KCSAN report is read: true
 * when it belongs to the report.  A report whose stacks pass through
 * none of our functions (the list of -k) is counted, not reported.
 */
static bool kcsan_record(const char *msg)
{
	if (!n_ours)
		return false;
	if (!kcsan.open) {
		if (!strstr(msg, "BUG: KCSAN:"))
			return false;
		kcsan.open = true;
		snprintf(kcsan.title, sizeof(kcsan.title), "%.*s",
			 (int)strcspn(msg, "\n"), msg);
		kcsan.ours[0] = '\0';
		return true;
	}
	if (strncmp(msg, "=====", 5)) {
		kcsan_frame(msg);
		return true;
	}
	kcsan.open = false;
	if (kcsan.ours[0]) {
		kcsan.ours[strlen(kcsan.ours) - 1] = '\0';
		fz_report("kernel", "%s (our functions in its stacks:%s)", kcsan.title,
			  kcsan.ours);
	} else {
		kcsan_ignored++;
	}
	return true;
}

/* ---- saving ---- */

static void print_slots(void)
{
	int i;

	for (i = 0; i < FZ_SLOTS; i++)
		if (__atomic_load_n(&fz->slot[i].start_ns, __ATOMIC_ACQUIRE))
			printf("fuzz:   in flight: %s (%.1fs)\n", fz->slot[i].what,
			       (fz_now_ns() - fz->slot[i].start_ns) / 1e9);
}

/* The epoch's program, once (root process only: it holds fz_cur) */
static void save_epoch(void)
{
	char name[64];
	unsigned int e = fz_cur.epoch + 1;

	if (!fz_cur.ops || __atomic_exchange_n(&fz->saved_epoch, e, __ATOMIC_ACQ_REL) == e)
		return;
	snprintf(name, sizeof(name), "fuzz-%llu-%u.seq",
		 (unsigned long long)fz_cur.seed, fz_cur.epoch);
	fz_seq_emit(&fz_cur, name);
}

void fz_report(const char *cls, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&fz->lock);
	fz->n_reports++;
	printf("fuzz: REPORT %s: %s\n", cls, msg);
	print_slots();
	pthread_mutex_unlock(&fz->lock);
	if (fz_stop_at_report)
		__atomic_store_n(&fz->quit, 1, __ATOMIC_RELEASE);
	if (fz_is_root)
		save_epoch();
	else
		__atomic_store_n(&fz->want_save, 1, __ATOMIC_RELEASE);
}

/* ---- the kernel's log ---- */

static const char *const report_words[] = {
	"BUG:", "WARNING:", "KASAN", "UBSAN", "KFENCE", "Oops",
	"general protection", "possible circular locking",
	"possible recursive locking", "inconsistent lock state",
	"suspicious RCU usage", "detected stall", "INFO: task",
	"kernel BUG", "list_add corruption", "list_del corruption",
	"DEBUG_LOCKS_WARN_ON", "Kernel panic", "soft lockup",
};

/* Read what the kernel logged since the last call; count reports */
void fz_check_kmsg(void)
{
	char rec[2048], *msg;
	ssize_t n;
	unsigned int i;

	if (kmsg_fd < 0)
		return;
	pthread_mutex_lock(&fz->kmsg_lock);
	while ((n = read(kmsg_fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;
		rec[n] = '\0';
		msg = strchr(rec, ';') ? strchr(rec, ';') + 1 : rec;
		if (kcsan_record(msg))
			continue;
		for (i = 0; i < ARRAY_SIZE(report_words); i++) {
			if (!strstr(msg, report_words[i]))
				continue;
			msg[strcspn(msg, "\n")] = '\0';
			fz_report("kernel", "%s", msg);
			break;
		}
	}
	pthread_mutex_unlock(&fz->kmsg_lock);
}

unsigned long fz_kcsan_ignored(void)
{
	return kcsan_ignored;
}

/*
 * A kmemleak scan (two, some seconds apart, at the end: an object is
 * reported once it is five seconds old); what it finds is a report, and
 * is then cleared so that it is not reported again.
 */
void fz_kmemleak(bool final)
{
	static char buf[16384];
	int n, leaks = 0;
	char *p;

	if (access("/sys/kernel/debug/kmemleak", W_OK))
		return;
	if (final)
		sleep(6);
	fz_write_file("/sys/kernel/debug/kmemleak", "scan", 4, O_TRUNC);
	if (final) {
		sleep(1);
		fz_write_file("/sys/kernel/debug/kmemleak", "scan", 4, O_TRUNC);
	}
	n = fz_read_file("/sys/kernel/debug/kmemleak", buf, sizeof(buf));
	for (p = buf; n > 0 && (p = strstr(p, "unreferenced object")); p++)
		leaks++;
	if (leaks) {
		fz_report("kmemleak", "%d unreferenced objects, the first:", leaks);
		buf[2000] = '\0';
		printf("%s\n", buf);
		fz_write_file("/sys/kernel/debug/kmemleak", "clear", 5, O_TRUNC);
	}
}

/* ---- the watchdog ---- */

/*
 * The run's summary, which main (above this file) prints: the watchdog
 * prints it too when it ends the run itself.  Set before the watchdog
 * starts.
 */
static void (*summary)(void);

void fz_watchdog_summary(void (*print)(void))
{
	summary = print;
}

void fz_op_begin(int slot, const struct fz_op *op)
{
	struct fz_slot *s = &fz->slot[slot];

	s->tid = syscall(SYS_gettid);
	s->kind = op->kind;
	s->step = op->step;
	s->epoch = fz_cur.epoch;
	fz_op_describe(op, s->what, sizeof(s->what));
	__atomic_store_n(&s->start_ns, fz_now_ns(), __ATOMIC_RELEASE);
}

void fz_op_end(int slot)
{
	struct fz_slot *s = &fz->slot[slot];
	uint64_t ns = fz_now_ns() - s->start_ns;

	__atomic_store_n(&s->start_ns, 0, __ATOMIC_RELEASE);
	if (s->kind < OP_KINDS) {
		__atomic_add_fetch(&fz->kind_ns[s->kind], ns, __ATOMIC_RELAXED);
		__atomic_add_fetch(&fz->kind_count[s->kind], 1, __ATOMIC_RELAXED);
	}
	__atomic_add_fetch(&fz->n_ops, 1, __ATOMIC_RELAXED);
}

static void show_task(pid_t tid)
{
	char path[64], buf[4096];

	snprintf(path, sizeof(path), "/proc/%d/stack", tid);
	if (fz_read_file(path, buf, sizeof(buf)) > 0)
		printf("fuzz:   kernel stack of task %d:\n%s", tid, buf);
}

/* A stuck worker: show it, save the program, restart the machine */
static void stuck(int i)
{
	struct fz_slot *s = &fz->slot[i];

	fz_report("stuck", "%s has run for %us (bound %us)", s->what,
		  (unsigned int)((fz_now_ns() - s->start_ns) / 1000000000ULL),
		  i == FZ_SLOT_COORD ? 4 * fz_bound_s : fz_bound_s);
	__atomic_store_n(&fz->quit, 1, __ATOMIC_RELEASE);
	show_task(s->tid);
	/* the blocked tasks and every CPU's backtrace, on the console */
	fz_write_file("/proc/sysrq-trigger", "w", 1, 0);
	fz_write_file("/proc/sysrq-trigger", "l", 1, 0);
	sleep(2);
	fz_check_kmsg();
	save_epoch();
	if (summary)
		summary();
	printf("fuzz: a worker hangs in the kernel: the machine restarts\n");
	fflush(stdout);
	/*
	 * A CPU looping with a mutex held can keep reboot() from ever
	 * returning: sysrq b restarts at once, without syncing anything.
	 */
	fz_write_file("/proc/sysrq-trigger", "b", 1, 0);
	reboot(RB_AUTOBOOT);
	_exit(1);
}

void *fz_watchdog(void *arg)
{
	uint64_t bound = (uint64_t)fz_bound_s * 1000000000ULL, t;
	int i, status;

	for (;;) {
		usleep(500000);
		fz_check_kmsg();
		if (__atomic_exchange_n(&fz->want_save, 0, __ATOMIC_ACQ_REL))
			save_epoch();
		/*
		 * The cleanup waits, between its passes, for the reaper of
		 * transient user events (up to 10s) and RCU: a longer bound
		 */
		for (i = 0; i < FZ_SLOTS; i++) {
			t = __atomic_load_n(&fz->slot[i].start_ns, __ATOMIC_ACQUIRE);
			if (t && fz_now_ns() - t > (i == FZ_SLOT_COORD ? 4 * bound : bound))
				stuck(i);
		}
		if (fz_unpriv_pid > 0 &&
		    waitpid(fz_unpriv_pid, &status, WNOHANG) == fz_unpriv_pid) {
			fz_unpriv_pid = 0;
			if (WIFSIGNALED(status) ||
			    !(__atomic_load_n(&fz->quit, __ATOMIC_ACQUIRE) ||
			      __atomic_load_n(&fz->finished, __ATOMIC_ACQUIRE))) {
				fz_report("child", "the unprivileged worker ended (status %#x)",
					  status);
				save_epoch();
				if (summary)
					summary();
				_exit(1);
			}
		}
	}
	return arg;
}
