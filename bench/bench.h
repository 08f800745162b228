/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Timing helpers of the benchmark programs.  Under QEMU -icount shift=0 the
 * guest clock advances one nanosecond per guest instruction, so a figure is
 * a count of work, identical from run to run.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdio.h>
#include <time.h>

static inline double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
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

#endif
