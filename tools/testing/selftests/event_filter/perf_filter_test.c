// SPDX-License-Identifier: GPL-2.0
/*
 * perf's PERF_EVENT_IOC_SET_FILTER on a tracepoint goes through the event
 * filter engine: a counter only counts the records the filter accepts, a
 * bad filter is refused with EINVAL and a second filter with EEXIST.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"

#define SIGNAL_ID "/sys/kernel/tracing/events/signal/signal_generate/id"

static int tracepoint_id(const char *path)
{
	char buf[32] = "";
	int fd, n;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : -1;
}

/* A counting perf event on the tracepoint, for this task on any CPU. */
static int open_counter(int id)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.type = PERF_TYPE_TRACEPOINT;
	attr.size = sizeof(attr);
	attr.config = id;
	attr.sample_period = 1;
	attr.disabled = 1;
	return syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
}

/* Send @n signals @sig to ourselves (ignored, but traced). */
static void send_signals(int sig, int n)
{
	while (n--)
		kill(getpid(), sig);
}

static long long count_with_filter(struct __test_metadata *_metadata,
				   int id, const char *filter)
{
	long long count = -1;
	int fd;

	fd = open_counter(id);
	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	send_signals(SIGWINCH, 3);
	send_signals(SIGURG, 2);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(sizeof(count), read(fd, &count, sizeof(count)));
	close(fd);
	return count;
}

FIXTURE(perf_filter) {
	int id;
};

FIXTURE_SETUP(perf_filter)
{
	signal(SIGWINCH, SIG_IGN);
	signal(SIGURG, SIG_IGN);
	self->id = tracepoint_id(SIGNAL_ID);
	if (self->id < 0)
		SKIP(return, "no signal_generate tracepoint");
}

FIXTURE_TEARDOWN(perf_filter)
{
}

TEST_F(perf_filter, numeric)
{
	char filter[64];

	snprintf(filter, sizeof(filter), "sig == %d && pid == %d",
		 SIGWINCH, getpid());
	EXPECT_EQ(3, count_with_filter(_metadata, self->id, filter));
}

TEST_F(perf_filter, or_and_not)
{
	char filter[96];

	snprintf(filter, sizeof(filter),
		 "(sig == %d || sig == %d) && !(pid != %d)",
		 SIGWINCH, SIGURG, getpid());
	EXPECT_EQ(5, count_with_filter(_metadata, self->id, filter));
}

TEST_F(perf_filter, string)
{
	char filter[96];

	snprintf(filter, sizeof(filter), "sig == %d && comm ~ \"*\"", SIGURG);
	EXPECT_EQ(2, count_with_filter(_metadata, self->id, filter));
}

TEST_F(perf_filter, rejects_nothing_matches)
{
	EXPECT_EQ(0, count_with_filter(_metadata, self->id, "sig < 0"));
}

TEST_F(perf_filter, bad_filter)
{
	int fd = open_counter(self->id);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "nosuch == 1"));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "sig == 1 &&"));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "sig == 'x'"));
	EXPECT_EQ(EINVAL, errno);
	/* the failures left no filter behind */
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "sig == 1"));
	close(fd);
}

TEST_F(perf_filter, second_filter)
{
	int fd = open_counter(self->id);

	ASSERT_GE(fd, 0);
	EXPECT_EQ(0, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "sig == 1"));
	EXPECT_EQ(-1, ioctl(fd, PERF_EVENT_IOC_SET_FILTER, "sig == 2"));
	EXPECT_EQ(EEXIST, errno);
	close(fd);
}

TEST_HARNESS_MAIN
