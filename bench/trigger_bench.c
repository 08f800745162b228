// SPDX-License-Identifier: GPL-2.0
/*
 * Per-event cost of an event that carries a filtered "traceon" trigger.
 *
 * The triggering event is syscalls:sys_enter_getppid, fired by getppid().
 * With the trigger attached the event is in soft mode: every call records
 * the event into a scratch buffer, runs the trigger's filter on it and
 * drops the record.  The trigger's filter never matches, and tracing is on
 * anyway, so traceon itself does nothing: what is measured is the engine.
 *
 * Prints, in guest nanoseconds per getppid() call:
 *   BENCH trigger_syscall_plain              no trigger
 *   BENCH trigger_traceon_filtered           with "traceon if common_pid == 0"
 *   BENCH trigger_traceon_unfiltered         with "traceon" (no filter)
 *   BENCH trigger_traceon_filtered_extra     filtered minus plain
 *   BENCH trigger_syscall_floor              no trigger, but another
 *                                            syscall's enter event enabled
 *
 * The floor is what any work on sys_enter_getppid costs before the trigger
 * engine runs: the syscall's slow path, the tracepoint and the syscall
 * probe up to its lookup of the event, all base code that both kernels
 * share.  No trigger can cost less.
 */
#include <stdio.h>
#include "bench.h"

#define TRACEFS		"/sys/kernel/tracing"
#define EVENT_DIR	TRACEFS "/events/syscalls/sys_enter_getppid"
#define OTHER_DIR	TRACEFS "/events/syscalls/sys_enter_getpid"
#define LOOPS		200000
#define ROUNDS		5

int main(void)
{
	double plain, filtered, unfiltered, floor_ns;

	if (access(EVENT_DIR "/trigger", W_OK)) {
		fprintf(stderr, "trigger_bench: no %s/trigger\n", EVENT_DIR);
		return 4;
	}
	bench_put(TRACEFS "/tracing_on", "1", O_TRUNC);
	/* Start from no trigger at all, whatever ran before */
	bench_put(EVENT_DIR "/trigger", "", O_TRUNC);

	plain = bench_best_ns(bench_getppid, LOOPS, ROUNDS);

	if (bench_put(EVENT_DIR "/trigger", "traceon if common_pid == 0",
		      O_APPEND)) {
		fprintf(stderr, "trigger_bench: cannot set filtered trigger\n");
		return 1;
	}
	filtered = bench_best_ns(bench_getppid, LOOPS, ROUNDS);
	bench_put(EVENT_DIR "/trigger", "!traceon", O_APPEND);

	if (bench_put(EVENT_DIR "/trigger", "traceon", O_APPEND)) {
		fprintf(stderr, "trigger_bench: cannot set trigger\n");
		return 1;
	}
	unfiltered = bench_best_ns(bench_getppid, LOOPS, ROUNDS);
	bench_put(EVENT_DIR "/trigger", "!traceon", O_APPEND);

	if (bench_put(OTHER_DIR "/enable", "1", O_TRUNC)) {
		fprintf(stderr, "trigger_bench: cannot enable %s\n", OTHER_DIR);
		return 1;
	}
	floor_ns = bench_best_ns(bench_getppid, LOOPS, ROUNDS);
	bench_put(OTHER_DIR "/enable", "0", O_TRUNC);

	printf("BENCH trigger_syscall_plain %.1f ns\n", plain);
	printf("BENCH trigger_traceon_filtered %.1f ns\n", filtered);
	printf("BENCH trigger_traceon_unfiltered %.1f ns\n", unfiltered);
	printf("BENCH trigger_traceon_filtered_extra %.1f ns\n",
	       filtered - plain);
	printf("BENCH trigger_syscall_floor %.1f ns\n", floor_ns);
	return 0;
}
