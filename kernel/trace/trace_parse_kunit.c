// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the shared tracefs tokenizer: what each helper consumes,
 * the column it reports, and that a failed attempt leaves the cursor
 * where it was.
 */
#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "trace_parse.h"

/* Expect @tok to hold @text, starting at column @pos. */
static void expect_tok(struct kunit *test, const struct trace_token *tok,
		       const char *text, int pos)
{
	KUNIT_EXPECT_EQ(test, tok->len, (int)strlen(text));
	KUNIT_EXPECT_EQ(test, strncmp(tok->start, text, tok->len), 0);
	KUNIT_EXPECT_EQ(test, tok->pos, pos);
}

static void trace_parse_test_words(struct kunit *test)
{
	struct trace_parse p;
	struct trace_token tok;

	trace_parse_init(&p, "  ab_1 x:y;z ");
	KUNIT_EXPECT_EQ(test, trace_parse_peek(&p), 'a');
	KUNIT_EXPECT_EQ(test, p.pos, 2);
	KUNIT_EXPECT_TRUE(test, trace_parse_ident(&p, &tok));
	expect_tok(test, &tok, "ab_1", 2);
	/* no identifier here: nothing consumed */
	KUNIT_EXPECT_FALSE(test, trace_parse_ident(&p, &tok));
	KUNIT_EXPECT_EQ(test, p.pos, 6);
	trace_parse_skip_space(&p);
	KUNIT_EXPECT_TRUE(test, trace_parse_word(&p, &tok, ";"));
	expect_tok(test, &tok, "x:y", 7);
	KUNIT_EXPECT_FALSE(test, trace_parse_word(&p, &tok, ";"));
	KUNIT_EXPECT_TRUE(test, trace_parse_literal(&p, ";"));
	KUNIT_EXPECT_FALSE(test, trace_parse_literal(&p, "zz"));
	KUNIT_EXPECT_EQ(test, p.pos, 11);
	KUNIT_EXPECT_TRUE(test, trace_parse_word(&p, &tok, ""));
	expect_tok(test, &tok, "z", 11);
	KUNIT_EXPECT_EQ(test, trace_parse_peek(&p), '\0');
}

static void trace_parse_test_one_of(struct kunit *test)
{
	static const char * const ops[] = { "<", "<=", "=", "==", "!=" };
	struct trace_parse p;

	trace_parse_init(&p, "<=5");
	KUNIT_EXPECT_EQ(test, trace_parse_one_of(&p, ops, ARRAY_SIZE(ops)), 1);
	KUNIT_EXPECT_EQ(test, p.pos, 2);
	KUNIT_EXPECT_EQ(test, trace_parse_one_of(&p, ops, ARRAY_SIZE(ops)),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, p.pos, 2);
	trace_parse_init(&p, "==");
	KUNIT_EXPECT_EQ(test, trace_parse_one_of(&p, ops, ARRAY_SIZE(ops)), 3);
}

static void trace_parse_test_quoted(struct kunit *test)
{
	struct trace_parse p;
	struct trace_token tok;

	trace_parse_init(&p, "x \"a b\" 'c\"d' \"open");
	p.pos = 2;
	KUNIT_EXPECT_EQ(test, trace_parse_quoted(&p, &tok), 0);
	expect_tok(test, &tok, "a b", 2);
	KUNIT_EXPECT_EQ(test, p.pos, 7);
	trace_parse_skip_space(&p);
	KUNIT_EXPECT_EQ(test, trace_parse_quoted(&p, &tok), 0);
	expect_tok(test, &tok, "c\"d", 8);
	trace_parse_skip_space(&p);
	/* unterminated: error at the opening quote, cursor unmoved */
	KUNIT_EXPECT_EQ(test, trace_parse_quoted(&p, &tok), -EINVAL);
	KUNIT_EXPECT_EQ(test, tok.pos, 14);
	KUNIT_EXPECT_EQ(test, p.pos, 14);
	trace_parse_init(&p, "plain");
	KUNIT_EXPECT_EQ(test, trace_parse_quoted(&p, &tok), -ENOENT);
	KUNIT_EXPECT_EQ(test, p.pos, 0);
}

static void trace_parse_test_until_span(struct kunit *test)
{
	struct trace_parse p;
	struct trace_token tok;

	trace_parse_init(&p, "{0-3} a b  )c");
	p.pos = 1;
	KUNIT_EXPECT_EQ(test, trace_parse_until(&p, &tok, '}'), 0);
	expect_tok(test, &tok, "0-3", 1);
	KUNIT_EXPECT_EQ(test, p.pos, 5);
	/* a span keeps inner blanks, drops trailing ones */
	trace_parse_span(&p, &tok, ")");
	expect_tok(test, &tok, " a b", 5);
	KUNIT_EXPECT_EQ(test, trace_parse_cur(&p), ')');
	KUNIT_EXPECT_EQ(test, trace_parse_until(&p, &tok, '}'), -EINVAL);
	KUNIT_EXPECT_EQ(test, p.pos, 11);

	/* trace_parse_upto() stops only where told: not at a newline */
	trace_parse_init(&p, "on\nx:5 y");
	KUNIT_EXPECT_TRUE(test, trace_parse_upto(&p, &tok, ": \t"));
	expect_tok(test, &tok, "on\nx", 0);
	KUNIT_EXPECT_EQ(test, trace_parse_cur(&p), ':');
	KUNIT_EXPECT_FALSE(test, trace_parse_upto(&p, &tok, ":"));
	KUNIT_EXPECT_EQ(test, p.pos, 4);
}

/* A token as a C string: whole with its NUL, or not at all. */
static void trace_parse_test_cstr(struct kunit *test)
{
	struct trace_token tok = { .start = "1234:rest", .len = 4 };
	char buf[5] = "xxxx";

	KUNIT_EXPECT_TRUE(test, trace_token_cstr(&tok, buf, sizeof(buf)));
	KUNIT_EXPECT_STREQ(test, buf, "1234");
	tok.len = 5;
	strscpy(buf, "yyyy", sizeof(buf));
	KUNIT_EXPECT_FALSE(test, trace_token_cstr(&tok, buf, sizeof(buf)));
	KUNIT_EXPECT_STREQ(test, buf, "yyyy");
	tok.len = 0;
	KUNIT_EXPECT_TRUE(test, trace_token_cstr(&tok, buf, sizeof(buf)));
	KUNIT_EXPECT_STREQ(test, buf, "");
}

/* Names: what a field, variable or event may be called. */
static void trace_parse_test_ident(struct kunit *test)
{
	static const struct { const char *text; bool strict, loose; } cases[] = {
		{ "a", true, true }, { "_x9", true, true }, { "9x", false, true },
		{ "a-b", false, false }, { "", false, false }, { "a.b", false, false },
	};
	struct trace_token tok;
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		tok.start = cases[i].text;
		tok.len = strlen(cases[i].text);
		KUNIT_EXPECT_EQ_MSG(test, trace_token_ident(&tok, false),
				    cases[i].strict, "%s", cases[i].text);
		KUNIT_EXPECT_EQ_MSG(test, trace_token_ident(&tok, true),
				    cases[i].loose, "%s", cases[i].text);
	}
}

/* Numbers in kstrtoull()'s spellings, held to their bounds. */
static void trace_parse_test_num(struct kunit *test)
{
	static const struct { const char *text; int ret; u64 val; } cases[] = {
		{ "42", 0, 42 }, { "0x2a", 0, 42 }, { "052", 0, 42 },
		{ "0", -EINVAL }, { "101", -EINVAL }, { "4x", -EINVAL },
		{ "", -EINVAL }, { "-1", -EINVAL }, { "1 ", -EINVAL },
		{ "000000000000000000000000000000042", -EINVAL },
	};
	struct trace_token tok;
	u64 val, want;
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		tok.start = cases[i].text;
		tok.len = strlen(cases[i].text);
		/* a refused number leaves @val alone */
		want = cases[i].val;
		if (cases[i].ret)
			want = 7;
		val = 7;
		KUNIT_EXPECT_EQ_MSG(test, trace_token_num(&tok, 1, 100, &val),
				    cases[i].ret, "%s", cases[i].text);
		KUNIT_EXPECT_EQ_MSG(test, val, want, "%s", cases[i].text);
	}
	tok.start = "18446744073709551615";
	tok.len = strlen(tok.start);
	KUNIT_EXPECT_EQ(test, trace_token_num(&tok, 0, U64_MAX, &val), 0);
	KUNIT_EXPECT_EQ(test, val, U64_MAX);
}

/* One error record, filled by one helper. */
static void trace_parse_test_fail(struct kunit *test)
{
	struct trace_parse_err err = { };

	KUNIT_EXPECT_EQ(test, trace_parse_fail(&err, 3, 17), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.err, 3);
	KUNIT_EXPECT_EQ(test, err.pos, 17);
}

static struct kunit_case trace_parse_test_cases[] = {
	KUNIT_CASE(trace_parse_test_words),
	KUNIT_CASE(trace_parse_test_one_of),
	KUNIT_CASE(trace_parse_test_quoted),
	KUNIT_CASE(trace_parse_test_until_span),
	KUNIT_CASE(trace_parse_test_cstr),
	KUNIT_CASE(trace_parse_test_ident),
	KUNIT_CASE(trace_parse_test_num),
	KUNIT_CASE(trace_parse_test_fail),
	{}
};

static struct kunit_suite trace_parse_test_suite = {
	.name = "trace_parse",
	.test_cases = trace_parse_test_cases,
};

kunit_test_suite(trace_parse_test_suite);

MODULE_DESCRIPTION("KUnit tests of the tracefs command tokenizer");
MODULE_LICENSE("GPL");
