// SPDX-License-Identifier: GPL-2.0
/*
 * A record carries no byte the event did not write.  A filtered event of
 * small fixed size is built on the probe's stack and copied whole into
 * the ring buffer when its filter keeps it; the padding between its fields
 * must then be zero, never what the stack held.  A synthetic event stores
 * each field in 8 bytes and copies strings up to their NUL; the rest must
 * be zero too, not what older records left in the buffer.  The records
 * are read as the ring buffer holds them (per_cpu/cpuN/trace_pipe_raw):
 * every byte that no field of the event's format covers, and every byte
 * after the NUL of a char array, is checked.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest_harness.h"
#include "../user_events/ue_util.h"

#define TRACEFS		"/sys/kernel/tracing"
#define MAX_FIELDS	32

/* Ring buffer event types (type_len) that hold no record */
#define RB_PADDING	29
#define RB_TIME_EXTEND	30
#define RB_TIME_STAMP	31

struct layout {
	int id;				/* the event's type */
	int nr;				/* fields */
	int off[MAX_FIELDS], size[MAX_FIELDS];
	int str[MAX_FIELDS];		/* a char array */
	int end;			/* end of the last field */
};

struct verdict {
	int records;			/* of the event */
	int dirty;			/* with a padding byte that is not 0 */
	char first[128];		/* the first dirty one, in hex */
};

static char *read_text(const char *path)
{
	static char buf[8192];
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return NULL;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return NULL;
	buf[n] = '\0';
	return buf;
}

/* The id and field layout of events/<event>/format */
static int read_layout(const char *event, struct layout *l)
{
	char path[256], *text, *p, *line;
	int off, size;

	snprintf(path, sizeof(path), TRACEFS "/events/%s/format", event);
	text = read_text(path);
	if (!text)
		return -1;
	memset(l, 0, sizeof(*l));
	p = strstr(text, "ID: ");
	if (!p)
		return -1;
	l->id = atoi(p + 4);
	for (p = text; (p = strstr(p, "offset:")); p++) {
		if (sscanf(p, "offset:%d; size:%d;", &off, &size) != 2 ||
		    l->nr == MAX_FIELDS)
			return -1;
		for (line = p; line > text && line[-1] != '\n'; line--)
			;
		l->str[l->nr] = !strncmp(strstr(line, "field:") ?: "", "field:char ", 11) &&
				strchr(line, '[') && strchr(line, '[') < p;
		l->off[l->nr] = off;
		l->size[l->nr++] = size;
		if (off + size > l->end)
			l->end = off + size;
	}
	return l->nr ? 0 : -1;
}

/*
 * Is byte i of the record rec written by the event: in a field, and in a
 * char array not after its NUL?
 */
static int covered(const struct layout *l, const uint8_t *rec, int i)
{
	int f;

	for (f = 0; f < l->nr; f++) {
		if (i < l->off[f] || i >= l->off[f] + l->size[f])
			continue;
		return !l->str[f] ||
		       !memchr(rec + l->off[f], 0, i - l->off[f]);
	}
	return 0;
}

static void check_record(const struct layout *l, const uint8_t *rec,
			 int len, struct verdict *v)
{
	int i, n;

	if (len < 2 || *(const uint16_t *)rec != l->id)
		return;
	v->records++;
	for (i = 0; i < l->end && i < len; i++) {
		if (covered(l, rec, i) || !rec[i])
			continue;
		if (!v->dirty++)
			for (n = 0; n < l->end && n < 40; n++)
				sprintf(v->first + 3 * n, "%02x ", rec[n]);
		return;
	}
}

/* Walk the records of one ring buffer page (header: time stamp, commit) */
static void check_page(const struct layout *l, const uint8_t *page,
		       size_t psize, struct verdict *v)
{
	const size_t hdr = 8 + sizeof(long);
	uint64_t commit = sizeof(long) == 8 ? *(const uint64_t *)(page + 8) :
			  *(const uint32_t *)(page + 8);
	size_t pos = hdr, end = hdr + (commit & 0xfffff);
	uint32_t word, type, len;

	if (end > psize)
		end = psize;
	while (pos + 4 <= end) {
		word = *(const uint32_t *)(page + pos);
		type = word & 0x1f;
		if (type == RB_PADDING && !(word >> 5))
			return;
		if (type == RB_TIME_EXTEND || type == RB_TIME_STAMP) {
			pos += 8;
			continue;
		}
		if (type == 0 || type == RB_PADDING) {
			len = *(const uint32_t *)(page + pos + 4);
			if (type == 0)
				check_record(l, page + pos + 8, len - 4, v);
			pos += 4 + len;
			continue;
		}
		check_record(l, page + pos + 4, type * 4, v);
		pos += 4 + type * 4;
	}
}

static void check_buffers(const struct layout *l, struct verdict *v)
{
	long psize = sysconf(_SC_PAGESIZE);
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	uint8_t *page = malloc(psize);
	char path[128];
	long cpu;
	int fd;

	for (cpu = 0; page && cpu < cpus; cpu++) {
		snprintf(path, sizeof(path),
			 TRACEFS "/per_cpu/cpu%ld/trace_pipe_raw", cpu);
		fd = open(path, O_RDONLY | O_NONBLOCK);
		if (fd < 0)
			continue;
		while (read(fd, page, psize) == psize)
			check_page(l, page, psize, v);
		close(fd);
	}
	free(page);
}

/*
 * Leave old bytes in every CPU's buffer: 'x' trace_marker lines written
 * on each CPU in turn, then the buffer reset (which keeps the pages as
 * they are).  A record written there afterwards shows any byte it leaves.
 */
static void fill_buffers(void)
{
	long cpu, cpus = sysconf(_SC_NPROCESSORS_ONLN);
	char line[1000];
	cpu_set_t set;
	int i, fd;

	memset(line, 'x', sizeof(line));
	fd = open(TRACEFS "/trace_marker", O_WRONLY);
	for (cpu = 0; fd >= 0 && cpu < cpus; cpu++) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			continue;
		for (i = 0; i < 64; i++)
			if (write(fd, line, sizeof(line)) < 0)
				break;
	}
	if (fd >= 0)
		close(fd);
	CPU_ZERO(&set);
	for (cpu = 0; cpu < cpus; cpu++)
		CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	ue_write_file(TRACEFS "/trace", "", 0);
}

/*
 * Keep the CPUs busy with short tasks, named "ab", "abc"...: scheduler
 * and signal events.  A child renames itself while sched_stat_runtime may
 * copy its comm from a tick: the copy can hold the new name's first bytes
 * over the tail of the name the child had from its parent.  Those are
 * bytes of the task's names, not of the stack, and the parent takes a
 * one-letter name for the while, so that the tail is zeros.
 */
static void workload(void)
{
	static const char name[] = "abcdefgh";
	char own[17] = "";
	int i;

	prctl(PR_GET_NAME, own);
	prctl(PR_SET_NAME, "w");
	signal(SIGUSR1, SIG_IGN);
	for (i = 0; i < 300; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			char comm[16];

			snprintf(comm, sizeof(comm), "%.*s", 2 + i % 6, name);
			prctl(PR_SET_NAME, comm);
			kill(getpid(), SIGUSR1);
			_exit(0);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	prctl(PR_SET_NAME, own);
}

/*
 * Each event with a filter that keeps most records: every kept record's
 * padding is zero.  sched_stat_runtime has 4 bytes between pid and
 * runtime; signal_generate and sched_switch have none between their
 * fields but are built the same way.
 */
static void check_event(struct __test_metadata *_metadata, const char *event,
			const char *filter)
{
	char path[256];
	struct verdict v = {0};
	struct layout l;

	ASSERT_EQ(0, read_layout(event, &l)) TH_LOG("no %s", event);
	snprintf(path, sizeof(path), TRACEFS "/events/%s/filter", event);
	ASSERT_EQ(0, ue_write_file(path, filter, 0));
	snprintf(path, sizeof(path), TRACEFS "/events/%s/enable", event);
	ASSERT_EQ(0, ue_write_file(TRACEFS "/trace", "", 0));
	ASSERT_EQ(0, ue_write_file(path, "1", 0));
	workload();
	ASSERT_EQ(0, ue_write_file(path, "0", 0));
	check_buffers(&l, &v);
	snprintf(path, sizeof(path), TRACEFS "/events/%s/filter", event);
	ue_write_file(path, "0", 0);
	EXPECT_LT(0, v.records) TH_LOG("%s: no record read", event);
	EXPECT_EQ(0, v.dirty)
		TH_LOG("%s: %d of %d records with padding not zeroed: %s",
		       event, v.dirty, v.records, v.first);
}

/*
 * A synthetic event with a 1-, 2- and 4-byte number, a short string and a
 * number after it, fed by a histogram's onmax() on signal_generate: every
 * byte of its 8-byte slots past the number, and of the string's slot past
 * its NUL (the N bytes of its char[N], and the slot's bytes after them up
 * to the next field), is zero.
 */
FIXTURE(pad) {};

FIXTURE_SETUP(pad)
{
}

/*
 * In the parent, so that it runs after a test ran out of time too: no
 * event, filter, trigger or synthetic event of these tests is left.
 */
FIXTURE_TEARDOWN_PARENT(pad)
{
	static const char *const events[] = {
		"sched/sched_stat_runtime", "signal/signal_generate",
		"sched/sched_switch", "synthetic/ue_pad",
	};
	char path[256];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(events); i++) {
		snprintf(path, sizeof(path), TRACEFS "/events/%s/enable",
			 events[i]);
		ue_write_file(path, "0", 0);
		snprintf(path, sizeof(path), TRACEFS "/events/%s/filter",
			 events[i]);
		ue_write_file(path, "0", 0);
	}
	ue_write_file(TRACEFS "/events/signal/signal_generate/trigger", "", 0);
	ue_write_file(TRACEFS "/synthetic_events", "", 0);
}

/* Each test forks 300 tasks per event: minutes on a debug kernel */
TEST_F_TIMEOUT(pad, synthetic_records_have_zero_padding, 400)
{
	const char *hist =
	"hist:keys=common_pid:m=sig:onmax($m).trace(ue_pad,common_flags,common_type,sig,comm,sig)";
	struct verdict v = {0};
	struct layout l;

	if (access(TRACEFS "/synthetic_events", W_OK))
		SKIP(return, "no synthetic events");
	ue_write_file(TRACEFS "/events/signal/signal_generate/trigger", "", 0);
	ue_write_file(TRACEFS "/synthetic_events", "", 0);
	ASSERT_EQ(0, ue_write_file(TRACEFS "/synthetic_events",
				   "ue_pad u8 a; u16 b; s32 c; char s[16]; s32 d", 0));
	ASSERT_EQ(0, read_layout("synthetic/ue_pad", &l));
	ASSERT_EQ(0, ue_write_file(TRACEFS "/events/synthetic/ue_pad/enable",
				   "1", 0));
	fill_buffers();
	ASSERT_EQ(0, ue_write_file(TRACEFS "/events/signal/signal_generate/trigger",
				   hist, 0));
	workload();
	ue_write_file(TRACEFS "/events/signal/signal_generate/trigger", "", 0);
	ue_write_file(TRACEFS "/events/synthetic/ue_pad/enable", "0", 0);
	check_buffers(&l, &v);
	ue_write_file(TRACEFS "/synthetic_events", "", 0);
	EXPECT_LT(0, v.records) TH_LOG("no synthetic record read");
	EXPECT_EQ(0, v.dirty)
		TH_LOG("%d of %d synthetic records with bytes not zeroed: %s",
		       v.dirty, v.records, v.first);
}

TEST_F_TIMEOUT(pad, filtered_records_have_zero_padding, 400)
{
	if (access(TRACEFS "/per_cpu/cpu0/trace_pipe_raw", R_OK))
		SKIP(return, "no trace_pipe_raw");
	ASSERT_EQ(0, ue_write_file(TRACEFS "/tracing_on", "1", 0));
	check_event(_metadata, "sched/sched_stat_runtime", "pid != 1");
	check_event(_metadata, "signal/signal_generate", "sig != 1");
	check_event(_metadata, "sched/sched_switch", "prev_pid != 1");
}

TEST_HARNESS_MAIN
