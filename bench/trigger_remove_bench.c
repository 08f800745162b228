// SPDX-License-Identifier: GPL-2.0
/*
 * The cost of taking many triggers away, as a tool that resets tracing
 * does: one write per trigger, or the rmdir of an instance holding them.
 *
 * Prints, in guest nanoseconds for the whole of it:
 *   BENCH trigger_remove_100_hist       100 "!hist:..." writes, one event
 *   BENCH trigger_remove_100_traceon    100 "!traceon" writes, one on each
 *                                       of 100 syscall events (the best
 *                                       of ROUNDS)
 *   BENCH trigger_rmdir_100_hist        rmdir of an instance whose event
 *                                       holds 100 histograms
 *
 * A removed trigger may still run on another CPU until a grace period has
 * passed; what is measured is how many of those the removals wait for.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include "bench.h"

#define TRACEFS		"/sys/kernel/tracing"
#define FORK		"/events/sched/sched_process_fork/trigger"
#define INST		TRACEFS "/instances/bench_rm"
#define N		100
#define ROUNDS		5

static char syscalls[N][64];

/* Whether the file at PATH still lists WHAT (a removal that failed) */
static int lists(const char *path, const char *what)
{
	static char buf[1 << 16];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n < 0)
		return 1;
	buf[n] = '\0';
	return !!strstr(buf, what);
}

static void hist_cmd(char *buf, size_t len, int i, const char *prefix)
{
	snprintf(buf, len, "%shist:keys=child_pid if child_pid == %d", prefix,
		 i + 1);
}

static int add_hists(const char *path)
{
	char cmd[128];
	int i;

	for (i = 0; i < N; i++) {
		hist_cmd(cmd, sizeof(cmd), i, "");
		if (bench_put(path, cmd, O_APPEND))
			return -1;
	}
	return 0;
}

/* The first N syscall enter events, by name */
static int find_syscalls(void)
{
	struct dirent *d;
	DIR *dir = opendir(TRACEFS "/events/syscalls");
	int n = 0;

	while (dir && n < N && (d = readdir(dir)))
		if (!strncmp(d->d_name, "sys_enter_", 10))
			snprintf(syscalls[n++], sizeof(syscalls[0]), "%.60s",
				 d->d_name);
	if (dir)
		closedir(dir);
	return n == N ? 0 : -1;
}

/* The trigger file of the i-th of them */
static const char *syscall_trigger(int i)
{
	static char path[160];

	snprintf(path, sizeof(path), TRACEFS "/events/syscalls/%.60s/trigger",
		 syscalls[i]);
	return path;
}

/*
 * One round: a traceon trigger on each of the N events, then the time of
 * their removal into @ns.  The whole round is about a millisecond, less
 * than a tick, so one wait that a tick ends (a grace period, a worker)
 * weighs as much as the removals; main() keeps the best of ROUNDS.
 */
static int remove_traceon(double *ns)
{
	double t0;
	int i;

	for (i = 0; i < N; i++)
		if (bench_put(syscall_trigger(i), "traceon", O_APPEND)) {
			fprintf(stderr, "trigger_remove_bench: cannot add traceon to %s\n",
				syscalls[i]);
			return -1;
		}
	t0 = bench_now_ns();
	for (i = 0; i < N; i++)
		bench_put(syscall_trigger(i), "!traceon", O_APPEND);
	*ns = bench_now_ns() - t0;
	for (i = 0; i < N; i++) {
		if (lists(syscall_trigger(i), "traceon:")) {
			fprintf(stderr, "trigger_remove_bench: traceon left on %s\n",
				syscalls[i]);
			return -1;
		}
	}
	return 0;
}

int main(void)
{
	double t0, t, hist_ns, traceon_ns = 0, rmdir_ns;
	char cmd[128];
	int i, r;

	if (access(TRACEFS FORK, W_OK) || find_syscalls()) {
		fprintf(stderr, "trigger_remove_bench: missing events\n");
		return 4;
	}

	if (add_hists(TRACEFS FORK)) {
		fprintf(stderr, "trigger_remove_bench: cannot add the histograms\n");
		return 1;
	}
	t0 = bench_now_ns();
	for (i = 0; i < N; i++) {
		hist_cmd(cmd, sizeof(cmd), i, "!");
		bench_put(TRACEFS FORK, cmd, O_APPEND);
	}
	hist_ns = bench_now_ns() - t0;
	if (lists(TRACEFS FORK, "hist:")) {
		fprintf(stderr, "trigger_remove_bench: histograms left\n");
		return 1;
	}

	for (r = 0; r < ROUNDS; r++) {
		if (remove_traceon(&t))
			return 1;
		if (!r || t < traceon_ns)
			traceon_ns = t;
	}

	rmdir(INST);
	if (mkdir(INST, 0755) || add_hists(INST FORK)) {
		fprintf(stderr, "trigger_remove_bench: cannot make %s\n", INST);
		rmdir(INST);
		return 1;
	}
	t0 = bench_now_ns();
	if (rmdir(INST)) {
		fprintf(stderr, "trigger_remove_bench: cannot remove %s\n", INST);
		return 1;
	}
	rmdir_ns = bench_now_ns() - t0;

	printf("BENCH trigger_remove_100_hist %.1f ns\n", hist_ns);
	printf("BENCH trigger_remove_100_traceon %.1f ns\n", traceon_ns);
	printf("BENCH trigger_rmdir_100_hist %.1f ns\n", rmdir_ns);
	return 0;
}
