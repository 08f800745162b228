// SPDX-License-Identifier: GPL-2.0
/*
 * A program written for the status-page header of Linux 6.1, where
 * struct user_reg was the status-page layout and the header brought
 * <sys/uio.h> along, builds with USER_EVENTS_STATUS_PAGE defined (and
 * <sys/uio.h> included, as its build adds with -include): struct
 * user_reg is then the 20-byte status-page layout, and the remote-write
 * one goes by struct user_enabler_reg.  It registers, sees its bit in
 * the status page and writes as it did.
 */
#define USER_EVENTS_STATUS_PAGE
#include <assert.h>
#include <sys/uio.h>
#include <linux/user_events.h>

static_assert(sizeof(struct user_reg) == 20, "status-page layout");
static_assert(sizeof(struct user_enabler_reg) == 28, "remote-write layout");

#include "ue_util.h"
#include "../kselftest_harness.h"

TEST(status_page_program_of_6_1)
{
	const uint8_t *page = ue_map_status();
	struct user_reg reg = {
		.size = sizeof(reg),
		.name_args = (uintptr_t)"ue_header61 u32 v",
	};
	uint32_t v = 7;
	struct iovec io[2] = {
		{ &reg.write_index, sizeof(reg.write_index) },
		{ &v, sizeof(v) },
	};
	char *line;
	int fd = ue_open();

	ASSERT_NE(NULL, page);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, DIAG_IOCSREG, &reg));
	EXPECT_EQ(0, ue_bit_set(page, reg.status_bit));
	ASSERT_EQ(0, ue_enable("ue_header61", 1));
	EXPECT_EQ(1, ue_bit_set(page, reg.status_bit));
	ue_clear_trace();
	EXPECT_EQ(8, writev(fd, io, 2));
	ASSERT_EQ(0, ue_enable("ue_header61", 0));
	EXPECT_EQ(0, ue_bit_set(page, reg.status_bit));
	line = ue_trace_line("ue_header61", 0, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("v=7", line);
	free(line);
	close(fd);
	EXPECT_EQ(0, ue_del("ue_header61"));
}

TEST_HARNESS_MAIN
