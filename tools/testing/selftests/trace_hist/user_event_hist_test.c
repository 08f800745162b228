// SPDX-License-Identifier: GPL-2.0
/*
 * Histograms fed by user events, where the writer is not trusted: what a
 * histogram reads of a record stays inside the record's fields, however
 * the payload was made.
 */
#include "../kselftest_harness.h"
#include "../user_events/ue_util.h"

#define SYNTH	UE_TRACEFS "/synthetic_events"
#define EV	"hist_ue_str"
#define TRIG	UE_TRACEFS "/events/user_events/" EV "/trigger"
#define OUT	UE_TRACEFS "/events/synthetic/hist_ue_out/enable"

FIXTURE(str) {
	int fd;
	struct user_status_reg reg;
};

FIXTURE_SETUP(str)
{
	ue_write_file(TRIG, "", 0);
	ue_del(EV);
	ue_write_file(SYNTH, "!hist_ue_out", 1);
	self->fd = ue_open();
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(0, ue_reg(self->fd, EV " char[4] s; u32 n", &self->reg));
	ASSERT_EQ(0, ue_write_file(SYNTH, "hist_ue_out char[] d; char[16] f", 1));
	ASSERT_EQ(0, ue_write_file(OUT, "1", 0));
	ue_clear_trace();
}

FIXTURE_TEARDOWN(str)
{
	ue_write_file(OUT, "0", 0);
	ue_write_file(TRIG, "", 0);
	ue_write_file(SYNTH, "!hist_ue_out", 1);
	close(self->fd);
	ue_del(EV);
	ue_clear_trace();
}

/*
 * A char[4] written without a NUL, followed by bytes that would read as
 * text: onmatch().trace() hands the synthetic event the four characters,
 * for a char[] and for a char[16] field, never what follows them.
 */
TEST_F(str, trace_char_n_without_nul)
{
	static const struct {
		char s[4];
		uint32_t n;
	} full = { { 'A', 'B', 'C', 'D' }, 0x58585858 /* "XXXX" */ },
	  nul = { { 'a', 'b', 0, 'd' }, 0x59595959 };
	static const char cmd[] =
		"hist:keys=n:onmatch(user_events." EV ").trace(hist_ue_out,s,s)";
	char *line;
	int count;

	ASSERT_EQ(0, ue_write_file(TRIG, cmd, 1));
	ASSERT_EQ(sizeof(uint32_t) + sizeof(full),
		  ue_emit(self->fd, self->reg.write_index, &full, sizeof(full)));
	ASSERT_EQ(sizeof(uint32_t) + sizeof(nul),
		  ue_emit(self->fd, self->reg.write_index, &nul, sizeof(nul)));
	line = ue_trace_line("hist_ue_out", 0, &count);
	ASSERT_NE(NULL, line);
	EXPECT_EQ(2, count);
	EXPECT_STREQ("d=ABCD f=ABCD", line);
	free(line);
	line = ue_trace_line("hist_ue_out", 1, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("d=ab f=ab", line);
	free(line);
}

TEST_HARNESS_MAIN
