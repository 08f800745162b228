// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the event trigger engine's pure parts: how a line is
 * read into command name and arguments, where a filter begins, how a
 * count is parsed and how counted firings are consumed, and the columns
 * the errors of all that point at.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "trace_trigger.h"

static void expect_token(struct kunit *test, const struct trace_token *tok,
			 const char *text, int pos)
{
	KUNIT_EXPECT_EQ(test, (int)strlen(text), tok->len);
	KUNIT_EXPECT_EQ(test, 0, strncmp(text, tok->start, tok->len));
	KUNIT_EXPECT_EQ(test, pos, tok->pos);
}

static void trigger_kunit_line(struct kunit *test)
{
	struct trigger_line line;

	trigger_line_init(&line, "traceon");
	expect_token(test, &line.name, "traceon", 0);
	KUNIT_EXPECT_FALSE(test, line.remove);
	KUNIT_EXPECT_EQ(test, 7, line.p.pos);

	/* the cursor is at the arguments, past the separator and blanks */
	trigger_line_init(&line, "!traceoff:5 if a == 1");
	expect_token(test, &line.name, "traceoff", 1);
	KUNIT_EXPECT_TRUE(test, line.remove);
	KUNIT_EXPECT_EQ(test, 10, line.p.pos);

	trigger_line_init(&line, "snapshot \t if x");
	expect_token(test, &line.name, "snapshot", 0);
	KUNIT_EXPECT_EQ(test, 11, line.p.pos);

	/* only ':', space and tab end a name: a newline does not */
	trigger_line_init(&line, "traceon\nif x");
	expect_token(test, &line.name, "traceon\nif", 0);
	KUNIT_EXPECT_EQ(test, 11, line.p.pos);

	trigger_line_init(&line, "!");
	expect_token(test, &line.name, "", 1);
	KUNIT_EXPECT_EQ(test, '\0', trace_parse_cur(&line.p));
}

/* Where "if" opens a filter in a hist command's parameter. */
static void trigger_kunit_filter_find(struct kunit *test)
{
	struct trigger_line line;
	struct trace_token param;

	trigger_line_init(&line, "hist:keys=a:vals=b  if a > 1");
	trigger_filter_find(&line.p, &param);
	expect_token(test, &param, "keys=a:vals=b", 5);
	KUNIT_EXPECT_EQ(test, 20, line.p.pos);

	/* blanks inside the parameter stay in it */
	trigger_line_init(&line, "hist:keys=a:onmatch(s.e).trace(x, y)\tif b");
	trigger_filter_find(&line.p, &param);
	expect_token(test, &param, "keys=a:onmatch(s.e).trace(x, y)", 5);
	KUNIT_EXPECT_EQ(test, 37, line.p.pos);

	/* "if" must be a word of its own, and not the first one */
	trigger_line_init(&line, "hist:if x iffy xif");
	trigger_filter_find(&line.p, &param);
	expect_token(test, &param, "if x iffy xif", 5);
	KUNIT_EXPECT_EQ(test, '\0', trace_parse_cur(&line.p));

	/* a filter of nothing still starts at its "if" */
	trigger_line_init(&line, "hist:keys=a if");
	trigger_filter_find(&line.p, &param);
	expect_token(test, &param, "keys=a", 5);
	KUNIT_EXPECT_EQ(test, 12, line.p.pos);
}

/* Refused before anything is compiled: no event is needed. */
static void trigger_kunit_filter_errors(struct kunit *test)
{
	struct event_trigger_data trig = {};
	struct trigger_line line;

	trigger_line_init(&line, "traceon ifx == 1");
	KUNIT_EXPECT_EQ(test, -EINVAL, set_trigger_filter(&line, &trig, NULL));
	KUNIT_EXPECT_EQ(test, TRIGGER_ERR_NEED_IF, line.err.err);
	KUNIT_EXPECT_EQ(test, 8, line.err.pos);

	trigger_line_init(&line, "traceoff if  ");
	KUNIT_EXPECT_EQ(test, -EINVAL, set_trigger_filter(&line, &trig, NULL));
	KUNIT_EXPECT_EQ(test, TRIGGER_ERR_BAD_FILTER, line.err.err);
	KUNIT_EXPECT_EQ(test, 9, line.err.pos);
	KUNIT_EXPECT_NULL(test, trig.filter_str);
}

static bool trigger_kunit_count_func(struct event_trigger_data *trig,
				     struct trace_buffer *rb, void *rec,
				     struct ring_buffer_event *rbe)
{
	return true;
}

static void trigger_kunit_parse_count(struct kunit *test)
{
	static const char * const bad[] = {
		"0", "7x", "", "-1", "18446744073709551615",
	};
	struct event_command cmd = { .count_func = trigger_kunit_count_func };
	struct event_trigger_data trig = {
		.cmd_ops = &cmd,
		.count = TRIGGER_COUNT_UNLIMITED,
	};
	struct trigger_line line;
	struct trace_token count;
	int i;

	trigger_line_init(&line, "traceon:0x10");
	trace_parse_upto(&line.p, &count, " \t");
	KUNIT_EXPECT_EQ(test, 0, trigger_parse_count(&line, &count, &trig));
	KUNIT_EXPECT_EQ(test, 16UL, trig.count);
	KUNIT_EXPECT_TRUE(test, trig.flags & EVENT_TRIGGER_FL_COUNT);

	/* Refused values leave the count alone and point at it. */
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		count.start = bad[i];
		count.len = strlen(bad[i]);
		count.pos = 9;
		KUNIT_EXPECT_EQ(test, -EINVAL,
				trigger_parse_count(&line, &count, &trig));
		KUNIT_EXPECT_EQ(test, TRIGGER_ERR_BAD_COUNT, line.err.err);
		KUNIT_EXPECT_EQ(test, 9, line.err.pos);
	}
	KUNIT_EXPECT_EQ(test, 16UL, trig.count);
}

static void trigger_kunit_count_take(struct kunit *test)
{
	struct event_trigger_data trig = { .count = 2 };

	KUNIT_EXPECT_TRUE(test, trigger_count_take(&trig));
	KUNIT_EXPECT_EQ(test, 1UL, trig.count);
	KUNIT_EXPECT_TRUE(test, trigger_count_take(&trig));
	KUNIT_EXPECT_EQ(test, 0UL, trig.count);
	KUNIT_EXPECT_FALSE(test, trigger_count_take(&trig));
	KUNIT_EXPECT_EQ(test, 0UL, trig.count);

	trig.count = TRIGGER_COUNT_UNLIMITED;
	KUNIT_EXPECT_TRUE(test, trigger_count_take(&trig));
	KUNIT_EXPECT_EQ(test, TRIGGER_COUNT_UNLIMITED, trig.count);
}

static struct kunit_case trigger_kunit_cases[] = {
	KUNIT_CASE(trigger_kunit_line),
	KUNIT_CASE(trigger_kunit_filter_find),
	KUNIT_CASE(trigger_kunit_filter_errors),
	KUNIT_CASE(trigger_kunit_parse_count),
	KUNIT_CASE(trigger_kunit_count_take),
	{}
};

static struct kunit_suite trigger_kunit_suite = {
	.name = "trace_trigger",
	.test_cases = trigger_kunit_cases,
};

kunit_test_suite(trigger_kunit_suite);
