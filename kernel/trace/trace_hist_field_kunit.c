// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of hist fields (trace_hist_field.c): expressions bound to
 * a made-up event, the values they read from a record of it, and the
 * mistakes binding must catch, with their columns; and of how fields,
 * keys and values print (trace_hist_output.c), byte for byte.
 */
#include <kunit/test.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_hist.h"

/* The record of the made-up event. */
struct hist_test_rec {
	struct trace_entry	ent;		/* common_pid at offset 4 */
	s8			s8v;		/* 8 */
	u8			pad;
	s16			s16v;		/* 10 */
	s32			s32v;		/* 12 */
	u64			u64v;		/* 16 */
	char			comm[8];	/* 24 */
	u32			dyn;		/* 32, __data_loc char[] */
	u32			rel;		/* 36, __rel_loc char[] */
	u8			mac[6];		/* 40 */
	u16			pad2;
	const char		*ptr;		/* 48, char * */
	char			data[32];	/* 56: the dynamic strings */
};

/* Offset and size of a member of the record, for the field table. */
#define HIST_TEST_AT(m)		offsetof(struct hist_test_rec, m)
#define HIST_TEST_SIZE(m)	sizeof_field(struct hist_test_rec, m)

static struct ftrace_event_field hist_test_fields[] = {
	{ .type = "s8", .name = "s8v",
	  .filter_type = FILTER_OTHER, .is_signed = 1,
	  .offset = HIST_TEST_AT(s8v), .size = HIST_TEST_SIZE(s8v) },
	{ .type = "s16", .name = "s16v",
	  .filter_type = FILTER_OTHER, .is_signed = 1,
	  .offset = HIST_TEST_AT(s16v), .size = HIST_TEST_SIZE(s16v) },
	{ .type = "s32", .name = "s32v",
	  .filter_type = FILTER_OTHER, .is_signed = 1,
	  .offset = HIST_TEST_AT(s32v), .size = HIST_TEST_SIZE(s32v) },
	{ .type = "u64", .name = "u64v",
	  .filter_type = FILTER_OTHER, .is_signed = 0,
	  .offset = HIST_TEST_AT(u64v), .size = HIST_TEST_SIZE(u64v) },
	{ .type = "char[8]", .name = "comm",
	  .filter_type = FILTER_STATIC_STRING, .is_signed = 1,
	  .offset = HIST_TEST_AT(comm), .size = HIST_TEST_SIZE(comm) },
	{ .type = "__data_loc char[]", .name = "dyn",
	  .filter_type = FILTER_DYN_STRING, .is_signed = 1,
	  .offset = HIST_TEST_AT(dyn), .size = HIST_TEST_SIZE(dyn) },
	{ .type = "__rel_loc char[]", .name = "rel",
	  .filter_type = FILTER_RDYN_STRING, .is_signed = 1,
	  .offset = HIST_TEST_AT(rel), .size = HIST_TEST_SIZE(rel) },
	{ .type = "u8[6]", .name = "mac",
	  .filter_type = FILTER_OTHER, .is_signed = 0,
	  .offset = HIST_TEST_AT(mac), .size = HIST_TEST_SIZE(mac) },
	{ .type = "const char *", .name = "ptr",
	  .filter_type = FILTER_PTR_STRING, .is_signed = 1,
	  .offset = HIST_TEST_AT(ptr), .size = HIST_TEST_SIZE(ptr) },
};

static struct trace_event_class hist_test_class = {
	.system	= "hist_test",
	.fields	= LIST_HEAD_INIT(hist_test_class.fields),
};

static struct trace_event_call hist_test_call = {
	.class	= &hist_test_class,
	.name	= "ev",
};

/* A record: the strings "dynamic" and "relative" in data[]. */
static void hist_test_fill(struct hist_test_rec *r)
{
	memset(r, 0, sizeof(*r));
	r->ent.pid = 1234;
	r->s8v = -3;
	r->s16v = -300;
	r->s32v = -70000;
	r->u64v = 1000000007ULL;
	strscpy(r->comm, "task", sizeof(r->comm));
	strscpy(r->data, "dynamic", 8);
	strscpy(r->data + 8, "relative", 9);
	r->dyn = 8 << 16 | offsetof(struct hist_test_rec, data);
	r->rel = 9 << 16 | (offsetof(struct hist_test_rec, data) + 8 -
			    offsetof(struct hist_test_rec, rel) - sizeof(u32));
	r->ptr = "pointer";
}

static int hist_test_init(struct kunit *test)
{
	unsigned int i;

	if (list_empty(&hist_test_class.fields))
		for (i = 0; i < ARRAY_SIZE(hist_test_fields); i++)
			list_add_tail(&hist_test_fields[i].link,
				      &hist_test_class.fields);
	return 0;
}

/* $x is variable 1 (a u64); $t a timestamp in usecs; others unknown. */
static int hist_test_resolve(struct hist_bind *b, const struct hist_expr *e,
			     struct hist_field *f)
{
	if (trace_token_is(&e->name, "x") || trace_token_is(&e->name, "t")) {
		f->var_ref_idx = 1;
		f->type = "u64";
		f->size = sizeof(u64);
		f->usecs = trace_token_is(&e->name, "t");
		return 0;
	}
	return trace_parse_fail(b->err, HIST_ERR_VAR_NOT_FOUND, e->text.pos);
}

static void hist_test_free_field(void *f)
{
	hist_field_free(f);
}

/* Bind @text as a @role; NULL (with @err set) when it is refused. */
static struct hist_field *hist_test_bind(struct kunit *test, const char *text,
					 enum hist_field_role role,
					 struct trace_parse_err *err)
{
	struct hist_spec *spec = kunit_kzalloc(test, sizeof(*spec), GFP_KERNEL);
	struct hist_bind b = {
		.call = &hist_test_call, .err = err, .clock_in_ns = true,
		.resolve_var = hist_test_resolve,
	};
	struct hist_expr *e;
	struct hist_field *f;

	KUNIT_ASSERT_NOT_NULL(test, spec);
	KUNIT_ASSERT_EQ_MSG(test, hist_parse_expr(spec, text, 0, strlen(text),
						  &e, err), 0, "%s", text);
	f = hist_field_bind(&b, e, role);
	if (IS_ERR(f))
		return NULL;
	kunit_add_action(test, hist_test_free_field, f);
	return f;
}

/* Bound as a key, which takes every modifier; with a reference, a value. */
static enum hist_field_role hist_test_role(const char *text)
{
	return strchr(text, '$') ? HIST_ROLE_VAL : HIST_ROLE_KEY;
}

/* The value of @text on the standard record. */
static u64 hist_test_value(struct kunit *test, const char *text)
{
	static const u64 vars[] = { 5, 42 };
	struct hist_test_rec r;
	struct hist_event ev = { .rec = &r, .vars = vars };
	struct trace_parse_err err = {};
	struct hist_field *f;

	hist_test_fill(&r);
	f = hist_test_bind(test, text, hist_test_role(text), &err);
	KUNIT_EXPECT_NOT_NULL_MSG(test, f, "%s: %s at %d", text,
				  hist_err_text[err.err], err.pos);
	return f ? hist_field_value(f, &ev) : 0;
}

static void hist_test_numbers(struct kunit *test)
{
	struct trace_parse_err err;
	struct hist_field *f;

	/* Signed fields are sign-extended to 64 bits. */
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "s8v"), (u64)-3);
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "s16v"), (u64)-300);
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "s32v"), (u64)-70000);
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "u64v"), 1000000007ULL);
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "common_pid"), 1234);
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "hitcount"), 1);

	f = hist_test_bind(test, "s16v", HIST_ROLE_KEY, &err);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, f->kind, HIST_FIELD_NUM);
	KUNIT_EXPECT_EQ(test, f->size, 2);
	KUNIT_EXPECT_TRUE(test, f->is_signed);
	KUNIT_EXPECT_STREQ(test, f->type, "s16");

	/* A char * is a number: what it points to may be gone. */
	f = hist_test_bind(test, "ptr", HIST_ROLE_KEY, &err);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, f->kind, HIST_FIELD_NUM);
	KUNIT_EXPECT_EQ(test, f->size, 8);

	/* common_cpu, and its old name */
	f = hist_test_bind(test, "cpu", HIST_ROLE_KEY, &err);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, f->kind, HIST_FIELD_CPU);
	KUNIT_EXPECT_STREQ(test, f->type, "unsigned int");
	KUNIT_EXPECT_EQ(test, f->size, 4);
	/* common_comm by the filter's name, unless the event has its own */
	f = hist_test_bind(test, "COMM", HIST_ROLE_KEY, &err);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, f->kind, HIST_FIELD_COMM);
	KUNIT_EXPECT_EQ(test, f->size, TASK_COMM_LEN);
	f = hist_test_bind(test, "comm", HIST_ROLE_KEY, &err);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, f->kind, HIST_FIELD_STR);
	KUNIT_EXPECT_EQ(test, f->size, 8);
	f = hist_test_bind(test, "common_stacktrace", HIST_ROLE_KEY, &err);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, f->kind, HIST_FIELD_CALLER);
	KUNIT_EXPECT_EQ(test, f->size, HIST_STACKTRACE_SIZE);
	f = hist_test_bind(test, "common_timestamp.usecs", HIST_ROLE_VAR, &err);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, f->kind, HIST_FIELD_TIMESTAMP);
	KUNIT_EXPECT_TRUE(test, f->usecs);
}

static void hist_test_strings(struct kunit *test)
{
	struct hist_test_rec r;
	struct hist_event ev = { .rec = &r };
	struct trace_parse_err err;
	static const struct {
		const char		*field;
		enum hist_field_kind	kind;
		unsigned int		size;
		const char		*value;
	} cases[] = {
		{ "comm", HIST_FIELD_STR, 8, "task" },
		{ "dyn", HIST_FIELD_DYN_STR, MAX_FILTER_STR_VAL, "dynamic" },
		{ "rel", HIST_FIELD_REL_STR, MAX_FILTER_STR_VAL, "relative" },
	};
	unsigned int i;

	hist_test_fill(&r);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct hist_field *f = hist_test_bind(test, cases[i].field,
						      HIST_ROLE_KEY, &err);

		KUNIT_ASSERT_NOT_NULL(test, f);
		KUNIT_EXPECT_EQ(test, f->kind, cases[i].kind);
		KUNIT_EXPECT_EQ(test, f->size, cases[i].size);
		KUNIT_EXPECT_TRUE(test, hist_field_is_string(f));
		KUNIT_EXPECT_STREQ(test, (char *)(unsigned long)hist_field_value(f, &ev),
				   cases[i].value);
	}
}

static void hist_test_arithmetic(struct kunit *test)
{
	struct trace_parse_err err;
	struct hist_field *f;

	/* -70000 + 1000000007 * 2 - 3, in u64 */
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "s32v+u64v*2-3"),
			(u64)-70000 + 2000000014ULL - 3);
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "-(s8v)"), 3);
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "u64v/7"), 1000000007ULL / 7);
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "u64v/1024"), 1000000007ULL / 1024);
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "u64v/0x100000001"), 0);
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "s8v/u64v"), (u64)-3 / 1000000007ULL);
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "u64v.log2"), 30);
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "u64v.buckets=1000"), 1000000000ULL);
	/* 2^29 <= 1000000007 < 2^30, in buckets of 2^26 */
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "u64v.log2=3"), 14ULL << 26);
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "u64v.log2=0"), 1ULL << 29);
	KUNIT_EXPECT_EQ(test, hist_test_value(test, "$x+1"), 43);

	/* Constants are folded when the command is written. */
	f = hist_test_bind(test, "2*3+4", HIST_ROLE_VAR, &err);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_EQ(test, f->kind, HIST_FIELD_CONST);
	KUNIT_EXPECT_EQ(test, f->constant, 10);
	KUNIT_EXPECT_NULL(test, f->arg[0]);

	/* An expression takes its first operand's type. */
	f = hist_test_bind(test, "s32v-s8v", HIST_ROLE_VAR, &err);
	KUNIT_ASSERT_NOT_NULL(test, f);
	KUNIT_EXPECT_STREQ(test, f->type, "s32");
	KUNIT_EXPECT_EQ(test, f->size, 4);
	KUNIT_EXPECT_TRUE(test, f->is_signed);
}

/* Division by constants: exact for every dividend, as div64_u64. */
static void hist_test_division(struct kunit *test)
{
	static const u64 divisors[] = {
		3, 7, 10, 60, 100, 641, 1000, 1000000, 0x7fffffff, 0xfffffffe,
		0xffffffff,
	};
	static const u64 dividends[] = {
		0, 1, 2, 999, 1000, 1001, 0x7fffffff, 0x80000000, 0xfffffffe,
		0xffffffff, 0x100000000ULL, 12345678901234ULL, U64_MAX,
	};
	struct hist_test_rec r;
	struct hist_event ev = { .rec = &r };
	struct trace_parse_err err;
	unsigned int i, j;
	char text[40];

	hist_test_fill(&r);
	for (i = 0; i < ARRAY_SIZE(divisors); i++) {
		struct hist_field *f;

		snprintf(text, sizeof(text), "u64v/%llu", divisors[i]);
		f = hist_test_bind(test, text, HIST_ROLE_VAL, &err);
		KUNIT_ASSERT_NOT_NULL(test, f);
		for (j = 0; j < ARRAY_SIZE(dividends); j++) {
			r.u64v = dividends[j];
			KUNIT_EXPECT_EQ_MSG(test, hist_field_value(f, &ev),
					    div64_u64(dividends[j], divisors[i]),
					    "%llu / %llu", dividends[j], divisors[i]);
		}
	}
}

/*
 * .log2=K at every K, walking its buckets from 0 to U64_MAX: they follow
 * each other without a gap, each number maps to the lowest of its own,
 * below 2^(K+1) each number is a bucket, and above it each power of two
 * holds 2^K buckets of one width, at most 1/2^K of their lowest number.
 */
static void hist_test_loglin(struct kunit *test)
{
	static const struct {
		unsigned int	k;
		u64		v, low, high;
	} known[] = {
		{ 0, 0, 0, 0 },			{ 0, 1, 1, 1 },
		{ 0, 3, 2, 3 },			{ 0, 1000, 512, 1023 },
		{ 3, 15, 15, 15 },		{ 3, 16, 16, 17 },
		{ 3, 1000, 960, 1023 },		{ 3, 1024, 1024, 1151 },
		{ 6, 100, 100, 100 },		{ 6, 200, 200, 201 },
		{ 0, U64_MAX, 1ULL << 63, U64_MAX },
		{ 6, U64_MAX, U64_MAX - (1ULL << 57) + 1, U64_MAX },
	};
	unsigned int k, i;

	for (i = 0; i < ARRAY_SIZE(known); i++) {
		KUNIT_EXPECT_EQ_MSG(test, hist_loglin_low(known[i].v, known[i].k),
				    known[i].low, "%llu at K=%u", known[i].v, known[i].k);
		KUNIT_EXPECT_EQ_MSG(test, hist_loglin_high(known[i].low, known[i].k),
				    known[i].high, "%llu at K=%u", known[i].v, known[i].k);
	}

	for (k = 0; k <= HIST_LOGLIN_BITS_MAX; k++) {
		u64 low = 0, high, width, per_power = 0, last_width = 0;
		unsigned int n = 0, bad = 0;

		for (;;) {
			high = hist_loglin_high(low, k);
			width = high - low + 1;
			n++;
			if (hist_loglin_low(low, k) != low ||
			    hist_loglin_low(high, k) != low ||
			    hist_loglin_low(low + width / 2, k) != low ||
			    (low < (2ULL << k) && width != 1) ||
			    (low >= (2ULL << k) && (width << k) > low))
				bad++;
			/* from 2^K on, each power of two has 2^K buckets */
			if (!(low & (low - 1)) && low >= (1ULL << k)) {
				if (low > (1ULL << k) && per_power != (1ULL << k))
					bad++;
				per_power = 0;
			} else if (per_power && width != last_width) {
				bad++;
			}
			per_power++;
			last_width = width;
			if (high == U64_MAX)
				break;
			low = high + 1;
		}
		KUNIT_EXPECT_EQ_MSG(test, bad, 0, "K=%u", k);
		KUNIT_EXPECT_EQ_MSG(test, per_power, 1ULL << k, "K=%u", k);
		/* 2^(K+1) single numbers, then 2^K buckets in each of 63-K */
		KUNIT_EXPECT_EQ_MSG(test, n, (2U << k) + (63 - k) * (1U << k),
				    "K=%u", k);
	}
}

/* Each refused expression, with the column of its mistake. */
static const struct {
	const char		*text;
	enum hist_field_role	role;
	int			pos;
	enum hist_err		err;
} hist_test_refused[] = {
	{ "nosuch", HIST_ROLE_KEY, 0, HIST_ERR_FIELD_NOT_FOUND },
	{ "comm", HIST_ROLE_KEY, -1, HIST_ERR_NONE },
	/* a field named with its event: only this event's */
	{ "hist_test.ev.s8v.hex", HIST_ROLE_KEY, -1, HIST_ERR_NONE },
	{ "hist_test.other.s8v", HIST_ROLE_KEY, 0, HIST_ERR_FIELD_NOT_FOUND },
	{ "COMM", HIST_ROLE_KEY, -1, HIST_ERR_NONE },
	{ "COMM.log2", HIST_ROLE_KEY, 5, HIST_ERR_BAD_FIELD_MODIFIER },
	{ "s8v+nosuch", HIST_ROLE_VAL, 4, HIST_ERR_FIELD_NOT_FOUND },
	{ "mac", HIST_ROLE_KEY, 0, HIST_ERR_HIST_CREATE_FAIL },
	{ "s8v.execname", HIST_ROLE_KEY, 4, HIST_ERR_BAD_FIELD_MODIFIER },
	{ "common_pid.execname", HIST_ROLE_KEY, -1, HIST_ERR_NONE },
	{ "s8v.stacktrace", HIST_ROLE_KEY, 4, HIST_ERR_BAD_FIELD_MODIFIER },
	/* a string is read through its address, which these would change */
	{ "comm.log2", HIST_ROLE_KEY, 5, HIST_ERR_BAD_FIELD_MODIFIER },
	{ "dyn.buckets=10", HIST_ROLE_VAR, 4, HIST_ERR_BAD_FIELD_MODIFIER },
	{ "u64v.percent", HIST_ROLE_KEY, 5, HIST_ERR_BAD_FIELD_MODIFIER },
	{ "u64v.graph", HIST_ROLE_VAR, 0, HIST_ERR_BAD_FIELD_MODIFIER },
	{ "u64v.log2", HIST_ROLE_VAR, 0, HIST_ERR_BAD_FIELD_MODIFIER },
	{ "u64v.log2=3", HIST_ROLE_KEY, -1, HIST_ERR_NONE },
	{ "u64v.log2=3", HIST_ROLE_VAR, 0, HIST_ERR_BAD_FIELD_MODIFIER },
	{ "u64v.log2=3", HIST_ROLE_VAL, 0, HIST_ERR_BAD_FIELD_MODIFIER },
	{ "comm.log2=2", HIST_ROLE_KEY, 5, HIST_ERR_BAD_FIELD_MODIFIER },
	{ "u64v.sym", HIST_ROLE_VAL, 0, HIST_ERR_BAD_FIELD_MODIFIER },
	{ "s8v+u64v.buckets=4", HIST_ROLE_VAL, 4, HIST_ERR_BAD_FIELD_MODIFIER },
	{ "common_stacktrace", HIST_ROLE_VAL, 0, HIST_ERR_BAD_FIELD_MODIFIER },
	{ "u64v.percent", HIST_ROLE_VAL, -1, HIST_ERR_NONE },
	{ "s8v*comm", HIST_ROLE_VAL, 4, HIST_ERR_INVALID_STR_OPERAND },
	{ "-(dyn)", HIST_ROLE_VAL, 2, HIST_ERR_INVALID_STR_OPERAND },
	{ "common_timestamp.usecs-common_timestamp", HIST_ROLE_VAR, 0,
	  HIST_ERR_TIMESTAMP_MISMATCH },
	{ "common_timestamp.usecs-$t", HIST_ROLE_VAR, -1, HIST_ERR_NONE },
	{ "common_timestamp-$t", HIST_ROLE_VAR, 0, HIST_ERR_TIMESTAMP_MISMATCH },
	{ "$x", HIST_ROLE_KEY, 0, HIST_ERR_INVALID_REF_KEY },
	{ "s8v+$x", HIST_ROLE_KEY, 4, HIST_ERR_INVALID_REF_KEY },
	{ "$nosuch", HIST_ROLE_VAL, 0, HIST_ERR_VAR_NOT_FOUND },
};

static void hist_test_refusals(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hist_test_refused); i++) {
		struct trace_parse_err err = {};
		struct hist_field *f;

		f = hist_test_bind(test, hist_test_refused[i].text,
				   hist_test_refused[i].role, &err);
		KUNIT_EXPECT_EQ_MSG(test, !f, hist_test_refused[i].pos >= 0,
				    "%s", hist_test_refused[i].text);
		if (f)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, err.err, hist_test_refused[i].err,
				    "%s: %s", hist_test_refused[i].text,
				    hist_err_text[err.err]);
		KUNIT_EXPECT_EQ_MSG(test, err.pos, hist_test_refused[i].pos,
				    "%s", hist_test_refused[i].text);
	}
}

/* ---- output ---- */

/* A seq_file writing into a buffer the test frees. */
static struct seq_file *hist_test_seq(struct kunit *test)
{
	struct seq_file *m = kunit_kzalloc(test, sizeof(*m), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	m->size = 4096;
	m->buf = kunit_kzalloc(test, m->size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m->buf);
	return m;
}

/* What @m holds, and empty it for the next check. */
static const char *hist_test_text(struct kunit *test, struct seq_file *m)
{
	char *text = kunit_kzalloc(test, m->count + 1, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, text);
	memcpy(text, m->buf, m->count);
	m->count = 0;
	return text;
}

/* The trigger listing: canonical spellings, references as written. */
static void hist_test_listing(struct kunit *test)
{
	static const char * const cases[][2] = {
		{ "s8v.hex", "s8v.hex" },
		{ "cpu", "common_cpu" },
		{ "COMM", "common_comm" },
		{ "stacktrace", "common_stacktrace" },
		{ "common_stacktrace.hex", "common_stacktrace" },
		{ "u64v.bucket=0x10", "u64v.buckets=16" },
		{ "common_timestamp.usecs", "common_timestamp.usecs" },
		{ "common_timestamp.usecs-$t", "common_timestamp.usecs-$t" },
		{ "hist_test.ev.$x+1", "hist_test.ev.$x+1" },
		{ "0x10*s8v", "16*s8v" },
		{ "-(s8v+2)", "-(s8v+2)" },
		{ "u64v.log2", "u64v.log2" },
		{ "u64v.log2=03", "u64v.log2=3" },
		{ "u64v.log2=0", "u64v.log2=0" },
		{ "common_pid.execname", "common_pid.execname" },
	};
	struct seq_file *m = hist_test_seq(test);
	struct trace_parse_err err;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct hist_field *f = hist_test_bind(test, cases[i][0],
						      hist_test_role(cases[i][0]),
						      &err);

		KUNIT_ASSERT_NOT_NULL_MSG(test, f, "%s", cases[i][0]);
		hist_print_expr(m, f);
		KUNIT_EXPECT_STREQ(test, hist_test_text(test, m), cases[i][1]);
	}
}

/* Keys, one per format, from a compound key the test lays out. */
static void hist_test_keys(struct kunit *test)
{
	static const struct {
		const char	*key;
		u64		value;
		const char	*text;
	} cases[] = {
		{ "u64v", 42, "{ u64v:         42 }" },
		{ "u64v.hex", 42, "{ u64v: 2a }" },
		{ "u64v.log2", 5, "{ u64v: ~ 2^5  }" },
		{ "u64v.buckets=10", 40, "{ u64v: ~ 40-49 }" },
		{ "u64v.log2=3", 960, "{ u64v: ~ 960-1023 }" },
		{ "u64v.log2=2", 5, "{ u64v: ~ 5-5 }" },
		{ "common_pid.execname", 1234, "{ common_pid: bash            [      1234] }" },
		{ "u64v.syscall", 99999, "{ u64v: unknown_syscall               [99999] }" },
		{ "common_cpu", 1, "{ common_cpu:          1 }" },
	};
	struct seq_file *m = hist_test_seq(test);
	struct trace_parse_err err;
	struct hist_field *f[2];
	unsigned long key[HIST_STACKTRACE_DEPTH + 2] = {};
	char want[160];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		f[0] = hist_test_bind(test, cases[i].key, HIST_ROLE_KEY, &err);
		KUNIT_ASSERT_NOT_NULL_MSG(test, f[0], "%s", cases[i].key);
		key[0] = cases[i].value;
		hist_print_key(m, f, 1, key, "bash");
		KUNIT_EXPECT_STREQ(test, hist_test_text(test, m), cases[i].text);
	}

	/* Two keys, a string second at offset 8. */
	f[0] = hist_test_bind(test, "s8v", HIST_ROLE_KEY, &err);
	f[1] = hist_test_bind(test, "comm", HIST_ROLE_KEY, &err);
	KUNIT_ASSERT_TRUE(test, f[0] && f[1]);
	f[1]->key_offset = sizeof(u64);
	key[0] = 7;
	strscpy((char *)&key[1], "task", 8);
	hist_print_key(m, f, 2, key, NULL);
	snprintf(want, sizeof(want), "{ s8v:          7, comm: %-50s }", "task");
	KUNIT_EXPECT_STREQ(test, hist_test_text(test, m), want);

	/* Symbols, as %ps and %pS print them. */
	f[0] = hist_test_bind(test, "u64v.sym", HIST_ROLE_KEY, &err);
	KUNIT_ASSERT_NOT_NULL(test, f[0]);
	key[0] = (unsigned long)hist_print_key;
	hist_print_key(m, f, 1, key, NULL);
	snprintf(want, sizeof(want), "{ u64v: [%lx] %-45ps }", key[0], (void *)key[0]);
	KUNIT_EXPECT_STREQ(test, hist_test_text(test, m), want);
	KUNIT_EXPECT_NOT_NULL(test, strstr(want, "hist_print_key"));
	f[0]->mods = HIST_MOD_SYM_OFFSET;
	hist_print_key(m, f, 1, key, NULL);
	snprintf(want, sizeof(want), "{ u64v: [%lx] %-55pS }", key[0], (void *)key[0]);
	KUNIT_EXPECT_STREQ(test, hist_test_text(test, m), want);

	/* A stack: one line per entry up to the first zero, no blank before } */
	f[0] = hist_test_bind(test, "common_stacktrace", HIST_ROLE_KEY, &err);
	KUNIT_ASSERT_NOT_NULL(test, f[0]);
	key[0] = (unsigned long)hist_print_key;
	key[1] = (unsigned long)hist_print_val;
	key[2] = 0;
	hist_print_key(m, f, 1, key, NULL);
	snprintf(want, sizeof(want), "{ common_stacktrace:\n%9c%pS\n%9c%pS\n}",
		 ' ', (void *)key[0], ' ', (void *)key[1]);
	KUNIT_EXPECT_STREQ(test, hist_test_text(test, m), want);
}

static void hist_test_vals(struct kunit *test)
{
	static const struct {
		const char	*val;
		u64		value;
		struct hist_val_stat stat;
		const char	*text;
	} cases[] = {
		{ "hitcount", 5, {}, " hitcount:          5" },
		{ "u64v", 123456, {}, " u64v:     123456" },
		{ "u64v.hex", 42, {}, " u64v:         2a" },
		{ "u64v.percent", 1, { 3, 3 }, " u64v (%):  33.33" },
		{ "u64v.percent", 3, { 3, 3 }, " u64v (%): 100.00" },
		{ "u64v.percent", 0, { 0, 0 }, " u64v (%):   0.00" },
		{ "u64v.percent", 1, { 0, 0 }, " u64v (%):[ERROR]" },
		{ "u64v.graph", 5, { 10, 20 }, " u64v: ##########          " },
		{ "u64v.graph", 10, { 10, 20 }, " u64v: ####################" },
		{ "u64v.graph", 0, { 10, 20 }, " u64v:                     " },
		{ "u64v.graph", 1, { 0, 0 }, " u64v:              [ERROR]" },
	};
	struct seq_file *m = hist_test_seq(test);
	struct trace_parse_err err;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct hist_field *f = hist_test_bind(test, cases[i].val,
						      HIST_ROLE_VAL, &err);

		KUNIT_ASSERT_NOT_NULL(test, f);
		hist_print_val(m, f, cases[i].value, &cases[i].stat);
		KUNIT_EXPECT_STREQ(test, hist_test_text(test, m), cases[i].text);
	}
	KUNIT_EXPECT_EQ(test, hist_percentage(U64_MAX / 2, U64_MAX), 5000);
	KUNIT_EXPECT_EQ(test, hist_percentage(U64_MAX, 0), UINT_MAX);
}

static struct kunit_case hist_field_test_cases[] = {
	KUNIT_CASE(hist_test_numbers),
	KUNIT_CASE(hist_test_strings),
	KUNIT_CASE(hist_test_arithmetic),
	KUNIT_CASE(hist_test_division),
	KUNIT_CASE(hist_test_loglin),
	KUNIT_CASE(hist_test_refusals),
	{}
};

static struct kunit_suite hist_field_test_suite = {
	.name = "trace_hist_field",
	.init = hist_test_init,
	.test_cases = hist_field_test_cases,
};

static struct kunit_case hist_output_test_cases[] = {
	KUNIT_CASE(hist_test_listing),
	KUNIT_CASE(hist_test_keys),
	KUNIT_CASE(hist_test_vals),
	{}
};

static struct kunit_suite hist_output_test_suite = {
	.name = "trace_hist_output",
	.init = hist_test_init,
	.test_cases = hist_output_test_cases,
};

kunit_test_suites(&hist_field_test_suite, &hist_output_test_suite);
