// SPDX-License-Identifier: GPL-2.0
/*
 * Many threads registering, writing (writev() and write()), enabling,
 * deleting, reading status and closing at once.  Every call must end with one of the outcomes the
 * ABI allows; the kernel must stay free of splats (the harness watches
 * the console) and every event must be deletable at the end.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "ue_util.h"

#define UE_NAMES	4
#define UE_SECONDS	3

static atomic_int ue_stop;
static atomic_int ue_bad;
static atomic_long ue_writes;

static const char *ue_cmds[UE_NAMES] = {
	"ue_stress0 u32 a", "ue_stress1 u64 a; __data_loc char[] s",
	"ue_stress2", "ue_stress3 char[8] c",
};

static void ue_note_bad(const char *what, long val)
{
	fprintf(stderr, "unexpected %s: %ld\n", what, val);
	atomic_fetch_add(&ue_bad, 1);
}

#pragma pack(push, 1)
struct ue_stress_payload {
	uint64_t a;
	uint32_t s;
	char str[4];
};

/* The same for write(): the index, then the payload */
struct ue_stress_record {
	uint32_t idx;
	struct ue_stress_payload p;
};

#pragma pack(pop)

static void *ue_writer(void *arg)
{
	unsigned int seed = (uintptr_t)arg;
	struct ue_stress_payload p = { 1, DYN_LOC(20, 4), "abc" };
	struct ue_stress_record rec = { 0, p };
	struct user_status_reg r;
	int ret;

	while (!atomic_load(&ue_stop)) {
		int fd = ue_open(), i, k = rand_r(&seed) % UE_NAMES;

		if (fd < 0) {
			ue_note_bad("open", -errno);
			continue;
		}
		/* Registration may race with a delete: then it creates again */
		ret = ue_reg(fd, ue_cmds[k], &r);
		if (ret) {
			ue_note_bad("register", ret);
			close(fd);
			continue;
		}
		/* writev() and write() by turns: two ways into the kernel */
		rec.idx = r.write_index;
		for (i = 0; i < 50; i++) {
			ssize_t w = i & 1 ? write(fd, &rec, sizeof(rec)) :
				    ue_emit(fd, r.write_index, &p, sizeof(p));

			if (w < 0 && (i & 1))
				w = -errno;
			if (w != 4 + sizeof(p))
				ue_note_bad("write", w);
			atomic_fetch_add(&ue_writes, 1);
		}
		close(fd);
	}
	return NULL;
}

static void *ue_deleter(void *arg)
{
	char name[32];
	int i = 0, ret;

	while (!atomic_load(&ue_stop)) {
		snprintf(name, sizeof(name), "ue_stress%d", i++ % UE_NAMES);
		ret = ue_del(name);
		if (ret && ret != -EBUSY && ret != -ENOENT)
			ue_note_bad("delete", ret);
	}
	return NULL;
}

static void *ue_enabler(void *arg)
{
	char name[32];
	int i = 0, ret;

	while (!atomic_load(&ue_stop)) {
		snprintf(name, sizeof(name), "ue_stress%d", i++ % UE_NAMES);
		/* The event may not exist at this moment */
		ret = ue_enable(name, i & 1);
		if (ret && ret != -ENOENT && ret != -ENODEV)
			ue_note_bad("enable", ret);
	}
	return NULL;
}

static void *ue_reader(void *arg)
{
	const uint8_t *page = ue_map_status();

	if (!page)
		ue_note_bad("mmap", -errno);
	while (!atomic_load(&ue_stop)) {
		char *text = ue_read_file(UE_STATUS);

		if (!text || !strstr(text, "Max: "))
			ue_note_bad("status read", 0);
		free(text);
		text = ue_read_file(UE_DYN);
		free(text);
		if (page)
			ue_bit_set(page, 1);
	}
	return NULL;
}

TEST(stress)
{
	pthread_t th[8];
	char name[32];
	int i, ret;

	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, ue_writer,
					    (void *)(uintptr_t)(i + 1)));
	ASSERT_EQ(0, pthread_create(&th[4], NULL, ue_deleter, NULL));
	ASSERT_EQ(0, pthread_create(&th[5], NULL, ue_enabler, NULL));
	ASSERT_EQ(0, pthread_create(&th[6], NULL, ue_enabler, NULL));
	ASSERT_EQ(0, pthread_create(&th[7], NULL, ue_reader, NULL));
	sleep(UE_SECONDS);
	atomic_store(&ue_stop, 1);
	for (i = 0; i < 8; i++)
		pthread_join(th[i], NULL);

	EXPECT_EQ(0, atomic_load(&ue_bad));
	EXPECT_GT(atomic_load(&ue_writes), 0);
	TH_LOG("%ld writes", atomic_load(&ue_writes));

	/* Everything can be cleaned up */
	for (i = 0; i < UE_NAMES; i++) {
		snprintf(name, sizeof(name), "ue_stress%d", i);
		ue_enable(name, 0);
		ret = ue_del(name);
		EXPECT_TRUE(ret == 0 || ret == -ENOENT);
	}
	ue_clear_trace();
}

/*
 * A write that faults part way through its consumers resumes after the
 * ones it served, even when the consumers changed while it faulted pages
 * in.  The two instances come first in the event's consumers and record
 * nothing (tracing_on is 0), so each write is served to them, then faults
 * on the top buffer, whose pages the writer dropped just before; while it
 * faults them in, the instances are disabled one by one.  Every write the
 * kernel took must be in the top buffer exactly once.
 */
#define UE_RES_SEGS	200
#define UE_RES_ROUNDS	12
#define UE_RES_INST	UE_TRACEFS "/instances/ue_res"

struct ue_resume {
	int fd;			/* user_events_data */
	uint32_t idx;		/* write index of ue_resume */
	char *map;		/* UE_RES_SEGS pages the writes read from */
	long psz;		/* page size */
	atomic_int stop;	/* ends the writer */
	uint32_t seq;		/* next sequence number */
	long bad;		/* writes refused */
};

static void *ue_resume_writer(void *arg)
{
	struct ue_resume *w = arg;
	struct iovec io[2 + UE_RES_SEGS];
	uint32_t seq;
	ssize_t ret;
	int i;

	io[0].iov_base = &w->idx;
	io[0].iov_len = 4;
	io[1].iov_base = &seq;
	io[1].iov_len = 4;
	for (i = 0; i < UE_RES_SEGS; i++) {
		io[2 + i].iov_base = w->map + i * w->psz;
		io[2 + i].iov_len = 4;
	}
	while (!atomic_load(&w->stop)) {
		madvise(w->map, UE_RES_SEGS * w->psz, MADV_DONTNEED);
		seq = w->seq;
		ret = writev(w->fd, io, 2 + UE_RES_SEGS);
		if (ret != 8 + 4 * UE_RES_SEGS) {
			fprintf(stderr, "write %u: %zd (%d)\n", seq, ret, errno);
			w->bad++;
		}
		w->seq++;
	}
	return NULL;
}

static void ue_res_enable(int inst, int on)
{
	char path[256];

	snprintf(path, sizeof(path),
		 UE_RES_INST "%d/events/user_events/ue_resume/enable", inst);
	ue_write_file(path, on ? "1" : "0", 0);
}

/* How often each of seq [first, end) is in the top buffer; 0 when exact */
static int ue_res_check(uint32_t first, uint32_t end)
{
	char *text = ue_read_file(UE_TRACEFS "/trace"), *p;
	int *seen = calloc(end - first + 1, sizeof(int)), bad = 0;
	uint32_t s;

	if (!text || !seen)
		return -1;
	for (p = text; (p = strstr(p, " ue_resume: seq=")); p++) {
		s = strtoul(p + strlen(" ue_resume: seq="), NULL, 10);
		if (s < first || s >= end)
			bad++;
		else
			seen[s - first]++;
	}
	for (s = first; s < end; s++) {
		if (seen[s - first] != 1) {
			fprintf(stderr, "seq %u recorded %d times\n", s,
				seen[s - first]);
			bad++;
		}
	}
	free(seen);
	free(text);
	return bad;
}

TEST(resume_after_fault_serves_each_consumer_once)
{
	struct ue_resume w = { .psz = sysconf(_SC_PAGESIZE) };
	unsigned int seed = 1;
	char path[256];
	struct user_status_reg r;
	uint32_t first;
	pthread_t th;
	int i, round, wrong = 0;

	w.fd = ue_open();
	ASSERT_GE(w.fd, 0);
	w.map = mmap(NULL, UE_RES_SEGS * w.psz, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, w.map);
	ue_enable("ue_resume", 0);
	ue_del("ue_resume");
	ASSERT_EQ(0, ue_reg(w.fd, "ue_resume u32 seq", &r));
	w.idx = r.write_index;
	for (i = 1; i <= 2; i++) {
		snprintf(path, sizeof(path), UE_RES_INST "%d", i);
		rmdir(path);
		ASSERT_EQ(0, mkdir(path, 0755));
		snprintf(path, sizeof(path), UE_RES_INST "%d/tracing_on", i);
		ASSERT_EQ(0, ue_write_file(path, "0", 0));
	}

	for (round = 0; round < UE_RES_ROUNDS; round++) {
		/* Consumers in this order: instance 1, instance 2, top */
		ue_res_enable(1, 1);
		ue_res_enable(2, 1);
		ASSERT_EQ(0, ue_enable("ue_resume", 1));
		ue_clear_trace();
		first = w.seq;
		atomic_store(&w.stop, 0);
		ASSERT_EQ(0, pthread_create(&th, NULL, ue_resume_writer, &w));
		usleep(5000 + rand_r(&seed) % 20000);
		ue_res_enable(1, 0);
		usleep(rand_r(&seed) % 20000);
		ue_res_enable(2, 0);
		usleep(10000);
		atomic_store(&w.stop, 1);
		pthread_join(th, NULL);
		ASSERT_EQ(0, ue_enable("ue_resume", 0));
		wrong += ue_res_check(first, w.seq);
	}
	TH_LOG("%u writes", w.seq);
	EXPECT_EQ(0, w.bad);
	EXPECT_EQ(0, wrong);

	ue_clear_trace();
	for (i = 1; i <= 2; i++) {
		snprintf(path, sizeof(path), UE_RES_INST "%d", i);
		EXPECT_EQ(0, rmdir(path));
	}
	close(w.fd);
	EXPECT_EQ(0, ue_del("ue_resume"));
	munmap(w.map, UE_RES_SEGS * w.psz);
}

TEST_HARNESS_MAIN
