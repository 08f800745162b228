// SPDX-License-Identifier: GPL-2.0
/*
 * Per-event cost of a filtered event.  Every iteration sends SIGURG (ignored)
 * to ourselves, which fires signal:signal_generate once; the event is
 * enabled with a filter that rejects the record after evaluating it.  The
 * cost reported is the time per iteration minus that of the same loop with
 * the event disabled: recording, filtering and discarding one event.  Each
 * loop time is the lowest of ROUNDS runs, which keeps a stray interrupt or
 * a page fault out of a difference of a few hundred nanoseconds.
 *
 *   filter_numeric  sig == 28                         (one predicate)
 *   filter_five     (sig == 23 && errno == 0 && code != 0) ||
 *                   (pid < 0 || result > 5)           (five, all evaluated)
 *   filter_glob     comm ~ "f?l*[xyz]"               (a char[16] glob)
 *   filter_numeric_pid_mark
 *                   sig == 28, with the instance's events marked for pid
 *                   filtering by an empty set_event_pid, as "echo >" left
 *                   by trace-cmd and ftracetest leaves them
 *
 *   filter_floor    no filter: the event with nothing attached, its
 *                   record kept, what any filter on it starts from
 *
 * filter_per_pred is the cost of one more predicate: (sixteen "sig == N"
 * joined by "||", all evaluated, minus one of them) / 15.  It leaves out
 * recording and discarding the event and shows the evaluator alone.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"

#define ITERS	20000
#define ROUNDS	5	/* each figure is the lowest of this many loops */
#define TRACEFS	"/sys/kernel/tracing/"
#define EVENT	TRACEFS "events/signal/signal_generate/"

static pid_t self;

static void fire_signal(long i)
{
	(void)i;
	kill(self, SIGURG);
}

static double measure(const char *filter)
{
	double t;

	if (bench_put(EVENT "filter", filter, O_TRUNC) ||
	    bench_put(EVENT "enable", "1", O_TRUNC)) {
		fprintf(stderr, "cannot set filter %s\n", filter);
		return -1;
	}
	t = bench_best_ns(fire_signal, ITERS, ROUNDS);
	bench_put(EVENT "enable", "0", O_TRUNC);
	bench_put(EVENT "filter", "0", O_TRUNC);
	return t;
}

static int run(const char *name, const char *filter, double idle)
{
	double t;

	if (bench_put(EVENT "filter", filter, O_TRUNC) ||
	    bench_put(EVENT "enable", "1", O_TRUNC)) {
		fprintf(stderr, "cannot set filter %s\n", filter);
		return 1;
	}
	t = bench_best_ns(fire_signal, ITERS, ROUNDS);
	bench_put(EVENT "enable", "0", O_TRUNC);
	bench_put(EVENT "filter", "0", O_TRUNC);
	printf("BENCH %s %.1f ns\n", name, t - idle);
	fflush(stdout);
	return 0;
}

int main(void)
{
	double idle, one, many;
	int ret = 0;

	signal(SIGURG, SIG_IGN);
	self = getpid();
	bench_put("/sys/kernel/tracing/tracing_on", "1", O_TRUNC);
	bench_put(EVENT "enable", "0", O_TRUNC);
	idle = bench_best_ns(fire_signal, ITERS, ROUNDS);
	ret |= run("filter_numeric", "sig == 28", idle);
	ret |= run("filter_five",
		   "(sig == 23 && errno == 0 && code != 0) || (pid < 0 || result > 5)",
		   idle);
	ret |= run("filter_glob", "comm ~ \"f?l*[xyz]\"", idle);
	/* the floor: the event with nothing attached, its record kept */
	ret |= run("filter_floor", "0", idle);
	/* a write of nothing marks every event; a truncating open of a
	 * list that is not empty clears the marks
	 */
	bench_put(TRACEFS "set_event_pid", "\n", O_TRUNC);
	ret |= run("filter_numeric_pid_mark", "sig == 28", idle);
	bench_put(TRACEFS "set_event_pid", "1", O_TRUNC);
	bench_put(TRACEFS "set_event_pid", "", O_TRUNC);

	one = measure("sig == 1");
	many = measure("sig == 1 || sig == 2 || sig == 3 || sig == 4 || "
		       "sig == 5 || sig == 6 || sig == 7 || sig == 8 || "
		       "sig == 9 || sig == 10 || sig == 11 || sig == 12 || "
		       "sig == 13 || sig == 14 || sig == 15 || sig == 16");
	if (one < 0 || many < 0)
		return 1;
	printf("BENCH filter_per_pred %.1f ns\n", (many - one) / 15);
	return ret;
}
