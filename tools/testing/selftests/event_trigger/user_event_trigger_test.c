// SPDX-License-Identifier: GPL-2.0
/*
 * Event triggers on user events: a trigger puts the user event in soft
 * mode (so its status bit says it is consumed and its writes reach the
 * kernel), its filter sees the user-supplied fields, a user event can be
 * the target of disable_event, and histograms count its writes.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/user_events.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../kselftest_harness.h"

#define TRACEFS		"/sys/kernel/tracing"
#define EVENT_NAME	"trig_ue"
#define EVENT_DIR	TRACEFS "/events/user_events/" EVENT_NAME

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		n = -errno;
	close(fd);
	return n < 0 ? n : 0;
}

/* Read a whole (small) tracefs file into buf; returns its length. */
static int read_text(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

static int count_in_trace(const char *needle)
{
	char *buf = malloc(1 << 20);
	int n = 0, len;
	char *p;

	if (!buf)
		return -1;
	len = read_text(TRACEFS "/trace", buf, 1 << 20);
	for (p = buf; len > 0 && (p = strstr(p, needle)); p++)
		n++;
	free(buf);
	return n;
}

FIXTURE(ue) {
	int data_fd;			/* user_events_data */
	__u32 write_index;		/* from DIAG_IOCSREG */
	__u32 status_bit;		/* our bit in the status page */
	const unsigned char *status;	/* mapped user_events_status */
};

FIXTURE_SETUP(ue)
{
	struct user_reg reg = {0};
	long page = sysconf(_SC_PAGESIZE);
	void *map;
	int fd;

	self->status = NULL;
	self->data_fd = open(TRACEFS "/user_events_data", O_RDWR);
	if (self->data_fd < 0)
		SKIP(return, "no user_events_data");
	reg.size = sizeof(reg);
	reg.name_args = (__u64)(unsigned long)EVENT_NAME " u32 val";
	ASSERT_EQ(0, ioctl(self->data_fd, DIAG_IOCSREG, &reg));
	self->write_index = reg.write_index;
	self->status_bit = reg.status_bit;

	fd = open(TRACEFS "/user_events_status", O_RDONLY);
	ASSERT_LE(0, fd);
	map = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	ASSERT_NE(MAP_FAILED, map);
	self->status = map;

	ASSERT_EQ(0, write_text(TRACEFS "/tracing_on", "1"));
	ASSERT_EQ(0, write_text(TRACEFS "/trace", ""));
}

FIXTURE_TEARDOWN(ue)
{
	int fd;

	if (self->data_fd < 0)
		return;
	write_text(EVENT_DIR "/trigger", "!traceoff");
	write_text(EVENT_DIR "/trigger", "!hist:keys=val:vals=hitcount,val:sort=val");
	write_text(TRACEFS "/events/ftrace/print/trigger",
		   "!disable_event:user_events:" EVENT_NAME);
	write_text(EVENT_DIR "/enable", "0");
	write_text(TRACEFS "/tracing_on", "1");
	if (self->status)
		munmap((void *)self->status, sysconf(_SC_PAGESIZE));
	close(self->data_fd);
	/* Deleting needs every reference gone, so use a fresh fd. */
	fd = open(TRACEFS "/user_events_data", O_RDWR);
	if (fd >= 0) {
		ioctl(fd, DIAG_IOCSDEL, EVENT_NAME);
		close(fd);
	}
}

/* Does the kernel say someone consumes our event? */
static int ue_status(const unsigned char *status, __u32 bit)
{
	return !!(__atomic_load_n(&status[bit / 8], __ATOMIC_RELAXED) &
		  (1 << (bit % 8)));
}

static int ue_write(int fd, __u32 index, __u32 val)
{
	struct iovec io[2] = {
		{ &index, sizeof(index) },
		{ &val, sizeof(val) },
	};

	return writev(fd, io, 2);
}

TEST_F(ue, traceoff_filter)
{
	char buf[256];

	ASSERT_EQ(0, write_text(EVENT_DIR "/trigger", "traceoff if val == 7"));
	ASSERT_GT(read_text(EVENT_DIR "/trigger", buf, sizeof(buf)), 0);
	ASSERT_STREQ("traceoff:unlimited if val == 7\n", buf);
	/* Soft mode registers the tracepoint, which sets our enable bit. */
	ASSERT_GT(read_text(EVENT_DIR "/enable", buf, sizeof(buf)), 0);
	ASSERT_STREQ("0*\n", buf);
	ASSERT_EQ(1, ue_status(self->status, self->status_bit));

	ASSERT_EQ(8, ue_write(self->data_fd, self->write_index, 3));
	ASSERT_GT(read_text(TRACEFS "/tracing_on", buf, sizeof(buf)), 0);
	ASSERT_STREQ("1\n", buf);
	ASSERT_EQ(8, ue_write(self->data_fd, self->write_index, 7));
	ASSERT_GT(read_text(TRACEFS "/tracing_on", buf, sizeof(buf)), 0);
	ASSERT_STREQ("0\n", buf);
	/* Soft disabled: nothing of the event reached the trace. */
	ASSERT_EQ(0, count_in_trace(EVENT_NAME ":"));

	ASSERT_EQ(0, write_text(EVENT_DIR "/trigger", "!traceoff"));
	ASSERT_EQ(0, ue_status(self->status, self->status_bit));
}

TEST_F(ue, disable_event_target)
{
	char buf[256];

	ASSERT_EQ(0, write_text(EVENT_DIR "/enable", "1"));
	ASSERT_EQ(0, write_text(TRACEFS "/events/ftrace/print/trigger",
				"disable_event:user_events:" EVENT_NAME ":1"));
	ASSERT_GT(read_text(EVENT_DIR "/enable", buf, sizeof(buf)), 0);
	ASSERT_STREQ("1*\n", buf);

	ASSERT_EQ(8, ue_write(self->data_fd, self->write_index, 1));
	ASSERT_EQ(0, write_text(TRACEFS "/trace_marker", "stop"));
	ASSERT_GT(read_text(EVENT_DIR "/enable", buf, sizeof(buf)), 0);
	ASSERT_STREQ("0*\n", buf);
	ASSERT_EQ(8, ue_write(self->data_fd, self->write_index, 2));
	/* Only the write before the trigger fired was recorded. */
	ASSERT_EQ(1, count_in_trace(EVENT_NAME ": val=1\n"));
	ASSERT_EQ(0, count_in_trace(EVENT_NAME ": val=2\n"));

	ASSERT_GT(read_text(TRACEFS "/events/ftrace/print/trigger", buf,
			    sizeof(buf)), 0);
	ASSERT_STREQ("disable_event:user_events:" EVENT_NAME ":count=0\n", buf);
	ASSERT_EQ(0, write_text(TRACEFS "/events/ftrace/print/trigger",
				"!disable_event:user_events:" EVENT_NAME));
}

TEST_F(ue, hist)
{
	static const __u32 vals[] = { 3, 1, 3, 3, 2 };
	char buf[1024];
	unsigned int i;

	ASSERT_EQ(0, write_text(EVENT_DIR "/trigger",
				"hist:keys=val:vals=hitcount,val:sort=val"));
	ASSERT_EQ(1, ue_status(self->status, self->status_bit));
	for (i = 0; i < ARRAY_SIZE(vals); i++)
		ASSERT_EQ(8, ue_write(self->data_fd, self->write_index, vals[i]));

	ASSERT_GT(read_text(EVENT_DIR "/hist", buf, sizeof(buf)), 0);
	ASSERT_STREQ("# event histogram\n"
		     "#\n"
		     "# trigger info: hist:keys=val:vals=hitcount,val:sort=val:size=2048 [active]\n"
		     "#\n"
		     "\n"
		     "{ val:          1 } hitcount:          1  val:          1\n"
		     "{ val:          2 } hitcount:          1  val:          2\n"
		     "{ val:          3 } hitcount:          3  val:          9\n"
		     "\n"
		     "Totals:\n"
		     "    Hits: 5\n"
		     "    Entries: 3\n"
		     "    Dropped: 0\n", buf);

	/* paused, a write does not count; continued, it does again */
	ASSERT_EQ(0, write_text(EVENT_DIR "/trigger",
				"hist:keys=val:vals=hitcount,val:sort=val:pause"));
	ASSERT_EQ(8, ue_write(self->data_fd, self->write_index, 1));
	ASSERT_EQ(0, write_text(EVENT_DIR "/trigger",
				"hist:keys=val:vals=hitcount,val:sort=val:cont"));
	ASSERT_EQ(8, ue_write(self->data_fd, self->write_index, 2));
	ASSERT_GT(read_text(EVENT_DIR "/hist", buf, sizeof(buf)), 0);
	ASSERT_NE(NULL, strstr(buf, "{ val:          1 } hitcount:          1  val:          1\n"));
	ASSERT_NE(NULL, strstr(buf, "{ val:          2 } hitcount:          2  val:          4\n"));
	ASSERT_NE(NULL, strstr(buf, "    Hits: 6\n"));

	ASSERT_EQ(0, write_text(EVENT_DIR "/trigger",
				"!hist:keys=val:vals=hitcount,val:sort=val"));
	ASSERT_EQ(0, ue_status(self->status, self->status_bit));
}

TEST_HARNESS_MAIN
