// SPDX-License-Identifier: GPL-2.0
/*
 * The uapi header alone is enough for a status-page program: it brings
 * struct iovec and writev() with it, as the header of Linux 6.1 did, and
 * programs written against that header rely on it.  The function below
 * is compiled having seen only <linux/user_events.h> and <unistd.h>.
 */
#include <linux/user_events.h>
#include <unistd.h>

static ssize_t header_only_writev(int fd, __u32 index, __u32 value)
{
	struct iovec io[2] = {
		{ .iov_base = &index, .iov_len = sizeof(index) },
		{ .iov_base = &value, .iov_len = sizeof(value) },
	};

	return writev(fd, io, 2);
}

#include "ue_util.h"
#include "../kselftest_harness.h"

TEST(writev_with_only_the_uapi_header)
{
	struct user_reg reg;
	char *line;
	int fd = ue_open();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ue_reg(fd, "ue_header u32 v", &reg));
	ASSERT_EQ(0, ue_enable("ue_header", 1));
	ue_clear_trace();
	EXPECT_EQ(8, header_only_writev(fd, reg.write_index, 42));
	ASSERT_EQ(0, ue_enable("ue_header", 0));
	line = ue_trace_line("ue_header", 0, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("v=42", line);
	free(line);
	close(fd);
	EXPECT_EQ(0, ue_del("ue_header"));
}

TEST_HARNESS_MAIN
