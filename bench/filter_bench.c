// SPDX-License-Identifier: GPL-2.0
/*
 * Per-event cost of a filtered event.  Every iteration sends SIGURG (ignored)
 * to ourselves, which fires signal:signal_generate once; the event is
 * enabled with a filter that rejects the record after evaluating it.  The
 * cost reported is the time per iteration minus that of the same loop with
 * the event disabled: recording, filtering and discarding one event.
 *
 *   filter_numeric  sig == 28                         (one predicate)
 *   filter_five     (sig == 23 && errno == 0 && code != 0) ||
 *                   (pid < 0 || result > 5)           (five, all evaluated)
 *   filter_glob     comm ~ "f?l*[xyz]"               (a char[16] glob)
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
#define EVENT	"/sys/kernel/tracing/events/signal/signal_generate/"

static int put(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY | O_TRUNC);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, text, strlen(text)) == (ssize_t)strlen(text);
	close(fd);
	return ok ? 0 : -1;
}

static double loop_ns(void)
{
	pid_t self = getpid();
	double t0;
	long i;

	for (i = 0; i < ITERS / 10; i++)
		kill(self, SIGURG);
	t0 = bench_now_ns();
	for (i = 0; i < ITERS; i++)
		kill(self, SIGURG);
	return (bench_now_ns() - t0) / ITERS;
}

static double measure(const char *filter)
{
	double t;

	if (put(EVENT "filter", filter) || put(EVENT "enable", "1")) {
		fprintf(stderr, "cannot set filter %s\n", filter);
		return -1;
	}
	t = loop_ns();
	put(EVENT "enable", "0");
	put(EVENT "filter", "0");
	return t;
}

static int run(const char *name, const char *filter, double idle)
{
	double t;

	if (put(EVENT "filter", filter) || put(EVENT "enable", "1")) {
		fprintf(stderr, "cannot set filter %s\n", filter);
		return 1;
	}
	t = loop_ns();
	put(EVENT "enable", "0");
	put(EVENT "filter", "0");
	printf("BENCH %s %.1f ns\n", name, t - idle);
	fflush(stdout);
	return 0;
}

int main(void)
{
	double idle, one, many;
	int ret = 0;

	signal(SIGURG, SIG_IGN);
	put("/sys/kernel/tracing/tracing_on", "1");
	put(EVENT "enable", "0");
	idle = loop_ns();
	ret |= run("filter_numeric", "sig == 28", idle);
	ret |= run("filter_five",
		   "(sig == 23 && errno == 0 && code != 0) || (pid < 0 || result > 5)",
		   idle);
	ret |= run("filter_glob", "comm ~ \"f?l*[xyz]\"", idle);

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
