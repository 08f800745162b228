/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timing helpers of the benchmark programs.  Under QEMU -icount shift=0 the
 * guest clock advances one nanosecond per guest instruction, so a figure is
 * a count of work, identical from run to run.
 */
#ifndef BENCH_H
#define BENCH_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static inline double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/*
 * bench_put - write TEXT to the file PATH opened O_WRONLY | FLAGS (O_TRUNC
 * to replace, O_APPEND to add a trigger or definition).  Returns 0 when the
 * kernel took all of it, -1 otherwise.
 */
static inline int bench_put(const char *path, const char *text, int flags)
{
	int fd = open(path, O_WRONLY | flags);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* bench_loop_ns - ns per call of FIRE(i), after a tenth as many to warm up */
static inline double bench_loop_ns(void (*fire)(long), long iters)
{
	double t0;
	long i;

	for (i = 0; i < iters / 10; i++)
		fire(i);
	t0 = bench_now_ns();
	for (i = 0; i < iters; i++)
		fire(i);
	return (bench_now_ns() - t0) / iters;
}

/* bench_best_ns - the lowest of ROUNDS bench_loop_ns() figures */
static inline double bench_best_ns(void (*fire)(long), long iters, int rounds)
{
	double best = 0, t;
	int r;

	for (r = 0; r < rounds; r++) {
		t = bench_loop_ns(fire, iters);
		if (!r || t < best)
			best = t;
	}
	return best;
}

/* One syscalls:sys_enter_getppid and sys_exit_getppid event pair */
static inline void bench_getppid(long i)
{
	(void)i;
	syscall(SYS_getppid);
}

/* BENCH_RUN(name, iterations, statement): report ns per execution. */
#define BENCH_RUN(name, iters, stmt)					\
	do {								\
		long bench_i;						\
		double bench_t0;					\
		for (bench_i = 0; bench_i < (iters) / 10; bench_i++)	\
			stmt;						\
		bench_t0 = bench_now_ns();				\
		for (bench_i = 0; bench_i < (iters); bench_i++)		\
			stmt;						\
		printf("BENCH %s %.1f ns\n", (name),			\
		       (bench_now_ns() - bench_t0) / (iters));		\
		fflush(stdout);						\
	} while (0)

/*
 * bench_kmod_load - load bench/kmod/MOD.ko of the running kernel (built out
 * of tree against each variant, packed under /modules/VARIANT): its init
 * measures.  Returns 0, 4 (skip: no module for this kernel) or 1.
 */
static inline int bench_kmod_load(const char *mod)
{
	char variant[64] = "ours", path[160], cmdline[1024] = "";
	FILE *f = fopen("/proc/cmdline", "r");
	char *arg;
	int fd;

	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = '\0';
		fclose(f);
	}
	arg = strstr(cmdline, "ts.variant=");
	if (arg)
		sscanf(arg, "ts.variant=%63s", variant);
	snprintf(path, sizeof(path), "/modules/%s/%s.ko", variant, mod);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "%s: no %s\n", mod, path);
		return 4;
	}
	if (syscall(SYS_finit_module, fd, "", 0)) {
		perror("finit_module");
		close(fd);
		return 1;
	}
	close(fd);
	return 0;
}

/* bench_kmod_print - print parameter PARAM of MOD as "BENCH NAME <value> ns" */
static inline int bench_kmod_print(const char *mod, const char *param,
				   const char *name)
{
	char path[160], value[32] = "";
	int fd;

	snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s", mod, param);
	fd = open(path, O_RDONLY);
	if (fd < 0 || read(fd, value, sizeof(value) - 1) <= 0 || value[0] == '\n') {
		fprintf(stderr, "%s: no %s\n", mod, param);
		if (fd >= 0)
			close(fd);
		return 1;
	}
	close(fd);
	value[strcspn(value, "\n")] = '\0';
	printf("BENCH %s %s ns\n", name, value);
	return 0;
}

#endif
