// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: loss the writer can see.  A registration made with
 * USER_EVENT_REG_REPORT_LOSS counts its writes that a consumer dropped for
 * want of room, by cause, and such a write fails when every consumer that
 * received it dropped it: ENOSPC for a full ring buffer (overwrite off),
 * ENOBUFS for a full perf buffer, E2BIG for a record too large.  Each
 * count is checked against what the consumers hold, exactly, on both
 * layouts, alone and with writers on every CPU; a registration that did
 * not ask sees writes succeed as before and has no counts.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>

#include "../kselftest_harness.h"
#include "ue_util.h"

#define INST UE_TRACEFS "/instances/ue_loss"
#define INST_EV INST "/events/user_events/ue_loss"
#define INST_REG UE_TRACEFS "/instances/ue_loss_reg"
#define INST_REG_EV INST_REG "/events/user_events_registry/user_event_register"
#define CMD "ue_loss u32 n; char[92] pad"
#define PAYLOAD 96
/* Writers of the load tests, writes each */
#define WRITERS 4
#define LOAD_WRITES 3000

struct ue_payload {
	uint32_t n;
	char pad[92];
};

/*
 * A registration of ue_loss on its own fd; bits: those of word that are
 * registered (remote write).  A word belongs to the address space, not to
 * the fd: reg_close() unregisters them, so that no bit is cleared later in
 * a stack slot that has been reused (a saved return address, say).
 */
struct ue_reg {
	int fd;
	uint32_t idx;
	uint32_t word;
	uint32_t bits;
};

/* Register ue_loss on r's fd: status page (remote 0) or remote write */
static int reg_on(struct ue_reg *r, int remote, int bit, int flags)
{
	struct user_status_reg_flags sr = {
		.size = sizeof(sr),
		.name_args = (uintptr_t)CMD,
		.flags = flags,
	};
	int ret;

	if (remote) {
		ret = ue_reg_word(r->fd, CMD, &r->word, 4, bit, flags, &r->idx);
		if (!ret)
			r->bits |= 1U << bit;
		return ret;
	}
	ret = ioctl(r->fd, DIAG_IOCSREG, &sr) ? -errno : 0;
	r->idx = sr.write_index;
	return ret;
}

/* ... on a new fd */
static int reg_open(struct ue_reg *r, int remote, int flags)
{
	r->bits = 0;
	r->fd = ue_open();
	if (r->fd < 0)
		return -errno;
	return reg_on(r, remote, 0, flags);
}

/* Unregister r's words and close its fd */
static void reg_close(struct ue_reg *r)
{
	int bit;

	for (bit = 0; bit < 32; bit++)
		if (r->bits & (1U << bit))
			ue_unreg_word(r->fd, &r->word, bit);
	r->bits = 0;
	close(r->fd);
}

/* The counts of r's registration; 0 or -errno */
static int loss_get(const struct ue_reg *r, struct user_loss *l)
{
	memset(l, 0, sizeof(*l));
	l->size = sizeof(*l);
	l->write_index = r->idx;
	return ioctl(r->fd, DIAG_IOCGLOSS, l) ? -errno : 0;
}

static ssize_t emit(const struct ue_reg *r, uint32_t n)
{
	struct ue_payload p = { .n = n };

	return ue_emit(r->fd, r->idx, &p, sizeof(p));
}

/*
 * Write r n times: the writes taken add to *ok, those that failed with
 * err to *lost; returns how many did neither.
 */
static int emit_n(const struct ue_reg *r, int n, int err, int *ok, int *lost)
{
	int i, other = 0;
	ssize_t ret;

	for (i = 0; i < n; i++) {
		ret = emit(r, i);
		if (ret == 4 + PAYLOAD)
			(*ok)++;
		else if (ret == -err)
			(*lost)++;
		else
			other++;
	}
	return other;
}

/* Lines of ue_loss in the trace file at path */
static int lines(const char *path)
{
	char *text = ue_read_file(path), *p;
	int n = 0;

	for (p = text; p && (p = strstr(p, " ue_loss: ")); p++)
		n++;
	free(text);
	return n;
}

/* The "# Lost" comment of ue_loss in user_events_status, or "" */
static char *status_lost(void)
{
	char *text = ue_read_file(UE_STATUS), *line, *end, *res;

	line = text ? strstr(text, ":ue_loss") : NULL;
	if (!line)
		return strdup("no line");
	end = strchr(line, '\n');
	if (end)
		*end = '\0';
	line = strstr(line, " # Lost");
	res = strdup(line ? line : "");
	free(text);
	return res;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* A perf event of ue_loss sampling its raw data into pages data pages */
struct ue_perf {
	int fd;
	size_t len;
	struct perf_event_mmap_page *map;
};

static int perf_open(struct ue_perf *p, pid_t pid, int cpu, int pages)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_TRACEPOINT,
		.config = ue_event_id("ue_loss"),
		.sample_type = PERF_SAMPLE_RAW,
		.sample_period = 1,
	};
	void *map;

	p->len = (pages + 1) * sysconf(_SC_PAGESIZE);
	p->fd = syscall(__NR_perf_event_open, &attr, pid, cpu, -1, 0);
	if (p->fd < 0)
		return -errno;
	map = mmap(NULL, p->len, PROT_READ | PROT_WRITE, MAP_SHARED, p->fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	p->map = map;
	return 0;
}

/* Samples in the ring, never read; -1 for a record of another type */
static int perf_samples(struct ue_perf *p)
{
	const char *data = (const char *)p->map + p->map->data_offset;
	uint64_t head = __atomic_load_n(&p->map->data_head, __ATOMIC_ACQUIRE);
	uint64_t off = 0;
	int n = 0;

	while (off < head) {
		const struct perf_event_header *h = (const void *)(data + off);

		if (h->type != PERF_RECORD_SAMPLE)
			return -1;
		off += h->size;
		n++;
	}
	return n;
}

static void perf_close(struct ue_perf *p)
{
	munmap(p->map, p->len);
	close(p->fd);
}

/* Make the instance ue_loss with tiny buffers that do not overwrite */
static int inst_make(int overwrite)
{
	rmdir(INST);
	if (mkdir(INST, 0755))
		return -errno;
	if (ue_write_file(INST "/buffer_size_kb", "8", 0) ||
	    ue_write_file(INST "/options/overwrite", overwrite ? "1" : "0", 0))
		return -EIO;
	return 0;
}

FIXTURE(loss) {
	struct ue_reg r;
};

FIXTURE_VARIANT(loss) {
	int remote;
};

FIXTURE_VARIANT_ADD(loss, status_page) {
	.remote = 0,
};

FIXTURE_VARIANT_ADD(loss, remote_write) {
	.remote = 1,
};

FIXTURE_SETUP(loss)
{
	ue_enable("ue_loss", 0);
	rmdir(INST);
	ue_del("ue_loss");
	ASSERT_EQ(0, reg_open(&self->r, variant->remote,
			      USER_EVENT_REG_REPORT_LOSS));
}

FIXTURE_TEARDOWN(loss)
{
	ue_write_file(INST_EV "/enable", "0", 0);
	rmdir(INST);
	ue_enable("ue_loss", 0);
	reg_close(&self->r);
	ue_del("ue_loss");
}

/* The ioctl: its sizes, indexes and registrations without counts */
TEST_F(loss, ioctl)
{
	struct { struct user_loss l; uint32_t extra; } big;
	struct user_loss l;
	struct ue_reg plain;

	ASSERT_EQ(0, loss_get(&self->r, &l));
	EXPECT_EQ(0, l.lost + l.ring_full + l.perf_full + l.too_big);
	EXPECT_EQ(40, sizeof(l));
	/* A size too small, or larger with bytes the kernel does not know */
	l.size = 39;
	EXPECT_EQ(-1, ioctl(self->r.fd, DIAG_IOCGLOSS, &l));
	EXPECT_EQ(EINVAL, errno);
	memset(&big, 0, sizeof(big));
	big.l.size = sizeof(big);
	big.l.write_index = self->r.idx;
	big.extra = 1;
	EXPECT_EQ(-1, ioctl(self->r.fd, DIAG_IOCGLOSS, &big));
	EXPECT_EQ(E2BIG, errno);
	big.extra = 0;
	EXPECT_EQ(0, ioctl(self->r.fd, DIAG_IOCGLOSS, &big));
	/* No such index */
	l.size = sizeof(l);
	l.write_index = self->r.idx + 1;
	EXPECT_EQ(-1, ioctl(self->r.fd, DIAG_IOCGLOSS, &l));
	EXPECT_EQ(ENOENT, errno);
	/* A registration that did not ask */
	ASSERT_EQ(0, reg_open(&plain, variant->remote, 0));
	EXPECT_EQ(-EINVAL, loss_get(&plain, &l));
	reg_close(&plain);
	/* Unknown flags are refused, in both layouts */
	plain.fd = ue_open();
	EXPECT_EQ(-EINVAL, ue_reg_word(plain.fd, CMD, &plain.word, 4, 1,
				       USER_EVENT_REG_MAX, NULL));
	reg_close(&plain);
	EXPECT_EQ(-EINVAL, reg_open(&plain, 0, USER_EVENT_REG_MAX));
	reg_close(&plain);
	/* The event's comment in user_events_status, counts at zero */
	char *lost = status_lost();

	EXPECT_STREQ(" # Lost 0 (ring full 0, perf full 0, too big 0)", lost);
	free(lost);
}

/*
 * A ring buffer that does not overwrite fills up: each write after that
 * fails with ENOSPC and is counted, and the trace holds exactly the ones
 * that succeeded.  A filter that leaves writes out is no loss.
 */
TEST_F(loss, ring_full)
{
	int ok = 0, full = 0;
	struct user_loss l;
	char *lost, want[128];

	ASSERT_EQ(0, inst_make(0));
	ASSERT_EQ(0, ue_write_file(INST_EV "/enable", "1", 0));
	pin(0);
	EXPECT_EQ(0, emit_n(&self->r, 1000, ENOSPC, &ok, &full));
	EXPECT_LT(0, ok);
	EXPECT_LT(0, full);
	EXPECT_EQ(ok, lines(INST "/trace"));
	ASSERT_EQ(0, loss_get(&self->r, &l));
	EXPECT_EQ(full, l.lost);
	EXPECT_EQ(full, l.ring_full);
	EXPECT_EQ(0, l.perf_full);
	EXPECT_EQ(0, l.too_big);
	snprintf(want, sizeof(want),
		 " # Lost %d (ring full %d, perf full 0, too big 0)", full,
		 full);
	lost = status_lost();
	EXPECT_STREQ(want, lost);
	free(lost);

	/* Left out by a filter, by tracing_on, or taken: not lost */
	ASSERT_EQ(0, ue_write_file(INST_EV "/filter", "n == 12345678", 0));
	EXPECT_EQ(4 + PAYLOAD, emit(&self->r, 1));
	ASSERT_EQ(0, ue_write_file(INST_EV "/filter", "0", 0));
	ASSERT_EQ(0, ue_write_file(INST "/tracing_on", "0", 0));
	EXPECT_EQ(4 + PAYLOAD, emit(&self->r, 1));
	ASSERT_EQ(0, ue_write_file(INST "/tracing_on", "1", 0));
	ASSERT_EQ(0, ue_write_file(INST "/trace", "", 0));
	EXPECT_EQ(4 + PAYLOAD, emit(&self->r, 1));
	ASSERT_EQ(0, loss_get(&self->r, &l));
	EXPECT_EQ(full, l.lost);
	EXPECT_EQ(1, lines(INST "/trace"));
}

/* Write r with a payload of len bytes that starts with n */
static ssize_t emit_len(const struct ue_reg *r, uint32_t n, size_t len)
{
	static char buf[5000];

	memcpy(buf, &n, sizeof(n));
	return ue_emit(r->fd, r->idx, buf, len);
}

/*
 * Records the consumer would have left out are no loss, however they meet
 * a full ring buffer: larger than the per-CPU buffered event (reserved
 * before the filter judges them), in an instance whose common_timestamp
 * histogram makes every filtered record be reserved first, and of an
 * event that only a histogram consumes (soft disabled).
 */
TEST_F(loss, left_out_when_full)
{
	const size_t big = 5000;
	struct user_loss l;
	int i, full;
	ssize_t ret = 0;

	ASSERT_EQ(0, inst_make(0));
	ASSERT_EQ(0, ue_write_file(INST "/buffer_subbuf_size_kb", "8", 0));
	ASSERT_EQ(0, ue_write_file(INST "/buffer_size_kb", "16", 0));
	ASSERT_EQ(0, ue_write_file(INST_EV "/filter", "n == 1", 0));
	ASSERT_EQ(0, ue_write_file(INST_EV "/enable", "1", 0));
	pin(0);
	/* Records the filter keeps fill the ring buffer */
	for (i = 0; i < 64 && emit_len(&self->r, 1, big) == 4 + big; i++)
		;
	ASSERT_EQ(-ENOSPC, emit_len(&self->r, 1, big));
	ASSERT_EQ(0, loss_get(&self->r, &l));
	full = l.lost;
	EXPECT_LT(0, full);
	EXPECT_EQ(full, l.ring_full);

	/* Left out by the filter, large or small */
	EXPECT_EQ(4 + big, emit_len(&self->r, 2, big));
	EXPECT_EQ(4 + PAYLOAD, emit_len(&self->r, 2, PAYLOAD));

	/* The same beside a histogram that reads the time stamp */
	ASSERT_EQ(0, ue_write_file(INST_EV "/trigger",
				   "hist:keys=n:t0=common_timestamp", 0));
	EXPECT_EQ(4 + PAYLOAD, emit_len(&self->r, 2, PAYLOAD));
	EXPECT_EQ(4 + big, emit_len(&self->r, 2, big));
	/* Kept ones still count: small ones fill what large ones left */
	for (i = 0; i < 4096; i++) {
		ret = emit_len(&self->r, 1, PAYLOAD);
		if (ret != 4 + PAYLOAD)
			break;
	}
	EXPECT_EQ(-ENOSPC, ret);
	EXPECT_EQ(-ENOSPC, emit_len(&self->r, 1, PAYLOAD));
	full += 2;
	EXPECT_EQ(4 + PAYLOAD, emit_len(&self->r, 2, PAYLOAD));

	/* Only the histogram consumes it: the event keeps no record */
	ASSERT_EQ(0, ue_write_file(INST_EV "/enable", "0", 0));
	ASSERT_EQ(0, ue_write_file(INST_EV "/filter", "0", 0));
	EXPECT_EQ(4 + PAYLOAD, emit_len(&self->r, 1, PAYLOAD));
	EXPECT_EQ(4 + big, emit_len(&self->r, 1, big));

	ASSERT_EQ(0, loss_get(&self->r, &l));
	EXPECT_EQ(full, l.lost);
	EXPECT_EQ(full, l.ring_full);
	EXPECT_EQ(0, l.perf_full + l.too_big);
	ASSERT_EQ(0, ue_write_file(INST_EV "/trigger",
				   "!hist:keys=n:t0=common_timestamp", 0));
}

/* Without REPORT_LOSS writes succeed as ever, and count nowhere */
TEST_F(loss, not_asked)
{
	struct ue_reg plain;
	struct user_loss l;
	int ok = 0, lost = 0;
	uint32_t idx;

	ASSERT_EQ(0, reg_open(&plain, variant->remote, 0));
	ASSERT_EQ(0, inst_make(0));
	ASSERT_EQ(0, ue_write_file(INST_EV "/enable", "1", 0));
	pin(0);
	EXPECT_EQ(0, emit_n(&plain, 1000, ENOSPC, &ok, &lost));
	EXPECT_EQ(1000, ok);
	EXPECT_GT(1000, lines(INST "/trace"));
	ASSERT_EQ(0, loss_get(&self->r, &l));
	EXPECT_EQ(0, l.lost);
	/* Asking later, on the same fd: the same index, counted from then */
	idx = plain.idx;
	ASSERT_EQ(0, reg_on(&plain, variant->remote, 1,
			    USER_EVENT_REG_REPORT_LOSS));
	EXPECT_EQ(idx, plain.idx);
	EXPECT_EQ(-ENOSPC, emit(&plain, 1));
	ASSERT_EQ(0, loss_get(&plain, &l));
	EXPECT_EQ(1, l.ring_full);
	/* And a registration without the flag does not stop it */
	ASSERT_EQ(0, reg_on(&plain, variant->remote, 2, 0));
	EXPECT_EQ(-ENOSPC, emit(&plain, 1));
	ASSERT_EQ(0, loss_get(&plain, &l));
	EXPECT_EQ(2, l.ring_full);
	reg_close(&plain);
}

/* The registry's tracepoint names REPORT_LOSS on the registration asking it */
TEST_F(loss, registry_trace)
{
	static const char asked[] = " flags=REPORT_LOSS created=0 cmd=" CMD "\n";
	static const char plain_line[] = " flags= created=0 cmd=" CMD "\n";
	struct ue_reg plain, again;
	char *text;

	rmdir(INST_REG);
	ASSERT_EQ(0, mkdir(INST_REG, 0755));
	ASSERT_EQ(0, ue_write_file(INST_REG_EV "/enable", "1", 0));
	ASSERT_EQ(0, reg_open(&again, variant->remote, USER_EVENT_REG_REPORT_LOSS));
	ASSERT_EQ(0, reg_open(&plain, variant->remote, 0));
	ue_write_file(INST_REG "/tracing_on", "0", 0);
	text = ue_read_file(INST_REG "/trace");
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, asked)) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, plain_line)) TH_LOG("%s", text);
	free(text);
	reg_close(&plain);
	reg_close(&again);
	rmdir(INST_REG);
}

/* A perf buffer nobody reads fills up: ENOBUFS, samples kept exact */
TEST_F(loss, perf_full)
{
	int i, ok = 0, full = 0;
	struct user_loss l;
	struct ue_perf p;

	ASSERT_EQ(0, perf_open(&p, 0, -1, 1));
	EXPECT_EQ(0, emit_n(&self->r, 200, ENOBUFS, &ok, &full));
	EXPECT_LT(0, full);
	EXPECT_EQ(ok, perf_samples(&p));
	EXPECT_EQ(200, ue_perf_count(p.fd));
	ASSERT_EQ(0, loss_get(&self->r, &l));
	EXPECT_EQ(full, l.lost);
	EXPECT_EQ(full, l.perf_full);
	EXPECT_EQ(0, l.ring_full);

	/*
	 * Beside a ring buffer with room: every write succeeds, as ftrace
	 * took it, and perf's drops are counted all the same.
	 */
	ASSERT_EQ(0, inst_make(1));
	ASSERT_EQ(0, ue_write_file(INST_EV "/enable", "1", 0));
	for (i = 0; i < 10; i++)
		EXPECT_EQ(4 + PAYLOAD, emit(&self->r, i));
	ASSERT_EQ(0, loss_get(&self->r, &l));
	EXPECT_EQ(full + 10, l.lost);
	EXPECT_EQ(full + 10, l.perf_full);
	EXPECT_EQ(0, l.ring_full);
	perf_close(&p);
}

/* Too large for a consumer: E2BIG for everyone, counted when asked */
TEST_F(loss, too_big)
{
	static char big[8192];
	struct ue_reg plain;
	struct user_loss l;

	ASSERT_EQ(0, reg_open(&plain, variant->remote, 0));
	ASSERT_EQ(0, ue_enable("ue_loss", 1));
	EXPECT_EQ(-E2BIG, ue_emit(self->r.fd, self->r.idx, big, sizeof(big)));
	EXPECT_EQ(-E2BIG, ue_emit(plain.fd, plain.idx, big, sizeof(big)));
	ASSERT_EQ(0, loss_get(&self->r, &l));
	EXPECT_EQ(1, l.lost);
	EXPECT_EQ(1, l.too_big);
	EXPECT_EQ(0, l.ring_full + l.perf_full);
	reg_close(&plain);
}

/* Writers on every CPU, each its own registration */
struct ue_writer {
	pthread_t thread;
	struct ue_reg r;
	int cpu, err, ok, lost, other;	/* err: the errno of a lost write */
};

static void *writer(void *arg)
{
	struct ue_writer *w = arg;

	pin(w->cpu);
	w->other = emit_n(&w->r, LOAD_WRITES, w->err, &w->ok, &w->lost);
	return NULL;
}

/*
 * Run the writers, whose lost writes fail with err; the sums of what they
 * saw in *ok and *lost
 */
static void load(struct __test_metadata *_metadata, int remote, int err,
		 struct ue_writer *w, int *ok, int *lost)
{
	int i, cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct user_loss l;

	*ok = 0;
	*lost = 0;
	for (i = 0; i < WRITERS; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].cpu = i % cpus;
		w[i].err = err;
		ASSERT_EQ(0, reg_open(&w[i].r, remote,
				      USER_EVENT_REG_REPORT_LOSS));
	}
	for (i = 0; i < WRITERS; i++)
		ASSERT_EQ(0, pthread_create(&w[i].thread, NULL, writer, &w[i]));
	for (i = 0; i < WRITERS; i++) {
		pthread_join(w[i].thread, NULL);
		EXPECT_EQ(0, w[i].other);
		EXPECT_EQ(LOAD_WRITES, w[i].ok + w[i].lost);
		ASSERT_EQ(0, loss_get(&w[i].r, &l));
		EXPECT_EQ(w[i].lost, l.lost);
		*ok += w[i].ok;
		*lost += w[i].lost;
		reg_close(&w[i].r);
	}
}

/* Under load the counts add up exactly: ring buffers */
TEST_F(loss, ring_load)
{
	struct ue_writer w[WRITERS];
	struct user_loss l;
	int ok, lost;

	ASSERT_EQ(0, inst_make(0));
	ASSERT_EQ(0, ue_write_file(INST_EV "/enable", "1", 0));
	load(_metadata, variant->remote, ENOSPC, w, &ok, &lost);
	EXPECT_LT(0, lost);
	EXPECT_EQ(ok, lines(INST "/trace"));
	/* The event's sums: the writers', and none of the fixture's own */
	char want[128], *got = status_lost();

	snprintf(want, sizeof(want),
		 " # Lost %d (ring full %d, perf full 0, too big 0)", lost,
		 lost);
	EXPECT_STREQ(want, got);
	free(got);
	ASSERT_EQ(0, loss_get(&self->r, &l));
	EXPECT_EQ(0, l.lost);
}

/* Under load the counts add up exactly: one perf buffer per CPU */
TEST_F(loss, perf_load)
{
	int i, ok, lost, samples = 0, cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct ue_perf p[16];
	struct ue_writer w[WRITERS];

	ASSERT_GE(16, cpus);
	for (i = 0; i < cpus; i++)
		ASSERT_EQ(0, perf_open(&p[i], -1, i, 2));
	load(_metadata, variant->remote, ENOBUFS, w, &ok, &lost);
	EXPECT_LT(0, lost);
	for (i = 0; i < cpus; i++) {
		samples += perf_samples(&p[i]);
		perf_close(&p[i]);
	}
	EXPECT_EQ(ok, samples);
}

TEST_HARNESS_MAIN
