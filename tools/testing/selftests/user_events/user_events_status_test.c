// SPDX-License-Identifier: GPL-2.0
/*
 * user_events_status: the text of read(), the rules of mmap(), and running
 * out of status bits.
 */
#include "../kselftest_harness.h"
#include "ue_util.h"

#include <signal.h>
#include <sys/wait.h>

#define UE_MAX_SYSCTL "/proc/sys/kernel/user_events_max"

/* Count lines of text that start with a digit (event lines) */
static int ue_status_events(const char *text, int *busy)
{
	const char *p = text;
	int n = 0;

	*busy = 0;
	while (*p) {
		const char *nl = strchrnul(p, '\n');

		if (*p >= '0' && *p <= '9') {
			n++;
			if (memmem(p, nl - p, " # Used by", 10))
				(*busy)++;
		}
		p = *nl ? nl + 1 : nl;
	}
	return n;
}

TEST(status_text)
{
	struct user_status_reg r1, r2;
	char *text, expect[256], tail[128];
	int fd = ue_open(), n, busy;

	ASSERT_GE(fd, 0);
	ue_enable("ue_st_a", 0);
	ue_del("ue_st_a");
	ue_del("ue_st_b");
	ASSERT_EQ(0, ue_reg(fd, "ue_st_a u32 x", &r1));
	ASSERT_EQ(0, ue_reg(fd, "ue_st_b", &r2));
	ASSERT_EQ(0, ue_enable("ue_st_a", 1));

	text = ue_read_file(UE_STATUS);
	ASSERT_NE(NULL, text);
	snprintf(expect, sizeof(expect), "%u:ue_st_a # Used by ftrace\n%u:ue_st_b\n",
		 r1.status_bit, r2.status_bit);
	EXPECT_NE(NULL, strstr(text, expect)) {
		TH_LOG("status text:\n%s", text);
	}
	n = ue_status_events(text, &busy);
	snprintf(tail, sizeof(tail), "\nActive: %d\nBusy: %d\nMax: %ld\n", n,
		 busy, sysconf(_SC_PAGESIZE) * 8);
	EXPECT_GE(n, 2);
	EXPECT_GE(busy, 1);
	ASSERT_GE(strlen(text), strlen(tail));
	EXPECT_STREQ(tail, text + strlen(text) - strlen(tail));
	free(text);

	ASSERT_EQ(0, ue_enable("ue_st_a", 0));
	text = ue_read_file(UE_STATUS);
	snprintf(expect, sizeof(expect), "%u:ue_st_a\n%u:ue_st_b\n",
		 r1.status_bit, r2.status_bit);
	EXPECT_NE(NULL, strstr(text, expect));
	free(text);
	close(fd);
	EXPECT_EQ(0, ue_del("ue_st_a"));
	EXPECT_EQ(0, ue_del("ue_st_b"));
	text = ue_read_file(UE_STATUS);
	EXPECT_EQ(NULL, strstr(text, ":ue_st_"));
	free(text);
}

TEST(status_text_empty)
{
	char *text = ue_read_file(UE_STATUS);
	int busy;

	ASSERT_NE(NULL, text);
	if (ue_status_events(text, &busy))
		SKIP(free(text); return, "other events are registered");
	EXPECT_STREQ("\nActive: 0\nBusy: 0\nMax: 32768\n", text);
	free(text);
}

TEST(mmap_rules)
{
	long psz = sysconf(_SC_PAGESIZE);
	int fd = open(UE_STATUS, O_RDONLY), rw = open(UE_STATUS, O_RDWR);
	void *p;

	ASSERT_GE(fd, 0);
	p = mmap(NULL, psz, PROT_READ, MAP_SHARED, fd, 0);
	ASSERT_NE(MAP_FAILED, p);
	/* Cannot become writable later */
	EXPECT_EQ(-1, mprotect(p, psz, PROT_READ | PROT_WRITE));
	EXPECT_EQ(EACCES, errno);
	EXPECT_EQ(0, ue_bit_set(p, 0));
	munmap(p, psz);

	/* Writable mappings refused, even through a read-write fd */
	if (rw >= 0) {
		EXPECT_EQ(MAP_FAILED, mmap(NULL, psz, PROT_READ | PROT_WRITE,
					   MAP_SHARED, rw, 0));
		EXPECT_EQ(EPERM, errno);
		p = mmap(NULL, psz, PROT_READ, MAP_SHARED, rw, 0);
		ASSERT_NE(MAP_FAILED, p);
		EXPECT_EQ(-1, mprotect(p, psz, PROT_READ | PROT_WRITE));
		munmap(p, psz);
		close(rw);
	}
	EXPECT_EQ(MAP_FAILED, mmap(NULL, psz, PROT_READ | PROT_WRITE,
				   MAP_SHARED, fd, 0));
	EXPECT_EQ(EACCES, errno);
	/* Private copies, more than the page, other offsets: refused */
	EXPECT_EQ(MAP_FAILED, mmap(NULL, psz, PROT_READ, MAP_PRIVATE, fd, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, psz * 2, PROT_READ, MAP_SHARED, fd, 0));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(MAP_FAILED, mmap(NULL, psz, PROT_READ, MAP_SHARED, fd, psz));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/*
 * A remote-write registration takes no bit (the event shows bit 0); the
 * first status-page registration of the event gives it one, already set
 * when the event is consumed, and the event keeps it.
 */
/* Is line (with its '\n') a whole line of user_events_status? */
static int ue_status_has(const char *line)
{
	char *text = ue_read_file(UE_STATUS), *p;
	size_t n = strlen(line);
	int found = 0;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, line, n))
			found = 1;
	if (!found)
		fprintf(stderr, "no line %s in:\n%s", line, text);
	free(text);
	return found;
}

TEST(bit_at_first_status_page_registration)
{
	const uint8_t *page = ue_map_status();
	static uint32_t word;
	struct user_status_reg r, r2;
	int fd = ue_open();
	char line[64];

	ASSERT_NE(NULL, page);
	ASSERT_GE(fd, 0);
	ue_enable("ue_st_lazy", 0);
	ue_del("ue_st_lazy");
	ASSERT_EQ(0, ue_reg_word(fd, "ue_st_lazy u32 x", &word, 4, 0, 0, NULL));
	EXPECT_EQ(1, ue_status_has("0:ue_st_lazy\n"));

	ASSERT_EQ(0, ue_enable("ue_st_lazy", 1));
	EXPECT_EQ(1, ue_wait_word(&word, 1));
	ASSERT_EQ(0, ue_reg(fd, "ue_st_lazy u32 x", &r));
	EXPECT_NE(0, r.status_bit);
	EXPECT_EQ(1, ue_bit_set(page, r.status_bit));
	snprintf(line, sizeof(line), "%u:ue_st_lazy # Used by ftrace\n",
		 r.status_bit);
	EXPECT_EQ(1, ue_status_has(line));
	/* Kept: a second registration gets the same bit */
	ASSERT_EQ(0, ue_reg(fd, "ue_st_lazy u32 x", &r2));
	EXPECT_EQ(r.status_bit, r2.status_bit);

	ASSERT_EQ(0, ue_enable("ue_st_lazy", 0));
	EXPECT_EQ(1, ue_wait_word(&word, 0));
	EXPECT_EQ(0, ue_bit_set(page, r.status_bit));
	ASSERT_EQ(0, ue_unreg_word(fd, &word, 0));
	close(fd);
	/* The status-page registration keeps the event until deleted */
	EXPECT_EQ(0, ue_del("ue_st_lazy"));
	munmap((void *)page, sysconf(_SC_PAGESIZE));
}

/*
 * A forked child keeps the parent's view of the status page (as on Linux
 * 6.1): it reads its event's bit without a fault and sees it follow the
 * consumers.  The child answers within a time limit.
 */
TEST(status_page_kept_across_fork)
{
	const uint8_t *page = ue_map_status();
	int fd = ue_open(), status = 0;
	struct user_status_reg r;
	pid_t pid;

	ASSERT_NE(NULL, page);
	ASSERT_GE(fd, 0);
	ue_enable("ue_st_fork", 0);
	ue_del("ue_st_fork");
	ASSERT_EQ(0, ue_reg(fd, "ue_st_fork u32 x", &r));
	ASSERT_EQ(0, ue_enable("ue_st_fork", 1));
	ASSERT_EQ(1, ue_bit_set(page, r.status_bit));

	pid = fork();
	ASSERT_GE(pid, 0);
	if (pid == 0) {
		alarm(10);
		if (!ue_bit_set(page, r.status_bit))
			_exit(2);
		/* The page is shared: the child sees the bit drop */
		if (ue_enable("ue_st_fork", 0))
			_exit(3);
		_exit(ue_bit_set(page, r.status_bit) ? 4 : 0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_TRUE(WIFEXITED(status)) {
		TH_LOG("child killed by signal %d", WTERMSIG(status));
	}
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(0, ue_bit_set(page, r.status_bit));
	ue_enable("ue_st_fork", 0);
	close(fd);
	EXPECT_EQ(0, ue_del("ue_st_fork"));
	munmap((void *)page, sysconf(_SC_PAGESIZE));
}

TEST(user_events_max)
{
	char *old = ue_read_file(UE_MAX_SYSCTL), *text, val[32], name[32];
	struct user_status_reg r;
	int fd = ue_open(), active, busy, i, ret;

	ASSERT_NE(NULL, old);
	ASSERT_GE(fd, 0);
	text = ue_read_file(UE_STATUS);
	active = ue_status_events(text, &busy);
	free(text);

	snprintf(val, sizeof(val), "%d", active + 3);
	ASSERT_EQ(0, ue_write_file(UE_MAX_SYSCTL, val, 0));
	for (i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "ue_full%d u32 x", i);
		ret = ue_reg(fd, name, &r);
		EXPECT_EQ(i < 3 ? 0 : -EMFILE, ret);
	}
	EXPECT_EQ(-1, access(UE_TRACEFS "/events/user_events/ue_full3", F_OK));
	/* Reusing an existing event needs no new bit */
	EXPECT_EQ(0, ue_reg(fd, "ue_full0 u32 x", &r));
	/* Any value is taken, as by the base: 0 refuses every new event */
	ASSERT_EQ(0, ue_write_file(UE_MAX_SYSCTL, "0", 0));
	EXPECT_EQ(-EMFILE, ue_reg(fd, "ue_full4 u32 x", &r));
	EXPECT_EQ(0, ue_reg(fd, "ue_full1 u32 x", &r));
	EXPECT_EQ(0, ue_write_file(UE_MAX_SYSCTL, "65536", 0));
	ASSERT_EQ(0, ue_write_file(UE_MAX_SYSCTL, old, 0));
	close(fd);
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "ue_full%d", i);
		EXPECT_EQ(0, ue_del(name));
	}
	/* With room again, the next event gets a bit */
	fd = ue_open();
	EXPECT_EQ(0, ue_reg(fd, "ue_full3 u32 x", &r));
	EXPECT_NE(0, r.status_bit);
	close(fd);
	EXPECT_EQ(0, ue_del("ue_full3"));
	free(old);
}

/*
 * Events registered through the remote-write layout take no status bit:
 * more of them than the page has bits (32,767) all register, and a
 * status-page registration still finds a bit beside them.  The events are
 * made by children (a word list and an fd table each, kept short) that
 * hold them until told to exit; they are transient, so they go then.  The
 * children exit newest first: the trace core finds an event to remove by
 * walking from the newest, so the teardown stays linear.
 */
#define UE_MANY		33000	/* events, more than the page's bits */
#define UE_MANY_PER	1000	/* events per child */
#define UE_MANY_KIDS	((UE_MANY + UE_MANY_PER - 1) / UE_MANY_PER)

/* The "Active: N" line of user_events_status */
static int ue_status_active(void)
{
	char *text = ue_read_file(UE_STATUS), *p;
	int n = -1;

	p = text ? strstr(text, "\nActive: ") : NULL;
	if (p)
		n = atoi(p + strlen("\nActive: "));
	free(text);
	return n;
}

/* Register events [first, first + nr), report 0 or -errno on ready */
static int ue_many_child(int first, int nr, int ready, int go)
{
	static uint32_t words[(UE_MANY_PER + 31) / 32];
	int fd = ue_open(), i, ret = fd < 0 ? -errno : 0;
	char cmd[64];

	for (i = 0; !ret && i < nr; i++) {
		snprintf(cmd, sizeof(cmd), "ue_many%d u32 v", first + i);
		ret = ue_reg_word(fd, cmd, &words[i / 32], 4, i % 32, 0, NULL);
		if (ret)
			fprintf(stderr, "event %d: %d\n", first + i, ret);
	}
	if (write(ready, &ret, sizeof(ret)) != sizeof(ret))
		return 1;
	/* Hold the events until the parent closes go */
	while (read(go, &i, sizeof(i)) > 0)
		;
	return 0;
}

FIXTURE(many) {
	char *old_max;	/* kernel.user_events_max to restore */
};

FIXTURE_SETUP(many)
{
	self->old_max = ue_read_file(UE_MAX_SYSCTL);
	ASSERT_NE(NULL, self->old_max);
	/* The default (32768) counts every event: room for ours */
	ASSERT_EQ(0, ue_write_file(UE_MAX_SYSCTL, "65536", 0));
}

FIXTURE_TEARDOWN(many)
{
	ue_write_file(UE_MAX_SYSCTL, self->old_max, 0);
	free(self->old_max);
}

TEST_F_TIMEOUT(many, remote_write_events_take_no_status_bit, 600)
{
	int ready[2], go[UE_MANY_KIDS][2], i, ret, before, status, failed = 0;
	pid_t kids[UE_MANY_KIDS];
	struct user_status_reg r;
	int fd;

	before = ue_status_active();
	ASSERT_GE(before, 0);
	ASSERT_EQ(0, pipe(ready));
	for (i = 0; i < UE_MANY_KIDS; i++) {
		ASSERT_EQ(0, pipe(go[i]));
		kids[i] = fork();
		ASSERT_GE(kids[i], 0);
		if (kids[i] == 0) {
			close(ready[0]);
			close(go[i][1]);
			_exit(ue_many_child(i * UE_MANY_PER,
					    i + 1 < UE_MANY_KIDS ? UE_MANY_PER :
					    UE_MANY - i * UE_MANY_PER,
					    ready[1], go[i][0]));
		}
		close(go[i][0]);
		/* One child at a time: each registers while no other does */
		ASSERT_EQ(sizeof(ret), read(ready[0], &ret, sizeof(ret)));
		failed += ret != 0;
	}
	close(ready[1]);
	EXPECT_EQ(0, failed);
	EXPECT_EQ(before + UE_MANY, ue_status_active());

	/* A status-page registration still gets a bit */
	fd = ue_open();
	ASSERT_GE(fd, 0);
	ue_del("ue_many_status");
	EXPECT_EQ(0, ue_reg(fd, "ue_many_status u32 v", &r));
	EXPECT_NE(0, r.status_bit);
	close(fd);
	EXPECT_EQ(0, ue_del("ue_many_status"));

	for (i = UE_MANY_KIDS - 1; i >= 0; i--) {
		close(go[i][1]);
		ASSERT_EQ(kids[i], waitpid(kids[i], &status, 0));
		EXPECT_EQ(0, status);
	}
	close(ready[0]);
	/* Transient: gone with the children */
	EXPECT_EQ(before, ue_status_active());
}

TEST_HARNESS_MAIN
