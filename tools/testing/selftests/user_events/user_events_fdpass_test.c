// SPDX-License-Identifier: GPL-2.0
/*
 * user_events through a handed fd: a collector opens a group's
 * user_events_data and user_events_status and passes both over a UNIX
 * socket (SCM_RIGHTS) to a program that cannot see tracefs (its own
 * mount namespace, tracefs unmounted there) and runs as nobody.  That
 * program registers with both ABIs, sees its enable bit and its status
 * bit follow the collector's enable, writes records the collector reads,
 * and is refused what Documentation/trace/user_events.rst says it may not
 * do: make a persistent event, delete a persistent event or one another
 * process uses.  Its events are the fd's group's, nowhere else.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "ue_util.h"

#define UE_FP_GROUP UE_TRACEFS "/user_events_groups/ue_fp"
#define UE_FP_EVENTS UE_TRACEFS "/events/user_events_ue_fp/"
#define UE_FP_BIT 3

/* One byte of the step protocol; 0 or -1 when the peer went away */
static int ue_fp_say(int sock, char c)
{
	return write(sock, &c, 1) == 1 ? 0 : -1;
}

static int ue_fp_hear(int sock, char want)
{
	char c;

	return read(sock, &c, 1) == 1 && c == want ? 0 : -1;
}

static int ue_fp_send_fds(int sock, const int *fds, int n)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))] = {0}, byte = 'F';
	struct iovec io = { &byte, 1 };
	struct msghdr msg = {
		.msg_iov = &io, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = CMSG_SPACE(n * sizeof(int)),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(cm), fds, n * sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int ue_fp_recv_fds(int sock, int *fds, int n)
{
	char cbuf[CMSG_SPACE(2 * sizeof(int))] = {0}, byte;
	struct iovec io = { &byte, 1 };
	struct msghdr msg = {
		.msg_iov = &io, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;

	if (recvmsg(sock, &msg, 0) != 1)
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_type != SCM_RIGHTS ||
	    cm->cmsg_len != CMSG_LEN(n * sizeof(int)))
		return -1;
	memcpy(fds, CMSG_DATA(cm), n * sizeof(int));
	return 0;
}

/* Wait up to 2 s for the status page's bit to read want */
static int ue_fp_wait_bit(const uint8_t *page, uint32_t bit, int want)
{
	int i;

	for (i = 0; i < 2000 && ue_bit_set(page, bit) != want; i++)
		usleep(1000);
	return ue_bit_set(page, bit) == want;
}

/* Leave this mount namespace without tracefs, then become nobody */
static int ue_fp_isolate(void)
{
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -1;
	umount2("/sys/kernel/debug/tracing", MNT_DETACH);
	if (umount2(UE_TRACEFS, MNT_DETACH))
		return -1;
	if (open(UE_DATA, O_RDWR) >= 0 || errno != ENOENT)
		return -1;
	if (setgroups(0, NULL) || setgid(65534) || setuid(65534) ||
	    geteuid() != 65534)
		return -1;
	return 0;
}

/*
 * The program that has no tracefs.  Returns 0, or the number of the
 * step that went wrong (the test prints it).
 */
static int ue_fp_program(int sock)
{
	static uint32_t word, other;
	struct user_status_reg sr;
	const uint8_t *page;
	uint32_t iw, is, v;
	int fds[2];

	if (ue_fp_isolate())
		return 20;
	if (ue_fp_recv_fds(sock, fds, 2))
		return 21;
	page = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
		    fds[1], 0);
	if (page == MAP_FAILED)
		return 22;
	if (ue_reg_word(fds[0], "ue_fp_word u32 a", &word, 4, UE_FP_BIT, 0,
			&iw))
		return 23;
	if (ue_reg(fds[0], "ue_fp_stat u32 a", &sr))
		return 24;
	is = sr.write_index;
	if (ue_fp_say(sock, 'R') || ue_fp_hear(sock, 'E'))
		return 25;

	/* the collector enabled both: the bits say so, the writes land */
	if (!ue_wait_word(&word, 1U << UE_FP_BIT))
		return 26;
	if (!ue_fp_wait_bit(page, sr.status_bit, 1))
		return 27;
	v = 4660;
	if (ue_emit(fds[0], iw, &v, sizeof(v)) != 8)
		return 28;
	v = 22136;
	if (ue_emit(fds[0], is, &v, sizeof(v)) != 8)
		return 29;

	/* what it may not do */
	if (ue_reg_word(fds[0], "ue_fp_nobody u32 a", &other, 4, 0,
			USER_EVENT_REG_PERSIST, NULL) != -EPERM)
		return 30;
	if (ioctl(fds[0], DIAG_IOCSDEL, "ue_fp_keep") != -1 || errno != EPERM)
		return 31;
	if (ioctl(fds[0], DIAG_IOCSDEL, "ue_fp_busy") != -1 || errno != EBUSY)
		return 32;
	if (ue_fp_say(sock, 'W') || ue_fp_hear(sock, 'D'))
		return 33;

	/* disabled again: both bits clear */
	if (!ue_wait_word(&word, 0))
		return 34;
	if (!ue_fp_wait_bit(page, sr.status_bit, 0))
		return 35;
	if (ue_unreg_word(fds[0], &word, UE_FP_BIT))
		return 36;
	return 0;
}

static void ue_fp_enable(const char *event, const char *on)
{
	char path[256];

	snprintf(path, sizeof(path), UE_FP_EVENTS "%s/enable", event);
	ue_write_file(path, on, 0);
}

static void ue_fp_clean(void)
{
	ue_write_file(UE_FP_EVENTS "enable", "0", 0);
	rmdir(UE_FP_GROUP);
	ue_clear_trace();
}

TEST(fd_passed_to_program_without_tracefs)
{
	static uint32_t busy;
	struct stat st;
	int sv[2], fds[2], status, data, in_group = 0, in_root = 1;
	int n_word = 0, n_stat = 0;
	char *word = NULL, *stat_line = NULL;
	pid_t pid;

	ue_fp_clean();
	ASSERT_EQ(0, mkdir(UE_FP_GROUP, 0750));
	/*
	 * A persistent event nothing uses (registered through a file
	 * closed since), and one this process keeps registered.
	 */
	data = open(UE_FP_GROUP "/user_events_data", O_RDWR);
	ASSERT_LE(0, data);
	ASSERT_EQ(0, ue_reg_word(data, "ue_fp_keep u32 a", &busy, 4, 0,
				 USER_EVENT_REG_PERSIST, NULL));
	ASSERT_EQ(0, ue_unreg_word(data, &busy, 0));
	close(data);
	data = open(UE_FP_GROUP "/user_events_data", O_RDWR);
	ASSERT_LE(0, data);
	ASSERT_EQ(0, ue_reg_word(data, "ue_fp_busy u32 a", &busy, 4, 0, 0,
				 NULL));

	fds[0] = open(UE_FP_GROUP "/user_events_data", O_RDWR);
	fds[1] = open(UE_FP_GROUP "/user_events_status", O_RDONLY);
	ASSERT_LE(0, fds[0]);
	ASSERT_LE(0, fds[1]);
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(sv[0]);
		alarm(20);
		_exit(ue_fp_program(sv[1]));
	}
	close(sv[1]);
	ASSERT_EQ(0, ue_fp_send_fds(sv[0], fds, 2));
	close(fds[0]);
	close(fds[1]);

	if (!ue_fp_hear(sv[0], 'R')) {
		in_group = !stat(UE_FP_EVENTS "ue_fp_word", &st) &&
			   !stat(UE_FP_EVENTS "ue_fp_stat", &st);
		in_root = ue_exists("ue_fp_word") || ue_exists("ue_fp_stat");
		ue_fp_enable("ue_fp_word", "1");
		ue_fp_enable("ue_fp_stat", "1");
		if (!ue_fp_say(sv[0], 'E') && !ue_fp_hear(sv[0], 'W')) {
			/* read while the events are there to format them */
			word = ue_trace_line("ue_fp_word", 0, &n_word);
			stat_line = ue_trace_line("ue_fp_stat", 0, &n_stat);
			ue_fp_enable("ue_fp_word", "0");
			ue_fp_enable("ue_fp_stat", "0");
			ue_fp_say(sv[0], 'D');
		}
	}
	close(sv[0]);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));

	/* its records, each once */
	EXPECT_STREQ("a=4660", word ? word : "");
	EXPECT_STREQ("a=22136", stat_line ? stat_line : "");
	EXPECT_EQ(1, n_word);
	EXPECT_EQ(1, n_stat);
	free(word);
	free(stat_line);

	/* its events were the group's only; what it was refused is undone */
	EXPECT_EQ(1, in_group);
	EXPECT_EQ(0, in_root);
	EXPECT_NE(0, stat(UE_FP_EVENTS "ue_fp_nobody", &st));
	EXPECT_EQ(0, stat(UE_FP_EVENTS "ue_fp_keep", &st));
	EXPECT_EQ(0, stat(UE_FP_EVENTS "ue_fp_busy", &st));

	EXPECT_EQ(0, ue_unreg_word(data, &busy, 0));
	close(data);
	ue_fp_clean();
	EXPECT_NE(0, stat(UE_FP_GROUP, &st));
}

TEST_HARNESS_MAIN
