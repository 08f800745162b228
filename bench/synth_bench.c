// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of writing one synthetic event from a histogram action: the
 * wakeup-latency pattern, with getppid() standing in for the wakeup and
 * the switch.
 *
 * sys_enter_getppid saves a timestamp per pid; sys_exit_getppid computes
 * the latency and fires onmatch().trace() of a 7-field event shaped like
 * the in-kernel API's "schedtest" (a pid and six u64: numbers where
 * schedtest has an unsigned int, an int and strings, since a histogram
 * hands constants and timestamps as u64).  With the synthetic event
 * disabled the action finds no probe and writes nothing, so the
 * difference of the two runs is the synthetic event write alone.
 *
 * Prints, in guest nanoseconds per getppid() call:
 *   BENCH synth_onmatch_disabled       both histograms, event disabled
 *   BENCH synth_onmatch_trace          both histograms, event enabled
 *   BENCH synth_onmatch_trace_extra    the write of one synthetic event
 *   BENCH synth_floor                  no histogram: both events' records
 *                                      built and dropped by a trigger
 *                                      whose filter rejects them
 */
#include <stdio.h>
#include "bench.h"

#define TRACEFS		"/sys/kernel/tracing"
#define SYS		TRACEFS "/events/syscalls"
#define LOOPS		100000
#define ROUNDS		5
/* the floor's trigger: its filter needs the record, then drops it */
#define FLOOR		"traceon if common_pid == 0"

static const char *const enter_hist =
	"hist:keys=common_pid:ts0=common_timestamp";
/*
 * Every parameter is a variable of this histogram: both kernels refuse a
 * bare common_pid ("Param type doesn't match synthetic event field type").
 */
static const char *const exit_hist =
	"hist:keys=common_pid:lat=common_timestamp-$ts0,p=common_pid,"
	"ts=common_timestamp,c=3,i=5,lat2=common_timestamp-$ts0,"
	"ts2=common_timestamp:onmatch(syscalls.sys_enter_getppid)"
	".trace(schedbench,$p,$lat,$ts,$c,$i,$lat2,$ts2)";

int main(void)
{
	double floor, off, on;

	if (access(TRACEFS "/synthetic_events", W_OK) ||
	    access(SYS "/sys_exit_getppid/trigger", W_OK)) {
		fprintf(stderr, "synth_bench: no synthetic or syscall events\n");
		return 4;
	}
	bench_put(TRACEFS "/tracing_on", "1", O_TRUNC);
	/* The floor: both events' records built and dropped, no histogram */
	if (bench_put(SYS "/sys_enter_getppid/trigger", FLOOR, O_APPEND) ||
	    bench_put(SYS "/sys_exit_getppid/trigger", FLOOR, O_APPEND)) {
		fprintf(stderr, "synth_bench: cannot set up the floor\n");
		return 1;
	}
	floor = bench_best_ns(bench_getppid, LOOPS, ROUNDS);
	bench_put(SYS "/sys_exit_getppid/trigger", "!" FLOOR, O_APPEND);
	bench_put(SYS "/sys_enter_getppid/trigger", "!" FLOOR, O_APPEND);

	if (bench_put(TRACEFS "/synthetic_events",
		       "schedbench pid_t pid; u64 lat; u64 ts; u64 c; "
		       "u64 i; u64 lat2; u64 ts2", O_APPEND) ||
	    bench_put(SYS "/sys_enter_getppid/trigger", enter_hist, O_APPEND) ||
	    bench_put(SYS "/sys_exit_getppid/trigger", exit_hist, O_APPEND)) {
		fprintf(stderr, "synth_bench: cannot set up the histograms\n");
		return 1;
	}

	off = bench_best_ns(bench_getppid, LOOPS, ROUNDS);
	bench_put(TRACEFS "/events/synthetic/schedbench/enable", "1", O_TRUNC);
	on = bench_best_ns(bench_getppid, LOOPS, ROUNDS);
	bench_put(TRACEFS "/events/synthetic/schedbench/enable", "0", O_TRUNC);

	/* Opening with O_TRUNC removes every trigger: the user of $ts0 first */
	bench_put(SYS "/sys_exit_getppid/trigger", "", O_TRUNC);
	bench_put(SYS "/sys_enter_getppid/trigger", "", O_TRUNC);
	bench_put(TRACEFS "/synthetic_events", "!schedbench", O_APPEND);
	bench_put(TRACEFS "/trace", "", O_TRUNC);

	printf("BENCH synth_floor %.1f ns\n", floor);
	printf("BENCH synth_onmatch_disabled %.1f ns\n", off);
	printf("BENCH synth_onmatch_trace %.1f ns\n", on);
	printf("BENCH synth_onmatch_trace_extra %.1f ns\n", on - off);
	return 0;
}
