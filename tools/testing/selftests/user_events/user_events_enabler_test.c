// SPDX-License-Identifier: GPL-2.0
/*
 * user_events, remote-write registrations beside the status page: one
 * event through both layouts, words that are absent or copy-on-write,
 * fork/exec/exit, unregister, persistent and multi-format events, every
 * refused registration with its errno, and a stress run.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "ue_util.h"

#define UE_MULTI_DIR UE_TRACEFS "/events/" USER_EVENTS_MULTI_SYSTEM

/* Wait up to 5 s for the event's folder to go */
static int ue_wait_gone_dir(const char *event)
{
	int i;

	for (i = 0; i < 500 && ue_exists(event); i++)
		usleep(10000);
	return !ue_exists(event);
}

/*
 * Path of the multi-format event of name whose format mentions field: the
 * folders of the system are listed rather than tried by id, as ids grow
 * with every multi-format registration of the run.
 */
static int ue_multi_dir(const char *name, const char *field, char *out,
			size_t len)
{
	size_t n = strlen(name);
	char path[512], *text;
	struct dirent *d;
	int found = -1;
	DIR *dir;

	dir = opendir(UE_MULTI_DIR);
	if (!dir)
		return -1;
	while (found && (d = readdir(dir))) {
		if (strncmp(d->d_name, name, n) || d->d_name[n] != '.')
			continue;
		snprintf(out, len, UE_MULTI_DIR "/%s", d->d_name);
		snprintf(path, sizeof(path), "%s/format", out);
		text = ue_read_file(path);
		if (text && strstr(text, field))
			found = 0;
		free(text);
	}
	closedir(dir);
	return found;
}

TEST(both_layouts_one_event_one_fd)
{
	uint32_t word = 0, v = 7, sidx, widx = 0;
	const uint8_t *page = ue_map_status();
	struct user_status_reg r;
	char *line;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ASSERT_NE(NULL, page);
	ue_clear_trace();
	ASSERT_EQ(0, ue_reg(fd, "ue_both u32 v", &r));
	sidx = r.write_index;
	ASSERT_EQ(0, ue_reg_word(fd, "ue_both u32 v", &word, 4, 3, 0, &widx));
	EXPECT_EQ(sidx, widx);
	EXPECT_EQ(0, word);
	EXPECT_EQ(0, ue_bit_set(page, r.status_bit));

	ASSERT_EQ(0, ue_enable("ue_both", 1));
	EXPECT_EQ(1u << 3, word);
	EXPECT_EQ(1, ue_bit_set(page, r.status_bit));
	EXPECT_EQ(8, ue_emit(fd, widx, &v, 4));
	line = ue_trace_line("ue_both", 0, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("v=7", line);
	free(line);

	ASSERT_EQ(0, ue_enable("ue_both", 0));
	EXPECT_EQ(0, word);
	EXPECT_EQ(0, ue_bit_set(page, r.status_bit));
	/* This fd registered a word: an unconsumed write is refused */
	EXPECT_EQ(-EBADF, ue_emit(fd, widx, &v, 4));

	ASSERT_EQ(0, ue_unreg_word(fd, &word, 3));
	close(fd);
	/* The status-page registration keeps the event until deleted */
	EXPECT_EQ(1, ue_exists("ue_both"));
	EXPECT_EQ(0, ue_del("ue_both"));
	munmap((void *)page, sysconf(_SC_PAGESIZE));
}

TEST(status_page_fd_writes_while_idle)
{
	uint32_t v = 1;
	struct user_status_reg r;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ue_reg(fd, "ue_idle u32 v", &r));
	EXPECT_EQ(8, ue_emit(fd, r.write_index, &v, 4));
	close(fd);
	EXPECT_EQ(0, ue_del("ue_idle"));
}

TEST(refused_registrations)
{
	struct user_reg big[2] = { { .size = sizeof(big) } };
	uint64_t words[2] = { 0, 0 };
	uint32_t *w32 = (uint32_t *)words;
	struct user_unreg u = { .size = sizeof(u) };
	char huge[8192] = { 0 };
	uint32_t v = 0;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	/* Sizes: below the status-page layout, above a page, unknown tail */
	*(uint32_t *)huge = 0;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSREG, huge));
	EXPECT_EQ(EINVAL, errno);
	*(uint32_t *)huge = 19;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSREG, huge));
	EXPECT_EQ(EINVAL, errno);
	*(uint32_t *)huge = sysconf(_SC_PAGESIZE) + 1;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSREG, huge));
	EXPECT_EQ(E2BIG, errno);
	big[0].enable_size = 4;
	big[0].enable_addr = (uintptr_t)&v;
	big[0].name_args = (uintptr_t)"ue_bad u32 v";
	((char *)big)[sizeof(big) - 1] = 1;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSREG, big));
	EXPECT_EQ(E2BIG, errno);

	/* Word sizes other than 4 and 8 */
	EXPECT_EQ(-EINVAL, ue_reg_word(fd, "ue_bad u32 v", words, 0, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, ue_reg_word(fd, "ue_bad u32 v", words, 1, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, ue_reg_word(fd, "ue_bad u32 v", words, 2, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, ue_reg_word(fd, "ue_bad u32 v", words, 16, 0, 0, NULL));
	/* Bits past the word */
	EXPECT_EQ(-EINVAL, ue_reg_word(fd, "ue_bad u32 v", words, 4, 32, 0, NULL));
	EXPECT_EQ(-EINVAL, ue_reg_word(fd, "ue_bad u32 v", words, 8, 64, 0, NULL));
	/* Misaligned words */
	EXPECT_EQ(-EINVAL, ue_reg_word(fd, "ue_bad u32 v", (char *)words + 2,
				       4, 0, 0, NULL));
	EXPECT_EQ(-EINVAL, ue_reg_word(fd, "ue_bad u32 v", &w32[1], 8, 0, 0,
				       NULL));
#if UINTPTR_MAX > 0xffffffffu
	/* Kernel addresses: a 32-bit program's pointers reach none */
	EXPECT_EQ(-EFAULT, ue_reg_word(fd, "ue_bad u32 v",
				       (void *)0xffff888000000000ul, 4, 0, 0,
				       NULL));
#endif
	/* Unknown flags */
	EXPECT_EQ(-EINVAL, ue_reg_word(fd, "ue_bad u32 v", words, 4, 0,
				       USER_EVENT_REG_MAX, NULL));
	/* None of these created the event */
	EXPECT_EQ(0, ue_exists("ue_bad"));

	/* The same word and bit twice, even for another event */
	ASSERT_EQ(0, ue_reg_word(fd, "ue_bad u32 v", words, 8, 63, 0, NULL));
	EXPECT_EQ(-EADDRINUSE, ue_reg_word(fd, "ue_bad u32 v", words, 8, 63,
					   0, NULL));
	EXPECT_EQ(-EADDRINUSE, ue_reg_word(fd, "ue_bad2 u32 v", words, 8, 63,
					   0, NULL));
	EXPECT_EQ(0, ue_exists("ue_bad2"));
	/* Same name, other fields */
	EXPECT_EQ(-EADDRINUSE, ue_reg_word(fd, "ue_bad u64 v", words, 8, 1,
					   0, NULL));

	/* Unregister: unknown word, reserved bytes, sizes */
	u.disable_addr = (uintptr_t)words;
	u.disable_bit = 62;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSUNREG, &u));
	EXPECT_EQ(ENOENT, errno);
	u.disable_bit = 63;
	u.__reserved = 1;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSUNREG, &u));
	EXPECT_EQ(EINVAL, errno);
	u.__reserved = 0;
	u.size = 15;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSUNREG, &u));
	EXPECT_EQ(EINVAL, errno);
	u.size = sizeof(u);
	EXPECT_EQ(0, ioctl(fd, DIAG_IOCSUNREG, &u));
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSUNREG, &u));
	EXPECT_EQ(ENOENT, errno);
	close(fd);
	/* Transient: gone with its last registration */
	EXPECT_EQ(0, ue_exists("ue_bad"));
}

TEST(word_not_faulted_in)
{
	long psz = sysconf(_SC_PAGESIZE);
	uint32_t *word;
	char *map;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	map = mmap(NULL, psz, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	word = (uint32_t *)(map + 64);
	/* Registered on a page never touched */
	ASSERT_EQ(0, ue_reg_word(fd, "ue_nf u32 v", word, 4, 5, 0,
				 NULL));
	ASSERT_EQ(0, ue_enable("ue_nf", 1));
	EXPECT_EQ(1, ue_wait_word(word, 1u << 5));
	/* Page dropped: the next change faults it in again */
	ASSERT_EQ(0, madvise(map, psz, MADV_DONTNEED));
	ASSERT_EQ(0, ue_enable("ue_nf", 0));
	ASSERT_EQ(0, ue_enable("ue_nf", 1));
	EXPECT_EQ(1, ue_wait_word(word, 1u << 5));
	ASSERT_EQ(0, ue_enable("ue_nf", 0));
	EXPECT_EQ(1, ue_wait_word(word, 0));
	ASSERT_EQ(0, ue_unreg_word(fd, word, 5));
	close(fd);
	munmap(map, psz);
	EXPECT_EQ(0, ue_exists("ue_nf"));
}

/* After exec: the enablers of the old image are gone with it */
static int ue_after_exec(void)
{
	return ue_exists("ue_exec") ? 1 : 0;
}

TEST(fork_exec_exit_cow)
{
	static uint32_t word;	/* data page: copy-on-write after fork */
	int status, fd = ue_open();
	pid_t pid;

	ASSERT_GE(fd, 0);
	word = 0;
	ASSERT_EQ(0, ue_reg_word(fd, "ue_cow u32 v", &word, 4, 0, 0, NULL));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0)	/* untouched copy: gets its bit by itself */
		_exit(ue_wait_word(&word, 1) ? 0 : 1);
	usleep(100000);
	ASSERT_EQ(0, ue_enable("ue_cow", 1));
	EXPECT_EQ(1, ue_wait_word(&word, 1));
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));

	/* A child's own registration goes with its exit */
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		static uint32_t mine;
		int cfd = ue_open();

		if (ue_reg_word(cfd, "ue_exit u32 v", &mine, 4, 0, 0, NULL))
			_exit(2);
		_exit(ue_exists("ue_exit") ? 0 : 3);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, ue_exists("ue_exit"));

	/* ... and with its exec (the fd is close-on-exec) */
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		static uint32_t mine;
		int cfd = open(UE_DATA, O_RDWR | O_CLOEXEC);

		if (ue_reg_word(cfd, "ue_exec u32 v", &mine, 4, 0, 0, NULL))
			_exit(2);
		execl("/proc/self/exe", "ue_after_exec", "--after-exec", NULL);
		_exit(4);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));

	ASSERT_EQ(0, ue_enable("ue_cow", 0));
	EXPECT_EQ(1, ue_wait_word(&word, 0));
	ASSERT_EQ(0, ue_unreg_word(fd, &word, 0));
	close(fd);
	EXPECT_EQ(0, ue_exists("ue_cow"));
}

/*
 * fork() leaves the parent's word copy-on-write; when the enable file's
 * write returns, the word already says what it changed, as the remote
 * write ABI promises (upstream's abi_test user.forks checks it once):
 * no fault work may lag behind.  A child that exits first, one that
 * unregisters its copy, on and off, 20 times.
 */
TEST(cow_word_right_when_change_returns)
{
	static uint32_t word;	/* data page: copy-on-write after fork */
	int i, status, fd = ue_open();
	pid_t pid;

	ASSERT_GE(fd, 0);
	word = 0;
	ASSERT_EQ(0, ue_reg_word(fd, "ue_cowsync u32 v", &word, 4, 0, 0,
				 NULL));
	for (i = 0; i < 20; i++) {
		pid = fork();
		ASSERT_GE(pid, 0);
		if (pid == 0)
			_exit(0);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_EQ(0, ue_enable("ue_cowsync", 1));
		ASSERT_EQ(1, word) TH_LOG("round %d: on", i);
		pid = fork();
		ASSERT_GE(pid, 0);
		if (pid == 0)
			_exit(ue_unreg_word(fd, &word, 0) ? 1 : 0);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_EQ(0, WEXITSTATUS(status));
		ASSERT_EQ(1, word);
		ASSERT_EQ(0, ue_enable("ue_cowsync", 0));
		ASSERT_EQ(0, word) TH_LOG("round %d: off", i);
	}
	ASSERT_EQ(0, ue_unreg_word(fd, &word, 0));
	close(fd);
	EXPECT_EQ(0, ue_exists("ue_cowsync"));
}

/*
 * A reaped process pins no event, even when its word was still waiting for
 * the fault work (copy-on-write since fork) as it exited.
 */
TEST(reaped_process_pins_nothing)
{
	static uint32_t word;	/* shared with the parent: copy-on-write */
	int i, status;
	pid_t pid;

	for (i = 0; i < 50; i++) {
		word = i;	/* the page is the parent's, written */
		pid = fork();
		ASSERT_GE(pid, 0);
		if (pid == 0) {
			int cfd = ue_open();

			_exit(ue_reg_word(cfd, "ue_reaped u32 v", &word, 4,
					  0, 0, NULL) ? 2 : 0);
		}
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		ASSERT_EQ(0, WEXITSTATUS(status));
		ASSERT_EQ(0, ue_exists("ue_reaped"));
	}
}

TEST(unregister_in_child)
{
	static uint32_t word;
	int status, fd = ue_open();
	pid_t pid;

	ASSERT_GE(fd, 0);
	word = 0;
	ASSERT_EQ(0, ue_reg_word(fd, "ue_child u32 v", &word, 4, 1, 0, NULL));
	ASSERT_EQ(0, ue_enable("ue_child", 1));
	EXPECT_EQ(2, word);
	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		if (ue_unreg_word(fd, &word, 1))
			_exit(1);
		/* The child's copy is cleared, and only it */
		_exit(word == 0 ? 0 : 2);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(2, word);
	/* The page may be write-protected since fork: updates may lag */
	ASSERT_EQ(0, ue_enable("ue_child", 0));
	EXPECT_EQ(1, ue_wait_word(&word, 0));
	ASSERT_EQ(0, ue_enable("ue_child", 1));
	EXPECT_EQ(1, ue_wait_word(&word, 2));
	ASSERT_EQ(0, ue_enable("ue_child", 0));
	EXPECT_EQ(1, ue_wait_word(&word, 0));
	ASSERT_EQ(0, ue_unreg_word(fd, &word, 1));
	close(fd);
	EXPECT_EQ(0, ue_exists("ue_child"));
}

TEST(persist_through_ftrace_and_perf)
{
	uint32_t word = 0, idx = 0, v = 42;
	char *line;
	long pfd;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ue_clear_trace();
	ASSERT_EQ(0, ue_reg_word(fd, "ue_keep u32 v", &word, 4, 0,
				 USER_EVENT_REG_PERSIST, &idx));
	ASSERT_EQ(0, ue_enable("ue_keep", 1));
	EXPECT_EQ(1, word);
	EXPECT_EQ(8, ue_emit(fd, idx, &v, 4));
	line = ue_trace_line("ue_keep", 0, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("v=42", line);
	free(line);
	ASSERT_EQ(0, ue_enable("ue_keep", 0));
	EXPECT_EQ(0, word);

	pfd = ue_perf_open(ue_event_id("ue_keep"));
	ASSERT_GE(pfd, 0);
	EXPECT_EQ(1, word);
	close(pfd);
	EXPECT_EQ(0, word);

	ASSERT_EQ(0, ue_unreg_word(fd, &word, 0));
	close(fd);
	EXPECT_EQ(1, ue_exists("ue_keep"));
	EXPECT_EQ(0, ue_del("ue_keep"));
	EXPECT_EQ(0, ue_exists("ue_keep"));
}

TEST(multi_format_through_ftrace_and_perf)
{
	char d32[300], d64[300], path[400], *text;
	uint32_t word = 0, i32 = 0, i64 = 0, v = 5;
	uint64_t w = 6;
	long pfd;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ue_clear_trace();
	ASSERT_EQ(0, ue_reg_word(fd, "ue_mf u32 mf_a", &word, 4, 0,
				 USER_EVENT_REG_MULTI_FORMAT, &i32));
	ASSERT_EQ(0, ue_reg_word(fd, "ue_mf u64 mf_b", &word, 4, 1,
				 USER_EVENT_REG_MULTI_FORMAT, &i64));
	EXPECT_NE(i32, i64);
	/* A single-format event of that name is another event */
	EXPECT_EQ(0, ue_exists("ue_mf"));
	ASSERT_EQ(0, ue_multi_dir("ue_mf", "mf_a", d32, sizeof(d32)));
	ASSERT_EQ(0, ue_multi_dir("ue_mf", "mf_b", d64, sizeof(d64)));
	EXPECT_STRNE(d32, d64);

	snprintf(path, sizeof(path), "%s/enable", d32);
	ASSERT_EQ(0, ue_write_file(path, "1", 0));
	EXPECT_EQ(1, word);
	EXPECT_EQ(8, ue_emit(fd, i32, &v, 4));
	text = ue_read_file(UE_TRACEFS "/trace");
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, ": mf_a=5"));
	free(text);
	ASSERT_EQ(0, ue_write_file(path, "0", 0));
	EXPECT_EQ(0, word);

	pfd = ue_perf_open(ue_dir_id(d64));
	ASSERT_GE(pfd, 0);
	EXPECT_EQ(2, word);
	EXPECT_EQ(12, ue_emit(fd, i64, &w, 8));
	close(pfd);
	EXPECT_EQ(0, word);

	close(fd);
	/* Transient: each goes with its registration */
	ASSERT_EQ(0, ue_unreg_word(fd = ue_open(), &word, 0));
	snprintf(path, sizeof(path), "%s/format", d32);
	EXPECT_EQ(NULL, ue_read_file(path));
	ASSERT_EQ(0, ue_unreg_word(fd, &word, 1));
	snprintf(path, sizeof(path), "%s/format", d64);
	EXPECT_EQ(NULL, ue_read_file(path));
	close(fd);
}

/* Register name's two formats, persistent, and let go of them */
static int ue_two_formats(const char *name)
{
	char a[64], b[64];
	uint32_t word = 0;
	int fd = ue_open();
	int ret;

	snprintf(a, sizeof(a), "%s u32 mf_a", name);
	snprintf(b, sizeof(b), "%s u64 mf_b", name);
	ret = ue_reg_word(fd, a, &word, 4, 0, USER_EVENT_REG_PERSIST |
			  USER_EVENT_REG_MULTI_FORMAT, NULL) ?:
	      ue_reg_word(fd, b, &word, 4, 1, USER_EVENT_REG_PERSIST |
			  USER_EVENT_REG_MULTI_FORMAT, NULL) ?:
	      ue_unreg_word(fd, &word, 0) ?: ue_unreg_word(fd, &word, 1);
	close(fd);
	return ret;
}

/* How many formats of name exist (folders name.<id>) */
static int ue_formats(const char *name)
{
	char dir[512];

	return !ue_multi_dir(name, "mf_a", dir, sizeof(dir)) +
	       !ue_multi_dir(name, "mf_b", dir, sizeof(dir));
}

/*
 * A multi-format name is deleted by its registered name, every format at
 * once: DIAG_IOCSDEL and dynamic_events with either system or none; one
 * format in use keeps them all (-EBUSY).  One format alone still goes by
 * its tracepoint name.
 */
TEST(multi_format_deleted_by_name)
{
	char dir[512], path[600];

	ASSERT_EQ(0, ue_two_formats("ue_mfdel"));
	ASSERT_EQ(2, ue_formats("ue_mfdel"));
	ASSERT_EQ(0, ue_multi_dir("ue_mfdel", "mf_a", dir, sizeof(dir)));
	snprintf(path, sizeof(path), "%s/enable", dir);
	ASSERT_EQ(0, ue_write_file(path, "1", 0));
	EXPECT_EQ(-EBUSY, ue_del("ue_mfdel"));
	EXPECT_EQ(2, ue_formats("ue_mfdel"));
	ASSERT_EQ(0, ue_write_file(path, "0", 0));
	EXPECT_EQ(0, ue_del("ue_mfdel"));
	EXPECT_EQ(0, ue_formats("ue_mfdel"));
	EXPECT_EQ(-ENOENT, ue_del("ue_mfdel"));

	ASSERT_EQ(0, ue_two_formats("ue_mfdel"));
	EXPECT_EQ(0, ue_write_file(UE_DYN, "!u:ue_mfdel", 1));
	EXPECT_EQ(0, ue_formats("ue_mfdel"));
	ASSERT_EQ(0, ue_two_formats("ue_mfdel"));
	EXPECT_EQ(0, ue_write_file(UE_DYN, "-:" USER_EVENTS_SYSTEM "/ue_mfdel",
				   1));
	EXPECT_EQ(0, ue_formats("ue_mfdel"));
	ASSERT_EQ(0, ue_two_formats("ue_mfdel"));
	EXPECT_EQ(0, ue_write_file(UE_DYN,
				   "-:" USER_EVENTS_MULTI_SYSTEM "/ue_mfdel", 1));
	EXPECT_EQ(0, ue_formats("ue_mfdel"));

	ASSERT_EQ(0, ue_two_formats("ue_mfdel"));
	ASSERT_EQ(0, ue_multi_dir("ue_mfdel", "mf_a", dir, sizeof(dir)));
	EXPECT_EQ(0, ue_del(strrchr(dir, '/') + 1));
	EXPECT_EQ(1, ue_formats("ue_mfdel"));
	EXPECT_EQ(0, ue_del("ue_mfdel"));
	EXPECT_EQ(0, ue_formats("ue_mfdel"));
}

static int ue_stop;

static void *ue_writer(void *arg)
{
	uint32_t v = 1, idx = *(uint32_t *)arg;
	int fd = ue_open();

	while (!__atomic_load_n(&ue_stop, __ATOMIC_RELAXED))
		ue_emit(fd, idx, &v, 4);
	close(fd);
	return NULL;
}

/* Fork, register, unregister and toggle while another thread writes */
TEST(stress_fork_reg_toggle)
{
	static uint32_t words[64];
	struct timespec t0, now;
	uint32_t idx;
	pthread_t th;
	struct user_status_reg r;
	int i, status, fd = ue_open();
	pid_t pid;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ue_reg(fd, "ue_stress u32 v", &r));
	idx = r.write_index;
	ASSERT_EQ(0, pthread_create(&th, NULL, ue_writer, &idx));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < 200; i++) {
		int b = i % 32;

		/* a slow (debug, emulated) kernel gets fewer rounds, >= 20 */
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (i >= 20 && now.tv_sec - t0.tv_sec >= 15)
			break;

		ASSERT_EQ(0, ue_reg_word(fd, "ue_stress u32 v", &words[i % 64],
					 4, b, 0, NULL));
		pid = fork();
		ASSERT_GE(pid, 0);
		if (pid == 0) {
			int cfd = ue_open();

			ue_reg_word(cfd, "ue_stress u32 v", &words[(i + 1) % 64],
				    4, b, 0, NULL);
			ue_unreg_word(cfd, &words[i % 64], b);
			_exit(0);
		}
		ASSERT_EQ(0, ue_enable("ue_stress", i & 1));
		ASSERT_EQ(0, ue_unreg_word(fd, &words[i % 64], b));
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
	}
	__atomic_store_n(&ue_stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	ASSERT_EQ(0, ue_enable("ue_stress", 0));
	close(fd);
	EXPECT_EQ(0, ue_del("ue_stress"));
}

/* Threads of one process registering and unregistering words */
struct ue_churn {
	uint32_t words[16];	/* this thread's words */
	int fd;			/* shared user_events_data */
	int bad;		/* calls with an unexpected outcome */
	long rounds;		/* register/unregister pairs done */
};

static int ue_churn_stop;

static void *ue_churner(void *arg)
{
	struct ue_churn *c = arg;
	int i, ret;

	while (!__atomic_load_n(&ue_churn_stop, __ATOMIC_RELAXED)) {
		for (i = 0; i < 16; i++) {
			ret = ue_reg_word(c->fd, "ue_unreg_fork u32 v",
					  &c->words[i], 4, i, 0, NULL);
			c->bad += ret != 0;
		}
		for (i = 0; i < 16; i++)
			c->bad += ue_unreg_word(c->fd, &c->words[i], i) != 0;
		c->rounds++;
	}
	return NULL;
}

/*
 * DIAG_IOCSUNREG frees words while fork() copies the same list (the
 * threads share the address space's words): both run under event_mutex,
 * so a copy never sees a freed word.  Children exit at once; KASAN and
 * lockdep (make check-debug) watch the rest.
 */
TEST(unregister_while_forking)
{
	static uint32_t anchor;	/* makes the threads share one word list */
	struct ue_churn churn[2] = { 0 };
	pthread_t th[2];
	int i, status, forks = 0, fd = ue_open();
	time_t end;
	pid_t pid;

	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ue_reg_word(fd, "ue_unreg_fork u32 v", &anchor, 4, 0, 0,
				 NULL));
	ASSERT_EQ(0, ue_enable("ue_unreg_fork", 1));
	for (i = 0; i < 2; i++) {
		churn[i].fd = fd;
		ASSERT_EQ(0, pthread_create(&th[i], NULL, ue_churner,
					    &churn[i]));
	}
	end = time(NULL) + 3;
	while (time(NULL) < end) {
		pid = fork();
		ASSERT_GE(pid, 0);
		if (pid == 0)
			_exit(0);
		ASSERT_EQ(pid, waitpid(pid, &status, 0));
		EXPECT_EQ(0, status);
		forks++;
	}
	__atomic_store_n(&ue_churn_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 2; i++) {
		pthread_join(th[i], NULL);
		EXPECT_EQ(0, churn[i].bad);
		EXPECT_GT(churn[i].rounds, 0);
	}
	TH_LOG("%d forks, %ld + %ld rounds", forks, churn[0].rounds,
	       churn[1].rounds);
	ASSERT_EQ(0, ue_enable("ue_unreg_fork", 0));
	ASSERT_EQ(0, ue_unreg_word(fd, &anchor, 0));
	close(fd);
	EXPECT_EQ(1, ue_wait_gone_dir("ue_unreg_fork"));
}

/* Threads around the exact test of enable bits */
struct ue_flip {
	uint32_t words[8];	/* the main thread's words, bit i in words[i] */
	uint32_t idx;		/* write index of ue_flip */
	int fd;
	int stop;		/* read and set with __atomic */
	int cpus;		/* writers bound so far, one per CPU */
	long forks, unmaps;
	int bad;		/* calls with an unexpected outcome */
};

static void ue_flip_bind(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % sysconf(_SC_NPROCESSORS_ONLN), &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Write while the first word says the event is enabled, as programs do */
static void *ue_flip_writer(void *arg)
{
	struct ue_flip *f = arg;
	uint32_t v = 1;

	ue_flip_bind(__atomic_fetch_add(&f->cpus, 1, __ATOMIC_RELAXED));
	while (!__atomic_load_n(&f->stop, __ATOMIC_RELAXED))
		if (ue_load(&f->words[0]) & 1)
			ue_emit(f->fd, f->idx, &v, sizeof(v));
	return NULL;
}

/* Children that take the words with them and exit */
static void *ue_flip_forker(void *arg)
{
	struct ue_flip *f = arg;
	int status;
	pid_t pid;

	while (!__atomic_load_n(&f->stop, __ATOMIC_RELAXED)) {
		pid = fork();
		if (pid == 0) {
			usleep(500);
			_exit(0);
		}
		if (pid < 0 || waitpid(pid, &status, 0) != pid || status)
			f->bad++;
		f->forks++;
	}
	return NULL;
}

/* Words in pages unmapped under the kernel's feet, then unregistered */
static void *ue_flip_unmapper(void *arg)
{
	struct ue_flip *f = arg;
	long page = sysconf(_SC_PAGESIZE);
	uint32_t *w;

	while (!__atomic_load_n(&f->stop, __ATOMIC_RELAXED)) {
		w = mmap(NULL, page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (w == MAP_FAILED) {
			f->bad++;
			break;
		}
		f->bad += ue_reg_word(f->fd, "ue_flip u32 v", w, 4, 0, 0,
				      NULL) != 0;
		munmap(w, page);
		f->bad += ue_unreg_word(f->fd, w, 0) != 0;
		f->unmaps++;
	}
	return NULL;
}

/*
 * Enable bits stay exact while everything around them moves: the event
 * is enabled and disabled through tracefs up to a hundred times (for ten
 * seconds at most, twenty times at least) while two threads on two CPUs
 * test the bit and write, a thread forks children that inherit the words
 * and exit, and another registers words in pages it unmaps at once.
 * After each change every one of the main thread's eight words reads the
 * new state; every call ends as the ABI says.
 */
TEST(enable_bits_exact_under_fire)
{
	static void *(*const fn[4])(void *) = {
		ue_flip_writer, ue_flip_writer, ue_flip_forker,
		ue_flip_unmapper,
	};
	static struct ue_flip f;
	struct timespec t0, now;
	pthread_t th[4];
	int i, b, wrong = 0;

	f.fd = ue_open();
	ASSERT_GE(f.fd, 0);
	for (b = 0; b < 8; b++)
		ASSERT_EQ(0, ue_reg_word(f.fd, "ue_flip u32 v", &f.words[b], 4,
					 b, 0, b ? NULL : &f.idx));
	for (i = 0; i < 4; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, fn[i], &f));
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 1; i <= 100; i++) {
		/* a slow (debug, emulated, loaded) machine: >= 20 changes */
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (i > 20 && now.tv_sec - t0.tv_sec >= 10)
			break;
		ASSERT_EQ(0, ue_enable("ue_flip", i & 1));
		for (b = 0; b < 8; b++)
			wrong += !ue_wait_word(&f.words[b], (i & 1) << b);
	}
	/* end disabled, whatever the count */
	if (!(i & 1)) {
		ASSERT_EQ(0, ue_enable("ue_flip", 0));
		for (b = 0; b < 8; b++)
			wrong += !ue_wait_word(&f.words[b], 0);
	}
	__atomic_store_n(&f.stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 4; i++)
		pthread_join(th[i], NULL);
	TH_LOG("%ld forks, %ld words unmapped", f.forks, f.unmaps);
	EXPECT_EQ(0, wrong);
	EXPECT_EQ(0, f.bad);
	EXPECT_LT(0, f.forks);
	EXPECT_LT(0, f.unmaps);
	for (b = 0; b < 8; b++)
		EXPECT_EQ(0, ue_unreg_word(f.fd, &f.words[b], b));
	close(f.fd);
	EXPECT_EQ(1, ue_wait_gone_dir("ue_flip"));
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--after-exec"))
		return ue_after_exec();
	return test_harness_run(argc, argv);
}
