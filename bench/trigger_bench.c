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
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define TRACEFS		"/sys/kernel/tracing"
#define EVENT_DIR	TRACEFS "/events/syscalls/sys_enter_getppid"
#define LOOPS		200000
#define ROUNDS		5

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Best of a few rounds of LOOPS getppid() calls, in ns per call. */
static double measure(void)
{
	double best = 0;
	int r, i;

	for (r = 0; r < ROUNDS; r++) {
		double t0 = now_ns(), t;

		for (i = 0; i < LOOPS; i++)
			syscall(SYS_getppid);
		t = (now_ns() - t0) / LOOPS;
		if (!r || t < best)
			best = t;
	}
	return best;
}

int main(void)
{
	double plain, filtered, unfiltered;

	if (access(EVENT_DIR "/trigger", W_OK)) {
		fprintf(stderr, "trigger_bench: no %s/trigger\n", EVENT_DIR);
		return 4;
	}
	write_file(TRACEFS "/tracing_on", "1");

	plain = measure();

	if (write_file(EVENT_DIR "/trigger", "traceon if common_pid == 0")) {
		fprintf(stderr, "trigger_bench: cannot set filtered trigger\n");
		return 1;
	}
	filtered = measure();
	write_file(EVENT_DIR "/trigger", "!traceon");

	if (write_file(EVENT_DIR "/trigger", "traceon")) {
		fprintf(stderr, "trigger_bench: cannot set trigger\n");
		return 1;
	}
	unfiltered = measure();
	write_file(EVENT_DIR "/trigger", "!traceon");

	printf("BENCH trigger_syscall_plain %.1f ns\n", plain);
	printf("BENCH trigger_traceon_filtered %.1f ns\n", filtered);
	printf("BENCH trigger_traceon_unfiltered %.1f ns\n", unfiltered);
	printf("BENCH trigger_traceon_filtered_extra %.1f ns\n",
	       filtered - plain);
	return 0;
}
