// SPDX-License-Identifier: GPL-2.0
/*
 * Filters on a user event's records: a u32, an unterminated char[8] and a
 * __rel_loc string written through user_events_data, and exactly the
 * records the filter accepts reach the trace.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/user_events.h>

#include "../kselftest_harness.h"
#include "../user_events/ue_util.h"

#define TRACEFS	"/sys/kernel/tracing/"
#define EVENT	TRACEFS "events/user_events/filt_rec/"
#define CMD	"filt_rec u32 a; char[8] s; __rel_loc char[] r"

/* The payload, after the write index. */
struct filt_rec {
	uint32_t	a;
	char		s[8];
	uint32_t	r;
	char		rdata[16];
};

/* Number of filt_rec lines in the trace. */
static int count_records(void)
{
	char line[512];
	int n = 0;
	FILE *f = fopen(TRACEFS "trace", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#' && strstr(line, " filt_rec: "))
			n++;
	fclose(f);
	return n;
}

static void emit(int fd, uint32_t idx, uint32_t a, const char *s,
		 const char *r)
{
	struct filt_rec rec;
	struct iovec io[2] = {
		{ &idx, sizeof(idx) },
		{ &rec, sizeof(rec) },
	};
	size_t rlen = strlen(r) + 1;

	memset(&rec, 0, sizeof(rec));
	rec.a = a;
	memcpy(rec.s, s, strnlen(s, sizeof(rec.s)));	/* may fill all 8 */
	memcpy(rec.rdata, r, rlen);
	/* __rel_loc: offset from the end of the loc field */
	rec.r = DYN_LOC(offsetof(struct filt_rec, rdata) -
			(offsetof(struct filt_rec, r) + 4), rlen);
	writev(fd, io, 2);
}

FIXTURE(ue_filter) {
	int fd;
	uint32_t idx;
};

FIXTURE_SETUP(ue_filter)
{
	struct user_status_reg reg = { .size = sizeof(reg) };

	self->fd = open(TRACEFS "user_events_data", O_RDWR);
	if (self->fd < 0)
		SKIP(return, "no user_events_data");
	reg.name_args = (uint64_t)(uintptr_t)CMD;
	ASSERT_EQ(0, ioctl(self->fd, DIAG_IOCSREG, &reg));
	self->idx = reg.write_index;
	ASSERT_EQ(0, ue_write_file(TRACEFS "trace", "", 0));
	ASSERT_EQ(0, ue_write_file(EVENT "enable", "1", 0));
}

FIXTURE_TEARDOWN(ue_filter)
{
	int fd;

	if (self->fd < 0)
		return;
	ue_write_file(EVENT "enable", "0", 0);
	ue_write_file(EVENT "filter", "0", 0);
	ue_write_file(TRACEFS "trace", "", 0);
	close(self->fd);
	/* The registering fd is closed: the event can go. */
	fd = open(TRACEFS "user_events_data", O_RDWR);
	if (fd >= 0) {
		ioctl(fd, DIAG_IOCSDEL, "filt_rec");
		close(fd);
	}
}

/* Emit the same five records and count those the filter lets through. */
static int run(struct __test_metadata *_metadata, int fd, uint32_t idx,
	       const char *filter)
{
	EXPECT_EQ(0, ue_write_file(EVENT "filter", filter, 0));
	EXPECT_EQ(0, ue_write_file(TRACEFS "trace", "", 0));
	emit(fd, idx, 1, "bash", "alpha");
	emit(fd, idx, 2, "zsh", "beta");
	emit(fd, idx, 3, "abcdefgh", "gamma");	/* s has no NUL */
	emit(fd, idx, 4, "bash", "");
	emit(fd, idx, 0xffffffff, "dash", "alphabet");
	return count_records();
}

TEST_F(ue_filter, numeric)
{
	EXPECT_EQ(5, run(_metadata, self->fd, self->idx, "a > 0"));
	EXPECT_EQ(2, run(_metadata, self->fd, self->idx, "a >= 3 && a <= 4"));
	EXPECT_EQ(1, run(_metadata, self->fd, self->idx, "a == 0xffffffff"));
	EXPECT_EQ(2, run(_metadata, self->fd, self->idx, "a & 1 && a < 100"));
	EXPECT_EQ(3, run(_metadata, self->fd, self->idx, "!(a == 2 || a == 3)"));
}

TEST_F(ue_filter, static_string)
{
	EXPECT_EQ(2, run(_metadata, self->fd, self->idx, "s == \"bash\""));
	EXPECT_EQ(4, run(_metadata, self->fd, self->idx, "s ~ \"*sh\""));
	EXPECT_EQ(1, run(_metadata, self->fd, self->idx, "s == abcdefgh"));
	EXPECT_EQ(1, run(_metadata, self->fd, self->idx, "s ~ \"*gh\""));
	EXPECT_EQ(0, run(_metadata, self->fd, self->idx, "s ~ \"abcdefgh?*\""));
}

TEST_F(ue_filter, rel_loc_string)
{
	EXPECT_EQ(1, run(_metadata, self->fd, self->idx, "r == alpha"));
	EXPECT_EQ(2, run(_metadata, self->fd, self->idx, "r ~ \"alpha*\""));
	EXPECT_EQ(1, run(_metadata, self->fd, self->idx, "r == \"\""));
	EXPECT_EQ(3, run(_metadata, self->fd, self->idx, "r ~ \"*a\""));
	EXPECT_EQ(2, run(_metadata, self->fd, self->idx,
			 "r ~ \"?[ae]*\" && s != \"dash\" && a < 4"));
}

/*
 * The r values of the records in the trace, in order, separated by
 * blanks: which of them a filter let through.
 */
static const char *matched_r(void)
{
	static char out[512];
	char line[512], *r, *end;
	FILE *f = fopen(TRACEFS "trace", "r");

	out[0] = '\0';
	if (!f)
		return "(no trace)";
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || !strstr(line, " filt_rec: "))
			continue;
		r = strstr(line, " r=");
		if (!r)
			continue;
		r += 3;
		for (end = r; *end && *end != ' ' && *end != '\n'; end++)
			;
		*end = '\0';
		if (out[0])
			strncat(out, " ", sizeof(out) - strlen(out) - 1);
		strncat(out, r, sizeof(out) - strlen(out) - 1);
	}
	fclose(f);
	return out;
}

/* One record per string, in s (cut to 8 bytes) and in r. */
static const char *run_strings(struct __test_metadata *_metadata, int fd,
			       uint32_t idx, const char *filter)
{
	static const char * const strs[] = {
		"abc", "abcd", "xabc", "abcabc", "ab", "aXc", "bc", "abcdefgh",
	};
	unsigned int i;

	EXPECT_EQ(0, ue_write_file(EVENT "filter", filter, 0));
	EXPECT_EQ(0, ue_write_file(TRACEFS "trace", "", 0));
	for (i = 0; i < ARRAY_SIZE(strs); i++)
		emit(fd, idx, i, strs[i], strs[i]);
	return matched_r();
}

/*
 * "~" takes the whole string on the __rel_loc and the char[8] alike: no
 * wildcard means equality, never "starts with".
 */
TEST_F(ue_filter, glob_whole_string)
{
	static const struct {
		const char *pat, *want;
	} cases[] = {
		{ "abc", "abc" },
		{ "abc*", "abc abcd abcabc abcdefgh" },
		{ "*abc", "abc xabc abcabc" },
		{ "*abc*", "abc abcd xabc abcabc abcdefgh" },
		{ "a?c", "abc aXc" },
		{ "[ab]c", "bc" },
		{ "abcdefgh", "abcdefgh" },
		{ "abcdefg", "" },
		{ "!abc", "abcd xabc abcabc ab aXc bc abcdefgh" },
	};
	char filter[64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		snprintf(filter, sizeof(filter), "r ~ \"%s\"", cases[i].pat);
		EXPECT_STREQ(cases[i].want,
			     run_strings(_metadata, self->fd, self->idx, filter));
		snprintf(filter, sizeof(filter), "s ~ \"%s\"", cases[i].pat);
		EXPECT_STREQ(cases[i].want,
			     run_strings(_metadata, self->fd, self->idx, filter));
	}
	EXPECT_STREQ("abc",
		     run_strings(_metadata, self->fd, self->idx,
				 "r == \"abc\" && s == abc"));
}

TEST_F(ue_filter, bad_filter_keeps_old)
{
	EXPECT_EQ(0, ue_write_file(EVENT "filter", "a == 2", 0));
	EXPECT_EQ(-EINVAL, ue_write_file(EVENT "filter", "a == 2 && nosuch == 1", 0));
	EXPECT_EQ(0, ue_write_file(TRACEFS "trace", "", 0));
	emit(self->fd, self->idx, 1, "x", "x");
	emit(self->fd, self->idx, 2, "y", "y");
	EXPECT_EQ(1, count_records());
}

TEST_HARNESS_MAIN
