// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: who may end an event, and when it ends.  Events made
 * through dynamic_events persist and only a privileged caller deletes
 * them, even through a file root opened; a transient event (remote write,
 * no PERSIST) outlives its last registration while it is consumed and
 * goes once its consumers do; files of an event opened before its delete
 * answer ENODEV afterwards.  Every child runs under alarm().
 */
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "ue_util.h"

#define UE_EV_DIR UE_TRACEFS "/events/user_events/"

/* Is there a "u:<name> ..." line (or "u:<name>" alone) in dynamic_events? */
static int ue_dyn_listed(const char *name, char *line, size_t len)
{
	char *text = ue_read_file(UE_DYN), *p, key[300];
	size_t n;
	int found = 0;

	if (!text)
		return -1;
	n = snprintf(key, sizeof(key), "u:%s", name);
	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, key, n) || (p[n] != ' ' && p[n] != '\n'))
			continue;
		found = 1;
		if (line)
			snprintf(line, len, "%.*s", (int)strcspn(p, "\n"), p);
		break;
	}
	free(text);
	return found;
}

/* Wait up to 5 s for the event's folder and listing to go */
static int ue_wait_gone(const char *name)
{
	int i;

	for (i = 0; i < 500; i++) {
		if (!ue_exists(name) && ue_dyn_listed(name, NULL, 0) == 0)
			return 1;
		usleep(10000);
	}
	return 0;
}

/* Run fn in a child with the given time limit; its exit status or -signal */
static int ue_in_child(int (*fn)(void *), void *arg, int seconds)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1000;
	if (pid == 0) {
		alarm(seconds);
		_exit(fn(arg));
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1001;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

/* Files root opened before dropping to nobody */
struct ue_root_fds {
	int data;	/* user_events_data */
	int dyn;	/* dynamic_events, O_APPEND */
};

static int ue_write_fd(int fd, const char *s)
{
	return write(fd, s, strlen(s)) < 0 ? -errno : 0;
}

/* As nobody, through root's fds: each step must be refused with EPERM */
static int ue_nobody_tries(void *arg)
{
	struct ue_root_fds *fds = arg;
	struct user_status_reg r;

	if (setuid(65534) || geteuid() != 65534)
		return 10;
	/* Delete through user_events_data, then through dynamic_events */
	if (ioctl(fds->data, DIAG_IOCSDEL, "ue_lt_keep") != -1 ||
	    errno != EPERM)
		return 11;
	if (ue_write_fd(fds->dyn, "!u:ue_lt_keep") != -EPERM)
		return 12;
	/* The name stays taken by the persistent event's fields */
	if (ue_reg(fds->data, "ue_lt_keep u64 other", &r) != -EADDRINUSE)
		return 13;
	/* Persistent events are made by privileged callers only */
	if (ue_write_fd(fds->dyn, "u:ue_lt_nobody u32 a") != -EPERM)
		return 14;
	/* Registering the same fields is fine, and pins the event */
	if (ue_reg(fds->data, "ue_lt_keep u32 a; char[4] b", &r))
		return 15;
	return 0;
}

TEST(dynamic_event_persists_for_unprivileged)
{
	struct ue_root_fds fds;
	char line[256], *text;

	ue_enable("ue_lt_keep", 0);
	ue_del("ue_lt_keep");
	ue_del("ue_lt_nobody");
	ASSERT_EQ(0, ue_write_file(UE_DYN, "u:ue_lt_keep u32 a; char[4] b", 1));
	fds.data = ue_open();
	ASSERT_GE(fds.data, 0);
	fds.dyn = open(UE_DYN, O_WRONLY | O_APPEND);
	ASSERT_GE(fds.dyn, 0);

	EXPECT_EQ(0, ue_in_child(ue_nobody_tries, &fds, 10));

	/* Still there, with its own fields */
	ASSERT_EQ(1, ue_dyn_listed("ue_lt_keep", line, sizeof(line)));
	EXPECT_STREQ("u:ue_lt_keep u32 a; char[4] b", line);
	text = ue_read_file(UE_EV_DIR "ue_lt_keep/format");
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\tfield:u32 a;\toffset:8;\tsize:4;"));
	EXPECT_NE(NULL, strstr(text, "\tfield:char b[];\toffset:12;\tsize:4;"));
	free(text);
	EXPECT_EQ(0, ue_dyn_listed("ue_lt_nobody", NULL, 0));

	/* Root deletes it once nothing pins it (the base does the same) */
	EXPECT_EQ(-EBUSY, ioctl(fds.data, DIAG_IOCSDEL, "ue_lt_keep") ? -errno : 0);
	close(fds.data);
	fds.data = ue_open();
	ASSERT_GE(fds.data, 0);
	EXPECT_EQ(0, ioctl(fds.data, DIAG_IOCSDEL, "ue_lt_keep") ? -errno : 0);
	EXPECT_EQ(0, ue_exists("ue_lt_keep"));
	EXPECT_EQ(0, ue_dyn_listed("ue_lt_keep", NULL, 0));
	/* And through dynamic_events too */
	ASSERT_EQ(0, ue_write_file(UE_DYN, "u:ue_lt_keep u32 a", 1));
	EXPECT_EQ(0, ue_write_fd(fds.dyn, "!u:ue_lt_keep"));
	EXPECT_EQ(0, ue_exists("ue_lt_keep"));
	close(fds.dyn);
	close(fds.data);
}

/*
 * A transient event whose last registration goes while ftrace consumes
 * it stays until the consumer goes, then goes too.
 */
TEST(transient_event_goes_after_ftrace)
{
	static uint32_t word;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ue_enable("ue_lt_orphan", 0);
	ue_del("ue_lt_orphan");
	ASSERT_EQ(0, ue_reg_word(fd, "ue_lt_orphan u32 v", &word, 4, 0, 0,
				 NULL));
	ASSERT_EQ(0, ue_enable("ue_lt_orphan", 1));
	EXPECT_EQ(1, ue_wait_word(&word, 1));
	ASSERT_EQ(0, ue_unreg_word(fd, &word, 0));
	close(fd);
	/* Consumed: it stays */
	EXPECT_EQ(1, ue_exists("ue_lt_orphan"));
	EXPECT_EQ(1, ue_dyn_listed("ue_lt_orphan", NULL, 0));
	ASSERT_EQ(0, ue_enable("ue_lt_orphan", 0));
	EXPECT_EQ(1, ue_wait_gone("ue_lt_orphan"));
	EXPECT_EQ(-ENOENT, ue_del("ue_lt_orphan"));
}

TEST(transient_event_goes_after_perf)
{
	static uint32_t word;
	int fd = ue_open(), pfd;

	ASSERT_GE(fd, 0);
	ue_del("ue_lt_orphan2");
	ASSERT_EQ(0, ue_reg_word(fd, "ue_lt_orphan2 u32 v", &word, 4, 2, 0,
				 NULL));
	pfd = ue_perf_open(ue_event_id("ue_lt_orphan2"));
	ASSERT_GE(pfd, 0);
	EXPECT_EQ(4, word);
	close(fd);	/* the fd's slot goes, the word still pins the event */
	EXPECT_EQ(1, ue_exists("ue_lt_orphan2"));
	fd = ue_open();
	ASSERT_EQ(0, ue_unreg_word(fd, &word, 2));
	close(fd);
	EXPECT_EQ(1, ue_exists("ue_lt_orphan2"));
	close(pfd);
	EXPECT_EQ(1, ue_wait_gone("ue_lt_orphan2"));
}

/* A registration in between makes it live on as usual */
TEST(transient_event_taken_again_while_orphaned)
{
	static uint32_t word;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ue_enable("ue_lt_again", 0);
	ue_del("ue_lt_again");
	ASSERT_EQ(0, ue_reg_word(fd, "ue_lt_again u32 v", &word, 4, 0, 0,
				 NULL));
	ASSERT_EQ(0, ue_enable("ue_lt_again", 1));
	ASSERT_EQ(0, ue_unreg_word(fd, &word, 0));
	ASSERT_EQ(0, ue_reg_word(fd, "ue_lt_again u32 v", &word, 4, 1, 0,
				 NULL));
	ASSERT_EQ(0, ue_enable("ue_lt_again", 0));
	usleep(300000);
	EXPECT_EQ(1, ue_exists("ue_lt_again"));
	ASSERT_EQ(0, ue_unreg_word(fd, &word, 1));
	close(fd);
	EXPECT_EQ(1, ue_wait_gone("ue_lt_again"));
}

/*
 * Files of an event opened before its delete: the delete is not held up
 * by them (as on the base), only by what they set up (a histogram, an
 * enable: EBUSY), and each answers ENODEV afterwards.
 */
TEST(files_opened_before_delete)
{
	static const char * const names[] = {
		"format", "hist", "trigger", "filter", "enable",
	};
	int fds[5], i;
	char path[256], buf[256];

	ue_del("ue_lt_gone");
	ASSERT_EQ(0, ue_write_file(UE_DYN, "u:ue_lt_gone u32 a; char[8] s", 1));
	for (i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), UE_EV_DIR "ue_lt_gone/%s",
			 names[i]);
		fds[i] = open(path, i == 0 || i == 1 ? O_RDONLY : O_RDWR);
		ASSERT_GE(fds[i], 0) {
			TH_LOG("open %s: %s", path, strerror(errno));
		}
	}
	/* In use through the open files: refused */
	ASSERT_EQ(0, ue_write_fd(fds[2], "hist:keys=a"));
	EXPECT_EQ(-EBUSY, ue_write_file(UE_DYN, "!u:ue_lt_gone", 1));
	ASSERT_EQ(0, ue_write_fd(fds[2], "!hist:keys=a"));
	ASSERT_EQ(0, ue_write_fd(fds[4], "1"));
	EXPECT_EQ(-EBUSY, ue_write_file(UE_DYN, "!u:ue_lt_gone", 1));
	ASSERT_EQ(0, ue_write_fd(fds[4], "0"));

	ASSERT_EQ(0, ue_write_file(UE_DYN, "!u:ue_lt_gone", 1));
	EXPECT_EQ(0, ue_exists("ue_lt_gone"));
	for (i = 0; i < 5; i++) {
		errno = 0;
		EXPECT_EQ(-1, read(fds[i], buf, sizeof(buf))) {
			TH_LOG("read of %s after delete", names[i]);
		}
		EXPECT_EQ(ENODEV, errno) {
			TH_LOG("read of %s after delete: %s", names[i],
			       strerror(errno));
		}
	}
	/* Writes too */
	EXPECT_EQ(-ENODEV, ue_write_fd(fds[2], "traceoff"));
	EXPECT_EQ(-ENODEV, ue_write_fd(fds[3], "a == 1"));
	EXPECT_EQ(-ENODEV, ue_write_fd(fds[4], "1"));
	for (i = 0; i < 5; i++)
		close(fds[i]);
	/* The name is free again */
	ASSERT_EQ(0, ue_write_file(UE_DYN, "u:ue_lt_gone u64 b", 1));
	EXPECT_EQ(0, ue_write_file(UE_DYN, "!u:ue_lt_gone", 1));
}

/* Lines of the trace file that contain what */
static int trace_lines_with(const char *what)
{
	char *text = ue_read_file(UE_TRACEFS "/trace"), *p;
	int n = 0;

	for (p = text; p && (p = strstr(p, what)); p++)
		n++;
	free(text);
	return n;
}

/* Write st_del's record: off and len say where a string would be */
static ssize_t ue_write_offlen(int fd, uint32_t idx, uint32_t off,
			       uint32_t len)
{
	uint32_t rec[2] = { off, len };

	return ue_emit(fd, idx, rec, sizeof(rec));
}

/*
 * A deleted event's records stay its own.  Its type goes to no new event,
 * user or synthetic, while a buffer holds records of it: they print as
 * they did, and the events created after it print none of them (their
 * layouts would read the records' numbers as offsets).  Once the records
 * are gone, the next event deleted lets its type go.
 */
TEST(deleted_event_records_stay_its_own)
{
	struct user_status_reg r;
	int fd, old_id, id_b, id_c;

	ue_enable("st_del", 0);
	ue_del("st_del");
	ue_del("st_del_b");
	ue_write_file(UE_TRACEFS "/synthetic_events", "!st_del_c", 1);
	ue_clear_trace();
	/* A delete frees the types of earlier tests' events, now unused */
	ASSERT_EQ(0, ue_write_file(UE_DYN, "u:st_del_flush", 1));
	ASSERT_EQ(0, ue_write_file(UE_DYN, "!u:st_del_flush", 1));
	fd = ue_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ue_reg(fd, "st_del u32 off; u32 len", &r));
	old_id = ue_event_id("st_del");
	ASSERT_LT(0, old_id);
	ASSERT_EQ(0, ue_enable("st_del", 1));
	EXPECT_EQ(12, ue_write_offlen(fd, r.write_index, 0x200000, 64));
	EXPECT_EQ(12, ue_write_offlen(fd, r.write_index, 16, 4));
	EXPECT_EQ(12, ue_write_offlen(fd, r.write_index, 8, 0xffff));
	ASSERT_EQ(0, ue_enable("st_del", 0));
	close(fd);
	ASSERT_EQ(0, ue_del("st_del"));
	EXPECT_EQ(0, ue_exists("st_del"));

	/* New events get other types, and show no records */
	fd = ue_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ue_reg(fd, "st_del_b u64 x", &r));
	id_b = ue_event_id("st_del_b");
	EXPECT_NE(old_id, id_b);
	ASSERT_EQ(0, ue_write_file(UE_TRACEFS "/synthetic_events",
				   "st_del_c char s[]", 1));
	id_c = ue_dir_id(UE_TRACEFS "/events/synthetic/st_del_c");
	EXPECT_NE(old_id, id_c);
	EXPECT_EQ(0, trace_lines_with(" st_del_b: "));
	EXPECT_EQ(0, trace_lines_with(" st_del_c: "));
	/* The records print as st_del's, as before the delete */
	EXPECT_EQ(1, trace_lines_with(" st_del: off=2097152 len=64"));
	EXPECT_EQ(1, trace_lines_with(" st_del: off=16 len=4"));
	EXPECT_EQ(1, trace_lines_with(" st_del: off=8 len=65535"));
	close(fd);

	/* Records gone: the next delete frees the type for a new event */
	ue_clear_trace();
	ASSERT_EQ(0, ue_del("st_del_b"));
	fd = ue_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ue_reg(fd, "st_del u32 off; u32 len", &r));
	EXPECT_EQ(old_id, ue_event_id("st_del"));
	EXPECT_EQ(0, trace_lines_with(" st_del: "));
	close(fd);
	EXPECT_EQ(0, ue_del("st_del"));
	EXPECT_EQ(0, ue_write_file(UE_TRACEFS "/synthetic_events",
				   "!st_del_c", 1));
}

/*
 * A delete through user_events_data or synthetic_events clears no
 * buffer, then or at a later delete of another event; a delete through
 * dynamic_events clears the instances the event was enabled in, as for
 * every dynamic event, and no other.
 */
#define KEEP_I UE_TRACEFS "/instances/st_keep_i"
#define KEEP_I_ENABLE KEEP_I "/events/user_events/st_keep2/enable"

TEST(delete_clears_no_buffer_later)
{
	struct user_status_reg r;
	char *text;
	uint32_t val;
	int fd;

	ue_enable("st_keep", 0);
	ue_del("st_keep");
	ue_write_file(UE_TRACEFS "/synthetic_events", "!st_keep_s", 1);
	ue_write_file(UE_DYN, "!u:st_keep2", 1);
	rmdir(KEEP_I);
	ue_clear_trace();

	fd = ue_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ue_reg(fd, "st_keep u32 v", &r));
	ASSERT_EQ(0, ue_enable("st_keep", 1));
	val = 7;
	EXPECT_EQ(8, ue_emit(fd, r.write_index, &val, sizeof(val)));
	ASSERT_EQ(0, ue_enable("st_keep", 0));
	close(fd);
	ASSERT_EQ(0, ue_del("st_keep"));
	EXPECT_EQ(1, trace_lines_with(" st_keep: v=7"));

	/* a synthetic event enabled at the top, deleted by its own file */
	ASSERT_EQ(0, ue_write_file(UE_TRACEFS "/synthetic_events",
				   "st_keep_s u32 v", 1));
	ASSERT_EQ(0, ue_write_file(UE_TRACEFS
				   "/events/synthetic/st_keep_s/enable", "1", 0));
	ASSERT_EQ(0, ue_write_file(UE_TRACEFS
				   "/events/synthetic/st_keep_s/enable", "0", 0));
	ASSERT_EQ(0, ue_write_file(UE_TRACEFS "/synthetic_events",
				   "!st_keep_s", 1));

	/* an unrelated delete through dynamic_events afterwards */
	ASSERT_EQ(0, ue_write_file(UE_DYN, "u:st_keep_flush u32 x", 1));
	ASSERT_EQ(0, ue_write_file(UE_DYN, "!u:st_keep_flush", 1));
	EXPECT_EQ(1, trace_lines_with(" st_keep: v=7"));

	/* one enabled in an instance, deleted through dynamic_events */
	ASSERT_EQ(0, mkdir(KEEP_I, 0755));
	ASSERT_EQ(0, ue_write_file(UE_DYN, "u:st_keep2 u32 w", 1));
	fd = ue_open();
	ASSERT_GE(fd, 0);
	ASSERT_EQ(0, ue_reg(fd, "st_keep2 u32 w", &r));
	ASSERT_EQ(0, ue_write_file(KEEP_I_ENABLE, "1", 0));
	val = 9;
	EXPECT_EQ(8, ue_emit(fd, r.write_index, &val, sizeof(val)));
	ASSERT_EQ(0, ue_write_file(KEEP_I_ENABLE, "0", 0));
	close(fd);
	text = ue_read_file(KEEP_I "/trace");
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, " st_keep2: w=9"));
	free(text);
	ASSERT_EQ(0, ue_write_file(UE_DYN, "!u:st_keep2", 1));
	text = ue_read_file(KEEP_I "/trace");
	ASSERT_NE(NULL, text);
	EXPECT_EQ(NULL, strstr(text, " st_keep2: "));
	free(text);
	EXPECT_EQ(1, trace_lines_with(" st_keep: v=7"));
	EXPECT_EQ(0, rmdir(KEEP_I));
	ue_clear_trace();
}

/*
 * More deleted events than the kernel keeps types for (64) while their
 * records remain: past that, the oldest one's instances are cleared.
 * Whatever is left, every record still prints as the event that wrote
 * it: st_capN's value is N.
 */
TEST(deleted_events_past_the_limit)
{
	struct user_status_reg r;
	char name[32], cmd[64], want[64], *text, *line, *save;
	int fd, i, lines = 0, n, v, got;
	uint32_t val;

	ue_clear_trace();
	for (i = 0; i < 70; i++) {
		snprintf(name, sizeof(name), "st_cap%d", i);
		snprintf(cmd, sizeof(cmd), "%s u32 v", name);
		ue_del(name);
		fd = ue_open();
		ASSERT_GE(fd, 0);
		ASSERT_EQ(0, ue_reg(fd, cmd, &r));
		ASSERT_EQ(0, ue_enable(name, 1));
		val = i;
		EXPECT_EQ(8, ue_emit(fd, r.write_index, &val, sizeof(val)));
		ASSERT_EQ(0, ue_enable(name, 0));
		close(fd);
		ASSERT_EQ(0, ue_del(name));
	}
	text = ue_read_file(UE_TRACEFS "/trace");
	ASSERT_NE(NULL, text);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		line = strstr(line, " st_cap");
		if (!line)
			continue;
		got = sscanf(line, " st_cap%d: v=%d", &n, &v);
		EXPECT_EQ(2, got);
		EXPECT_EQ(n, v);
		lines++;
	}
	free(text);
	/* the limit cleared the oldest ones; the last one's record is there */
	TH_LOG("%d of 70 records left", lines);
	snprintf(want, sizeof(want), " st_cap69: v=69");
	EXPECT_LE(1, lines);
	EXPECT_GT(70, lines);
	EXPECT_EQ(1, trace_lines_with(want));
}

TEST_HARNESS_MAIN
