// SPDX-License-Identifier: GPL-2.0
/*
 * A filter replaced while its event fires on two CPUs at once: every
 * record is judged by the old filter or by the new one, whole.  Two
 * threads, each bound to a CPU of its own, write a user event with the
 * fields x and y in all four combinations of low and high values while
 * the main thread sets the filters "x < 1000 && y < 1000" and
 * "x >= 1000 && y >= 1000" in turn, each writer writing up to BURST
 * records under each.  A kept record with one low and one high value
 * would have been judged by half of each.  Setting a filter does not
 * wait for the writers, so the main thread waits until each has written
 * MIN_WRITES records under the new filter before it sets the next one,
 * while they go on writing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/user_events.h>

#include "../kselftest_harness.h"
#include "../user_events/ue_util.h"

#define TRACEFS	"/sys/kernel/tracing/"
#define EVENT	TRACEFS "events/user_events/filt_race/"
#define CMD	"filt_race u32 x; u32 y"
#define LOW	7
#define HIGH	4000
#define SWAPS	50
#define BURST	3000	/* writes per writer and filter: the buffers hold all */
#define MIN_WRITES 64	/* under a filter before the next is set */
#define WAIT_MS	20000	/* for MIN_WRITES, at most */

static const char *const filters[2] = {
	"x < 1000 && y < 1000",
	"x >= 1000 && y >= 1000",
};

struct race {
	int		fd;
	uint32_t	idx;
	int		cpu;
	int		stop;		/* read and set with __atomic */
	const int	*gen;		/* filters set so far (__atomic) */
	int		seen;		/* gen written under (__atomic) */
	unsigned int	burst;		/* writes under seen (__atomic) */
	long		writes;
	int		err;		/* errno of a failed write, or 0 */
};

static void *writer(void *arg)
{
	struct race *r = arg;
	uint32_t rec[2];
	struct iovec io[2] = {
		{ &r->idx, sizeof(r->idx) },
		{ rec, sizeof(rec) },
	};
	cpu_set_t set;
	unsigned int i = 0, burst = 0;
	int seen = -1;

	CPU_ZERO(&set);
	CPU_SET(r->cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	while (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED)) {
		int g = __atomic_load_n(r->gen, __ATOMIC_RELAXED);

		if (g != seen) {
			seen = g;
			burst = 0;
			__atomic_store_n(&r->burst, 0, __ATOMIC_RELAXED);
			__atomic_store_n(&r->seen, g, __ATOMIC_RELEASE);
		}
		if (burst == BURST) {
			sched_yield();
			continue;
		}
		rec[0] = i & 1 ? HIGH : LOW;
		rec[1] = i & 2 ? HIGH : LOW;
		i++;
		burst++;
		if (writev(r->fd, io, 2) < 0 && !r->err)
			r->err = errno;
		r->writes++;
		__atomic_store_n(&r->burst, burst, __ATOMIC_RELEASE);
	}
	return NULL;
}

/* Whether r has written MIN_WRITES records since it saw filter gen */
static int wrote_under(struct race *r, int gen)
{
	unsigned int n = __atomic_load_n(&r->burst, __ATOMIC_ACQUIRE);

	return __atomic_load_n(&r->seen, __ATOMIC_ACQUIRE) == gen &&
	       n >= MIN_WRITES;
}

/* Wait until both writers have written under filter gen; 0 or -1 */
static int wait_writers(struct race *r, int gen)
{
	int ms;

	for (ms = 0; ms < WAIT_MS; ms++) {
		if (wrote_under(&r[0], gen) && wrote_under(&r[1], gen))
			return 0;
		usleep(1000);
	}
	return -1;
}

/*
 * The per-CPU buffer size to restore, in size; its number of KiB.  A
 * buffer not yet expanded reads "7 (expanded: 1408)": 1408 is restored.
 */
static int buffer_kb(char *size, size_t len)
{
	char text[64] = "", *p;
	FILE *f = fopen(TRACEFS "buffer_size_kb", "r");

	if (!f)
		return -1;
	if (!fgets(text, sizeof(text), f))
		text[0] = 0;
	fclose(f);
	p = strstr(text, "expanded: ");
	snprintf(size, len, "%d", atoi(p ? p + 10 : text));
	return atoi(size);
}

/* Records of cpu overwritten before they were read (its stats file) */
static long overruns(int cpu)
{
	char path[128], line[128];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), TRACEFS "per_cpu/cpu%d/stats", cpu);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "overrun: ", 9))
			n = atol(line + 9);
	fclose(f);
	return n;
}

/* Count the kept records by the kind of their values; -1 on a bad line */
static int tally(long *lowlow, long *highhigh, long *mixed)
{
	char line[512];
	unsigned int x, y;
	FILE *f = fopen(TRACEFS "trace", "r");
	const char *p;

	if (!f)
		return -1;
	*lowlow = *highhigh = *mixed = 0;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		p = strstr(line, " filt_race: ");
		if (!p || sscanf(p, " filt_race: x=%u y=%u", &x, &y) != 2) {
			fclose(f);
			return -1;
		}
		if (x == LOW && y == LOW)
			(*lowlow)++;
		else if (x == HIGH && y == HIGH)
			(*highhigh)++;
		else
			(*mixed)++;
	}
	fclose(f);
	return 0;
}

TEST(filter_replaced_under_fire)
{
	struct user_status_reg reg = { .size = sizeof(reg) };
	struct race r[2];
	pthread_t t[2];
	long lowlow, highhigh, mixed, lost;
	char size[32] = "";
	int fd, i, gen = 0, err = 0;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU");
	fd = open(TRACEFS "user_events_data", O_RDWR);
	if (fd < 0)
		SKIP(return, "no user_events_data");
	reg.name_args = (uint64_t)(uintptr_t)CMD;
	ASSERT_EQ(0, ioctl(fd, DIAG_IOCSREG, &reg));
	ASSERT_LT(0, buffer_kb(size, sizeof(size)));
	ASSERT_EQ(0, ue_write_file(TRACEFS "buffer_size_kb", "4096", 0));
	ASSERT_EQ(0, ue_write_file(TRACEFS "trace", "", 0));
	ASSERT_EQ(0, ue_write_file(EVENT "filter", filters[0], 0));
	ASSERT_EQ(0, ue_write_file(EVENT "enable", "1", 0));

	for (i = 0; i < 2; i++) {
		r[i] = (struct race){ .fd = fd, .idx = reg.write_index, .cpu = i,
				      .gen = &gen, .seen = -1 };
		ASSERT_EQ(0, pthread_create(&t[i], NULL, writer, &r[i]));
	}
	for (i = 1; i <= SWAPS && !err; i++) {
		err = wait_writers(r, i - 1);
		if (!err)
			err = ue_write_file(EVENT "filter", filters[i & 1], 0);
		__atomic_store_n(&gen, i, __ATOMIC_RELAXED);
	}
	for (i = 0; i < 2; i++) {
		__atomic_store_n(&r[i].stop, 1, __ATOMIC_RELAXED);
		pthread_join(t[i], NULL);
	}
	ue_write_file(EVENT "enable", "0", 0);

	EXPECT_EQ(0, err);
	EXPECT_EQ(0, r[0].err);
	EXPECT_EQ(0, r[1].err);
	ASSERT_EQ(0, tally(&lowlow, &highhigh, &mixed));
	/* the buffer held every record kept: nothing was overwritten */
	lost = overruns(0) + overruns(1);
	TH_LOG("%ld and %ld writes; kept %ld low, %ld high, %ld mixed",
	       r[0].writes, r[1].writes, lowlow, highhigh, mixed);
	EXPECT_EQ(0, lost);
	EXPECT_EQ(0, mixed);
	EXPECT_LT(0, lowlow);
	EXPECT_LT(0, highhigh);

	ue_write_file(EVENT "filter", "0", 0);
	ue_write_file(TRACEFS "trace", "", 0);
	ue_write_file(TRACEFS "buffer_size_kb", size, 0);
	close(fd);
	fd = open(TRACEFS "user_events_data", O_RDWR);
	if (fd >= 0) {
		ioctl(fd, DIAG_IOCSDEL, "filt_race");
		close(fd);
	}
}

TEST_HARNESS_MAIN
