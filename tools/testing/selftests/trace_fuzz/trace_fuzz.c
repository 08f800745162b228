// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz - a campaign of programs against the tracing series: the
 * sequences, privileges and lifetimes where its bugs live, and every
 * user-space entry's grammar.
 *
 *   trace_fuzz [-s SEED] [-n OPS] [-t SECONDS] [-d TIME] [-j WORKERS]
 *              [-e STEPS] [-o DIR] [-x] [-w SECONDS] [-m EPOCHS]
 *              [-k SYMBOLS] [-U]
 *   trace_fuzz -r FILE [-K LIST] [-S] [-o DIR]     replay a saved program
 *   trace_fuzz -s SEED -j WORKERS -e STEPS -G EPOCH -o FILE   (no kernel)
 *   trace_fuzz -D FILE                             print a saved program
 *
 * A run is a series of epochs.  In each, WORKERS root threads and one
 * unprivileged process (fz_priv.c) each run a program of STEPS operations
 * made from (SEED, epoch) alone (fz_gen.c): histograms with variables,
 * references and actions, triggers, filters, enables through ftrace,
 * perf and instances, synthetic events, eprobes and instances made and
 * removed, user events registered, written, unregistered and deleted,
 * status pages and enabler words under fork, exec, munmap, madvise and
 * mprotect, event files kept open across deletes, single inputs of every
 * grammar, an oracle, fault injection on creation paths.  Then the
 * coordinator takes everything down and checks that nothing is left
 * (fz_cleanup()), and the next epoch starts.  Every few epochs, and at
 * the end, kmemleak scans.
 *
 * A report (fz_report.c) saves the epoch's program; -r runs it again,
 * with its workers as threads (as it ran), or -S serially, in the order
 * it was generated, which the minimiser uses with -K to keep a subset.
 * -G makes an epoch's program on the host, for a run the kernel ended.
 * -t ends the run at the first epoch boundary after SECONDS, even before
 * OPS operations: every epoch is still made from (SEED, epoch) alone.
 * -d does the same once the host's clock reads TIME (seconds since the
 * epoch).  Both count by the host's clock, read from the RTC that QEMU
 * keeps on it: the guest's own clocks fall behind when the host is
 * busy.  Without an RTC they count by the guest's clock, and say so.
 * The last line is "fuzz: N inputs, M reports"; the status is 1 when M
 * is not 0.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/user_events.h>

#include "fz_text.h"

struct fz_shared *fz;
struct fz_epoch fz_cur;
int fz_n_workers = 4;
int fz_stop_at_report;
unsigned int fz_bound_s = 30;
const char *fz_self;
const char *fz_out_dir = "/tmp";
bool fz_is_root = true;
pid_t fz_unpriv_pid;

static uint64_t seed = 1;
static int steps = 40;
static int kmemleak_every = 25;
static bool no_unpriv;
static unsigned int n_epochs;
static unsigned int time_limit_s;	/* no epoch starts after it, if set */
static long long deadline;		/* nor once the host's clock reads it */
static bool by_host;			/* the limits count by the RTC */
static bool timed_out;

/* ---- workers ---- */

int fz_worker_init(struct fz_worker *w, int id)
{
	unsigned char *m = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	if (m == MAP_FAILED)
		return -1;
	memset(w, 0, sizeof(*w));
	w->id = id;
	w->unpriv = id == FZ_UNPRIV;
	w->good = m;
	w->none = m + PAGE;
	w->gone = m + 2 * PAGE;
	w->enable_page = m + 3 * PAGE;
	mprotect(w->none, PAGE, PROT_NONE);
	munmap(w->gone, PAGE);
	for (i = 0; i < FZ_DATA_FDS; i++)
		w->data[i] = open(T "user_events_data", O_RDWR);
	w->status_fd = open(T "user_events_status", O_RDONLY);
	memset(w->perf, -1, sizeof(w->perf));
	memset(w->held, -1, sizeof(w->held));
	w->ofd = -1;
	w->opf = -1;
	if (!w->unpriv)
		fz_oracle_init(w);
	return 0;
}

/* The end of a program: nothing of the worker's pins anything any more */
void fz_worker_reset(struct fz_worker *w)
{
	int i;

	mprotect(w->enable_page, PAGE, PROT_READ | PROT_WRITE);
	w->enable_state = 0;
	fz_ue_unreg_all(w);
	memset(w->enable_page, 0, PAGE);
	memset(w->en, 0, sizeof(w->en));
	for (i = 0; i < FZ_DATA_FDS; i++) {
		if (w->data[i] >= 0)
			close(w->data[i]);
		w->data[i] = open(T "user_events_data", O_RDWR);
	}
	w->nregs = 0;
	w->ntindex = 0;
	if (w->status)
		munmap(w->status, PAGE);
	w->status = NULL;
	for (i = 0; i < FZ_PERF; i++) {
		if (w->perf[i] >= 0)
			close(w->perf[i]);
		w->perf[i] = -1;
	}
	for (i = 0; i < FZ_HELD; i++) {
		if (w->held[i] >= 0)
			close(w->held[i]);
		w->held[i] = -1;
	}
}

void fz_apply(struct fz_worker *w, const struct fz_op *op)
{
	w->cur = op;
	switch (op->kind) {
	case OP_WRITE:
	case OP_MKDIR:
	case OP_RMDIR:
	case OP_READ:
	case OP_PERF:
	case OP_EXEC:
		if (!w->unpriv)
			fz_exec_apply(w, op);
		break;
	case OP_UE_OPEN:
	case OP_UE_REG:
	case OP_UE_UNREG:
	case OP_UE_DEL:
	case OP_UE_WRITE:
	case OP_UE_STATUS:
	case OP_UE_MEM:
		fz_ue_apply(w, op);
		break;
	case OP_FORK:
		fz_fork_apply(w, op);
		break;
	case OP_TEXT:
		if (!w->unpriv && fz_text_apply(w, op))
			__atomic_add_fetch(&fz->kind_ok[OP_TEXT], 1, __ATOMIC_RELAXED);
		break;
	case OP_ORACLE:
		if (!w->unpriv)
			fz_oracle_apply(w, op);
		break;
	case OP_FAULT:
		if (!w->unpriv)
			fz_fault_apply(w, op);
		break;
	case OP_PRIV:
		if (w->unpriv)
			fz_priv_apply(w, op);
		break;
	}
	w->cur = NULL;
}

static bool stopping(void)
{
	return __atomic_load_n(&fz->quit, __ATOMIC_ACQUIRE);
}

static int slot_of(const struct fz_worker *w)
{
	return w->unpriv ? FZ_SLOT_UNPRIV : w->id;
}

/* A worker's part of the epoch's program */
static void run_program(struct fz_worker *w, const struct fz_epoch *ep)
{
	int want = w->unpriv ? FZ_UNPRIV : w->id, i;

	for (i = 0; i < ep->n_ops && !stopping(); i++) {
		const struct fz_op *op = &ep->ops[i];

		if (op->worker != want || op->kind == OP_NOP)
			continue;
		fz_op_begin(slot_of(w), op);
		fz_apply(w, op);
		fz_op_end(slot_of(w));
		if (!w->unpriv)
			fz_check_kmsg();
	}
}

struct thread_arg {
	int id;
	struct fz_worker w;
};

static void *worker_main(void *p)
{
	struct thread_arg *a = p;
	cpu_set_t cpus;

	if (fz_worker_init(&a->w, a->id))
		return NULL;
	CPU_ZERO(&cpus);
	CPU_SET(a->id % 2, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	for (;;) {
		pthread_barrier_wait(&fz->start);
		if (__atomic_load_n(&fz->finished, __ATOMIC_ACQUIRE))
			break;
		run_program(&a->w, &fz_cur);
		fz_worker_reset(&a->w);
		pthread_barrier_wait(&fz->done);
	}
	return NULL;
}

/*
 * The unprivileged process: its program of each epoch, made here from
 * the seed (or, in a replay, inherited), between the same barriers.  In
 * a serial replay it runs the operations posted to its mailbox instead.
 */
static void unpriv_main(const char *replay, bool serial)
{
	struct fz_epoch ep = {};
	struct fz_worker w;
	int dyn, data;

	fz_is_root = false;
	if (fz_priv_drop(&dyn, &data) || fz_worker_init(&w, FZ_UNPRIV)) {
		printf("fuzz: no unprivileged worker\n");
		_exit(1);
	}
	w.dyn_fd = dyn;
	w.root_data = data;
	if (serial) {
		for (;;) {
			while (__atomic_load_n(&fz->mbox_state, __ATOMIC_ACQUIRE) != 1)
				usleep(50);
			if (fz->mbox.kind == OP_NOP && fz->mbox.len == 1)
				_exit(0);
			fz_op_begin(FZ_SLOT_UNPRIV, &fz->mbox);
			fz_apply(&w, &fz->mbox);
			fz_op_end(FZ_SLOT_UNPRIV);
			__atomic_store_n(&fz->mbox_state, 2, __ATOMIC_RELEASE);
		}
	}
	for (;;) {
		pthread_barrier_wait(&fz->start);
		if (__atomic_load_n(&fz->finished, __ATOMIC_ACQUIRE))
			_exit(0);
		if (!replay) {
			fz_epoch_free(&ep);
			fz_gen_epoch(&ep, seed, fz->epoch, fz_n_workers, steps);
			fz_cur.epoch = fz->epoch;
			run_program(&w, &ep);
		} else {
			run_program(&w, &fz_cur);
		}
		fz_worker_reset(&w);
		pthread_barrier_wait(&fz->done);
	}
}

/* ---- the world of an epoch, and taking it down ---- */

static void world_setup(void)
{
	char cmd[300];
	int i;

	for (i = 0; i < fz_n_ue_defs; i++) {
		if (!fz_persistent_name(fz_ue_defs[i].name))
			continue;
		snprintf(cmd, sizeof(cmd), "u:%s %s", fz_ue_defs[i].name,
			 fz_ue_defs[i].body);
		fz_write_file(T "dynamic_events", cmd, strlen(cmd), O_APPEND);
	}
	for (i = 0; i < 4; i++) {
		snprintf(cmd, sizeof(cmd), "%s %s", fz_synth_defs[i].name,
			 fz_synth_defs[i].body);
		fz_write_file(T "synthetic_events", cmd, strlen(cmd), O_APPEND);
	}
}

/* Ours: made by programs or single inputs (the oracle's event stays) */
static bool ours_name(const char *name)
{
	return !strncmp(name, "fz_", 3) && strncmp(name, "fz_oracle", 9);
}

/*
 * Remove the triggers a truncation leaves: as in the base, O_TRUNC takes
 * away only the histograms, so every other trigger goes by name
 * ("!traceoff", "!enable_event:sys:event"); the count and the filter
 * of a trigger do not matter to its removal.
 */
static void remove_triggers(const char *path)
{
	char buf[4096], cmd[300], *line, *save;

	if (fz_read_file(path, buf, sizeof(buf)) <= 0)
		return;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* an enable or a disable names its event: cmd:sys:event */
		int parts = strstr(line, "able_") ? 3 : 1, k = 0;
		size_t n;

		if (line[0] == '#' || !strncmp(line, "hist", 4))
			continue;
		line[strcspn(line, " ")] = '\0';
		for (n = 0; line[n]; n++)
			if (line[n] == ':' && ++k == parts)
				break;
		snprintf(cmd, sizeof(cmd), "!%.*s", (int)n, line);
		fz_write_file(path, cmd, strlen(cmd), O_APPEND);
	}
}

/* Clear the triggers and the filter of one event; whether triggers stay */
static int clear_event(const char *dir)
{
	char path[400], buf[256];
	int left = 0;

	snprintf(path, sizeof(path), "%s/trigger", dir);
	if (fz_write_file(path, "", 0, O_TRUNC) < 0)
		return 0;
	remove_triggers(path);
	if (fz_read_file(path, buf, sizeof(buf)) > 0 && buf[0] != '#')
		left++;
	snprintf(path, sizeof(path), "%s/filter", dir);
	fz_write_file(path, "0", 1, O_TRUNC);
	return left;
}

/*
 * Every trigger, filter and enable of one tree (the top or an instance):
 * of the events we aim at, and of every event of ours, made by a fault
 * operation or a single input where the model does not know it.
 */
static int clear_events(const char *pre)
{
	static const char *const ours_systems[] = {
		"user_events", "synthetic", "eprobes", "fz_fault",
	};
	char path[300];
	struct dirent *d;
	unsigned int k;
	int i, left = 0;
	DIR *dir;

	snprintf(path, sizeof(path), T "%sevents/enable", pre);
	fz_write_file(path, "0", 1, O_TRUNC);
	for (i = 0; i < fz_nevents; i++) {
		snprintf(path, sizeof(path), T "%sevents/%s/%s", pre,
			 fz_events[i].sys, fz_events[i].name);
		left += clear_event(path);
	}
	for (k = 0; k < ARRAY_SIZE(ours_systems); k++) {
		snprintf(path, sizeof(path), T "%sevents/%s", pre, ours_systems[k]);
		dir = opendir(path);
		while (dir && (d = readdir(dir))) {
			char ev[600];

			if (!ours_name(d->d_name) ||
			    fz_event_by_name(ours_systems[k], d->d_name) >= 0)
				continue;
			snprintf(ev, sizeof(ev), "%s/%s", path, d->d_name);
			left += clear_event(ev);
		}
		if (dir)
			closedir(dir);
	}
	return left;
}

/* Delete our dynamic events, user events and instances; count what stays */
static int delete_ours(char *left, size_t n)
{
	static char buf[65536];
	char *line, *save, cmd[320], name[300];
	struct dirent *d;
	int fd, count = 0;
	DIR *dir;

	fz_read_file(T "dynamic_events", buf, sizeof(buf));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = strchr(line, ':'), *slash;

		if (!p)
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(p + 1, " \t"), p + 1);
		slash = strchr(name, '/');
		if (!ours_name(slash ? slash + 1 : name))
			continue;
		snprintf(cmd, sizeof(cmd), "-:%s", name);
		if (fz_write_file(T "dynamic_events", cmd, strlen(cmd), O_APPEND) < 0) {
			count++;
			snprintf(left + strlen(left), n - strlen(left), " %s", name);
		}
	}
	fd = open(T "user_events_data", O_RDWR);
	fz_read_file(T "user_events_status", buf, sizeof(buf));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = strchr(line, ':');

		if (!p)
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(p + 1, " #"), p + 1);
		if (!ours_name(name))
			continue;
		if (ioctl(fd, DIAG_IOCSDEL, name)) {
			count++;
			snprintf(left + strlen(left), n - strlen(left), " %s(%s)", name,
				 strerror(errno));
		}
	}
	if (fd >= 0)
		close(fd);
	dir = opendir(T "instances");
	while (dir && (d = readdir(dir))) {
		if (!ours_name(d->d_name))
			continue;
		snprintf(name, sizeof(name), "instances/%s/", d->d_name);
		count += clear_events(name);
		snprintf(cmd, sizeof(cmd), T "instances/%s", d->d_name);
		if (rmdir(cmd)) {
			count++;
			snprintf(left + strlen(left), n - strlen(left), " %s(%s)",
				 cmd + strlen(T), strerror(errno));
		}
	}
	if (dir)
		closedir(dir);
	return count;
}

/*
 * The end of an epoch, every worker idle: take down what the programs
 * made, in as many passes as references between histograms need (one
 * in use cannot go before its users), waiting for the reaper of
 * transient user events.  Whatever is still there then is a report: an
 * object left half-made, or a reference never dropped.
 */
void fz_cleanup(bool final)
{
	static char reported[4096];
	struct fz_op op = { .kind = OP_NOP, .worker = 0 };
	char left[2048];
	int pass, n = 0;

	snprintf(op.text, sizeof(op.text), "cleanup of epoch %u", fz_cur.epoch);
	op.len = strlen(op.text);
	fz_op_begin(FZ_SLOT_COORD, &op);
	for (pass = 0; pass < 60; pass++) {
		left[0] = '\0';
		n = clear_events("");
		n += delete_ours(left, sizeof(left));
		if (!n)
			break;
		usleep(pass < 10 ? 20000 : 300000);
	}
	fz_write_file(T "set_event_pid", "", 0, O_TRUNC);
	fz_write_file(T "tracing_on", "1", 1, O_TRUNC);
	fz_write_file(T "error_log", "", 0, O_TRUNC);
	fz_write_file(T "trace", "", 0, O_TRUNC);
	fz_op_end(FZ_SLOT_COORD);
	if (n && !strstr(reported, left)) {
		fz_report("left", "after epoch %u's cleanup:%s%s", fz_cur.epoch, left,
			  left[0] ? "" : " triggers in use");
		snprintf(reported + strlen(reported), sizeof(reported) - strlen(reported),
			 "%s", left);
	}
	if (final || (kmemleak_every && fz_cur.epoch % kmemleak_every ==
		      (unsigned int)kmemleak_every - 1))
		fz_kmemleak(final);
}

/* ---- setup, runs, summary ---- */

static void on_fault(int sig)
{
	if (fz_fault_armed)
		siglongjmp(fz_fault_jmp, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static int setup_shared(void)
{
	pthread_barrierattr_t ba;
	pthread_mutexattr_t ma;
	int parties = fz_n_workers + 1 + !no_unpriv;

	fz = mmap(NULL, sizeof(*fz), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (fz == MAP_FAILED)
		return -1;
	pthread_barrierattr_init(&ba);
	pthread_barrierattr_setpshared(&ba, PTHREAD_PROCESS_SHARED);
	pthread_barrier_init(&fz->start, &ba, parties);
	pthread_barrier_init(&fz->done, &ba, parties);
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(&fz->lock, &ma);
	pthread_mutex_init(&fz->kmsg_lock, &ma);
	return 0;
}

static void setup(void)
{
	fz_kmsg_open();
	fz_fault_setup();
	fz_priv_setup();
	/* a task blocked this long is a report (the hung-task detector) */
	fz_write_file("/proc/sys/kernel/hung_task_timeout_secs", "20", 2, O_TRUNC);
	fz_write_file("/proc/sys/kernel/hung_task_warnings", "-1", 2, O_TRUNC);
	fz_write_file("/proc/sys/kernel/sysrq", "1", 1, O_TRUNC);
	fz_write_file("/proc/sys/kernel/perf_event_paranoid", "1", 1, O_TRUNC);
	signal(SIGSEGV, on_fault);
	signal(SIGBUS, on_fault);
	signal(SIGPIPE, SIG_IGN);
}

void fz_summary(void)
{
	int k;

	for (k = 1; k < OP_KINDS; k++) {
		if (!fz->kind_count[k])
			continue;
		printf("fuzz: %-10s %7lu inputs, %6lu us each, %lu taken\n",
		       fz_kind_name[k], fz->kind_count[k],
		       fz->kind_ns[k] / fz->kind_count[k] / 1000, fz->kind_ok[k]);
	}
	for (k = 0; k < ROLE_COUNT; k++)
		if (fz->role_count[k])
			printf("fuzz:   write/%-8s %6lu, %lu taken\n", fz_role_name[k],
			       fz->role_count[k], fz->role_ok[k]);
	if (timed_out)
		printf("fuzz: no epoch started after the time limit (by the %s's clock)\n",
		       by_host ? "host" : "guest");
	printf("fuzz: %u epochs, %lu faults injected, %lu children, ",
	       n_epochs, fz->faults_injected, fz->children);
	printf("%lu privileged operations refused", fz->privs_refused);
	if (fz_kcsan_ignored())
		printf(", %lu KCSAN reports outside our code", fz_kcsan_ignored());
	printf("\nfuzz: %lu inputs, %lu reports\n", fz->n_ops, fz->n_reports);
	fflush(stdout);
}

/*
 * The host's clock, in seconds since the epoch, or -1: QEMU's RTC
 * follows the host's clock (-rtc clock=host, its default).
 */
static long long host_now_s(void)
{
	char buf[32];

	if (fz_read_file("/sys/class/rtc/rtc0/since_epoch", buf, sizeof(buf)) <= 0)
		return -1;
	return strtoll(buf, NULL, 10);
}

/* Turn -t and -d into one deadline, by the host's clock when there is one */
static void time_limits(void)
{
	long long now = host_now_s();

	if (!time_limit_s && !deadline)
		return;
	if (now >= 0) {
		by_host = true;
		if (time_limit_s && (!deadline || now + time_limit_s < deadline))
			deadline = now + time_limit_s;
		printf("fuzz: programs for %llds more, by the host's clock (the RTC)\n",
		       deadline - now);
		return;
	}
	/* no RTC: the guest's clock, set from the host's at boot */
	if (deadline) {
		now = time(NULL);
		if (!time_limit_s || deadline - now < time_limit_s)
			time_limit_s = deadline > now ? deadline - now : 1;
	}
	printf("fuzz: no RTC: programs for %us by the guest's clock\n", time_limit_s);
}

static bool out_of_time(uint64_t t0)
{
	if (by_host)
		return host_now_s() >= deadline;
	return time_limit_s && fz_now_ns() - t0 > time_limit_s * 1000000000ULL;
}

static void usage(const char *me)
{
	fprintf(stderr, "Usage: %s [-s SEED] [-n OPS] [-t SECONDS] [-d TIME] [-j WORKERS]\n"
		"\t[-e STEPS] [-o DIR] [-x] [-w SECONDS] [-m EPOCHS] [-k SYMBOLS] [-U]\n"
		"       %s -r FILE [-K LIST] [-S]    |    -G EPOCH -o FILE    |    -D FILE\n",
		me, me);
	exit(2);
}

/* Print a program, one operation a line, its whole text after it */
static int dump(const char *path)
{
	struct fz_epoch ep;
	char line[256];
	int i;

	if (fz_seq_load(&ep, path))
		return 2;
	printf("# seed %llu, epoch %u, %d workers and the unprivileged one, %d steps\n",
	       (unsigned long long)ep.seed, ep.epoch, ep.n_workers, ep.steps);
	for (i = 0; i < ep.n_ops; i++) {
		if (ep.ops[i].kind == OP_NOP)
			continue;
		fz_op_describe(&ep.ops[i], line, sizeof(line));
		printf("%4d %s\n", i, line);
		if (ep.ops[i].len > 80)
			printf("       %.*s\n", (int)ep.ops[i].len, ep.ops[i].text);
	}
	return 0;
}

static void start_workers(struct thread_arg *args)
{
	pthread_t th;
	int t;

	for (t = 0; t < fz_n_workers; t++) {
		args[t].id = t;
		pthread_create(&th, NULL, worker_main, &args[t]);
		pthread_detach(th);
	}
}

/* One epoch, as threads: every worker its part, then the cleanup */
static void run_epoch(void)
{
	fz->epoch = fz_cur.epoch;
	printf("fuzz: epoch %u\n", fz_cur.epoch);
	world_setup();
	pthread_barrier_wait(&fz->start);
	pthread_barrier_wait(&fz->done);
	fz_cleanup(false);
	n_epochs++;
}

static void end_workers(void)
{
	__atomic_store_n(&fz->finished, 1, __ATOMIC_RELEASE);
	pthread_barrier_wait(&fz->start);
}

/* A serial replay: every operation in its program's order */
static void run_serial(void)
{
	static struct fz_worker w[FZ_MAX_WORKERS];
	int i;

	for (i = 0; i < fz_n_workers; i++)
		fz_worker_init(&w[i], i);
	printf("fuzz: epoch %u (serial)\n", fz_cur.epoch);
	world_setup();
	for (i = 0; i < fz_cur.n_ops && !stopping(); i++) {
		struct fz_op *op = &fz_cur.ops[i];

		if (op->kind == OP_NOP)
			continue;
		if (op->worker == FZ_UNPRIV) {
			if (no_unpriv)
				continue;
			fz->mbox = *op;
			__atomic_store_n(&fz->mbox_state, 1, __ATOMIC_RELEASE);
			while (__atomic_load_n(&fz->mbox_state, __ATOMIC_ACQUIRE) != 2)
				usleep(50);
			__atomic_store_n(&fz->mbox_state, 0, __ATOMIC_RELEASE);
			continue;
		}
		if (op->worker >= fz_n_workers)
			continue;
		fz_op_begin(op->worker, op);
		fz_apply(&w[op->worker], op);
		fz_op_end(op->worker);
		fz_check_kmsg();
	}
	for (i = 0; i < fz_n_workers; i++)
		fz_worker_reset(&w[i]);
	if (!no_unpriv) {
		__atomic_store_n(&fz->finished, 1, __ATOMIC_RELEASE);
		fz->mbox.kind = OP_NOP;
		fz->mbox.len = 1;
		__atomic_store_n(&fz->mbox_state, 1, __ATOMIC_RELEASE);
	}
	n_epochs = 1;
}

int main(int argc, char **argv)
{
	struct thread_arg args[FZ_MAX_WORKERS];
	const char *replay = NULL, *keep = NULL, *syms = NULL, *dumpf = NULL;
	uint64_t count = 20000;
	long gen_epoch = -1;
	bool serial = false;
	pthread_t dog;
	uint64_t t0;
	int opt;
	uint32_t e;

	if (argc > 1 && !strcmp(argv[1], "-E"))
		fz_child_main(argc, argv);
	fz_self = "/proc/self/exe";
	fz_model_init();
	while ((opt = getopt(argc, argv, "s:n:j:e:r:K:SG:D:o:xw:m:k:Ut:d:")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			count = strtoull(optarg, NULL, 0);
			break;
		case 'j':
			fz_n_workers = atoi(optarg);
			if (fz_n_workers < 1 || fz_n_workers > FZ_MAX_WORKERS)
				usage(argv[0]);
			break;
		case 'e':
			steps = atoi(optarg);
			if (steps < 1 || steps > FZ_MAX_STEPS)
				usage(argv[0]);
			break;
		case 'r':
			replay = optarg;
			break;
		case 'K':
			keep = optarg;
			break;
		case 'S':
			serial = true;
			break;
		case 'G':
			gen_epoch = atol(optarg);
			break;
		case 'D':
			dumpf = optarg;
			break;
		case 'o':
			fz_out_dir = optarg;
			break;
		case 'x':
			fz_stop_at_report = 1;
			break;
		case 'w':
			fz_bound_s = atoi(optarg);
			break;
		case 'm':
			kmemleak_every = atoi(optarg);
			break;
		case 'k':
			syms = optarg;
			break;
		case 'U':
			no_unpriv = true;
			break;
		case 't':
			time_limit_s = atoi(optarg);
			break;
		case 'd':
			deadline = strtoll(optarg, NULL, 0);
			break;
		default:
			usage(argv[0]);
		}
	}
	if (dumpf)
		return dump(dumpf);
	if (gen_epoch >= 0) {
		/* on the host: the program of an epoch the kernel ended */
		if (fz_gen_epoch(&fz_cur, seed, gen_epoch, fz_n_workers, steps))
			return 2;
		return fz_seq_save(&fz_cur, fz_out_dir) ? 2 : 0;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (replay) {
		if (fz_seq_load(&fz_cur, replay) || (keep && fz_keep_parse(keep, &fz_cur))) {
			fprintf(stderr, "fuzz: cannot read %s\n", replay);
			return 2;
		}
		fz_n_workers = fz_cur.n_workers;
		seed = fz_cur.seed;
		steps = fz_cur.steps;
		if (fz_n_workers < 1 || fz_n_workers > FZ_MAX_WORKERS)
			return 2;
	}
	if (setup_shared())
		return 2;
	if (syms)
		fz_load_symbols(syms);
	setup();
	if (!no_unpriv) {
		fflush(stdout);
		fz_unpriv_pid = fork();
		if (!fz_unpriv_pid)
			unpriv_main(replay, serial);
	}
	pthread_create(&dog, NULL, fz_watchdog, NULL);
	pthread_detach(dog);
	if (replay) {
		printf("fuzz: replaying epoch %u of seed %llu (%d operations%s%s)\n",
		       fz_cur.epoch, (unsigned long long)seed, fz_cur.n_ops,
		       keep ? ", kept: " : "", keep ? keep : "");
		if (serial) {
			run_serial();
		} else {
			start_workers(args);
			run_epoch();
			end_workers();
		}
	} else {
		n_epochs = 0;
		printf("fuzz: seed %llu, %llu inputs, ",
		       (unsigned long long)seed, (unsigned long long)count);
		printf("%d workers and an unprivileged one, %d steps an epoch\n",
		       fz_n_workers, steps);
		time_limits();
		start_workers(args);
		t0 = fz_now_ns();
		for (e = 0; (uint64_t)e * steps * (fz_n_workers + !no_unpriv) < count &&
		     !stopping(); e++) {
			if (out_of_time(t0)) {
				timed_out = true;
				break;
			}
			fz_epoch_free(&fz_cur);
			if (fz_gen_epoch(&fz_cur, seed, e, fz_n_workers, steps))
				break;
			run_epoch();
		}
		end_workers();
	}
	fz_cleanup(true);
	sleep(1);
	fz_check_kmsg();
	fz_summary();
	return fz->n_reports ? 1 : 0;
}
