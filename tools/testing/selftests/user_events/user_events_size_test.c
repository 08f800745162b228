// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: how large an event may be.  A write is taken up to what
 * every consumer of the event can hold and refused whole with E2BIG
 * beyond: the ring buffer's limit follows buffer_subbuf_size_kb (a payload
 * 32 bytes smaller than a sub-buffer), perf's is what a sample can carry
 * (its size is 16 bits) beside the other fields the perf event asks for,
 * and with several consumers the smallest limit holds.  Each case checks
 * the largest payload accepted and recorded and the smallest refused and
 * not recorded; perf's samples are read back whole.
 */
#include <pthread.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "ue_util.h"

#define SUBBUF UE_TRACEFS "/buffer_subbuf_size_kb"
#define TRIGGER UE_TRACEFS "/events/user_events/ue_big/trigger"
#define INST UE_TRACEFS "/instances/ue_size"
#define INST_ENABLE INST "/events/user_events/ue_big/enable"
/* Record header (struct trace_entry) and sub-buffer overhead, bytes */
#define ENTRY 8
#define SUBBUF_OVERHEAD (16 + 8)
/*
 * perf: a sample is at most 65535 bytes, a multiple of 8: its 8-byte
 * header, the fields asked for, then the raw data (a u32 size and the
 * record, u64-aligned).  A sample of the raw data alone carries this much
 * payload; each further 8-byte field takes 8 bytes of it.
 */
#define PERF_MAX_PAYLOAD (65528 - 8 - 4 - ENTRY)
#define RAW_ALIGN(len) ((((len) + ENTRY + 4 + 7) & ~7) - 4)
#define BIG (64 * 1024)

/* The registered event and what the teardown restores */
struct ue_size {
	int fd;
	uint32_t idx;
	char *payload;
	char old_kb[16];
};

FIXTURE(size) {
	struct ue_size s;
};

static int subbuf_kb(void)
{
	char *text = ue_read_file(SUBBUF);
	int kb = text ? atoi(text) : -1;

	free(text);
	return kb;
}

/* Largest payload a ring buffer of the current sub-buffer size takes */
static int ring_max(void)
{
	return subbuf_kb() * 1024 - SUBBUF_OVERHEAD - ENTRY;
}

FIXTURE_SETUP(size)
{
	struct user_status_reg r;
	char *text;

	text = ue_read_file(SUBBUF);
	ASSERT_NE(NULL, text);
	snprintf(self->s.old_kb, sizeof(self->s.old_kb), "%s", text);
	free(text);
	self->s.payload = calloc(1, BIG + 1);
	ASSERT_NE(NULL, self->s.payload);
	self->s.payload[0] = 7;
	self->s.fd = ue_open();
	ASSERT_GE(self->s.fd, 0);
	ASSERT_EQ(0, ue_reg(self->s.fd, "ue_big u32 n", &r));
	self->s.idx = r.write_index;
	ue_clear_trace();
}

FIXTURE_TEARDOWN(size)
{
	ue_enable("ue_big", 0);
	ue_write_file(INST_ENABLE, "0", 0);
	rmdir(INST);
	ue_write_file(TRIGGER, "!hist:keys=n:ts=common_timestamp", 0);
	ue_write_file(SUBBUF, self->s.old_kb, 0);
	close(self->s.fd);
	ue_del("ue_big");
	free(self->s.payload);
}

/* A payload of len bytes through writev() */
static ssize_t emit(struct ue_size *e, size_t len)
{
	return ue_emit(e->fd, e->idx, e->payload, len);
}

/* The same through one write() of index and payload */
static ssize_t emit_flat(struct ue_size *e, size_t len)
{
	char *buf = malloc(len + 4);
	ssize_t ret;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, &e->idx, 4);
	memcpy(buf + 4, e->payload, len);
	ret = write(e->fd, buf, len + 4);
	free(buf);
	return ret < 0 ? -errno : ret;
}

/* The boundary for ftrace: max accepted and recorded, max + 1 refused */
static void ftrace_boundary(struct __test_metadata *_metadata,
			    struct ue_size *e, int max)
{
	ue_clear_trace();
	EXPECT_EQ(max + 4, emit(e, max));
	EXPECT_EQ(1, ue_trace_count("ue_big"));
	EXPECT_EQ(-E2BIG, emit(e, max + 1));
	EXPECT_EQ(-E2BIG, emit_flat(e, max + 1));
	EXPECT_EQ(max + 4, emit_flat(e, max));
	EXPECT_EQ(2, ue_trace_count("ue_big"));
}

TEST_F(size, nobody_listens_any_size)
{
	EXPECT_EQ(BIG + 4, emit(&self->s, BIG));
}

TEST_F(size, ftrace_default_subbuf)
{
	ASSERT_EQ(0, ue_write_file(SUBBUF, "4", 0));
	ASSERT_EQ(0, ue_enable("ue_big", 1));
	EXPECT_EQ(4096 - 32, ring_max());
	ftrace_boundary(_metadata, &self->s, ring_max());
}

TEST_F(size, ftrace_64k_subbuf)
{
	ASSERT_EQ(0, ue_write_file(SUBBUF, "64", 0));
	ASSERT_EQ(0, ue_enable("ue_big", 1));
	EXPECT_EQ(65536 - 32, ring_max());
	ftrace_boundary(_metadata, &self->s, ring_max());
}

/* With a histogram the record is built in the per-CPU buffered event */
TEST_F(size, ftrace_with_histogram)
{
	ASSERT_EQ(0, ue_write_file(SUBBUF, "4", 0));
	ASSERT_EQ(0, ue_write_file(TRIGGER, "hist:keys=n:ts=common_timestamp",
				   0));
	ASSERT_EQ(0, ue_enable("ue_big", 1));
	ftrace_boundary(_metadata, &self->s, ring_max());
}

/* Lines of ue_big in the instance's trace */
static int inst_count(void)
{
	char *text = ue_read_file(INST "/trace"), *p;
	int n = 0;

	for (p = text; p && (p = strstr(p, " ue_big: ")); p++)
		n++;
	free(text);
	return n;
}

/* An instance with larger sub-buffers beside the top buffer */
TEST_F(size, two_instances)
{
	ASSERT_EQ(0, ue_write_file(SUBBUF, "4", 0));
	ASSERT_EQ(0, mkdir(INST, 0755));
	ASSERT_EQ(0, ue_write_file(INST "/buffer_subbuf_size_kb", "64", 0));
	ASSERT_EQ(0, ue_write_file(INST_ENABLE, "1", 0));
	ASSERT_EQ(0, ue_enable("ue_big", 1));
	/* Both record: the top buffer's limit holds */
	ftrace_boundary(_metadata, &self->s, ring_max());
	/* The instance alone takes up to its own limit */
	ASSERT_EQ(0, ue_enable("ue_big", 0));
	EXPECT_EQ(65536 - 32 + 4, emit(&self->s, 65536 - 32));
	EXPECT_EQ(-E2BIG, emit(&self->s, 65536 - 32 + 1));
	EXPECT_EQ(3, inst_count());
}

TEST_F(size, perf_alone)
{
	int pfd = ue_perf_open(ue_event_id("ue_big"));

	ASSERT_GE(pfd, 0);
	EXPECT_EQ(8192 + 4, emit(&self->s, 8192));
	EXPECT_EQ(PERF_MAX_PAYLOAD + 4, emit(&self->s, PERF_MAX_PAYLOAD));
	EXPECT_EQ(2, ue_perf_count(pfd));
	EXPECT_EQ(-E2BIG, emit(&self->s, PERF_MAX_PAYLOAD + 1));
	EXPECT_EQ(-E2BIG, emit_flat(&self->s, PERF_MAX_PAYLOAD + 1));
	EXPECT_EQ(-E2BIG, emit(&self->s, BIG));
	EXPECT_EQ(2, ue_perf_count(pfd));
	close(pfd);
}

/* A perf event of ue_big sampling type into a mapped ring buffer */
struct ue_ring {
	int fd;
	size_t len;
	void *map;
};

/* ... of the thread tid (0: this one) */
static int ring_open_tid(struct ue_ring *r, uint64_t type,
			 uint16_t max_stack, pid_t tid)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_TRACEPOINT,
		.config = ue_event_id("ue_big"),
		.sample_type = type,
		.sample_period = 1,
		.sample_max_stack = max_stack,
		.wakeup_events = 1,
	};

	/* Room for two of the largest samples */
	r->len = 129 * 1024;
	r->fd = syscall(__NR_perf_event_open, &attr, tid, -1, -1, 0);
	if (r->fd < 0)
		return -errno;
	r->map = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED,
		      r->fd, 0);
	return r->map == MAP_FAILED ? -errno : 0;
}

static int ring_open(struct ue_ring *r, uint64_t type, uint16_t max_stack)
{
	return ring_open_tid(r, type, max_stack, 0);
}

static void ring_close(struct ue_ring *r)
{
	munmap(r->map, r->len);
	close(r->fd);
}

/*
 * Check that the ring holds one sample, of skip bytes of other fields
 * then ue_big's record with the len bytes of payload e->payload.
 */
static void ring_check(struct __test_metadata *_metadata, struct ue_ring *r,
		       struct ue_size *e, size_t skip, size_t len)
{
	struct perf_event_mmap_page *mp = r->map;
	const char *data = (const char *)r->map + mp->data_offset;
	const struct perf_event_header *h = (const void *)data;
	uint32_t raw_size = RAW_ALIGN(len);
	const char *raw = data + sizeof(*h) + skip + 4;
	size_t i;

	ASSERT_EQ(sizeof(*h) + skip + 4 + raw_size,
		  __atomic_load_n(&mp->data_head, __ATOMIC_ACQUIRE));
	ASSERT_EQ(PERF_RECORD_SAMPLE, h->type);
	ASSERT_EQ(sizeof(*h) + skip + 4 + raw_size, h->size);
	ASSERT_EQ(raw_size, *(const uint32_t *)(raw - 4));
	/* struct trace_entry: the event's id, then the writer's pid */
	EXPECT_EQ(ue_event_id("ue_big"), *(const uint16_t *)raw);
	EXPECT_EQ(getpid(), *(const int32_t *)(raw + 4));
	EXPECT_EQ(0, memcmp(raw + ENTRY, e->payload, len));
	for (i = ENTRY + len; i < raw_size; i++)
		ASSERT_EQ(0, raw[i]);
}

/* Fill the payload with a pattern that shows a byte out of place */
static void fill(struct ue_size *e, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		e->payload[i] = (char)(i * 7 + i / 251);
}

/* The largest sample comes out whole, the sample size exactly 65528 */
TEST_F(size, perf_sample_whole)
{
	struct ue_ring r;

	fill(&self->s, PERF_MAX_PAYLOAD);
	ASSERT_EQ(0, ring_open(&r, PERF_SAMPLE_RAW, 0));
	EXPECT_EQ(PERF_MAX_PAYLOAD + 4, emit_flat(&self->s, PERF_MAX_PAYLOAD));
	ring_check(_metadata, &r, &self->s, 0, PERF_MAX_PAYLOAD);
	ring_close(&r);
}

/* Each field asked for beside the record takes its bytes from it */
TEST_F(size, perf_fields_take_room)
{
	uint64_t type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_RAW;
	int max = PERF_MAX_PAYLOAD - 5 * 8;
	struct ue_ring r;

	fill(&self->s, max);
	ASSERT_EQ(0, ring_open(&r, type, 0));
	EXPECT_EQ(-E2BIG, emit(&self->s, max + 1));
	EXPECT_EQ(max + 4, emit(&self->s, max));
	ring_check(_metadata, &r, &self->s, 5 * 8, max);
	ring_close(&r);
}

/* A call chain is counted at its largest: the entries and context marks */
TEST_F(size, perf_callchain_takes_room)
{
	char *text = ue_read_file("/proc/sys/kernel/perf_event_max_contexts_per_stack");
	int contexts = text ? atoi(text) : -1, max;
	struct ue_ring r;

	free(text);
	ASSERT_GT(contexts, 0);
	max = PERF_MAX_PAYLOAD - (1 + 16 + contexts) * 8;
	ASSERT_EQ(0, ring_open(&r, PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_RAW, 16));
	EXPECT_EQ(-E2BIG, emit(&self->s, max + 1));
	EXPECT_EQ(max + 4, emit(&self->s, max));
	EXPECT_EQ(1, ue_perf_count(r.fd));
	ring_close(&r);
}

/*
 * A perf event that only counts takes any record that fits the 64 KiB
 * record buffer with its u32 size: a payload of up to 65524 bytes, the
 * figure user_events.rst gives.
 */
#define PERF_COUNTING_MAX (65536 - 4 - ENTRY)

TEST_F(size, perf_counting)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_TRACEPOINT,
		.config = ue_event_id("ue_big"),
	};
	int pfd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);

	ASSERT_GE(pfd, 0);
	EXPECT_EQ(65524, PERF_COUNTING_MAX);
	EXPECT_EQ(PERF_MAX_PAYLOAD + 8 + 4,
		  emit(&self->s, PERF_MAX_PAYLOAD + 8));
	EXPECT_EQ(PERF_COUNTING_MAX + 4, emit(&self->s, PERF_COUNTING_MAX));
	EXPECT_EQ(-E2BIG, emit(&self->s, PERF_COUNTING_MAX + 1));
	EXPECT_EQ(-E2BIG, emit(&self->s, BIG));
	EXPECT_EQ(2, ue_perf_count(pfd));
	close(pfd);
}

/*
 * A writev() whose last segment ends with the write index, on an event
 * with no fields that a consumer takes: the payload is empty, and no
 * segment past the array is looked at (KASAN on the debug kernel).  Nine
 * segments and more are copied to an array of their own.
 */
TEST(writev_index_last_of_many)
{
	struct user_status_reg r;
	struct iovec io[12];
	uint32_t idx;
	int fd, n;

	fd = ue_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ue_reg(fd, "ue_nofields", &r));
	idx = r.write_index;
	ASSERT_EQ(0, ue_enable("ue_nofields", 1));
	ue_clear_trace();
	for (n = 1; n <= 12; n++) {
		memset(io, 0, sizeof(io));
		io[n - 1].iov_base = &idx;
		io[n - 1].iov_len = sizeof(idx);
		EXPECT_EQ(4, writev(fd, io, n));
	}
	EXPECT_EQ(12, ue_trace_count("ue_nofields"));
	ue_enable("ue_nofields", 0);
	close(fd);
	EXPECT_EQ(0, ue_del("ue_nofields"));
}

/* A writer of 60000-byte events beside perf events opened and closed */
struct churn {
	struct ue_size *e;
	pid_t tid;	/* set by the writer, then read */
	int stop;	/* set by the test, read by the writer */
	long writes, bad;
};

static void *churn_writer(void *arg)
{
	struct churn *c = arg;
	ssize_t ret;

	__atomic_store_n(&c->tid, syscall(__NR_gettid), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&c->stop, __ATOMIC_RELAXED)) {
		ret = emit(c->e, 60000);
		c->writes++;
		if (ret != 60000 + 4)
			c->bad++;
	}
	return NULL;
}

/*
 * The large-record buffers come and go with the first and last perf
 * event, here one on the writer: every write in between is taken whole (nobody consumes it, or
 * perf does), none fails, and no buffer is used after it was freed (the
 * debug kernel's KASAN watches).  Two seconds of churn.
 */
TEST_F(size, perf_open_close_under_writes)
{
	struct churn c = { .e = &self->s };
	struct timespec t0, t;
	struct ue_ring r;
	pthread_t th;
	int opens = 0;

	ASSERT_EQ(0, pthread_create(&th, NULL, churn_writer, &c));
	while (!__atomic_load_n(&c.tid, __ATOMIC_ACQUIRE))
		usleep(100);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		ASSERT_EQ(0, ring_open_tid(&r, PERF_SAMPLE_RAW, 0, c.tid));
		usleep(1000);
		ring_close(&r);
		opens++;
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while (t.tv_sec - t0.tv_sec < 2);
	__atomic_store_n(&c.stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	EXPECT_EQ(0, c.bad);
	EXPECT_LT(0, c.writes);
	EXPECT_LE(2, opens);
}

/* Both consumers: the smaller limit wins and neither gets a refused event */
TEST_F(size, perf_and_ftrace)
{
	int pfd;

	ASSERT_EQ(0, ue_write_file(SUBBUF, "64", 0));
	ASSERT_EQ(0, ue_enable("ue_big", 1));
	pfd = ue_perf_open(ue_event_id("ue_big"));
	ASSERT_GE(pfd, 0);
	ASSERT_LT(ring_max(), PERF_MAX_PAYLOAD);
	EXPECT_EQ(ring_max() + 4, emit(&self->s, ring_max()));
	EXPECT_EQ(-E2BIG, emit(&self->s, ring_max() + 1));
	EXPECT_EQ(1, ue_perf_count(pfd));
	EXPECT_EQ(1, ue_trace_count("ue_big"));
	close(pfd);

	ASSERT_EQ(0, ue_write_file(SUBBUF, "4", 0));
	pfd = ue_perf_open(ue_event_id("ue_big"));
	ASSERT_GE(pfd, 0);
	ue_clear_trace();
	EXPECT_EQ(ring_max() + 4, emit(&self->s, ring_max()));
	EXPECT_EQ(-E2BIG, emit(&self->s, ring_max() + 1));
	EXPECT_EQ(1, ue_perf_count(pfd));
	EXPECT_EQ(1, ue_trace_count("ue_big"));
	close(pfd);
}

/* Kernel log records written after *fd was opened that mention what */
static int kmsg_mentions(int fd, const char *what)
{
	char rec[2048];
	ssize_t n;
	int found = 0;

	while ((n = read(fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;
		rec[n] = '\0';
		if (strstr(rec, what))
			found = 1;
	}
	return found;
}

/*
 * A string longer than printf's precision can hold (32,767) prints
 * without a WARN: the line is too long for the trace_seq, so the trace
 * core shows "[LINE TOO BIG]" in its place, as for the base's events.
 */
static void long_string(struct __test_metadata *_metadata, const char *cmd,
			const char *name, uint32_t loc)
{
	const size_t len = 60000;
	char *payload = malloc(4 + len), old_kb[16], *text, *line;
	struct user_status_reg r;
	int fd = ue_open(), kmsg;

	ASSERT_NE(NULL, payload);
	ASSERT_GE(fd, 0);
	text = ue_read_file(SUBBUF);
	ASSERT_NE(NULL, text);
	snprintf(old_kb, sizeof(old_kb), "%s", text);
	free(text);
	ue_del(name);
	ASSERT_EQ(0, ue_write_file(SUBBUF, "64", 0));
	ASSERT_EQ(0, ue_reg(fd, cmd, &r));
	ASSERT_EQ(0, ue_enable(name, 1));
	ue_clear_trace();

	memcpy(payload, &loc, 4);
	memset(payload + 4, 'x', len - 1);
	payload[4 + len - 1] = '\0';
	EXPECT_EQ(4 + 4 + len, ue_emit(fd, r.write_index, payload, 4 + len));

	kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	ASSERT_GE(kmsg, 0);
	lseek(kmsg, 0, SEEK_END);
	line = ue_trace_line(name, 0, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("s=[LINE TOO BIG]", line);
	free(line);
	EXPECT_EQ(0, kmsg_mentions(kmsg, "WARNING"));
	close(kmsg);

	ue_enable(name, 0);
	ue_clear_trace();
	ue_write_file(SUBBUF, old_kb, 0);
	close(fd);
	EXPECT_EQ(0, ue_del(name));
	free(payload);
}

TEST(rel_loc_string_60000_bytes)
{
	long_string(_metadata, "ue_bigstr __rel_loc char[] s", "ue_bigstr",
		    DYN_LOC(0, 60000));
}

TEST(data_loc_string_60000_bytes)
{
	long_string(_metadata, "ue_bigstr2 __data_loc char[] s", "ue_bigstr2",
		    DYN_LOC(ENTRY + 4, 60000));
}

TEST_HARNESS_MAIN
