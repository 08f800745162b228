// SPDX-License-Identifier: GPL-2.0
/*
 * What a write to an event's trigger file returns when it holds no
 * command, and what the open that came before it removed.  The base
 * kernel is the reference: a line that is empty once its blanks are
 * trimmed fails with EINVAL (and logs nothing), a write of no byte at all
 * succeeds, and an open for truncation removes the histograms and their
 * enable_hist/disable_hist triggers whatever the write then says.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../kselftest_harness.h"

#define TRACEFS		"/sys/kernel/tracing/"
#define EVENT		TRACEFS "events/sched/sched_process_fork/"
#define TRIGGER		EVENT "trigger"

#define HIST_CMD	"hist:keys=common_pid"
#define HIST_LINE	"hist:keys=common_pid:vals=hitcount:sort=hitcount:size=2048 [active]\n"
#define TRACEON_LINE	"traceon:unlimited\n"
#define NO_TRIGGERS	"# Available triggers:\n"

/* Open @path with @flags, write @len bytes of @text: the write's errno. */
static int write_with(const char *path, int flags, const char *text,
		      size_t len)
{
	int fd = open(path, flags);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -1000 - errno;
	n = write(fd, text, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = -1;
	close(fd);
	return err;
}

static int append(const char *path, const char *text)
{
	return write_with(path, O_WRONLY | O_APPEND, text, strlen(text));
}

/* The whole (small) file, or "" if it cannot be read. */
static const char *slurp(const char *path)
{
	static char buf[8192];
	int fd = open(path, O_RDONLY);
	ssize_t n = -1;

	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

/* The trigger listing, or only its first line when there is none. */
static const char *triggers(void)
{
	char *s = (char *)slurp(TRIGGER);

	if (!strncmp(s, NO_TRIGGERS, strlen(NO_TRIGGERS)))
		s[strlen(NO_TRIGGERS)] = '\0';
	return s;
}

FIXTURE(trig) {
	int unused;
};

/* A histogram, then traceon: traceon is listed first. */
FIXTURE_SETUP(trig)
{
	if (access(TRIGGER, W_OK))
		SKIP(return, "no sched_process_fork trigger file");
	ASSERT_EQ(0, write_with(TRACEFS "error_log", O_WRONLY | O_TRUNC, "", 0));
	ASSERT_EQ(0, append(TRIGGER, "!traceon"));
	ASSERT_EQ(0, append(TRIGGER, "!" HIST_CMD));
	ASSERT_EQ(0, append(TRIGGER, HIST_CMD));
	ASSERT_EQ(0, append(TRIGGER, "traceon"));
	ASSERT_STREQ(TRACEON_LINE HIST_LINE, triggers());
}

FIXTURE_TEARDOWN(trig)
{
	append(TRIGGER, "!traceon");
	append(TRIGGER, "!" HIST_CMD);
	write_with(TRACEFS "error_log", O_WRONLY | O_TRUNC, "", 0);
}

/* echo > trigger: the histogram goes at open, then the write fails. */
TEST_F(trig, newline_truncating)
{
	EXPECT_EQ(EINVAL, write_with(TRIGGER, O_WRONLY | O_TRUNC, "\n", 1));
	EXPECT_STREQ(TRACEON_LINE, triggers());
	EXPECT_STREQ("", slurp(TRACEFS "error_log"));
}

/* echo '' >> trigger: nothing removed, the write fails. */
TEST_F(trig, newline_appending)
{
	EXPECT_EQ(EINVAL, write_with(TRIGGER, O_WRONLY | O_APPEND, "\n", 1));
	EXPECT_STREQ(TRACEON_LINE HIST_LINE, triggers());
	EXPECT_STREQ("", slurp(TRACEFS "error_log"));
}

/*
 * echo ' ' > trigger and blanks of every kind: trimmed to nothing.
 * ("\x20" is the blank echo writes before its newline.)
 */
TEST_F(trig, blanks)
{
	EXPECT_EQ(EINVAL, write_with(TRIGGER, O_WRONLY | O_APPEND, "\x20\n", 2));
	EXPECT_EQ(EINVAL, write_with(TRIGGER, O_WRONLY | O_APPEND, " \t \t", 4));
	EXPECT_EQ(EINVAL, write_with(TRIGGER, O_WRONLY | O_APPEND, "\n\n\n", 3));
	EXPECT_STREQ(TRACEON_LINE HIST_LINE, triggers());
	EXPECT_EQ(EINVAL, write_with(TRIGGER, O_WRONLY | O_TRUNC, "\x20\n", 2));
	EXPECT_STREQ(TRACEON_LINE, triggers());
	EXPECT_STREQ("", slurp(TRACEFS "error_log"));
}

/* A write of no byte is no line: it succeeds, after the truncation. */
TEST_F(trig, zero_bytes)
{
	EXPECT_EQ(0, write_with(TRIGGER, O_WRONLY | O_APPEND, "", 0));
	EXPECT_STREQ(TRACEON_LINE HIST_LINE, triggers());
	EXPECT_EQ(0, write_with(TRIGGER, O_WRONLY | O_TRUNC, "", 0));
	EXPECT_STREQ(TRACEON_LINE, triggers());
}

/* A command after the truncation is added as with >>. */
TEST_F(trig, command_truncating)
{
	EXPECT_EQ(0, write_with(TRIGGER, O_WRONLY | O_TRUNC, "stacktrace\n", 11));
	EXPECT_STREQ("stacktrace:unlimited\n" TRACEON_LINE, triggers());
	EXPECT_EQ(0, append(TRIGGER, "!stacktrace"));
}

/* A page or more is refused whole; one byte less is read as a line. */
TEST_F(trig, page_sized)
{
	long page = sysconf(_SC_PAGESIZE);
	char *buf = malloc(page);

	ASSERT_NE(NULL, buf);
	memset(buf, ' ', page);
	memcpy(buf, "stacktrace", 10);
	EXPECT_EQ(EINVAL, write_with(TRIGGER, O_WRONLY | O_APPEND, buf, page));
	EXPECT_STREQ(TRACEON_LINE HIST_LINE, triggers());
	EXPECT_EQ(0, write_with(TRIGGER, O_WRONLY | O_APPEND, buf, page - 1));
	EXPECT_STREQ("stacktrace:unlimited\n" TRACEON_LINE HIST_LINE, triggers());
	EXPECT_EQ(0, append(TRIGGER, "!stacktrace"));
	free(buf);
}

TEST_HARNESS_MAIN
