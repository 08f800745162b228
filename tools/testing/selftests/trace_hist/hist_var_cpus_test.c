// SPDX-License-Identifier: GPL-2.0
/*
 * A histogram variable set on one CPU and read by an action on another.
 * A thread bound to CPU 0 writes user event hvc_set (key k, value v),
 * which a histogram keeps in variable $v of key k; only then does a
 * thread bound to CPU 1 write hvc_get (key k), whose histogram reads $v
 * and hands it to the synthetic event hvc_out.  Every key goes through
 * once: hvc_out must show each key exactly once with its own value, none
 * lost, doubled or read before it was set.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>

#include "../kselftest_harness.h"
#include "../user_events/ue_util.h"

#define SYNTH	UE_TRACEFS "/synthetic_events"
#define SET_TRIG	UE_TRACEFS "/events/user_events/hvc_set/trigger"
#define GET_TRIG	UE_TRACEFS "/events/user_events/hvc_get/trigger"
#define OUT	UE_TRACEFS "/events/synthetic/hvc_out/enable"
#define KEYS	1000

static const char set_hist[] = "hist:keys=k:v=v";
static const char get_hist[] =
	"hist:keys=k:got=$v:onmatch(user_events.hvc_set).trace(hvc_out,k,$got)";

struct hvc {
	int		fd;
	uint32_t	set_idx, get_idx;
	int		ready[KEYS];	/* read and set with __atomic */
	int		err;
};

static void hvc_bind(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static uint64_t hvc_value(uint32_t k)
{
	return 3 * (uint64_t)k + 0x100000000ULL;
}

static void *hvc_setter(void *arg)
{
	struct hvc *h = arg;
	unsigned char rec[12];	/* u32 k; u64 v, unaligned as written */
	uint64_t v;
	uint32_t k;

	hvc_bind(0);
	for (k = 0; k < KEYS; k++) {
		v = hvc_value(k);
		memcpy(rec, &k, sizeof(k));
		memcpy(rec + sizeof(k), &v, sizeof(v));
		if (ue_emit(h->fd, h->set_idx, rec, sizeof(rec)) < 0)
			h->err = 1;
		__atomic_store_n(&h->ready[k], 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static void *hvc_getter(void *arg)
{
	struct hvc *h = arg;
	uint32_t k;

	hvc_bind(1);
	for (k = 0; k < KEYS; k++) {
		while (!__atomic_load_n(&h->ready[k], __ATOMIC_ACQUIRE))
			;
		if (ue_emit(h->fd, h->get_idx, &k, sizeof(k)) < 0)
			h->err = 2;
	}
	return NULL;
}

static void hvc_clean(void)
{
	char cmd[256];

	ue_write_file(OUT, "0", 0);
	snprintf(cmd, sizeof(cmd), "!%s", get_hist);
	ue_write_file(GET_TRIG, cmd, 1);
	snprintf(cmd, sizeof(cmd), "!%s", set_hist);
	ue_write_file(SET_TRIG, cmd, 1);
	ue_write_file(SYNTH, "!hvc_out", 1);
	ue_del("hvc_set");
	ue_del("hvc_get");
	ue_clear_trace();
}

TEST(var_set_on_one_cpu_read_on_another)
{
	static struct hvc h;
	struct UE_STATUS_REG reg;
	static unsigned char seen[KEYS];
	char line[256], *text, *p;
	unsigned int k;
	unsigned long long v;
	int n = 0, bad = 0;
	pthread_t t[2];

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "one CPU");
	hvc_clean();
	h.fd = ue_open();
	ASSERT_LE(0, h.fd);
	ASSERT_EQ(0, ue_reg(h.fd, "hvc_set u32 k; u64 v", &reg));
	h.set_idx = reg.write_index;
	ASSERT_EQ(0, ue_reg(h.fd, "hvc_get u32 k", &reg));
	h.get_idx = reg.write_index;
	ASSERT_EQ(0, ue_write_file(SYNTH, "hvc_out u32 k; u64 v", 1));
	ASSERT_EQ(0, ue_write_file(SET_TRIG, set_hist, 1));
	ASSERT_EQ(0, ue_write_file(GET_TRIG, get_hist, 1));
	ASSERT_EQ(0, ue_write_file(OUT, "1", 0));

	ASSERT_EQ(0, pthread_create(&t[0], NULL, hvc_setter, &h));
	ASSERT_EQ(0, pthread_create(&t[1], NULL, hvc_getter, &h));
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	ue_write_file(OUT, "0", 0);
	EXPECT_EQ(0, h.err);

	text = ue_read_file(UE_TRACEFS "/trace");
	ASSERT_NE(NULL, text);
	for (p = strtok(text, "\n"); p; p = strtok(NULL, "\n")) {
		char *ev = strstr(p, " hvc_out: ");

		if (p[0] == '#' || !ev)
			continue;
		snprintf(line, sizeof(line), "%s", ev);
		if (sscanf(line, " hvc_out: k=%u v=%llu", &k, &v) != 2 ||
		    k >= KEYS || v != hvc_value(k) || seen[k]++) {
			if (bad++ < 5)
				TH_LOG("unexpected: %s", line);
			continue;
		}
		n++;
	}
	free(text);
	EXPECT_EQ(KEYS, n);
	EXPECT_EQ(0, bad);
	close(h.fd);
	hvc_clean();
}

TEST_HARNESS_MAIN
