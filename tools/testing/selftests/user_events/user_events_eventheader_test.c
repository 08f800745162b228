// SPDX-License-Identifier: GPL-2.0
/*
 * EventHeader tracepoints (Provider_L<level>K<keyword>): events carrying the
 * header, a metadata extension and data show up in the trace with their
 * header fields; the sample program does the same.
 */
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "ue_util.h"

#define EH_FIELDS "u8 eventheader_flags; u8 version; u16 id; u16 tag; " \
		  "u8 opcode; u8 level"

#pragma pack(push, 1)
struct eh_header {
	uint8_t flags; uint8_t version; uint16_t id; uint16_t tag;
	uint8_t opcode; uint8_t level;
};

struct eh_ext {
	uint16_t size; uint16_t kind;
};

#pragma pack(pop)

static void eh_cleanup(const char *name)
{
	ue_enable(name, 0);
	ue_clear_trace();
	ue_del(name);
}

TEST(header_and_metadata)
{
	static const char meta[] = "TestEvent\0value\0\x04";
	const char *tp = "UeTestProvider_L3K1f";
	struct eh_header h = { 0x07, 2, 1234, 0xbeef, 1, 3 };
	struct eh_ext e = { sizeof(meta), 0x0001 };
	uint32_t value = 99;
	struct user_status_reg r;
	struct iovec io[5];
	char cmd[256], *line;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	eh_cleanup(tp);
	snprintf(cmd, sizeof(cmd), "%s %s", tp, EH_FIELDS);
	ASSERT_EQ(0, ue_reg(fd, cmd, &r));
	ASSERT_EQ(0, ue_enable(tp, 1));

	io[0] = (struct iovec){ &r.write_index, 4 };
	io[1] = (struct iovec){ &h, sizeof(h) };
	io[2] = (struct iovec){ &e, sizeof(e) };
	io[3] = (struct iovec){ (void *)meta, sizeof(meta) };
	io[4] = (struct iovec){ &value, sizeof(value) };
	EXPECT_EQ(4 + 8 + 4 + sizeof(meta) + 4, writev(fd, io, 5));
	/* The header alone, no extension */
	h.flags = 0x03;
	EXPECT_EQ(4 + 8, writev(fd, io, 2));

	line = ue_trace_line(tp, 0, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("eventheader_flags=7 version=2 id=1234 tag=48879 opcode=1 level=3",
		     line);
	free(line);
	line = ue_trace_line(tp, 1, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("eventheader_flags=3 version=2 id=1234 tag=48879 opcode=1 level=3",
		     line);
	free(line);
	close(fd);
	eh_cleanup(tp);
}

TEST(sample_program)
{
	const char *sample = "/samples/eventheader";
	const char *tp = "SampleProvider_L5K2a";
	char cmd[256], *line;
	struct user_status_reg r;
	int fd, status, n;
	pid_t pid;

	if (access(sample, X_OK))
		SKIP(return, "%s not installed", sample);
	fd = ue_open();
	ASSERT_GE(fd, 0);
	eh_cleanup(tp);
	/* Register first so the tracepoint can be enabled before it runs */
	snprintf(cmd, sizeof(cmd), "%s %s", tp, EH_FIELDS);
	ASSERT_EQ(0, ue_reg(fd, cmd, &r));
	close(fd);
	ASSERT_EQ(0, ue_enable(tp, 1));

	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		int devnull = open("/dev/null", O_WRONLY);

		dup2(devnull, 1);
		execl(sample, sample, "5", "2a", "3", NULL);
		_exit(127);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));

	line = ue_trace_line(tp, 2, &n);
	EXPECT_EQ(3, n);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("eventheader_flags=7 version=1 id=42 tag=0 opcode=0 level=5",
		     line);
	free(line);
	eh_cleanup(tp);
	EXPECT_EQ(-ENOENT, ue_del(tp));
}

TEST_HARNESS_MAIN
