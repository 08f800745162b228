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
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "fz_text.h"

static uint64_t seed = 1;
static int steps = 40;
static bool no_unpriv;
static unsigned int n_epochs;
static unsigned int time_limit_s;	/* no epoch starts after it, if set */
static long long deadline;		/* nor once the host's clock reads it */
static bool by_host;			/* the limits count by the RTC */
static bool timed_out;

/* ---- workers: root threads, and the unprivileged process ---- */

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

static void summary(void)
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
		"\t[-e STEPS] [-o DIR] [-x] [-w SECONDS] [-m EPOCHS] [-k SYMBOLS] [-c] [-U]\n"
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
	fz_world_setup();
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
	fz_world_setup();
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
	while ((opt = getopt(argc, argv, "s:n:j:e:r:K:SG:D:o:xw:m:k:Ut:d:c")) != -1) {
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
			fz_kmemleak_every = atoi(optarg);
			break;
		case 'k':
			syms = optarg;
			break;
		case 'c':
			fz_contention = 1;
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
	fz_watchdog_summary(summary);
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
	summary();
	return fz->n_reports ? 1 : 0;
}
