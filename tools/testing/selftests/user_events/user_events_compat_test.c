// SPDX-License-Identifier: GPL-2.0
/*
 * user_events through the widths of the program: built as a 64-bit and as
 * a 32-bit program, the second run on the 64-bit kernel through its
 * 32-bit system calls.  One event registered through both layouts, words
 * of 4 and 8 bytes whose bits follow the event's enable file (in a forked
 * child too), records written with write() and writev() and read back
 * from the trace, unregister and delete; addresses whose upper half is
 * not zero, as a 32-bit program's conversion of a pointer may leave them.
 */
#define _GNU_SOURCE
#include <sys/utsname.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "ue_util.h"

#define UE_PROGRAM_32	(UINTPTR_MAX == 0xffffffffu)

/* 8-byte words, aligned to their size as the ABI asks (i386 aligns 4) */
static __aligned_u64 ue_word8;
static __aligned_u64 ue_word8_far;
static uint32_t ue_word4;

/*
 * Does the kernel take 8-byte words (a 64-bit kernel)?  arm64 names
 * itself armv8l to a 32-bit program that runs with PER_LINUX32; a 32-bit
 * ARM kernel names an ARMv8 CPU armv7l.
 */
static int ue_kernel_64(void)
{
	struct utsname u;

	if (uname(&u))
		return 0;
	return !strcmp(u.machine, "x86_64") || !strcmp(u.machine, "aarch64") ||
	       !strcmp(u.machine, "armv8l");
}

/* Wait up to 5 s for a transient event to go, once nothing pins it */
static int ue_wait_gone(const char *event)
{
	int i;

	for (i = 0; i < 500 && ue_exists(event); i++)
		usleep(10000);
	return !ue_exists(event);
}

static __u64 ue_load64(const __u64 *word)
{
	return __atomic_load_n(word, __ATOMIC_RELAXED);
}

/* Remote-write registration with the addresses given as they are */
static int ue_reg_raw(int fd, uint64_t cmd, uint64_t addr, int size, int bit,
		      uint32_t *idx)
{
	struct user_reg r = {
		.size = sizeof(r),
		.enable_bit = bit,
		.enable_size = size,
		.enable_addr = addr,
		.name_args = cmd,
	};

	if (ioctl(fd, DIAG_IOCSREG, &r))
		return -errno;
	if (idx)
		*idx = r.write_index;
	return 0;
}

static int ue_unreg_raw(int fd, uint64_t addr, int bit)
{
	struct user_unreg u = {
		.size = sizeof(u),
		.disable_bit = bit,
		.disable_addr = addr,
	};

	return ioctl(fd, DIAG_IOCSUNREG, &u) ? -errno : 0;
}

TEST(layouts_and_layout_sizes)
{
	/* Packed: the same bytes for both widths of program */
	EXPECT_EQ(28, sizeof(struct user_reg));
	EXPECT_EQ(20, sizeof(struct user_status_reg));
	EXPECT_EQ(16, sizeof(struct user_unreg));
	/* The ioctls are typed by a pointer: their size is the program's */
	EXPECT_EQ(sizeof(void *), _IOC_SIZE(DIAG_IOCSREG));
	EXPECT_EQ(sizeof(void *), _IOC_SIZE(DIAG_IOCSDEL));
	EXPECT_EQ(sizeof(void *), _IOC_SIZE(DIAG_IOCSUNREG));
}

/*
 * One event through both layouts and three words: a 4-byte word, the
 * low bit and the high bit of one 8-byte word (another bit of each word
 * is the program's and stays as it is).
 */
TEST(words_follow_enable_and_records_read_back)
{
	const char *cmd = "ue_c32 u32 a; u64 b";
	const int k64 = ue_kernel_64();
	uint32_t sidx, i4, i8, i8hi, a = 0x11223344;
	uint64_t b = 0x0102030405060708ull;
	const uint8_t *page = ue_map_status();
	struct user_status_reg r;
	struct iovec io[3];
	char rec[16], *line;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ASSERT_NE(NULL, page);
	ue_clear_trace();
	ue_word4 = 1u << 7;
	ue_word8 = 1ull << 40;
	ASSERT_EQ(0, ue_reg(fd, cmd, &r));
	sidx = r.write_index;
	EXPECT_NE(0, r.status_bit);
	ASSERT_EQ(0, ue_reg_word(fd, cmd, &ue_word4, 4, 31, 0, &i4));
	EXPECT_EQ(sidx, i4);
	if (k64) {
		ASSERT_EQ(0, ue_reg_word(fd, cmd, &ue_word8, 8, 0, 0, &i8));
		ASSERT_EQ(0, ue_reg_word(fd, cmd, &ue_word8, 8, 63, 0, &i8hi));
		EXPECT_EQ(sidx, i8);
		EXPECT_EQ(sidx, i8hi);
	} else {
		/* A 32-bit kernel writes 4-byte words only */
		EXPECT_EQ(-EINVAL, ue_reg_word(fd, cmd, &ue_word8, 8, 0, 0,
					       NULL));
	}
	EXPECT_EQ(1u << 7, ue_load(&ue_word4));
	EXPECT_EQ(1ull << 40, ue_load64(&ue_word8));
	EXPECT_EQ(0, ue_bit_set(page, r.status_bit));

	ASSERT_EQ(0, ue_enable("ue_c32", 1));
	EXPECT_EQ(1u << 7 | 1u << 31, ue_load(&ue_word4));
	if (k64)
		EXPECT_EQ(1ull << 63 | 1ull << 40 | 1, ue_load64(&ue_word8));
	EXPECT_EQ(1, ue_bit_set(page, r.status_bit));

	/* write(): index and record in one buffer */
	memcpy(rec, &sidx, 4);
	memcpy(rec + 4, &a, 4);
	memcpy(rec + 8, &b, 8);
	EXPECT_EQ(16, write(fd, rec, sizeof(rec)));
	/* writev(): the 32-bit iovec of a 32-bit program, three segments */
	a = 7;
	b = 0xfffffffffffffffeull;
	io[0] = (struct iovec){ &sidx, 4 };
	io[1] = (struct iovec){ &a, 4 };
	io[2] = (struct iovec){ &b, 8 };
	EXPECT_EQ(16, writev(fd, io, 3));
	EXPECT_EQ(2, ue_trace_count("ue_c32"));
	line = ue_trace_line("ue_c32", 0, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("a=287454020 b=72623859790382856", line);
	free(line);
	line = ue_trace_line("ue_c32", 1, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("a=7 b=18446744073709551614", line);
	free(line);

	ASSERT_EQ(0, ue_enable("ue_c32", 0));
	EXPECT_EQ(1u << 7, ue_load(&ue_word4));
	EXPECT_EQ(1ull << 40, ue_load64(&ue_word8));
	EXPECT_EQ(0, ue_bit_set(page, r.status_bit));

	/* Unregister: the word is forgotten, the next enable leaves it */
	EXPECT_EQ(0, ue_unreg_word(fd, &ue_word4, 31));
	EXPECT_EQ(-ENOENT, ue_unreg_word(fd, &ue_word4, 31));
	if (k64) {
		EXPECT_EQ(0, ue_unreg_word(fd, &ue_word8, 0));
		EXPECT_EQ(0, ue_unreg_word(fd, &ue_word8, 63));
	}
	ASSERT_EQ(0, ue_enable("ue_c32", 1));
	EXPECT_EQ(1u << 7, ue_load(&ue_word4));
	EXPECT_EQ(1ull << 40, ue_load64(&ue_word8));
	EXPECT_EQ(1, ue_bit_set(page, r.status_bit));
	ASSERT_EQ(0, ue_enable("ue_c32", 0));

	/* The status-page registration keeps it: in use while the fd is */
	EXPECT_EQ(-EBUSY, ue_del("ue_c32"));
	close(fd);
	EXPECT_EQ(0, ue_del("ue_c32"));
	EXPECT_EQ(0, ue_exists("ue_c32"));
	EXPECT_EQ(-ENOENT, ue_del("ue_c32"));
	munmap((void *)page, sysconf(_SC_PAGESIZE));
}

/* The child's copies of the words follow the event too, until it exits */
TEST(forked_child_words)
{
	const char *cmd = "ue_c32_fork u32 a";
	int k64 = ue_kernel_64(), go[2], done[2], status;
	char c = 0;
	pid_t pid;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(done));
	ue_word4 = 0;
	ue_word8 = 0;
	ASSERT_EQ(0, ue_reg_word(fd, cmd, &ue_word4, 4, 5, 0, NULL));
	if (k64)
		ASSERT_EQ(0, ue_reg_word(fd, cmd, &ue_word8, 8, 62, 0, NULL));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		int ok;

		ok = read(go[0], &c, 1) == 1 && ue_wait_word(&ue_word4, 1u << 5);
		if (k64)
			ok = ok && ue_load64(&ue_word8) == 1ull << 62;
		_exit(ok && write(done[1], &c, 1) == 1 ? 0 : 1);
	}
	ASSERT_EQ(0, ue_enable("ue_c32_fork", 1));
	EXPECT_EQ(1u << 5, ue_load(&ue_word4));
	if (k64)
		EXPECT_EQ(1ull << 62, ue_load64(&ue_word8));
	EXPECT_EQ(1, write(go[1], &c, 1));
	EXPECT_EQ(1, read(done[0], &c, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	ASSERT_EQ(0, ue_enable("ue_c32_fork", 0));
	EXPECT_EQ(0, ue_load(&ue_word4));
	EXPECT_EQ(0, ue_load64(&ue_word8));
	/* Transient: gone with the child's words, this process's and fd's */
	EXPECT_EQ(0, ue_unreg_word(fd, &ue_word4, 5));
	if (k64)
		EXPECT_EQ(0, ue_unreg_word(fd, &ue_word8, 62));
	close(fd);
	EXPECT_EQ(1, ue_wait_gone("ue_c32_fork"));
}

/*
 * Bits above a 32-bit address: a 32-bit program's address is the low half
 * of the field (i386's compiler sign-extends a pointer converted to
 * __u64); a 64-bit program's address is the whole field, and this one is
 * none.
 */
TEST(upper_half_of_addresses)
{
	const char *cmd = "ue_c32_hi u32 a";
	const uint64_t hi = 0xffffffff00000000ull;
	const int k64 = ue_kernel_64();
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ue_word4 = 0;
	ue_word8_far = 0;
	if (!UE_PROGRAM_32) {
		EXPECT_EQ(-EFAULT, ue_reg_raw(fd, hi | (uintptr_t)cmd,
					      (uintptr_t)&ue_word4, 4, 0,
					      NULL));
		EXPECT_EQ(-EFAULT, ue_reg_raw(fd, (uintptr_t)cmd,
					      hi | (uintptr_t)&ue_word4, 4, 0,
					      NULL));
		EXPECT_EQ(0, ue_exists("ue_c32_hi"));
		close(fd);
		return;
	}
	ASSERT_EQ(0, ue_reg_raw(fd, hi | (uintptr_t)cmd,
				hi | (uintptr_t)&ue_word4, 4, 1, NULL));
	/* The same word, however its address is written */
	EXPECT_EQ(-EADDRINUSE, ue_reg_word(fd, cmd, &ue_word4, 4, 1, 0, NULL));
	if (k64)
		ASSERT_EQ(0, ue_reg_raw(fd, (uintptr_t)cmd,
					0x1234567800000000ull |
					(uintptr_t)&ue_word8_far, 8, 33, NULL));
	ASSERT_EQ(0, ue_enable("ue_c32_hi", 1));
	EXPECT_EQ(1u << 1, ue_load(&ue_word4));
	if (k64)
		EXPECT_EQ(1ull << 33, ue_load64(&ue_word8_far));
	ASSERT_EQ(0, ue_enable("ue_c32_hi", 0));
	EXPECT_EQ(0, ue_load(&ue_word4));
	EXPECT_EQ(0, ue_load64(&ue_word8_far));
	EXPECT_EQ(0, ue_unreg_word(fd, &ue_word4, 1));
	if (k64)
		EXPECT_EQ(0, ue_unreg_raw(fd, hi | (uintptr_t)&ue_word8_far, 33));
	close(fd);
	EXPECT_EQ(1, ue_wait_gone("ue_c32_hi"));
}

/* A number user_events does not know, in either width */
TEST(unknown_ioctl)
{
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	EXPECT_EQ(-1, ioctl(fd, _IOW(DIAG_IOC_MAGIC, 0x40, uint32_t), 0));
	EXPECT_EQ(ENOTTY, errno);
	EXPECT_EQ(-1, ioctl(fd, _IO('x', 0), 0));
	EXPECT_EQ(ENOTTY, errno);
	close(fd);
}

TEST_HARNESS_MAIN
