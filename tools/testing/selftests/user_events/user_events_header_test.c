// SPDX-License-Identifier: GPL-2.0
/*
 * The uapi header is a contract: compiled before any other header, it
 * needs no libc header and gives every name its meaning of Linux 6.4 and
 * later, with no define: struct user_reg is the remote-write layout (28
 * bytes) and struct user_status_reg the status-page one (20 bytes).  A
 * remote-write program written for those releases registers, is enabled
 * and writes with nothing else from this header.
 */
#include <linux/user_events.h>
#include <assert.h>

static_assert(sizeof(struct user_reg) == 28, "remote-write layout");
static_assert(sizeof(struct user_status_reg) == 20, "status-page layout");
static_assert(sizeof(struct user_unreg) == 16, "unregister");
static_assert(sizeof(struct user_status_reg_flags) == 24, "status-page flags");
static_assert(__builtin_offsetof(struct user_status_reg_flags, write_index) ==
	      __builtin_offsetof(struct user_status_reg, write_index),
	      "status-page layout with flags");
static_assert(sizeof(struct user_loss) == 40, "loss counts");
static_assert(__builtin_offsetof(struct user_reg, enable_addr) == 8,
	      "remote-write layout");
static_assert(__builtin_offsetof(struct user_reg, write_index) == 24,
	      "remote-write layout");
static_assert(__builtin_offsetof(struct user_status_reg, status_bit) == 12,
	      "status-page layout");

/* A header that included a libc header would have brought these along */
#ifdef _SYS_UIO_H
#error "the uapi header included <sys/uio.h>"
#endif
#ifdef _STDIO_H
#error "the uapi header included <stdio.h>"
#endif

#include "ue_util.h"
#include "../kselftest_harness.h"

TEST(remote_write_names_without_a_define)
{
	static uint32_t word;
	struct user_reg reg = {
		.size = sizeof(reg),
		.enable_bit = 3,
		.enable_size = sizeof(word),
		.enable_addr = (uintptr_t)&word,
		.name_args = (uintptr_t)"ue_header u32 v",
	};
	struct user_unreg unreg = {
		.size = sizeof(unreg),
		.disable_bit = 3,
		.disable_addr = (uintptr_t)&word,
	};
	uint32_t v = 42;
	char *line;
	int fd = ue_open();

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, DIAG_IOCSREG, &reg));
	EXPECT_EQ(0, word);
	ASSERT_EQ(0, ue_enable("ue_header", 1));
	EXPECT_EQ(1U << 3, word);
	ue_clear_trace();
	EXPECT_EQ(8, ue_emit(fd, reg.write_index, &v, sizeof(v)));
	ASSERT_EQ(0, ue_enable("ue_header", 0));
	EXPECT_EQ(0, word);
	line = ue_trace_line("ue_header", 0, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("v=42", line);
	free(line);
	ASSERT_EQ(0, ioctl(fd, DIAG_IOCSUNREG, &unreg));
	close(fd);
	EXPECT_EQ(0, ue_exists("ue_header"));
}

TEST_HARNESS_MAIN
