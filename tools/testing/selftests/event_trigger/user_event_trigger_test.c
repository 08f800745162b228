// SPDX-License-Identifier: GPL-2.0
/*
 * Event triggers on user events: a trigger puts the user event in soft
 * mode (so its status bit says it is consumed and its writes reach the
 * kernel), its filter sees the user-supplied fields, a user event can be
 * the target of disable_event, and histograms count its writes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/user_events.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../kselftest_harness.h"

#define TRACEFS		"/sys/kernel/tracing"
#define EVENT_NAME	"trig_ue"
#define EVENT_DIR	TRACEFS "/events/user_events/" EVENT_NAME
#define INSTANCE	TRACEFS "/instances/ue_fresh"
#define INST_EVENT_DIR	INSTANCE "/events/user_events/" EVENT_NAME

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

/* How often needle is in the (text) file at path */
static int count_in(const char *path, const char *needle)
{
	char *buf = malloc(1 << 20);
	int n = 0, len;
	char *p;

	if (!buf)
		return -1;
	len = read_text(path, buf, 1 << 20);
	for (p = buf; len > 0 && (p = strstr(p, needle)); p++)
		n++;
	free(buf);
	return n;
}

static int count_in_trace(const char *needle)
{
	return count_in(TRACEFS "/trace", needle);
}

FIXTURE(ue) {
	int data_fd;			/* user_events_data */
	__u32 write_index;		/* from DIAG_IOCSREG */
	__u32 status_bit;		/* our bit in the status page */
	const unsigned char *status;	/* mapped user_events_status */
};

FIXTURE_SETUP(ue)
{
	struct user_status_reg reg = {0};
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
	write_text(EVENT_DIR "/trigger", "!snapshot");
	write_text(EVENT_DIR "/trigger", "!stacktrace");
	write_text(INST_EVENT_DIR "/enable", "0");
	write_text(INST_EVENT_DIR "/trigger", "!snapshot");
	rmdir(INSTANCE);
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

/* Does the trigger file at path list a trigger with the text want? */
static int trigger_listed(const char *path, const char *want)
{
	char buf[1024];

	if (read_text(path, buf, sizeof(buf)) < 0)
		return 0;
	return !!strstr(buf, want);
}

/*
 * Write val's 4 bytes from a page that is not mapped yet: never touched
 * (fresh), or emptied by MADV_DONTNEED.  The copy into the consumer's
 * buffer comes up short, the write faults the page in and tries again.
 */
static int ue_write_unmapped(int fd, __u32 index, unsigned char *page,
			     int touch)
{
	struct iovec io[2] = {
		{ &index, sizeof(index) },
		{ page, sizeof(__u32) },
	};

	if (touch) {
		page[0] = 5;
		if (madvise(page, sysconf(_SC_PAGESIZE), MADV_DONTNEED))
			return -errno;
	}
	return writev(fd, io, 2);
}

/*
 * A write whose payload page is not mapped yet is one event: a trigger
 * that runs before the record is filled in (snapshot: it needs no record
 * and is no post trigger) runs once, with one consumer (the write's fast
 * path) and with two (the walk over consumers); so do one that runs
 * after the commit (stacktrace) and a histogram, which reads the record.
 */
TEST_F(ue, unmapped_payload_triggers_once)
{
	long size = sysconf(_SC_PAGESIZE);
	__u32 seven = 7;
	unsigned char *pages;
	char buf[1024];
	int i, memfd;

	pages = mmap(NULL, 4 * size, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, pages);
	ASSERT_EQ(0, write_text(EVENT_DIR "/trigger", "snapshot:5"));
	ASSERT_EQ(0, write_text(EVENT_DIR "/enable", "1"));

	/* one consumer: a fresh page, then one emptied */
	ASSERT_EQ(8, ue_write_unmapped(self->data_fd, self->write_index,
				       pages, 0));
	ASSERT_EQ(8, ue_write_unmapped(self->data_fd, self->write_index,
				       pages + size, 1));
	ASSERT_EQ(1, trigger_listed(EVENT_DIR "/trigger", "snapshot:count=3"));
	/* each snapshot before its record: one in the trace, one in it */
	ASSERT_EQ(1, count_in(TRACEFS "/trace", EVENT_NAME ": val=0\n"));
	ASSERT_EQ(1, count_in(TRACEFS "/snapshot", EVENT_NAME ": val=0\n"));

	/* two consumers: the same event enabled in an instance too */
	rmdir(INSTANCE);
	ASSERT_EQ(0, mkdir(INSTANCE, 0755));
	ASSERT_EQ(0, write_text(INST_EVENT_DIR "/trigger", "snapshot:5"));
	ASSERT_EQ(0, write_text(INST_EVENT_DIR "/enable", "1"));
	ASSERT_EQ(8, ue_write_unmapped(self->data_fd, self->write_index,
				       pages + 2 * size, 0));
	ASSERT_EQ(8, ue_write_unmapped(self->data_fd, self->write_index,
				       pages + 2 * size, 1));
	ASSERT_EQ(1, trigger_listed(EVENT_DIR "/trigger", "snapshot:count=1"));
	ASSERT_EQ(1, trigger_listed(INST_EVENT_DIR "/trigger",
				    "snapshot:count=3"));
	ASSERT_EQ(0, write_text(INST_EVENT_DIR "/enable", "0"));
	ASSERT_EQ(0, write_text(INST_EVENT_DIR "/trigger", "!snapshot"));
	ASSERT_EQ(0, rmdir(INSTANCE));
	ASSERT_EQ(0, write_text(EVENT_DIR "/trigger", "!snapshot"));

	/* a post trigger, run at the commit */
	ASSERT_EQ(0, write_text(EVENT_DIR "/trigger", "stacktrace:5"));
	ASSERT_EQ(8, ue_write_unmapped(self->data_fd, self->write_index,
				       pages + 3 * size, 0));
	ASSERT_EQ(1, trigger_listed(EVENT_DIR "/trigger", "stacktrace:count=4"));
	ASSERT_EQ(0, write_text(EVENT_DIR "/trigger", "!stacktrace"));
	ASSERT_EQ(0, write_text(EVENT_DIR "/enable", "0"));

	/*
	 * A histogram, which reads the record, counts each write once: a
	 * file page (memfd) holding 7, unmapped again before each write
	 */
	munmap(pages, 4 * size);
	memfd = memfd_create("ue_fresh", 0);
	ASSERT_LE(0, memfd);
	ASSERT_EQ(sizeof(seven), write(memfd, &seven, sizeof(seven)));
	pages = mmap(NULL, size, PROT_READ, MAP_SHARED, memfd, 0);
	close(memfd);
	ASSERT_NE(MAP_FAILED, pages);
	ASSERT_EQ(0, write_text(EVENT_DIR "/trigger",
				"hist:keys=val:vals=hitcount,val:sort=val"));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, madvise(pages, size, MADV_DONTNEED));
		ASSERT_EQ(8, ue_write_unmapped(self->data_fd,
					       self->write_index, pages, 0));
	}
	ASSERT_GT(read_text(EVENT_DIR "/hist", buf, sizeof(buf)), 0);
	ASSERT_NE(NULL, strstr(buf, "{ val:          7 } hitcount:          3"));
	ASSERT_NE(NULL, strstr(buf, "    Hits: 3\n"));
	ASSERT_EQ(0, write_text(EVENT_DIR "/trigger",
				"!hist:keys=val:vals=hitcount,val:sort=val"));
	munmap(pages, size);
}

TEST_HARNESS_MAIN
