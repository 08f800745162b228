// SPDX-License-Identifier: GPL-2.0
/*
 * user_events with perf: the status bit follows perf_event_open() and
 * close(), samples carry the raw record at the offsets of "format".
 */
#include "../kselftest_harness.h"
#include "ue_util.h"

/* Offset of field in the format file, -1 when absent */
static int ue_field_offset(const char *event, const char *field)
{
	char path[256], key[64], *text, *p;
	int off = -1;

	snprintf(path, sizeof(path), UE_TRACEFS "/events/user_events/%s/format",
		 event);
	snprintf(key, sizeof(key), " %s;\toffset:", field);
	text = ue_read_file(path);
	if (!text)
		return -1;
	p = strstr(text, key);
	if (p)
		off = atoi(p + strlen(key));
	free(text);
	return off;
}

#pragma pack(push, 1)
struct ue_perf_payload {
	uint32_t a;
	uint64_t b;
	uint32_t s;
	char sdata[4];
};

#pragma pack(pop)

TEST(perf_bit_and_raw_sample)
{
	const uint8_t *page = ue_map_status();
	struct perf_event_mmap_page *meta;
	struct ue_perf_payload p;
	struct user_status_reg r;
	long psz = sysconf(_SC_PAGESIZE);
	int fd = ue_open(), id, off_a, off_b, off_s;
	struct perf_event_header *h;
	unsigned char *data, *raw;
	uint32_t raw_size;
	long pfd;
	void *ring;

	ASSERT_NE(NULL, page);
	ASSERT_GE(fd, 0);
	ue_del("ue_perf");
	ASSERT_EQ(0, ue_reg(fd, "ue_perf u32 a; u64 b; __data_loc char[] s", &r));
	id = ue_event_id("ue_perf");
	ASSERT_GT(id, 0);
	off_a = ue_field_offset("ue_perf", "a");
	off_b = ue_field_offset("ue_perf", "b");
	off_s = ue_field_offset("ue_perf", "s");
	EXPECT_EQ(8, off_a);
	EXPECT_EQ(12, off_b);
	EXPECT_EQ(20, off_s);

	EXPECT_EQ(0, ue_bit_set(page, r.status_bit));
	pfd = ue_perf_open(id);
	ASSERT_GE(pfd, 0);
	EXPECT_EQ(1, ue_bit_set(page, r.status_bit));
	EXPECT_EQ(-EBUSY, ue_del("ue_perf"));

	ring = mmap(NULL, psz * 2, PROT_READ | PROT_WRITE, MAP_SHARED, pfd, 0);
	ASSERT_NE(MAP_FAILED, ring);
	meta = ring;
	data = (unsigned char *)ring + psz;

	p.a = 0xabcd;
	p.b = 0x1122334455667788ull;
	p.s = DYN_LOC(24, 4);
	memcpy(p.sdata, "xyz", 4);
	EXPECT_EQ(4 + sizeof(p), ue_emit(fd, r.write_index, &p, sizeof(p)));
	/* A bad record reaches perf no more than ftrace */
	p.s = DYN_LOC(24, 9);
	EXPECT_EQ(-EFAULT, ue_emit(fd, r.write_index, &p, sizeof(p)));

	h = (void *)data;
	__sync_synchronize();
	ASSERT_GE(meta->data_head, sizeof(*h) + 4);
	EXPECT_EQ(PERF_RECORD_SAMPLE, h->type);
	memcpy(&raw_size, data + sizeof(*h), 4);
	EXPECT_GE(raw_size, 28);
	raw = data + sizeof(*h) + 4;
	EXPECT_EQ(id, *(uint16_t *)raw);
	EXPECT_EQ(0xabcd, *(uint32_t *)(raw + off_a));
	EXPECT_EQ(0x1122334455667788ull, *(uint64_t *)(raw + off_b));
	EXPECT_EQ((uint32_t)DYN_LOC(24, 4), *(uint32_t *)(raw + off_s));
	EXPECT_STREQ("xyz", (char *)raw + 24);
	/* Exactly one sample: the bad record was dropped */
	EXPECT_EQ(h->size, meta->data_head);
	munmap(ring, psz * 2);
	close(pfd);
	EXPECT_EQ(0, ue_bit_set(page, r.status_bit));
	close(fd);
	EXPECT_EQ(0, ue_del("ue_perf"));
}

TEST(perf_and_ftrace_together)
{
	const uint8_t *page = ue_map_status();
	struct user_status_reg r;
	char *status, *line, expect[64];
	uint32_t v = 77;
	int fd = ue_open();
	long pfd;

	ASSERT_NE(NULL, page);
	ASSERT_GE(fd, 0);
	ue_del("ue_perf2");
	ASSERT_EQ(0, ue_reg(fd, "ue_perf2 u32 v", &r));
	pfd = ue_perf_open(ue_event_id("ue_perf2"));
	ASSERT_GE(pfd, 0);
	ASSERT_EQ(0, ue_enable("ue_perf2", 1));

	status = ue_read_file(UE_STATUS);
	ASSERT_NE(NULL, status);
	snprintf(expect, sizeof(expect), "%u:ue_perf2 # Used by ftrace, perf\n",
		 r.status_bit);
	EXPECT_NE(NULL, strstr(status, expect));
	free(status);

	ue_clear_trace();
	EXPECT_EQ(8, ue_emit(fd, r.write_index, &v, 4));
	line = ue_trace_line("ue_perf2", 0, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("v=77", line);
	free(line);

	ASSERT_EQ(0, ue_enable("ue_perf2", 0));
	EXPECT_EQ(1, ue_bit_set(page, r.status_bit));
	status = ue_read_file(UE_STATUS);
	snprintf(expect, sizeof(expect), "%u:ue_perf2 # Used by perf\n",
		 r.status_bit);
	EXPECT_NE(NULL, strstr(status, expect));
	free(status);
	close(pfd);
	EXPECT_EQ(0, ue_bit_set(page, r.status_bit));
	close(fd);
	ue_clear_trace();
	EXPECT_EQ(0, ue_del("ue_perf2"));
}

TEST_HARNESS_MAIN
