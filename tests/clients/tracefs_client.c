// SPDX-License-Identifier: GPL-2.0
/*
 * A client nobody here wrote, driving our kernel: Debian's libtracefs
 * enables an event, sets its filter and triggers, reads the ring buffer
 * back through libtraceevent, and reads hist and error_log files the way
 * trace-cmd and other tools do.  Every test works in its own instance.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <tracefs.h>

#include "kselftest_harness.h"

#define EXEC_SYS "sched"
#define EXEC_EV "sched_process_exec"

/* Write STR to the event's FILE: libtracefs returns the bytes written */
#define EXEC_FILE_WRITE(file, str) \
	tracefs_event_file_write(self->inst, EXEC_SYS, EXEC_EV, file, str)

/* Run PATH and wait for it, so its sched_process_exec is in the buffer */
static void run(const char *path)
{
	pid_t pid = fork();

	if (!pid) {
		execl(path, path, NULL);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
}

/* The execs every test makes: two of /bin/true, one of /bin/false */
static void workload(void)
{
	run("/bin/true");
	run("/bin/false");
	run("/bin/true");
}

struct exec_count {
	int all;	/* sched_process_exec records */
	int trues;	/* of which for /bin/true */
};

static int count_exec(struct tep_event *event, struct tep_record *rec,
		      int cpu, void *data)
{
	struct exec_count *c = data;
	struct trace_seq s;

	if (strcmp(event->name, EXEC_EV))
		return 0;
	trace_seq_init(&s);
	tep_print_field(&s, rec->data, tep_find_field(event, "filename"));
	trace_seq_terminate(&s);
	c->all++;
	if (!strcmp(s.buffer, "/bin/true"))
		c->trues++;
	trace_seq_destroy(&s);
	return 0;
}

FIXTURE(tfs) {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
};

FIXTURE_SETUP(tfs)
{
	self->inst = tracefs_instance_create("ts_tracefs_client");
	ASSERT_NE(NULL, self->inst);
	self->tep = tracefs_local_events(NULL);
	ASSERT_NE(NULL, self->tep);
}

/* An instance goes away whatever triggers and filters its events have */
FIXTURE_TEARDOWN(tfs)
{
	tracefs_event_disable(self->inst, NULL, NULL);
	EXPECT_EQ(0, tracefs_instance_destroy(self->inst));
	tracefs_instance_free(self->inst);
	tep_free(self->tep);
}

/* Our filter engine keeps exactly the records the filter selects */
TEST_F(tfs, filter_and_raw_events)
{
	struct exec_count c = { 0 };

	ASSERT_LT(0, EXEC_FILE_WRITE("filter", "filename ~ \"*/true\""));
	ASSERT_EQ(0, tracefs_event_enable(self->inst, EXEC_SYS, EXEC_EV));
	workload();
	ASSERT_EQ(0, tracefs_event_disable(self->inst, EXEC_SYS, EXEC_EV));
	ASSERT_EQ(0, tracefs_iterate_raw_events(self->tep, self->inst, NULL, 0,
						count_exec, &c));
	EXPECT_EQ(2, c.all);
	EXPECT_EQ(2, c.trues);
}

/* A counted traceoff trigger turns the instance off at the first exec */
TEST_F(tfs, traceoff_trigger)
{
	char *text;

	ASSERT_LT(0, EXEC_FILE_WRITE("trigger", "traceoff:1"));
	text = tracefs_event_file_read(self->inst, EXEC_SYS, EXEC_EV, "trigger", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("traceoff:count=1\n", text);
	free(text);
	ASSERT_EQ(1, tracefs_trace_is_on(self->inst));
	workload();
	EXPECT_EQ(0, tracefs_trace_is_on(self->inst));
	text = tracefs_event_file_read(self->inst, EXEC_SYS, EXEC_EV, "trigger", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("traceoff:count=0\n", text);
	free(text);
	EXPECT_LT(0, EXEC_FILE_WRITE("trigger", "!traceoff"));
	text = tracefs_event_file_read(self->inst, EXEC_SYS, EXEC_EV, "trigger", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_EQ('#', text[0]);
	free(text);
}

/* A histogram made by tracefs_hist_*() and read back as a file */
TEST_F(tfs, hist)
{
	struct tracefs_hist *hist;
	char *text;

	hist = tracefs_hist_alloc(self->tep, EXEC_SYS, EXEC_EV, "filename",
				  TRACEFS_HIST_KEY_NORMAL);
	ASSERT_NE(NULL, hist);
	ASSERT_EQ(0, tracefs_hist_append_filter(hist, TRACEFS_FILTER_COMPARE,
						"filename", TRACEFS_COMPARE_RE,
						"*/true"));
	ASSERT_EQ(0, tracefs_hist_start(self->inst, hist));
	workload();
	text = tracefs_event_file_read(self->inst, EXEC_SYS, EXEC_EV, "trigger", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_STREQ("hist:keys=filename:vals=hitcount:sort=hitcount:size=2048 "
		     "if filename~*/true [active]\n", text);
	free(text);
	text = tracefs_instance_file_read(self->inst,
					  "events/" EXEC_SYS "/" EXEC_EV "/hist", NULL);
	ASSERT_NE(NULL, text);
	EXPECT_NE(NULL, strstr(text, "\n{ filename: /bin/true"));
	EXPECT_NE(NULL, strstr(text, "} hitcount:          2\n"));
	EXPECT_NE(NULL, strstr(text, "\nTotals:\n    Hits: 2\n    Entries: 1\n"
				     "    Dropped: 0\n"));
	free(text);
	EXPECT_EQ(0, tracefs_hist_destroy(self->inst, hist));
	tracefs_hist_free(hist);
}

/* A refused filter: the write fails and error_log says why */
TEST_F(tfs, error_log)
{
	char *err;

	EXPECT_GT(0, EXEC_FILE_WRITE("filter", "pid =="));
	err = tracefs_error_last(self->inst);
	ASSERT_NE(NULL, err);
	/* After the timestamp: location, message, command and caret */
	ASSERT_NE(NULL, strstr(err, "] "));
	EXPECT_STREQ("event filter parse error: error: Invalid value (did you forget quotes)?\n"
		     "  Command: pid ==\n"
		     "                 ^", strstr(err, "] ") + 2);
	free(err);
}

TEST_HARNESS_MAIN
