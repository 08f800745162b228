// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of synthetic events: the definition parser (fields read,
 * errors and their columns), the in-kernel API's refusals, holding an
 * event against deletion, the record of a stack field, and
 * dynevent_cmd's bounds.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/trace_events.h>

#include "trace.h"
#include "trace_synth.h"

static int parse(struct kunit *test, struct synth_spec *spec, const char *cmd,
		 bool dynevent)
{
	struct trace_parse p;

	trace_parse_init(&p, cmd);
	return synth_spec_parse_name(spec, &p, dynevent) ?:
	       synth_spec_parse_fields(spec, &p);
}

static struct synth_spec *new_spec(struct kunit *test)
{
	struct synth_spec *spec = kunit_kzalloc(test, sizeof(*spec), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, spec);
	return spec;
}

struct field_case {
	const char *type;
	const char *name;
	enum synth_kind kind;
	int size;
};

static void synth_parse_fields_test(struct kunit *test)
{
	static const struct field_case want[] = {
		{ "u8", "a", SYNTH_NUM, 1 },
		{ "unsigned int", "b", SYNTH_NUM, 4 },
		{ "char[16]", "c", SYNTH_STR, 16 },
		{ "char[]", "d", SYNTH_DYN_STR, 0 },
		{ "unsigned long[]", "st", SYNTH_STACK, 0 },
		{ "gfp_t", "g", SYNTH_NUM, 4 },
		{ "char[0x8]", "h", SYNTH_STR, 8 },
		{ "long[]", "s2", SYNTH_STACK, 0 },
		{ "bool", "b2", SYNTH_NUM, 1 },
		{ "s64", "x", SYNTH_NUM, 8 },
	};
	static const char *cmd =
		"  ev u8 a; unsigned int b;char c[16] ; char d[]; unsigned long[] st;"
		"gfp_t g; char[0x8] h; long[] s2 bool b2 s64 x;";
	struct synth_spec *spec = new_spec(test);
	int i;

	KUNIT_ASSERT_EQ(test, 0, parse(test, spec, cmd, false));
	KUNIT_EXPECT_EQ(test, 2, spec->name.pos);
	KUNIT_EXPECT_EQ(test, 2, spec->name.len);
	KUNIT_ASSERT_EQ(test, (unsigned int)ARRAY_SIZE(want), spec->n_fields);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		struct synth_spec_field *f = &spec->fields[i];

		KUNIT_EXPECT_STREQ(test, want[i].type, f->full_type);
		KUNIT_EXPECT_EQ(test, (int)strlen(want[i].name), f->name.len);
		KUNIT_EXPECT_EQ(test, 0, strncmp(want[i].name, f->name.start,
						 f->name.len));
		KUNIT_EXPECT_EQ(test, (int)want[i].kind, (int)f->kind);
		KUNIT_EXPECT_EQ(test, want[i].size, (int)f->size);
	}
}

static void synth_parse_dynevent_test(struct kunit *test)
{
	struct synth_spec *spec = new_spec(test);

	KUNIT_ASSERT_EQ(test, 0, parse(test, spec,
				       "s:synthetic/lat u64 lat; pid_t pid", true));
	KUNIT_EXPECT_EQ(test, 12, spec->name.pos);
	KUNIT_EXPECT_EQ(test, 2U, spec->n_fields);
	KUNIT_ASSERT_EQ(test, 0, parse(test, spec, "s:lat u64 lat", true));
	KUNIT_EXPECT_EQ(test, 2, spec->name.pos);
}

struct err_case {
	const char *cmd;	/* '^' marks the column of the error */
	int err;
	bool dynevent;
};

static const struct err_case err_cases[] = {
	{ "myevent ^chr arg", SYNTH_ERR_INVALID_TYPE },
	{ "myevent ^unsigned arg", SYNTH_ERR_INCOMPLETE_TYPE },
	{ "myevent char ^str]; int v", SYNTH_ERR_BAD_NAME },
	{ "^mye-vent char str[]", SYNTH_ERR_BAD_NAME },
	{ "myevent char ^st-r[]", SYNTH_ERR_BAD_NAME },
	{ "myevent char str;^[]", SYNTH_ERR_INVALID_FIELD },
	{ "myevent char str; ^int", SYNTH_ERR_INVALID_FIELD },
	{ "myevent char ^str[; int v", SYNTH_ERR_INVALID_ARRAY_SPEC },
	{ "myevent char ^str[kdjdk]", SYNTH_ERR_INVALID_ARRAY_SPEC },
	{ "myevent char ^str[257]", SYNTH_ERR_INVALID_ARRAY_SPEC },
	{ "^mye;vent char str[]", SYNTH_ERR_INVALID_CMD },
	{ "^myevent ; char str[]", SYNTH_ERR_INVALID_CMD },
	{ "^myevent; char str[]", SYNTH_ERR_INVALID_CMD },
	{ "^myevent ;char str[]", SYNTH_ERR_INVALID_CMD },
	{ "^; char str[]", SYNTH_ERR_INVALID_CMD },
	{ "^;myevent char str[]", SYNTH_ERR_INVALID_CMD },
	{ "^myevent", SYNTH_ERR_INVALID_CMD },
	{ "myevent u64 a; ^u32[4] b", SYNTH_ERR_INVALID_TYPE },
	{ "myevent u64 a; u32 b; u8 ^a", SYNTH_ERR_DUP_FIELD },
	{ "myevent u64 a u64 b ^u64", SYNTH_ERR_INVALID_FIELD },
	{ "myevent ^char[300] s", SYNTH_ERR_INVALID_TYPE },
	{ "^s:junk/myevent char str[", SYNTH_ERR_INVALID_DYN_CMD, true },
	{ "^s:myevent", SYNTH_ERR_INVALID_CMD, true },
	{ "s:synthetic/^my-ev u64 a", SYNTH_ERR_BAD_NAME, true },
};

static void synth_parse_errors_test(struct kunit *test)
{
	struct synth_spec *spec = new_spec(test);
	char cmd[64];
	int i;

	for (i = 0; i < ARRAY_SIZE(err_cases); i++) {
		const char *caret = strchr(err_cases[i].cmd, '^');
		int pos = caret - err_cases[i].cmd;

		/* the command without its caret */
		scnprintf(cmd, sizeof(cmd), "%.*s%s", pos, err_cases[i].cmd,
			  caret + 1);
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    parse(test, spec, cmd, err_cases[i].dynevent),
				    "%s", cmd);
		KUNIT_EXPECT_EQ_MSG(test, err_cases[i].err, spec->err.err, "%s", cmd);
		KUNIT_EXPECT_EQ_MSG(test, pos, spec->err.pos, "%s", cmd);
	}
}

static void synth_parse_too_many_test(struct kunit *test)
{
	struct synth_spec *spec = new_spec(test);
	char *cmd = kunit_kzalloc(test, 1024, GFP_KERNEL);
	int i, len;

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	len = sprintf(cmd, "many");
	for (i = 0; i <= SYNTH_FIELDS_MAX; i++)
		len += sprintf(cmd + len, " u8 f%d;", i);
	KUNIT_EXPECT_EQ(test, -EINVAL, parse(test, spec, cmd, false));
	KUNIT_EXPECT_EQ(test, SYNTH_ERR_TOO_MANY_FIELDS, spec->err.err);
	KUNIT_EXPECT_EQ(test, 0, spec->err.pos);
	/* one fewer is fine */
	*strrchr(cmd, 'u') = '\0';
	KUNIT_EXPECT_EQ(test, 0, parse(test, spec, cmd, false));
	KUNIT_EXPECT_EQ(test, SYNTH_FIELDS_MAX, (int)spec->n_fields);
}

static int never_run(struct dynevent_cmd *cmd)
{
	return -EIO;
}

/* Adds past maxlen fail with -E2BIG and leave the text intact. */
static void dynevent_cmd_bounds_test(struct kunit *test)
{
	struct dynevent_arg_pair pair;
	struct dynevent_arg arg;
	struct dynevent_cmd cmd;
	char buf[24 + 8];

	memset(buf, 0x5a, sizeof(buf));
	dynevent_cmd_init(&cmd, buf, 24, DYNEVENT_TYPE_NONE, never_run);
	KUNIT_EXPECT_STREQ(test, "", buf);

	dynevent_arg_init(&arg, 0);
	arg.str = "name";
	KUNIT_EXPECT_EQ(test, 0, dynevent_arg_add(&cmd, &arg, NULL));
	KUNIT_EXPECT_STREQ(test, " name ", buf);

	dynevent_arg_pair_init(&pair, 0, ';');
	pair.lhs = "u64";
	pair.rhs = "ts";
	KUNIT_EXPECT_EQ(test, 0, dynevent_arg_pair_add(&cmd, &pair, NULL));
	KUNIT_EXPECT_STREQ(test, " name  u64 ts;", buf);

	/* 14 used: 9 more bytes and the NUL fit, 10 do not */
	KUNIT_EXPECT_EQ(test, -E2BIG, dynevent_str_add(&cmd, "0123456789"));
	KUNIT_EXPECT_STREQ(test, " name  u64 ts;", buf);
	pair.lhs = "unsigned";
	pair.rhs = "x";
	KUNIT_EXPECT_EQ(test, -E2BIG, dynevent_arg_pair_add(&cmd, &pair, NULL));
	KUNIT_EXPECT_STREQ(test, " name  u64 ts;", buf);
	KUNIT_EXPECT_EQ(test, 0, dynevent_str_add(&cmd, "012345678"));
	KUNIT_EXPECT_STREQ(test, " name  u64 ts;012345678", buf);
	KUNIT_EXPECT_EQ(test, -E2BIG, dynevent_str_add(&cmd, "9"));
	KUNIT_EXPECT_EQ(test, 0, dynevent_str_add(&cmd, ""));
	KUNIT_EXPECT_EQ(test, 0x5a, buf[24]);
	KUNIT_EXPECT_EQ(test, 0x5a, buf[sizeof(buf) - 1]);

	/* a check callback's verdict comes first */
	arg.str = NULL;
	KUNIT_EXPECT_EQ(test, -EINVAL, dynevent_arg_add(&cmd, &arg, NULL));
	KUNIT_EXPECT_EQ(test, -EIO, dynevent_create(&cmd));
}

static void synth_api_cmd_errors_test(struct kunit *test)
{
	struct synth_field_desc bad[] = { { .type = "u64", .name = NULL } };
	struct dynevent_cmd cmd;
	char *buf = kunit_kzalloc(test, MAX_DYNEVENT_CMD_LEN, GFP_KERNEL);
	size_t len;
	int i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	/* a command of another kind */
	dynevent_cmd_init(&cmd, buf, MAX_DYNEVENT_CMD_LEN, DYNEVENT_TYPE_KPROBE,
			  never_run);
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_add_field(&cmd, "u64", "a"));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			synth_event_gen_cmd_start(&cmd, "kunit_x", NULL));

	synth_event_cmd_init(&cmd, buf, MAX_DYNEVENT_CMD_LEN);
	KUNIT_EXPECT_EQ(test, 0, synth_event_gen_cmd_start(&cmd, "kunit_x", NULL,
							   "u64", "a"));
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_add_field(&cmd, "u64", NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_add_field(&cmd, "bogus", "b"));
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_add_fields(&cmd, bad, 1));
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_add_field_str(&cmd, NULL));
	KUNIT_EXPECT_STREQ(test, " kunit_x  u64 a;", buf);
	for (i = 1; i < SYNTH_FIELDS_MAX; i++)
		KUNIT_EXPECT_EQ(test, 0, synth_event_add_field(&cmd, "u8", "f"));
	len = strlen(buf);
	/* the 65th field is refused and leaves nothing in the command */
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_add_field(&cmd, "u8", "g"));
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_add_field_str(&cmd, "u8 h"));
	KUNIT_EXPECT_EQ(test, len, strlen(buf));

	synth_event_cmd_init(&cmd, buf, MAX_DYNEVENT_CMD_LEN);
	KUNIT_EXPECT_EQ(test, -EINVAL,
			synth_event_gen_cmd_array_start(&cmd, "kunit_x", NULL,
							bad, SYNTH_FIELDS_MAX + 1));
}

/* A real event: refusals of the tracing calls, then delete. */
static void synth_api_trace_errors_test(struct kunit *test)
{
	static struct synth_field_desc fields[] = {
		{ .type = "u64", .name = "a" },
		{ .type = "char[8]", .name = "s" },
	};
	static struct synth_field_desc dyn[] = {
		{ .type = "char[]", .name = "d" },
	};
	struct synth_event_trace_state state;
	struct trace_event_file *file;
	u64 vals[2] = { 1, (u64)(uintptr_t)"str" };

	KUNIT_ASSERT_EQ(test, 0, synth_event_create("kunit_synth", fields, 2, NULL));
	KUNIT_EXPECT_EQ(test, -EEXIST,
			synth_event_create("kunit_synth", fields, 2, NULL));
	KUNIT_EXPECT_EQ(test, -EINVAL,
			synth_event_create("kunit-bad", fields, 2, NULL));
	KUNIT_EXPECT_EQ(test, -ENOENT, synth_event_delete("kunit-bad"));

	file = trace_get_event_file(NULL, SYNTH_SYSTEM, "kunit_synth");
	KUNIT_ASSERT_FALSE(test, IS_ERR(file));
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_trace_array(file, vals, 1));
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_trace(file, 3, (u64)1, (u64)2, (u64)3));
	/* disabled: nothing recorded, no error */
	KUNIT_EXPECT_EQ(test, 0, synth_event_trace_array(file, vals, 2));
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_trace_start(file, NULL));
	KUNIT_EXPECT_EQ(test, 0, synth_event_trace_start(file, &state));
	KUNIT_EXPECT_TRUE(test, state.disabled);
	KUNIT_EXPECT_EQ(test, 0, synth_event_add_next_val(1, &state));
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_add_val("a", 1, &state));
	KUNIT_EXPECT_EQ(test, 0, synth_event_trace_end(&state));
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_trace_end(NULL));

	/* enabled: mixing, a wrong name and too many values are refused */
	KUNIT_ASSERT_EQ(test, 0, trace_array_set_clr_event(file->tr, SYNTH_SYSTEM,
							   "kunit_synth", true));
	KUNIT_EXPECT_EQ(test, -EBUSY, synth_event_delete("kunit_synth"));
	KUNIT_EXPECT_EQ(test, 0, synth_event_trace_start(file, &state));
	KUNIT_EXPECT_FALSE(test, state.disabled);
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_add_val("nope", 1, &state));
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_add_val("s", 0, &state));
	KUNIT_EXPECT_EQ(test, 0, synth_event_add_val("a", 1, &state));
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_add_next_val(1, &state));
	KUNIT_EXPECT_EQ(test, 0, synth_event_trace_end(&state));
	KUNIT_EXPECT_EQ(test, 0, synth_event_trace_start(file, &state));
	KUNIT_EXPECT_EQ(test, 0, synth_event_add_next_val(1, &state));
	KUNIT_EXPECT_EQ(test, 0, synth_event_add_next_val(vals[1], &state));
	KUNIT_EXPECT_EQ(test, -EINVAL, synth_event_add_next_val(3, &state));
	KUNIT_EXPECT_EQ(test, 0, synth_event_trace_end(&state));
	KUNIT_EXPECT_EQ(test, 0, trace_array_set_clr_event(file->tr, SYNTH_SYSTEM,
							   "kunit_synth", false));
	trace_put_event_file(file);
	KUNIT_EXPECT_EQ(test, 0, synth_event_delete("kunit_synth"));
	KUNIT_EXPECT_EQ(test, -ENOENT, synth_event_delete("kunit_synth"));

	/* the piecewise API cannot size a dynamic string */
	KUNIT_ASSERT_EQ(test, 0, synth_event_create("kunit_dyn", dyn, 1, NULL));
	file = trace_get_event_file(NULL, SYNTH_SYSTEM, "kunit_dyn");
	KUNIT_ASSERT_FALSE(test, IS_ERR(file));
	KUNIT_ASSERT_EQ(test, 0, trace_array_set_clr_event(file->tr, SYNTH_SYSTEM,
							   "kunit_dyn", true));
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP, synth_event_trace_start(file, &state));
	KUNIT_EXPECT_EQ(test, 0, synth_event_trace_end(&state));
	KUNIT_EXPECT_EQ(test, 0, trace_array_set_clr_event(file->tr, SYNTH_SYSTEM,
							   "kunit_dyn", false));
	trace_put_event_file(file);
	KUNIT_EXPECT_EQ(test, 0, synth_event_delete("kunit_dyn"));
}

/*
 * synth_event_get() holds an event against deletion until the last
 * synth_event_put(), and finds nothing once the event is deleted.
 */
static void synth_holders_test(struct kunit *test)
{
	static struct synth_field_desc fields[] = {
		{ .type = "u64", .name = "a" },
	};
	struct synth_event *first, *second;

	KUNIT_EXPECT_NULL(test, synth_event_get("kunit_held"));
	KUNIT_ASSERT_EQ(test, 0, synth_event_create("kunit_held", fields, 1, NULL));
	first = synth_event_get("kunit_held");
	KUNIT_ASSERT_NOT_NULL(test, first);
	second = synth_event_get("kunit_held");
	KUNIT_EXPECT_PTR_EQ(test, first, second);
	KUNIT_EXPECT_NULL(test, synth_event_get("kunit_hel"));
	KUNIT_EXPECT_EQ(test, -EBUSY, synth_event_delete("kunit_held"));
	synth_event_put(second);
	KUNIT_EXPECT_EQ(test, -EBUSY, synth_event_delete("kunit_held"));
	synth_event_put(first);
	KUNIT_EXPECT_EQ(test, 0, synth_event_delete("kunit_held"));
	KUNIT_EXPECT_NULL(test, synth_event_get("kunit_held"));
	/* a new event of the same name is another event */
	KUNIT_ASSERT_EQ(test, 0, synth_event_create("kunit_held", fields, 1, NULL));
	first = synth_event_get("kunit_held");
	KUNIT_ASSERT_NOT_NULL(test, first);
	synth_event_put(first);
	KUNIT_EXPECT_EQ(test, 0, synth_event_delete("kunit_held"));
}

/* The next record of @tr, from whichever CPU has one. */
static void *synth_test_next(struct trace_array *tr)
{
	struct ring_buffer_event *rbe;
	int cpu;

	for_each_online_cpu(cpu) {
		rbe = ring_buffer_consume(tr->array_buffer.buffer, cpu, NULL, NULL);
		if (rbe)
			return ring_buffer_event_data(rbe);
	}
	return NULL;
}

/*
 * A stack field keeps [count, address...] with the count of the
 * addresses it stored: at most HIST_STACKTRACE_DEPTH, up to the first
 * zero, never the count it was given when it kept fewer.
 */
static void synth_stack_record_test(struct kunit *test)
{
	static struct synth_field_desc fields[] = {
		{ .type = "unsigned long[]", .name = "st" },
	};
	static const struct {
		unsigned long	given;		/* the count word */
		unsigned int	zero_at;	/* an address 0 there, or 0 */
		unsigned int	stored;
	} cases[] = {
		{ 3, 0, 3 },
		{ HIST_STACKTRACE_DEPTH - 1, 0, HIST_STACKTRACE_DEPTH - 1 },
		{ HIST_STACKTRACE_DEPTH, 0, HIST_STACKTRACE_DEPTH },
		{ HIST_STACKTRACE_DEPTH + 4, 0, HIST_STACKTRACE_DEPTH },
		{ 6, 3, 2 },
	};
	unsigned long stack[HIST_STACKTRACE_DEPTH + 5];
	struct trace_event_file *file;
	struct trace_entry *rec;
	struct trace_array *tr;
	unsigned int i, j;

	KUNIT_ASSERT_EQ(test, 0, synth_event_create("kunit_stack", fields, 1, NULL));
	tr = trace_array_get_by_name("synth_kunit_stack", NULL);
	KUNIT_ASSERT_NOT_NULL(test, tr);
	file = trace_get_event_file("synth_kunit_stack", SYNTH_SYSTEM, "kunit_stack");
	KUNIT_ASSERT_FALSE(test, IS_ERR(file));
	KUNIT_ASSERT_EQ(test, 0, trace_array_set_clr_event(tr, SYNTH_SYSTEM,
							   "kunit_stack", true));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		union trace_synth_field *slot;
		unsigned long *stored;

		stack[0] = cases[i].given;
		for (j = 1; j < ARRAY_SIZE(stack); j++)
			stack[j] = 0x1000 + j;
		if (cases[i].zero_at)
			stack[cases[i].zero_at] = 0;
		KUNIT_EXPECT_EQ(test, 0, synth_event_trace(file, 1,
							   (u64)(uintptr_t)stack));
		rec = synth_test_next(tr);
		KUNIT_ASSERT_NOT_NULL(test, rec);
		slot = (void *)(rec + 1);
		stored = (void *)rec + slot->as_dynamic.offset;
		KUNIT_EXPECT_EQ_MSG(test, slot->as_dynamic.len,
				    (cases[i].stored + 1) * sizeof(long), "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, stored[0], cases[i].stored, "case %u", i);
		KUNIT_EXPECT_EQ_MSG(test, stored[cases[i].stored],
				    0x1000 + cases[i].stored, "case %u", i);
	}
	/* an address that cannot be read is an empty stack, not an oops */
	KUNIT_EXPECT_EQ(test, 0, synth_event_trace(file, 1, (u64)16));
	rec = synth_test_next(tr);
	KUNIT_ASSERT_NOT_NULL(test, rec);
	KUNIT_EXPECT_EQ(test, ((union trace_synth_field *)(rec + 1))->as_dynamic.len, 0);
	KUNIT_EXPECT_EQ(test, 0, trace_array_set_clr_event(tr, SYNTH_SYSTEM,
							   "kunit_stack", false));
	trace_put_event_file(file);
	trace_array_put(tr);
	KUNIT_EXPECT_EQ(test, 0, trace_array_destroy(tr));
	KUNIT_EXPECT_EQ(test, 0, synth_event_delete("kunit_stack"));
}

/*
 * The trace text of a record laid out by hand: a record is whatever its
 * writer made it, and the output reads only inside it.
 */
static void synth_print_record(struct kunit *test, struct trace_event *ev,
			       void *rec, unsigned int size, const char *want)
{
	struct trace_iterator *iter;
	char *text;

	iter = kunit_kzalloc(test, sizeof(*iter), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, iter);
	trace_seq_init(&iter->seq);
	iter->ent = rec;
	iter->ent_size = size;
	ev->funcs->trace(iter, 0, ev);
	text = kunit_kzalloc(test, trace_seq_used(&iter->seq) + 1, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, text);
	memcpy(text, iter->seq.buffer, trace_seq_used(&iter->seq));
	KUNIT_EXPECT_STREQ(test, text, want);
}

static void synth_print_bounds_test(struct kunit *test)
{
	static struct synth_field_desc fields[] = {
		{ .type = "char[]", .name = "s" },
		{ .type = "u64", .name = "n" },
		{ .type = "unsigned long[]", .name = "st" },
	};
	struct {
		struct trace_entry		ent;
		union trace_synth_field		slot[3];
		char				data[16];
	} rec = {};
	struct synth_event *se;
	struct trace_event *ev;

	KUNIT_ASSERT_EQ(test, 0, synth_event_create("kunit_print", fields, 3, NULL));
	mutex_lock(&event_mutex);
	se = find_synth_event("kunit_print");
	mutex_unlock(&event_mutex);
	KUNIT_ASSERT_NOT_NULL(test, se);
	ev = &se->call.event;
	rec.ent.type = ev->type;
	rec.slot[1].as_u64 = 5;
	rec.slot[2].as_dynamic.offset = sizeof(rec);	/* empty stack */

	/* In the record: printed; a string without NUL stops at its length */
	strscpy(rec.data, "abcdef", sizeof(rec.data));
	rec.slot[0].as_dynamic.offset = offsetof(typeof(rec), data);
	rec.slot[0].as_dynamic.len = 7;
	synth_print_record(test, ev, &rec, sizeof(rec),
			   "kunit_print: s=abcdef n=5 st=STACK:\n\n");
	rec.slot[0].as_dynamic.len = 3;
	synth_print_record(test, ev, &rec, sizeof(rec),
			   "kunit_print: s=abc n=5 st=STACK:\n\n");
	/* Past the record, at its edge, far away */
	rec.slot[0].as_dynamic.len = 17;
	synth_print_record(test, ev, &rec, sizeof(rec),
			   "kunit_print: (bad record)\n");
	rec.slot[0].as_dynamic.offset = 0xfff0;
	rec.slot[0].as_dynamic.len = 4;
	synth_print_record(test, ev, &rec, sizeof(rec),
			   "kunit_print: (bad record)\n");
	rec.slot[0].as_dynamic.offset = sizeof(rec);
	rec.slot[0].as_dynamic.len = 0;
	synth_print_record(test, ev, &rec, sizeof(rec),
			   "kunit_print: s= n=5 st=STACK:\n\n");
	rec.slot[2].as_dynamic.len = 8;
	synth_print_record(test, ev, &rec, sizeof(rec),
			   "kunit_print: (bad record)\n");
	/* Shorter than its slots */
	synth_print_record(test, ev, &rec, sizeof(rec.ent) + 8,
			   "kunit_print: (bad record)\n");
	KUNIT_EXPECT_EQ(test, 0, synth_event_delete("kunit_print"));
}

static struct kunit_case synth_cases[] = {
	KUNIT_CASE(synth_parse_fields_test),
	KUNIT_CASE(synth_parse_dynevent_test),
	KUNIT_CASE(synth_parse_errors_test),
	KUNIT_CASE(synth_parse_too_many_test),
	KUNIT_CASE(dynevent_cmd_bounds_test),
	KUNIT_CASE(synth_api_cmd_errors_test),
	KUNIT_CASE(synth_api_trace_errors_test),
	KUNIT_CASE(synth_holders_test),
	KUNIT_CASE(synth_stack_record_test),
	KUNIT_CASE(synth_print_bounds_test),
	{}
};

static struct kunit_suite synth_suite = {
	.name = "trace_synth",
	.test_cases = synth_cases,
};

kunit_test_suite(synth_suite);
