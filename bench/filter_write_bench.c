// SPDX-License-Identifier: GPL-2.0
/*
 * The cost of setting filters, as a tool that applies a session's filters
 * does: each write replaces the filter before it, which an event on
 * another CPU may still be evaluating.
 *
 * Prints, in guest nanoseconds for the whole of it:
 *   BENCH filter_write_100            100 writes of "sig == N" to one
 *                                     event's filter file
 *   BENCH filter_write_subsystem_10   10 writes of "common_pid == N" to
 *                                     the syscalls subsystem's filter file
 *                                     (every syscall event takes it)
 */
#include <stdio.h>
#include "bench.h"

#define TRACEFS		"/sys/kernel/tracing"
#define EVENT		TRACEFS "/events/signal/signal_generate/filter"
#define SUBSYS		TRACEFS "/events/syscalls/filter"

/* ns taken by N writes of FMT % i to PATH, or -1 when one is refused */
static double writes_ns(const char *path, const char *fmt, int n)
{
	char text[64];
	double t0 = bench_now_ns();
	int i;

	for (i = 0; i < n; i++) {
		snprintf(text, sizeof(text), fmt, i + 1);
		if (bench_put(path, text, O_TRUNC))
			return -1;
	}
	return bench_now_ns() - t0;
}

int main(void)
{
	double event_ns, subsys_ns;

	if (access(EVENT, W_OK) || access(SUBSYS, W_OK)) {
		fprintf(stderr, "filter_write_bench: missing events\n");
		return 4;
	}
	event_ns = writes_ns(EVENT, "sig == %d", 100);
	subsys_ns = writes_ns(SUBSYS, "common_pid == %d", 10);
	bench_put(EVENT, "0", O_TRUNC);
	bench_put(SUBSYS, "0", O_TRUNC);
	if (event_ns < 0 || subsys_ns < 0) {
		fprintf(stderr, "filter_write_bench: a filter was refused\n");
		return 1;
	}
	printf("BENCH filter_write_100 %.1f ns\n", event_ns);
	printf("BENCH filter_write_subsystem_10 %.1f ns\n", subsys_ns);
	return 0;
}
