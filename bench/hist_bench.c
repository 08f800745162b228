// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of histograms: per event, and per read of the hist file.
 *
 * Per event (the time per call with the histogram attached, minus the
 * same loop with the event off, each loop time the lowest of ROUNDS runs;
 * the event is then in soft mode, so the figure holds building the record,
 * the histogram and dropping the record):
 *
 *   hist_pid          syscalls:sys_enter_getppid  keys=common_pid
 *                     (hitcount only, one entry)
 *   hist_two_keys     syscalls:sys_enter_lseek    keys=fd,whence
 *                     vals=offset,fd (two numeric keys, two sums)
 *   hist_string       signal:signal_generate      keys=comm
 *                     (a char[16] key; no syscall event has a string)
 *   hist_90_full      syscalls:sys_enter_lseek    keys=offset, size=2048,
 *                     1843 keys in the map, each call hits one of them
 *
 * The floor of each: the same event with a trigger that needs its record
 * and does nothing with it ("traceon if common_pid == 0"), what any
 * histogram on it pays before its own work:
 *
 *   hist_floor_getppid, hist_floor_lseek, hist_floor_signal
 *
 * Per read of the hist file (sorting by hitcount and printing):
 *
 *   hist_read_2048    keys=offset, 2048 entries
 *   hist_read_max     keys=offset, size=131072, 131072 entries
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "bench.h"

#define TRACEFS		"/sys/kernel/tracing/"
#define GETPPID		TRACEFS "events/syscalls/sys_enter_getppid/"
#define LSEEK		TRACEFS "events/syscalls/sys_enter_lseek/"
#define SIGGEN		TRACEFS "events/signal/signal_generate/"
#define ITERS		20000
#define ROUNDS		5	/* a per-event figure's loops: the lowest of */
#define FULL_90		1843	/* 90% of 2048 */
#define MAX_ENTRIES	131072
/* the floors' trigger: its filter needs the record, then drops it */
#define FLOOR		"traceon if common_pid == 0"

/* One event of each kind; lseek() on no file fails after its event. */
static void fire_getppid(long i)
{
	syscall(SYS_getppid);
}

static void fire_lseek(long i)
{
	lseek(-1, i % FULL_90, SEEK_SET);
}

static void fire_signal(long i)
{
	kill(getpid(), SIGURG);
}

static int attach(const char *event, const char *spec)
{
	char path[256];

	snprintf(path, sizeof(path), "%strigger", event);
	if (bench_put(path, spec, O_APPEND)) {
		fprintf(stderr, "hist_bench: cannot attach %s to %s\n", spec, event);
		return -1;
	}
	return 0;
}

static void detach(const char *event, const char *spec)
{
	char path[256], cmd[256];

	snprintf(path, sizeof(path), "%strigger", event);
	snprintf(cmd, sizeof(cmd), "!%s", spec);
	bench_put(path, cmd, O_APPEND);
}

static int per_event(const char *name, const char *event, const char *spec,
		     void (*fire)(long), long prefill)
{
	double idle = bench_best_ns(fire, ITERS, ROUNDS), t;
	long i;

	if (attach(event, spec))
		return 1;
	for (i = 0; i < prefill; i++)
		fire(i);
	t = bench_best_ns(fire, ITERS, ROUNDS);
	detach(event, spec);
	printf("BENCH %s %.1f ns\n", name, t - idle);
	fflush(stdout);
	return 0;
}

/* Read the whole hist file; returns the bytes read. */
static long read_hist(const char *event)
{
	static char buf[1 << 16];
	char path[256];
	long total = 0;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%shist", event);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	close(fd);
	return total;
}

static int per_read(const char *name, const char *spec, long entries, int reads)
{
	double t0;
	long i;
	int r;

	if (attach(LSEEK, spec))
		return 1;
	for (i = 0; i < entries; i++)
		lseek(-1, i, SEEK_SET);
	if (read_hist(LSEEK) <= 0) {
		detach(LSEEK, spec);
		return 1;
	}
	t0 = bench_now_ns();
	for (r = 0; r < reads; r++)
		read_hist(LSEEK);
	printf("BENCH %s %.1f ns\n", name, (bench_now_ns() - t0) / reads);
	fflush(stdout);
	detach(LSEEK, spec);
	return 0;
}

int main(void)
{
	int ret = 0;

	signal(SIGURG, SIG_IGN);
	bench_put(TRACEFS "tracing_on", "1", O_APPEND);

	ret |= per_event("hist_pid", GETPPID, "hist:keys=common_pid",
			 fire_getppid, 0);
	ret |= per_event("hist_two_keys", LSEEK,
			 "hist:keys=fd,whence:vals=offset,fd", fire_lseek, 0);
	ret |= per_event("hist_string", SIGGEN, "hist:keys=comm", fire_signal, 0);
	ret |= per_event("hist_90_full", LSEEK, "hist:keys=offset:size=2048",
			 fire_lseek, FULL_90);

	/*
	 * The floors: the same events with their records built and dropped,
	 * by a trigger whose filter rejects them (and does nothing else)
	 */
	ret |= per_event("hist_floor_getppid", GETPPID, FLOOR, fire_getppid, 0);
	ret |= per_event("hist_floor_lseek", LSEEK, FLOOR, fire_lseek, 0);
	ret |= per_event("hist_floor_signal", SIGGEN, FLOOR, fire_signal, 0);

	ret |= per_read("hist_read_2048", "hist:keys=offset:size=2048", 2048, 4);
	ret |= per_read("hist_read_max", "hist:keys=offset:size=131072",
			MAX_ENTRIES, 1);
	return ret;
}
