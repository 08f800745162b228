// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the event trigger engine's pure parts: how the text after
 * a command splits into parameter and filter, how a count is parsed, and
 * how counted firings are consumed.
 */
#include <kunit/test.h>
#include <linux/string.h>

#include "trace_trigger.h"

/* Split a copy of @text; the pointers returned point into @buf. */
static int trigger_kunit_split(char *buf, size_t size, const char *text,
			       char **arg, char **filter, bool required)
{
	if (!text)
		return event_trigger_separate_filter(NULL, arg, filter, required);
	strscpy(buf, text, size);
	return event_trigger_separate_filter(buf, arg, filter, required);
}

static void trigger_kunit_split_optional(struct kunit *test)
{
	char buf[64], *arg, *filter;

	KUNIT_EXPECT_EQ(test, 0, trigger_kunit_split(buf, sizeof(buf), NULL,
						     &arg, &filter, false));
	KUNIT_EXPECT_NULL(test, arg);
	KUNIT_EXPECT_NULL(test, filter);

	/* A leading digit means a count, the rest is the filter. */
	trigger_kunit_split(buf, sizeof(buf), "5 if a == 1", &arg, &filter,
			    false);
	KUNIT_EXPECT_STREQ(test, "5", arg);
	KUNIT_EXPECT_STREQ(test, "if a == 1", filter);

	trigger_kunit_split(buf, sizeof(buf), "12\t \tif b", &arg, &filter,
			    false);
	KUNIT_EXPECT_STREQ(test, "12", arg);
	KUNIT_EXPECT_STREQ(test, "if b", filter);

	/* Trailing blanks are not a filter. */
	trigger_kunit_split(buf, sizeof(buf), "3   ", &arg, &filter, false);
	KUNIT_EXPECT_STREQ(test, "3", arg);
	KUNIT_EXPECT_NULL(test, filter);

	/* Anything else is all filter (to be checked for "if" later). */
	trigger_kunit_split(buf, sizeof(buf), "if x > 2", &arg, &filter, false);
	KUNIT_EXPECT_NULL(test, arg);
	KUNIT_EXPECT_STREQ(test, "if x > 2", filter);
	trigger_kunit_split(buf, sizeof(buf), "foo", &arg, &filter, false);
	KUNIT_EXPECT_NULL(test, arg);
	KUNIT_EXPECT_STREQ(test, "foo", filter);
}

static void trigger_kunit_split_required(struct kunit *test)
{
	char buf[64], *arg, *filter;

	KUNIT_EXPECT_EQ(test, -EINVAL,
			trigger_kunit_split(buf, sizeof(buf), NULL, &arg,
					    &filter, true));

	trigger_kunit_split(buf, sizeof(buf), "sched:sched_switch:3  if  x",
			    &arg, &filter, true);
	KUNIT_EXPECT_STREQ(test, "sched:sched_switch:3", arg);
	KUNIT_EXPECT_STREQ(test, "if  x", filter);

	trigger_kunit_split(buf, sizeof(buf), "sys:ev", &arg, &filter, true);
	KUNIT_EXPECT_STREQ(test, "sys:ev", arg);
	KUNIT_EXPECT_NULL(test, filter);
}

static void trigger_kunit_parse_num(struct kunit *test)
{
	struct event_trigger_data trig = {
		.count = TRIGGER_COUNT_UNLIMITED,
	};
	char big[] = "18446744073709551615";
	char text[16];

	KUNIT_EXPECT_EQ(test, 0, event_trigger_parse_num(NULL, &trig));
	KUNIT_EXPECT_EQ(test, TRIGGER_COUNT_UNLIMITED, trig.count);

	strscpy(text, "5", sizeof(text));
	KUNIT_EXPECT_EQ(test, 0, event_trigger_parse_num(text, &trig));
	KUNIT_EXPECT_EQ(test, 5UL, trig.count);

	strscpy(text, "0x10", sizeof(text));
	KUNIT_EXPECT_EQ(test, 0, event_trigger_parse_num(text, &trig));
	KUNIT_EXPECT_EQ(test, 16UL, trig.count);

	/* Rejected values leave the count alone. */
	strscpy(text, "0", sizeof(text));
	KUNIT_EXPECT_EQ(test, -EINVAL, event_trigger_parse_num(text, &trig));
	strscpy(text, "7x", sizeof(text));
	KUNIT_EXPECT_EQ(test, -EINVAL, event_trigger_parse_num(text, &trig));
	strscpy(text, "", sizeof(text));
	KUNIT_EXPECT_EQ(test, -EINVAL, event_trigger_parse_num(text, &trig));
	strscpy(text, "-1", sizeof(text));
	KUNIT_EXPECT_EQ(test, -EINVAL, event_trigger_parse_num(text, &trig));
	KUNIT_EXPECT_EQ(test, -EINVAL, event_trigger_parse_num(big, &trig));
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

static void trigger_kunit_check_remove(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, event_trigger_check_remove("!traceon"));
	KUNIT_EXPECT_FALSE(test, event_trigger_check_remove("traceon"));
	KUNIT_EXPECT_FALSE(test, event_trigger_check_remove(NULL));
	KUNIT_EXPECT_TRUE(test, event_trigger_empty_param(NULL));
	KUNIT_EXPECT_FALSE(test, event_trigger_empty_param(""));
}

static struct kunit_case trigger_kunit_cases[] = {
	KUNIT_CASE(trigger_kunit_split_optional),
	KUNIT_CASE(trigger_kunit_split_required),
	KUNIT_CASE(trigger_kunit_parse_num),
	KUNIT_CASE(trigger_kunit_count_take),
	KUNIT_CASE(trigger_kunit_check_remove),
	{}
};

static struct kunit_suite trigger_kunit_suite = {
	.name = "trace_trigger",
	.test_cases = trigger_kunit_cases,
};

kunit_test_suite(trigger_kunit_suite);
