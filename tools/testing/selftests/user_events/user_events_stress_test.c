// SPDX-License-Identifier: GPL-2.0
/*
 * Many threads registering, writing, enabling, deleting, reading status
 * and closing at once.  Every call must end with one of the outcomes the
 * ABI allows; the kernel must stay free of splats (the harness watches
 * the console) and every event must be deletable at the end.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <time.h>

#include "kselftest_harness.h"
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

#pragma pack(pop)

static void *ue_writer(void *arg)
{
	unsigned int seed = (uintptr_t)arg;
	struct ue_stress_payload p = { 1, DYN_LOC(20, 4), "abc" };
	struct user_reg r;
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
		for (i = 0; i < 50; i++) {
			ssize_t w = ue_emit(fd, r.write_index, &p, sizeof(p));

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

TEST_HARNESS_MAIN
