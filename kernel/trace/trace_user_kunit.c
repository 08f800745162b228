// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the pure parts of user_events: command parsing (layout,
 * errors and the column they point at), print fmt generation and the
 * names a group may take.
 */
#include <kunit/test.h>

#include "trace_user.h"

/* A command that must fail, with the error and column it must report */
struct user_kunit_bad {
	const char		*cmd;	/* command text */
	enum user_event_err	err;	/* expected error */
	unsigned int		pos;	/* expected column */
};

static const struct user_kunit_bad user_kunit_bad_cmds[] = {
	{ "",			USER_ERR_NO_NAME,	0 },
	{ "  :x",		USER_ERR_NO_NAME,	2 },
	{ "a-b u32 x",		USER_ERR_BAD_NAME,	0 },
	{ "ev:F u32 x",		USER_ERR_BAD_FLAG,	3 },
	{ "ev float x",		USER_ERR_BAD_TYPE,	3 },
	{ "ev u32 x; long y",	USER_ERR_LONG,		10 },
	{ "ev unsigned long z",	USER_ERR_LONG,		3 },
	{ "ev long long w",	USER_ERR_LONG,		3 },
	{ "ev long[4] v",	USER_ERR_LONG,		3 },
	{ "ev __data_loc long[] v", USER_ERR_LONG,	14 },
	{ "ev u32",		USER_ERR_NO_FIELD_NAME,	3 },
	{ "ev u32 x 4",		USER_ERR_SIZE_REFUSED,	9 },
	{ "ev struct s x",	USER_ERR_SIZE_NEEDED,	12 },
	{ "ev struct s x 0",	USER_ERR_BAD_SIZE,	14 },
	{ "ev struct s x 4 y",	USER_ERR_TRAILING,	16 },
	{ "ev char[0] x",	USER_ERR_BAD_ARRAY,	3 },
	{ "ev char[0x00001] x",	USER_ERR_BAD_ARRAY,	3 },
	{ "ev u16[2] x",	USER_ERR_BAD_ARRAY,	3 },
	{ "ev __data_loc u8 x",	USER_ERR_BAD_ARRAY,	14 },
	{ "ev u32 x;u8 x",	USER_ERR_DUP_FIELD,	12 },
	{ "ev u32 1x",		USER_ERR_BAD_FIELD_NAME, 7 },
	{ "ev u32 common_pid",	USER_ERR_BAD_FIELD_NAME, 7 },
	{ "ev __data_loc",	USER_ERR_NO_TYPE,	3 },
	{ "ev char[600] a;char[600] b;char[600] c;char[600] d",
				USER_ERR_TOO_BIG,	39 },
};

static void user_kunit_bad_commands(struct kunit *test)
{
	struct trace_parse_err perr;
	struct user_event_desc desc;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(user_kunit_bad_cmds); i++) {
		const struct user_kunit_bad *c = &user_kunit_bad_cmds[i];

		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    user_event_parse(c->cmd, &desc, &perr),
				    "command '%s'", c->cmd);
		KUNIT_EXPECT_EQ_MSG(test, c->err, perr.err, "command '%s'",
				    c->cmd);
		KUNIT_EXPECT_EQ_MSG(test, c->pos, perr.pos, "command '%s'",
				    c->cmd);
		KUNIT_EXPECT_NULL(test, desc.name);
		KUNIT_EXPECT_NULL(test, desc.fields);
	}
}

static void user_kunit_layout(struct kunit *test)
{
	static const char cmd[] =
		" ev:  u8 a;; unsigned  short b; char[0x10] c; struct  s d 3;"
		"__rel_loc unsigned char[] e; __data_loc s64[] f;";
	struct trace_parse_err perr;
	struct user_event_desc desc;
	const struct user_event_field *f;

	KUNIT_ASSERT_EQ(test, 0, user_event_parse(cmd, &desc, &perr));
	KUNIT_EXPECT_STREQ(test, "ev", desc.name);
	KUNIT_ASSERT_EQ(test, 6, desc.nr_fields);
	KUNIT_EXPECT_EQ(test, 1 + 2 + 16 + 3 + 4 + 4, desc.fixed_size);
	KUNIT_EXPECT_TRUE(test, desc.has_locs);

	f = desc.fields;
	KUNIT_EXPECT_STREQ(test, "u8", f[0].type);
	KUNIT_EXPECT_EQ(test, 8, f[0].offset);
	KUNIT_EXPECT_STREQ(test, "unsigned short", f[1].type);
	KUNIT_EXPECT_EQ(test, 9, f[1].offset);
	KUNIT_EXPECT_EQ(test, 2, f[1].size);
	KUNIT_EXPECT_FALSE(test, f[1].is_signed);
	KUNIT_EXPECT_STREQ(test, "char[16]", f[2].type);
	KUNIT_EXPECT_EQ(test, USER_FIELD_CHARS, f[2].kind);
	KUNIT_EXPECT_EQ(test, 16, f[2].size);
	KUNIT_EXPECT_STREQ(test, "struct s", f[3].type);
	KUNIT_EXPECT_EQ(test, USER_FIELD_STRUCT, f[3].kind);
	KUNIT_EXPECT_TRUE(test, f[3].has_size);
	KUNIT_EXPECT_STREQ(test, "__rel_loc unsigned char[]", f[4].type);
	KUNIT_EXPECT_EQ(test, USER_FIELD_REL_LOC, f[4].kind);
	KUNIT_EXPECT_TRUE(test, f[4].is_string);
	KUNIT_EXPECT_STREQ(test, "__data_loc s64[]", f[5].type);
	KUNIT_EXPECT_EQ(test, USER_FIELD_DATA_LOC, f[5].kind);
	KUNIT_EXPECT_FALSE(test, f[5].is_string);
	KUNIT_EXPECT_EQ(test, 8 + 26, f[5].offset);
	user_event_desc_free(&desc);
}

/* "long" refuses a scalar type, not a struct tag or name that holds it */
static void user_kunit_long_lookalikes(struct kunit *test)
{
	static const char cmd[] =
		"ev struct belonging x 4; struct longer y 8; struct long z 2;"
		"u32 oblong; char[4] longs";
	struct trace_parse_err perr;
	struct user_event_desc desc;
	const struct user_event_field *f;

	KUNIT_ASSERT_EQ(test, 0, user_event_parse(cmd, &desc, &perr));
	KUNIT_ASSERT_EQ(test, 5, desc.nr_fields);
	f = desc.fields;
	KUNIT_EXPECT_STREQ(test, "struct belonging", f[0].type);
	KUNIT_EXPECT_STREQ(test, "x", f[0].name);
	KUNIT_EXPECT_EQ(test, 4, f[0].size);
	KUNIT_EXPECT_STREQ(test, "struct longer", f[1].type);
	KUNIT_EXPECT_EQ(test, 8, f[1].size);
	KUNIT_EXPECT_STREQ(test, "struct long", f[2].type);
	KUNIT_EXPECT_EQ(test, 2, f[2].size);
	KUNIT_EXPECT_STREQ(test, "oblong", f[3].name);
	KUNIT_EXPECT_STREQ(test, "char[4]", f[4].type);
	KUNIT_EXPECT_STREQ(test, "longs", f[4].name);
	KUNIT_EXPECT_EQ(test, 4 + 8 + 2 + 4 + 4, desc.fixed_size);
	user_event_desc_free(&desc);
}

static void user_kunit_same_fields(struct kunit *test)
{
	struct trace_parse_err perr;
	struct user_event_desc a, b;

	KUNIT_ASSERT_EQ(test, 0, user_event_parse("x u32 a;char[4] b", &a,
						  &perr));
	KUNIT_EXPECT_FALSE(test, a.has_locs);
	KUNIT_ASSERT_EQ(test, 0, user_event_parse_fields(" u32  a ; char[0x4] b;",
							 &b, &perr));
	KUNIT_EXPECT_TRUE(test, user_event_desc_same_fields(&a, &b));
	user_event_desc_free(&b);
	KUNIT_ASSERT_EQ(test, 0, user_event_parse_fields("u32 a; char[5] b", &b,
							 &perr));
	KUNIT_EXPECT_FALSE(test, user_event_desc_same_fields(&a, &b));
	user_event_desc_free(&b);
	KUNIT_ASSERT_EQ(test, 0, user_event_parse_fields("u32 a", &b, &perr));
	KUNIT_EXPECT_FALSE(test, user_event_desc_same_fields(&a, &b));
	user_event_desc_free(&b);
	user_event_desc_free(&a);
}

static void user_kunit_print_fmt(struct kunit *test)
{
	struct trace_parse_err perr;
	struct user_event_desc desc;
	char *fmt;

	KUNIT_ASSERT_EQ(test, 0, user_event_parse("ev s64 a; u16 b; char[4] c;"
						  "__data_loc char[] d;"
						  "__rel_loc u32[] e", &desc,
						  &perr));
	fmt = user_event_print_fmt(&desc);
	KUNIT_ASSERT_NOT_NULL(test, fmt);
	KUNIT_EXPECT_STREQ(test,
			   "\"a=%lld b=%u c=%s d=%s e=%s\", REC->a, REC->b, REC->c, __get_str(d), __print_hex(__get_rel_dynamic_array(e), __get_rel_dynamic_array_len(e))",
			   fmt);
	kfree(fmt);
	user_event_desc_free(&desc);

	KUNIT_ASSERT_EQ(test, 0, user_event_parse("empty", &desc, &perr));
	fmt = user_event_print_fmt(&desc);
	KUNIT_ASSERT_NOT_NULL(test, fmt);
	KUNIT_EXPECT_STREQ(test, "\"\"", fmt);
	kfree(fmt);
	user_event_desc_free(&desc);
}

/* A group name and what its check must say */
struct user_kunit_group_name {
	const char		*name;	/* mkdir's name */
	int			ret;	/* 0, -EINVAL or -ENAMETOOLONG */
	enum user_event_err	err;	/* expected error */
	unsigned int		pos;	/* expected column */
};

static const struct user_kunit_group_name user_kunit_group_names[] = {
	{ "g1",		0,		USER_ERR_NONE,			0 },
	{ "Web_Tier_2",	0,		USER_ERR_NONE,			0 },
	{ "",		-EINVAL,	USER_ERR_GROUP_NO_NAME,		0 },
	{ ".",		-EINVAL,	USER_ERR_GROUP_BAD_NAME,	0 },
	{ "..",		-EINVAL,	USER_ERR_GROUP_BAD_NAME,	0 },
	{ "a/b",	-EINVAL,	USER_ERR_GROUP_BAD_NAME,	1 },
	{ "ab-c",	-EINVAL,	USER_ERR_GROUP_BAD_NAME,	2 },
	{ "a b",	-EINVAL,	USER_ERR_GROUP_BAD_NAME,	1 },
	{ "x:y",	-EINVAL,	USER_ERR_GROUP_BAD_NAME,	1 },
	{ "multi",	-EINVAL,	USER_ERR_GROUP_RESERVED,	0 },
	{ "registry",	-EINVAL,	USER_ERR_GROUP_RESERVED,	0 },
	{ "multi2",	0,		USER_ERR_NONE,			0 },
	/* 64 characters: the longest */
	{ "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
			0,		USER_ERR_NONE,			0 },
	{ "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
			-ENAMETOOLONG,	USER_ERR_GROUP_NAME_LONG,	64 },
};

static void user_kunit_group_name(struct kunit *test)
{
	struct trace_parse_err perr;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(user_kunit_group_names); i++) {
		const struct user_kunit_group_name *c =
			&user_kunit_group_names[i];

		KUNIT_EXPECT_EQ_MSG(test, c->ret,
				    user_event_group_name_check(c->name, &perr),
				    "group '%s'", c->name);
		KUNIT_EXPECT_EQ_MSG(test, c->err, perr.err, "group '%s'",
				    c->name);
		if (c->ret)
			KUNIT_EXPECT_EQ_MSG(test, c->pos, perr.pos,
					    "group '%s'", c->name);
	}
}

static struct kunit_case user_kunit_cases[] = {
	KUNIT_CASE(user_kunit_bad_commands),
	KUNIT_CASE(user_kunit_layout),
	KUNIT_CASE(user_kunit_long_lookalikes),
	KUNIT_CASE(user_kunit_same_fields),
	KUNIT_CASE(user_kunit_print_fmt),
	KUNIT_CASE(user_kunit_group_name),
	{}
};

static struct kunit_suite user_kunit_suite = {
	.name = "user_events_parse",
	.test_cases = user_kunit_cases,
};

kunit_test_suite(user_kunit_suite);
