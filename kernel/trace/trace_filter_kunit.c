// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the event filter engine: parsing (valid text, and for
 * invalid text the message and the column), the shape of compiled
 * programs, and evaluation on hand-made records of every field kind,
 * including strings that are not NUL-terminated.
 */
#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/glob.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "trace_filter.h"

/* Layout of the hand-made record. */
enum {
	REC_TYPE	= 0,	/* unsigned short common_type */
	REC_FLAGS	= 2,	/* unsigned char common_flags */
	REC_PREEMPT	= 3,	/* unsigned char common_preempt_count */
	REC_PID		= 4,	/* int common_pid */
	REC_U8		= 8,	/* unsigned char u8f */
	REC_S8		= 9,	/* signed char s8f */
	REC_U16		= 10,	/* unsigned short u16f */
	REC_S16		= 12,	/* short s16f */
	REC_U32		= 16,	/* unsigned int u32f */
	REC_S32		= 20,	/* int s32f */
	REC_U64		= 24,	/* u64 u64f */
	REC_S64		= 32,	/* s64 s64f */
	REC_NAME	= 40,	/* char name[8] */
	REC_DSTR	= 48,	/* __data_loc char[] dstr */
	REC_RSTR	= 52,	/* __rel_loc char[] rstr */
	REC_PSTR	= 56,	/* const char *pstr */
	REC_SITE	= 64,	/* unsigned long call_site */
	REC_MASK	= 72,	/* __data_loc cpumask_t mask */
	REC_ARR		= 76,	/* int arr[3], a size the engine cannot load */
	REC_DATA	= 88,	/* dynamic data starts here */
	REC_SIZE	= 160,
	REC_BUF		= REC_SIZE,	/* char buf[]: the record ends with it */
};

#define F(n, t, o, s, sg, ft) { .name = n, .type = t, .offset = o,	\
	.size = s, .is_signed = sg, .filter_type = ft }

static struct ftrace_event_field filter_test_fields[] = {
	F("common_type", "unsigned short", REC_TYPE, 2, 0, FILTER_OTHER),
	F("common_flags", "unsigned char", REC_FLAGS, 1, 0, FILTER_OTHER),
	F("common_preempt_count", "unsigned char", REC_PREEMPT, 1, 0,
	  FILTER_OTHER),
	F("common_pid", "int", REC_PID, 4, 1, FILTER_OTHER),
	F("u8f", "unsigned char", REC_U8, 1, 0, FILTER_OTHER),
	F("s8f", "signed char", REC_S8, 1, 1, FILTER_OTHER),
	F("u16f", "unsigned short", REC_U16, 2, 0, FILTER_OTHER),
	F("s16f", "short", REC_S16, 2, 1, FILTER_OTHER),
	F("u32f", "unsigned int", REC_U32, 4, 0, FILTER_OTHER),
	F("s32f", "int", REC_S32, 4, 1, FILTER_OTHER),
	F("u64f", "u64", REC_U64, 8, 0, FILTER_OTHER),
	F("s64f", "s64", REC_S64, 8, 1, FILTER_OTHER),
	F("name", "char[8]", REC_NAME, 8, 0, FILTER_STATIC_STRING),
	F("dstr", "__data_loc char[]", REC_DSTR, 4, 0, FILTER_DYN_STRING),
	F("rstr", "__rel_loc char[]", REC_RSTR, 4, 0, FILTER_RDYN_STRING),
	F("pstr", "const char *", REC_PSTR, 8, 0, FILTER_PTR_STRING),
	F("call_site", "unsigned long", REC_SITE, sizeof(long), 0,
	  FILTER_OTHER),
	F("mask", "__data_loc cpumask_t", REC_MASK, 4, 0, FILTER_CPUMASK),
	F("arr", "int[3]", REC_ARR, 12, 1, FILTER_OTHER),
	F("cpu", "int", 0, 0, 1, FILTER_CPU),
	F("COMM", "char *", 0, 0, 0, FILTER_COMM),
	F("ip", "unsigned long", REC_SITE, sizeof(long), 0, FILTER_OTHER),
	F("buf", "char[]", REC_BUF, 0, 0, FILTER_STATIC_STRING),
};

static struct ftrace_event_field *filter_test_find(void *data,
						   const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(filter_test_fields); i++)
		if (!strcmp(filter_test_fields[i].name, name))
			return &filter_test_fields[i];
	return NULL;
}

static const struct filter_fields filter_test_src = {
	.find = filter_test_find,
};

static const struct filter_fields filter_test_ip_src = {
	.find = filter_test_find,
	.function_event = true,
};

/* The record most evaluation tests use. */
static u8 filter_rec[REC_SIZE] __aligned(8);
static const char filter_test_kstr[] = "hello world";

static void filter_put_loc(u8 *rec, int field, u16 off, u16 len)
{
	*(u32 *)(rec + field) = (u32)len << 16 | off;
}

static void filter_fill_rec(u8 *rec)
{
	memset(rec, 0, REC_SIZE);
	*(s32 *)(rec + REC_PID) = 42;
	rec[REC_U8] = 200;
	*(s8 *)(rec + REC_S8) = -5;
	*(u16 *)(rec + REC_U16) = 0x1234;
	*(s16 *)(rec + REC_S16) = -300;
	*(u32 *)(rec + REC_U32) = 0x80000000u;
	*(s32 *)(rec + REC_S32) = -70000;
	*(u64 *)(rec + REC_U64) = 0xfeedfacedeadbeefull;
	*(s64 *)(rec + REC_S64) = -1;
	memcpy(rec + REC_NAME, "bash", 5);
	/* dstr: "kworker/0:1" */
	memcpy(rec + REC_DATA, "kworker/0:1", 12);
	filter_put_loc(rec, REC_DSTR, REC_DATA, 12);
	/* rstr: "sshd", relative to the end of its descriptor */
	memcpy(rec + REC_DATA + 16, "sshd", 5);
	filter_put_loc(rec, REC_RSTR, REC_DATA + 16 - (REC_RSTR + 4), 5);
	*(const char **)(rec + REC_PSTR) = filter_test_kstr;
	*(unsigned long *)(rec + REC_SITE) =
		(unsigned long)filter_match_preds + 1;
	/* mask: CPUs 0 and 1 */
	*(unsigned long *)(rec + REC_DATA + 24) = 0x3;
	filter_put_loc(rec, REC_MASK, REC_DATA + 24, sizeof(long));
}

/* Compile @expr, run it on @rec, return 1/0, or -1 if it did not compile. */
static int filter_test_eval(const char *expr, void *rec)
{
	struct event_filter filter = {};
	struct trace_parse_err err;
	struct prog_entry *prog;
	int ret;

	prog = filter_compile(expr, &filter_test_src, &err);
	if (IS_ERR(prog))
		return -1;
	RCU_INIT_POINTER(filter.prog, prog);
	ret = filter_match_preds(&filter, rec);
	filter_prog_free(prog);
	return ret;
}

struct filter_eval_case {
	const char	*expr;		/* expression */
	int		match;		/* expected result on filter_rec */
};

static const struct filter_eval_case filter_eval_cases[] = {
	{ "common_pid == 42", 1 },
	{ "common_pid != 42", 0 },
	{ "common_pid > 41 && common_pid < 43", 1 },
	{ "common_pid >= 43 || common_pid <= 41", 0 },
	{ "u8f == 200", 1 },
	{ "u8f > 100", 1 },		/* unsigned: 200 > 100 */
	{ "u8f & 8", 1 },
	{ "u8f & 1", 0 },
	{ "s8f == -5", 1 },
	{ "s8f < 0", 1 },
	{ "s8f >= -4", 0 },
	{ "u16f == 0x1234", 1 },
	{ "u16f == 4660", 1 },
	{ "u16f == 011064", 1 },	/* octal */
	{ "s16f < -299", 1 },
	{ "s16f > -300", 0 },
	{ "u32f > 1", 1 },		/* unsigned 0x80000000 */
	{ "u32f & 0x80000000", 1 },
	{ "s32f == -70000", 1 },
	{ "s32f <= -70001", 0 },
	{ "u64f == 0xfeedfacedeadbeef", 1 },
	{ "u64f > 0xfeedfacedeadbeee", 1 },
	{ "s64f == -1", 1 },
	{ "s64f < 0", 1 },
	/* the edges of the range tests, each width and sign */
	{ "u8f < 0", 0 },		/* nothing below the minimum */
	{ "u8f >= 0", 1 },
	{ "u8f <= 255", 1 },
	{ "u8f > 255", 0 },
	{ "u8f == 456", 1 },		/* cut to the width: 456 & 0xff */
	{ "u8f < 201 && u8f > 199", 1 },
	{ "s8f < -128", 0 },
	{ "s8f >= -128", 1 },
	{ "s8f <= -5 && s8f >= -5", 1 },
	{ "s8f > 127", 0 },
	{ "u16f < 0x1235 && u16f > 0x1233", 1 },
	{ "s16f >= -32768 && s16f < 32767", 1 },
	{ "s16f < -32768", 0 },
	{ "u32f >= 0x80000000 && u32f <= 0xffffffff", 1 },
	{ "u32f < 0x80000000", 0 },
	{ "s32f < -2147483648", 0 },
	{ "s32f >= -70000 && s32f < -69999", 1 },
	{ "s32f > -2147483648", 1 },
	{ "u64f < 0", 0 },
	{ "u64f <= 0xffffffffffffffff", 1 },
	{ "u64f >= 0xfeedfacedeadbef0", 0 },
	{ "s64f < -9223372036854775808", 0 },
	{ "s64f >= -9223372036854775808", 1 },
	{ "s64f > -2 && s64f < 1", 1 },
	{ "s64f <= 9223372036854775807", 1 },
	{ "s64f > 9223372036854775807", 0 },
	{ "arr == 0", 0 },		/* not loadable: never matches */
	{ "arr != 0", 0 },
	{ "name == \"bash\"", 1 },
	{ "name == bash", 1 },		/* bare word */
	{ "name != \"bash\"", 0 },
	{ "name == \"bas\"", 0 },
	{ "name ~ \"ba*\"", 1 },
	{ "name ~ \"*sh\"", 1 },
	{ "name ~ \"*as*\"", 1 },
	{ "name ~ \"b?sh\"", 1 },
	{ "name ~ \"[a-c]ash\"", 1 },
	{ "name ~ \"[!b]ash\"", 0 },
	{ "name ~ \"!bash\"", 0 },	/* '!' negates a glob */
	{ "name ~ \"!zsh\"", 1 },
	{ "name == \"ba*\"", 0 },	/* == is literal */
	{ "dstr == \"kworker/0:1\"", 1 },
	{ "dstr ~ \"kworker/*\"", 1 },
	{ "dstr ~ \"*:1\"", 1 },
	{ "dstr ~ \"*rker*\"", 1 },
	{ "dstr ~ \"k*/?:[0-9]\"", 1 },
	{ "dstr == kworker", 0 },
	{ "rstr == \"sshd\"", 1 },
	{ "rstr ~ 'ss*'", 1 },
	{ "rstr != sshd", 0 },
	{ "pstr == \"hello world\"", 1 },
	{ "pstr ~ \"*wor*\"", 1 },
	{ "pstr ~ \"hello\"", 0 },
	{ "pstr.ustring ~ \"*\"", 0 },	/* a kernel pointer is no user string */
	{ "call_site.function == filter_match_preds", 1 },
	{ "call_site.function != filter_match_preds", 0 },
	{ "call_site.function == filter_compile", 0 },
	{ "cpu >= 0", 1 },
	{ "cpu < 0", 0 },
	{ "!(common_pid == 42)", 0 },
	{ "!!(common_pid == 42)", 1 },
	{ "!common_pid == 42 || u8f == 200", 1 },
	{ "u8f == 1 || u8f == 2 || u8f == 200", 1 },
	{ "(u8f == 1 || s8f == -5) && (u16f == 1 || u32f & 1)", 0 },
	{ "(u8f == 1 || s8f == -5) && !(u16f == 1 || u32f & 1)", 1 },
	{ "u8f == 200 && s8f == -5 && u16f == 0x1234 && s16f < 0 && u32f > 0", 1 },
	{ "((((common_pid == 42))))", 1 },
};

/* With the record's cpumask field holding CPU 0 only. */
static const struct filter_eval_case filter_cpu0_cases[] = {
	{ "mask & CPUS{0}", 1 },
	{ "mask == CPUS{0}", 1 },
	{ "mask != CPUS{0}", 0 },
	{ "u8f & CPUS{0}", 0 },		/* a single CPU: u8f == 0 */
	{ "common_pid != CPUS{0}", 1 },
	{ "(cpu == CPUS{0}) == (cpu & CPUS{0})", -1 },	/* not an expression */
};

/* CPU sets name CPUs 0 and 1: these need two CPUs. */
static const struct filter_eval_case filter_cpu_cases[] = {
	{ "cpu == CPUS{0-1}", 0 },	/* a CPU never equals a set */
	{ "cpu != CPUS{0-1}", 1 },
	{ "mask & CPUS{1}", 1 },
	{ "mask == CPUS{0-1}", 1 },
	{ "mask == CPUS{0}", 0 },
	{ "mask != CPUS{0}", 1 },
	{ "mask & CPUS{0,1}", 1 },
	{ "u8f & CPUS{0-1}", 0 },	/* 200 is not in the set */
	{ "common_pid == CPUS{1}", 0 },
	{ "common_pid != CPUS{1}", 1 },
};

static void filter_test_run_cases(struct kunit *test,
				  const struct filter_eval_case *c, int nr)
{
	int i;

	filter_fill_rec(filter_rec);
	for (i = 0; i < nr; i++)
		KUNIT_EXPECT_EQ_MSG(test, filter_test_eval(c[i].expr, filter_rec),
				    c[i].match, "expr: %s", c[i].expr);
}

static void filter_test_eval_cases(struct kunit *test)
{
	filter_test_run_cases(test, filter_eval_cases,
			      ARRAY_SIZE(filter_eval_cases));
}

static void filter_test_cpu_cases(struct kunit *test)
{
	char expr[32];
	int i;

	filter_fill_rec(filter_rec);
	snprintf(expr, sizeof(expr), "cpu & CPUS{0-%u}", nr_cpu_ids - 1);
	KUNIT_EXPECT_EQ(test, filter_test_eval(expr, filter_rec), 1);
	migrate_disable();
	snprintf(expr, sizeof(expr), "cpu == %d", raw_smp_processor_id());
	KUNIT_EXPECT_EQ(test, filter_test_eval(expr, filter_rec), 1);
	snprintf(expr, sizeof(expr), "cpu != CPUS{%d}", raw_smp_processor_id());
	KUNIT_EXPECT_EQ(test, filter_test_eval(expr, filter_rec), 0);
	migrate_enable();

	*(unsigned long *)(filter_rec + REC_DATA + 24) = 0x1;
	for (i = 0; i < ARRAY_SIZE(filter_cpu0_cases); i++)
		KUNIT_EXPECT_EQ_MSG(test, filter_test_eval(filter_cpu0_cases[i].expr,
							   filter_rec),
				    filter_cpu0_cases[i].match, "expr: %s",
				    filter_cpu0_cases[i].expr);
}

static void filter_test_cpu_set_cases(struct kunit *test)
{
	if (nr_cpu_ids < 2)
		kunit_skip(test, "the CPU set cases need two CPUs");
	filter_test_run_cases(test, filter_cpu_cases,
			      ARRAY_SIZE(filter_cpu_cases));
}

struct filter_err_case {
	const char		*expr;	/* invalid expression */
	enum filter_err_code	code;	/* expected message */
	int			pos;	/* expected caret column */
};

static const struct filter_err_case filter_err_cases[] = {
	{ "dsig == 17", FILTER_ERR_FIELD_NOT_FOUND, 5 },
	{ "u8f == 1 && dsig == 17", FILTER_ERR_FIELD_NOT_FOUND, 17 },
	{ "u8f = 1", FILTER_ERR_INVALID_OP, 4 },
	{ "u8f.foo == 1", FILTER_ERR_INVALID_OP, 3 },
	{ "u8f == ", FILTER_ERR_INVALID_VALUE, 7 },
	{ "u8f == bar", FILTER_ERR_INVALID_VALUE, 7 },
	{ "name == ba\"sh\"", FILTER_ERR_INVALID_VALUE, 8 },
	{ "name ~ b'a'", FILTER_ERR_INVALID_VALUE, 7 },
	{ "name == 'x", FILTER_ERR_MISSING_QUOTE, 8 },
	{ "(u8f == 1", FILTER_ERR_TOO_MANY_OPEN, 0 },
	{ "((u8f == 1) && (u8f == 2)", FILTER_ERR_TOO_MANY_OPEN, 0 },
	{ "(u8f == 1) && (u8f == 2", FILTER_ERR_TOO_MANY_OPEN, 14 },
	{ "u8f == 1)", FILTER_ERR_TOO_MANY_CLOSE, 8 },
	{ "u8f == 1 &&", FILTER_ERR_INVALID_FILTER, 11 },
	{ "u8f == 1 || !", FILTER_ERR_INVALID_FILTER, 13 },
	{ "u8f == 1 && ()", FILTER_ERR_INVALID_FILTER, 13 },
	{ "u8f == 1 && && u8f == 2", FILTER_ERR_INVALID_FILTER, 12 },
	{ "u8f == 1 u16f == 2", FILTER_ERR_TOO_MANY_PREDS, 9 },
	{ "u8f == 1 & u16f == 2", FILTER_ERR_TOO_MANY_PREDS, 9 },
	{ "name == 1", FILTER_ERR_EXPECT_STRING, 8 },
	{ "u8f == \"x\"", FILTER_ERR_EXPECT_DIGIT, 7 },
	{ "u8f ~ 1", FILTER_ERR_ILLEGAL_FIELD_OP, 4 },
	{ "name < \"a\"", FILTER_ERR_ILLEGAL_FIELD_OP, 5 },
	{ "u8f == 1x", FILTER_ERR_ILLEGAL_INTVAL, 7 },
	{ "u8f == -1", FILTER_ERR_ILLEGAL_INTVAL, 7 },
	{ "u8f == 0x1234567890123456789012", FILTER_ERR_OPERAND_TOO_LONG, 7 },
	{ "u8f.function == foo", FILTER_ERR_ILLEGAL_FIELD_OP, 0 },
	{ "call_site.function < foo", FILTER_ERR_INVALID_OP, 19 },
	{ "call_site.function == no_such_fn_x", FILTER_ERR_NO_FUNCTION, 22 },
	{ "mask == CPUS", FILTER_ERR_MISSING_BRACE_OPEN, 12 },
	{ "mask == CPUS{0", FILTER_ERR_MISSING_BRACE_CLOSE, 14 },
	{ "mask == CPUS{}", FILTER_ERR_INVALID_CPULIST, 13 },
	{ "mask == CPUS{x}", FILTER_ERR_INVALID_CPULIST, 13 },
	{ "mask < CPUS{0}", FILTER_ERR_ILLEGAL_FIELD_OP, 5 },
	{ "name == CPUS{0}", FILTER_ERR_ILLEGAL_FIELD_OP, 0 },
	{ "", FILTER_ERR_NO_FILTER, 0 },
	{ "!", FILTER_ERR_NO_FILTER, 1 },
	{ "()", FILTER_ERR_NO_FILTER, 1 },
	{ "== 1", FILTER_ERR_FIELD_NOT_FOUND, 0 },
	{ "  u8f  ==  1  &&  nope  ==  2", FILTER_ERR_FIELD_NOT_FOUND, 24 },
};

static void filter_test_errors(struct kunit *test)
{
	struct trace_parse_err err;
	struct prog_entry *prog;
	int i;

	for (i = 0; i < ARRAY_SIZE(filter_err_cases); i++) {
		const struct filter_err_case *c = &filter_err_cases[i];

		prog = filter_compile(c->expr, &filter_test_src, &err);
		KUNIT_EXPECT_EQ_MSG(test, PTR_ERR_OR_ZERO(prog), -EINVAL,
				    "expr: %s", c->expr);
		if (!IS_ERR(prog)) {
			filter_prog_free(prog);
			continue;
		}
		KUNIT_EXPECT_STREQ_MSG(test, filter_err_text[err.err],
				       filter_err_text[c->code],
				       "expr: %s", c->expr);
		KUNIT_EXPECT_EQ_MSG(test, err.pos, c->pos, "expr: %s", c->expr);
	}
}

static void filter_test_too_long_string(struct kunit *test)
{
	struct trace_parse_err err;
	struct prog_entry *prog;
	char *expr;

	expr = kunit_kzalloc(test, MAX_FILTER_STR_VAL + 16, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, expr);
	memcpy(expr, "name == \"", 9);
	memset(expr + 9, 'a', MAX_FILTER_STR_VAL);
	expr[9 + MAX_FILTER_STR_VAL] = '"';
	prog = filter_compile(expr, &filter_test_src, &err);
	KUNIT_ASSERT_TRUE(test, IS_ERR(prog));
	KUNIT_EXPECT_EQ(test, err.err, FILTER_ERR_OPERAND_TOO_LONG);
	KUNIT_EXPECT_EQ(test, err.pos, 8);
}

/* "a && b || c": a false skips b, b true accepts without testing c. */
static void filter_test_program_shape(struct kunit *test)
{
	struct trace_parse_err err;
	struct prog_entry *prog;

	prog = filter_compile("u8f == 1 && u16f == 2 || u32f != 3",
			      &filter_test_src, &err);
	KUNIT_ASSERT_FALSE(test, IS_ERR(prog));
	KUNIT_EXPECT_EQ(test, prog[0].on_true, 1);
	KUNIT_EXPECT_EQ(test, prog[0].on_false, 2);
	KUNIT_EXPECT_EQ(test, prog[1].on_true, FILTER_ACCEPT);
	KUNIT_EXPECT_EQ(test, prog[1].on_false, 2);
	/* "!=" is "==" with the verdicts swapped */
	KUNIT_EXPECT_EQ(test, prog[2].on_true, FILTER_REJECT);
	KUNIT_EXPECT_EQ(test, prog[2].on_false, FILTER_ACCEPT);
	KUNIT_EXPECT_EQ(test, prog[3].code, FILTER_T_END);
	filter_prog_free(prog);
}

/*
 * Only a program that reads common_flags or common_preempt_count says so
 * on its first entry: trace_event_filter_record() gathers them for it.
 */
static void filter_test_header_ctx(struct kunit *test)
{
	static const struct { const char *expr; bool ctx; } cases[] = {
		{ "common_flags & 1", true },
		{ "u8f == 1 || common_preempt_count > 0", true },
		{ "!(common_flags == 0) && u8f == 1", true },
		{ "common_pid == 1 && common_type == 2", false },
		{ "cpu == 0 || COMM == \"sh\"", false },
		{ "u8f == 1", false },
	};
	struct trace_parse_err err;
	struct prog_entry *prog;
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		prog = filter_compile(cases[i].expr, &filter_test_src, &err);
		KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(prog), "%s", cases[i].expr);
		KUNIT_EXPECT_EQ_MSG(test, !!(prog[0].flags & FILTER_FL_HEADER_CTX),
				    cases[i].ctx, "%s", cases[i].expr);
		filter_prog_free(prog);
	}
}

/* Nesting depth costs heap, not stack. */
static void filter_test_deep_nesting(struct kunit *test)
{
	const int depth = 1500;
	char *expr;
	int i;

	expr = kunit_kzalloc(test, 2 * depth + 32, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, expr);
	for (i = 0; i < depth; i++)
		expr[i] = i & 1 ? '!' : '(';
	strcat(expr, "u8f == 200");
	for (i = 0; i < depth / 2; i++)
		strcat(expr, ")");
	filter_fill_rec(filter_rec);
	/* 750 '!' cancel out */
	KUNIT_EXPECT_EQ(test, filter_test_eval(expr, filter_rec), 1);
}

/* Strings that do not end where their field ends. */
static void filter_test_string_bounds(struct kunit *test)
{
	u8 *rec;

	rec = kunit_kzalloc(test, REC_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rec);

	/* char[8] without NUL, printable bytes right after it */
	memcpy(rec + REC_NAME, "abcdefghijk", 12);
	KUNIT_EXPECT_EQ(test, filter_test_eval("name == abcdefgh", rec), 1);
	KUNIT_EXPECT_EQ(test, filter_test_eval("name == abcdefghijk", rec), 0);
	KUNIT_EXPECT_EQ(test, filter_test_eval("name ~ \"*ijk\"", rec), 0);
	KUNIT_EXPECT_EQ(test, filter_test_eval("name ~ \"*gh\"", rec), 1);
	KUNIT_EXPECT_EQ(test, filter_test_eval("name ~ \"*hi*\"", rec), 0);
	KUNIT_EXPECT_EQ(test, filter_test_eval("name ~ \"a*h\"", rec), 1);
	KUNIT_EXPECT_EQ(test, filter_test_eval("name ~ \"a*i\"", rec), 0);

	/* __data_loc length shorter than the string: bounded by the length */
	memset(rec + REC_DATA, 0, 40);
	memcpy(rec + REC_DATA, "abcdef", 7);
	filter_put_loc(rec, REC_DSTR, REC_DATA, 3);
	KUNIT_EXPECT_EQ(test, filter_test_eval("dstr == abc", rec), 1);
	KUNIT_EXPECT_EQ(test, filter_test_eval("dstr == abcdef", rec), 0);
	KUNIT_EXPECT_EQ(test, filter_test_eval("dstr ~ \"*def\"", rec), 0);
	KUNIT_EXPECT_EQ(test, filter_test_eval("dstr ~ \"*c\"", rec), 1);

	/* length longer than the string: the NUL ends it */
	memcpy(rec + REC_DATA, "ab\0cd", 5);
	filter_put_loc(rec, REC_DSTR, REC_DATA, 5);
	KUNIT_EXPECT_EQ(test, filter_test_eval("dstr == ab", rec), 1);
	KUNIT_EXPECT_EQ(test, filter_test_eval("dstr ~ \"*cd\"", rec), 0);

	/* zero length: the empty string */
	filter_put_loc(rec, REC_DSTR, REC_DATA, 0);
	KUNIT_EXPECT_EQ(test, filter_test_eval("dstr == \"\"", rec), 1);
	KUNIT_EXPECT_EQ(test, filter_test_eval("dstr ~ \"*\"", rec), 1);
	KUNIT_EXPECT_EQ(test, filter_test_eval("dstr ~ \"?*\"", rec), 0);

	/* __rel_loc, unterminated within its length */
	memcpy(rec + REC_DATA + 8, "xyzw", 4);
	filter_put_loc(rec, REC_RSTR, REC_DATA + 8 - (REC_RSTR + 4), 2);
	KUNIT_EXPECT_EQ(test, filter_test_eval("rstr == xy", rec), 1);
	KUNIT_EXPECT_EQ(test, filter_test_eval("rstr ~ \"x*w\"", rec), 0);

	/* NULL and bogus pointers never match and never fault */
	*(const char **)(rec + REC_PSTR) = NULL;
	KUNIT_EXPECT_EQ(test, filter_test_eval("pstr ~ \"*\"", rec), 0);
	*(unsigned long *)(rec + REC_PSTR) = 16;
	KUNIT_EXPECT_EQ(test, filter_test_eval("pstr ~ \"*\"", rec), 0);
	KUNIT_EXPECT_EQ(test, filter_test_eval("pstr.ustring ~ \"*\"", rec), 0);
}

static void filter_test_patterns(struct kunit *test)
{
	static const struct {
		const char *pat, *str;
		bool match;
	} cases[] = {
		{ "abc", "abc", true }, { "abc", "abcd", false },
		{ "ab*", "abxyz", true }, { "ab*", "a", false },
		{ "*yz", "abxyz", true }, { "*yz", "z", false },
		{ "*bx*", "abxyz", true }, { "*q*", "abxyz", false },
		{ "a?c", "abc", true }, { "a?c", "ac", false },
		{ "a[bx]c", "axc", true }, { "a[!bx]c", "abc", false },
		{ "a*b*c", "aXbYc", true }, { "a*b*c", "aXbY", false },
		{ "*", "", true }, { "", "", true }, { "", "a", false },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool negate = false;
		struct filter_pattern *pat;

		pat = filter_pattern_new(cases[i].pat, strlen(cases[i].pat),
					 true, &negate);
		KUNIT_ASSERT_NOT_NULL(test, pat);
		KUNIT_EXPECT_EQ_MSG(test,
				    filter_pattern_match(pat, cases[i].str,
							 strlen(cases[i].str) + 1),
				    cases[i].match, "%s vs %s", cases[i].pat,
				    cases[i].str);
		filter_pattern_free(pat);
	}
}

/*
 * The compiled globs against lib/glob.c's glob_match(), the reference for
 * the syntax, on every pattern and string of two lists, corner cases of
 * classes, ranges, escapes and stars included.  Strings are also given
 * without their NUL, bounded by length only.
 */
static void filter_test_glob_reference(struct kunit *test)
{
	static const char * const pats[] = {
		"", "*", "**", "?", "a", "abc", "a*", "*c", "*b*", "a*c",
		"a*b*c", "*a*a*", "a?c", "??", "?*?", "[abc]", "[!abc]",
		"[a-c]x", "[!a-c]*", "[]a]", "[!]a]", "[a-]", "[-a]", "[z-a]",
		"a[", "a[b", "[", "[!", "\\*", "\\", "a\\", "\\?",
		"a\\*c", "*[xyz]", "f?l*[xyz]", "*.[ch]", "[[]", "[\\]]",
		"x*[!a]*y", "*aaaaa", "a*a*a*a*b", "[!]", "[]", "[]]", "[a-b-c]",
		"*[a-", "*[!a-]",
	};
	static const char * const strs[] = {
		"", "a", "b", "c", "x", "]", "-", "[", "\\", "*", "?", "ab",
		"abc", "abd", "ac", "aXbYc", "aaaaaaaaaa", "aaaaaaab",
		"filter_bench", "filz", "main.c", "main.h", "bx", "x]y", "a[b",
		"xay", "xby", "xy", "!", "b-", "[]", "[!]", "[a-",
	};
	char buf[32];
	int i, j;

	for (i = 0; i < ARRAY_SIZE(pats); i++) {
		struct filter_glob *g = filter_glob_compile(pats[i]);

		KUNIT_ASSERT_NOT_NULL(test, g);
		for (j = 0; j < ARRAY_SIZE(strs); j++) {
			size_t len = strlen(strs[j]);

			/* a copy with no NUL in reach of the matcher */
			memcpy(buf, strs[j], len);
			memset(buf + len, 'Z', sizeof(buf) - len);
			KUNIT_EXPECT_EQ_MSG(test, filter_glob_match(g, buf, len),
					    glob_match(pats[i], strs[j]),
					    "\"%s\" vs \"%s\"", pats[i], strs[j]);
		}
		kfree(g);
	}
}

/*
 * "~" takes the whole string on every kind of string field: a pattern
 * with no wildcard is equality, never "starts with".  Every field kind
 * against glob_match(), the reference for the syntax.  The flexible
 * char[] (ftrace's print buf) has no size but its NUL: its record is laid
 * out to end with the last byte of a vmalloc'ed page, so that a read past
 * the NUL faults on the guard page.
 */
static void filter_test_glob_whole(struct kunit *test)
{
	static const char * const pats[] = {
		"abc", "abc*", "*abc", "*abc*", "a?c", "[ab]c", "[ab]bc",
		"a*c", "?bc*", "*b?", "abc?", "ab[c]", "a\\bc", "", "*",
		"!abc", "!abc*", "!*abc", "!a?c", "abcdefgh", "abcdefghij",
	};
	static const char * const strs[] = {
		"abc", "abcd", "xabc", "abcabc", "ab", "bc", "aXc", "bbc", "",
		"abcdefg", "abcdefgh", "abcdefghij",
	};
	static const char * const fields[] = { "name", "dstr", "rstr", "buf" };
	char expr[64];
	u8 *page, *rec;
	int i, j, f;

	page = vmalloc(PAGE_SIZE);
	KUNIT_ASSERT_NOT_NULL(test, page);
	for (j = 0; j < ARRAY_SIZE(strs); j++) {
		const char *str = strs[j];
		size_t len = strlen(str);

		for (f = 0; f < ARRAY_SIZE(fields); f++) {
			if (f == 3) {
				/* byte-aligned: only buf is read */
				rec = page + PAGE_SIZE - (REC_BUF + len + 1);
				memset(rec, 0, REC_BUF);
				memcpy(rec + REC_BUF, str, len + 1);
			} else {
				rec = page;
				filter_fill_rec(rec);
				/* name: the string fills all 8 bytes or ends with NUL */
				memset(rec + REC_NAME, 0, 8);
				memcpy(rec + REC_NAME, str, min(len, 8));
				/* dstr with its NUL, rstr bounded by its length */
				memset(rec + REC_DATA, 'Z', 40);
				memcpy(rec + REC_DATA, str, len + 1);
				filter_put_loc(rec, REC_DSTR, REC_DATA, len + 1);
				filter_put_loc(rec, REC_RSTR,
					       REC_DATA - (REC_RSTR + 4), len);
			}
			if (f == 0 && len > 8)
				continue;
			for (i = 0; i < ARRAY_SIZE(pats); i++) {
				const char *pat = pats[i];
				bool neg = pat[0] == '!';
				int want = glob_match(pat + neg, str) != neg;

				snprintf(expr, sizeof(expr), "%s ~ \"%s\"",
					 fields[f], pat);
				KUNIT_EXPECT_EQ_MSG(test, filter_test_eval(expr, rec),
						    want, "%s on \"%s\"", expr, str);
			}
			snprintf(expr, sizeof(expr), "%s == \"abc\"", fields[f]);
			KUNIT_EXPECT_EQ_MSG(test, filter_test_eval(expr, rec),
					    !strcmp(str, "abc"), "%s on \"%s\"",
					    expr, str);
		}
	}
	vfree(page);
}

static void filter_test_regex_types(struct kunit *test)
{
	char buf[16];
	char *search;
	int not;

	strscpy(buf, "!foo*", sizeof(buf));
	KUNIT_EXPECT_EQ(test, filter_parse_regex(buf, 5, &search, &not),
			MATCH_FRONT_ONLY);
	KUNIT_EXPECT_EQ(test, not, 1);
	KUNIT_EXPECT_STREQ(test, search, "foo");
	strscpy(buf, "*foo*", sizeof(buf));
	KUNIT_EXPECT_EQ(test, filter_parse_regex(buf, 5, &search, &not),
			MATCH_MIDDLE_ONLY);
	KUNIT_EXPECT_STREQ(test, search, "foo");
	strscpy(buf, "*foo", sizeof(buf));
	KUNIT_EXPECT_EQ(test, filter_parse_regex(buf, 4, &search, &not),
			MATCH_END_ONLY);
	KUNIT_EXPECT_STREQ(test, search, "foo");
	strscpy(buf, "*f*o", sizeof(buf));
	KUNIT_EXPECT_EQ(test, filter_parse_regex(buf, 4, &search, &not),
			MATCH_GLOB);
	KUNIT_EXPECT_STREQ(test, search, "*f*o");
	strscpy(buf, "12", sizeof(buf));
	KUNIT_EXPECT_EQ(test, filter_parse_regex(buf, 2, &search, &not),
			MATCH_INDEX);
	strscpy(buf, "foo", sizeof(buf));
	KUNIT_EXPECT_EQ(test, filter_parse_regex(buf, 3, &search, &not),
			MATCH_FULL);
	KUNIT_EXPECT_EQ(test, not, 0);
}

static void filter_test_assign_type(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, filter_assign_type("__data_loc char[]"),
			FILTER_DYN_STRING);
	KUNIT_EXPECT_EQ(test, filter_assign_type("__data_loc cpumask_t"),
			FILTER_CPUMASK);
	KUNIT_EXPECT_EQ(test, filter_assign_type("__rel_loc char[]"),
			FILTER_RDYN_STRING);
	KUNIT_EXPECT_EQ(test, filter_assign_type("char[16]"),
			FILTER_STATIC_STRING);
	KUNIT_EXPECT_EQ(test, filter_assign_type("const char *"),
			FILTER_PTR_STRING);
	KUNIT_EXPECT_EQ(test, filter_assign_type("int"), FILTER_OTHER);
	KUNIT_EXPECT_EQ(test, filter_assign_type("__data_loc int[]"),
			FILTER_OTHER);
}

/* perf's function event: only "||" lists of "ip" tests. */
static void filter_test_ip_lists(struct kunit *test)
{
	struct trace_parse_err err;
	struct prog_entry *prog;

	prog = filter_compile("ip == foo,bar || ip != 'baz'",
			      &filter_test_ip_src, &err);
	KUNIT_ASSERT_FALSE(test, IS_ERR(prog));
	KUNIT_EXPECT_TRUE(test, filter_ip_list(prog));
	KUNIT_EXPECT_STREQ(test, prog[0].pat->text, "foo,bar");
	KUNIT_EXPECT_STREQ(test, prog[1].pat->text, "baz");
	KUNIT_EXPECT_TRUE(test, prog[1].flags & FILTER_FL_NE);
	filter_prog_free(prog);

	prog = filter_compile("ip == a && ip == b", &filter_test_ip_src, &err);
	KUNIT_ASSERT_FALSE(test, IS_ERR(prog));
	KUNIT_EXPECT_FALSE(test, filter_ip_list(prog));
	filter_prog_free(prog);

	prog = filter_compile("u8f == 1", &filter_test_ip_src, &err);
	KUNIT_ASSERT_TRUE(test, IS_ERR(prog));
	KUNIT_EXPECT_EQ(test, err.err, FILTER_ERR_IP_FIELD_ONLY);
}

static struct kunit_case filter_test_cases[] = {
	KUNIT_CASE(filter_test_eval_cases),
	KUNIT_CASE(filter_test_cpu_cases),
	KUNIT_CASE(filter_test_cpu_set_cases),
	KUNIT_CASE(filter_test_errors),
	KUNIT_CASE(filter_test_too_long_string),
	KUNIT_CASE(filter_test_program_shape),
	KUNIT_CASE(filter_test_header_ctx),
	KUNIT_CASE(filter_test_deep_nesting),
	KUNIT_CASE(filter_test_string_bounds),
	KUNIT_CASE(filter_test_patterns),
	KUNIT_CASE(filter_test_glob_reference),
	KUNIT_CASE(filter_test_glob_whole),
	KUNIT_CASE(filter_test_regex_types),
	KUNIT_CASE(filter_test_assign_type),
	KUNIT_CASE(filter_test_ip_lists),
	{}
};

static struct kunit_suite filter_test_suite = {
	.name = "trace_event_filter",
	.test_cases = filter_test_cases,
};

kunit_test_suite(filter_test_suite);
