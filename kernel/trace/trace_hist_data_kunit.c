// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of whole histograms (trace_hist_data.c with the output of
 * trace_hist_output.c): a command is parsed and bound to a made-up
 * event, records are fed to it, and the trigger line and the hist file's
 * entries must read exactly as tools that parse the hist file expect.
 */
#include <kunit/test.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "trace_hist.h"

struct hist_map_test_rec {
	struct trace_entry	ent;
	u32			n;
	u64			bytes;
	char			name[16];
	u32			path;		/* __data_loc char[] */
	char			data[64];
};

#define HMT_AT(m)	offsetof(struct hist_map_test_rec, m)
#define HMT_SIZE(m)	sizeof_field(struct hist_map_test_rec, m)

static struct ftrace_event_field hist_map_test_fields[] = {
	{ .type = "u32", .name = "n", .filter_type = FILTER_OTHER,
	  .offset = HMT_AT(n), .size = HMT_SIZE(n) },
	{ .type = "u64", .name = "bytes", .filter_type = FILTER_OTHER,
	  .offset = HMT_AT(bytes), .size = HMT_SIZE(bytes) },
	{ .type = "char[16]", .name = "name", .filter_type = FILTER_STATIC_STRING,
	  .offset = HMT_AT(name), .size = HMT_SIZE(name), .is_signed = 1 },
	{ .type = "__data_loc char[]", .name = "path",
	  .filter_type = FILTER_DYN_STRING, .is_signed = 1,
	  .offset = HMT_AT(path), .size = HMT_SIZE(path) },
};

static struct trace_event_class hist_map_test_class = {
	.system	= "hist_map_test",
	.fields	= LIST_HEAD_INIT(hist_map_test_class.fields),
};

static struct trace_event_call hist_map_test_call = {
	.class	= &hist_map_test_class,
	.name	= "ev_a",
};

/* A second event of the same format, to reference variables across. */
static struct trace_event_call hist_map_test_call_b = {
	.class	= &hist_map_test_class,
	.name	= "ev_b",
};

static int hist_map_test_init(struct kunit *test)
{
	unsigned int i;

	if (list_empty(&hist_map_test_class.fields))
		for (i = 0; i < ARRAY_SIZE(hist_map_test_fields); i++)
			list_add_tail(&hist_map_test_fields[i].link,
				      &hist_map_test_class.fields);
	return 0;
}

/* A histogram made from @cmd, and the spec and command it points into. */
struct hist_map_test {
	struct hist_spec	spec;
	struct trace_parse_err	err;
	struct hist_data	*hd;
};

static void hist_map_test_free(void *t)
{
	mutex_lock(&event_mutex);
	hist_data_destroy(((struct hist_map_test *)t)->hd);
	mutex_unlock(&event_mutex);
	kfree(t);
}

/*
 * A histogram of @cmd on @call, its variables registered in @scope (if
 * any); NULL, with t->err set, when the command is refused.
 */
static struct hist_map_test *hist_map_test_make_in(struct kunit *test,
						   const char *cmd,
						   struct trace_event_call *call,
						   struct hist_vars_scope *scope)
{
	struct hist_map_test *t = kzalloc_obj(*t);
	struct hist_bind b = {
		.call = call, .clock_in_ns = true,
		.resolve_var = hist_vars_resolve, .priv = scope,
	};

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, hist_map_test_free, t), 0);
	b.err = &t->err;
	KUNIT_ASSERT_EQ_MSG(test, hist_parse(&t->spec, cmd, 5, &t->err), 0,
			    "%s: %s", cmd, hist_err_text[t->err.err]);
	mutex_lock(&event_mutex);
	t->hd = hist_data_create(&t->spec, &b);
	if (IS_ERR(t->hd))
		t->hd = NULL;
	else if (scope && hist_vars_register(t->hd, scope, &t->err))
		t = NULL;
	mutex_unlock(&event_mutex);
	return t && t->hd ? t : NULL;
}

static struct hist_map_test *hist_map_test_make(struct kunit *test,
						const char *cmd)
{
	return hist_map_test_make_in(test, cmd, &hist_map_test_call, NULL);
}

/* One record through the histogram. */
static void hist_map_test_feed(struct hist_map_test *t, u32 n, u64 bytes,
			       const char *name, const char *path)
{
	struct hist_map_test_rec r;
	struct hist_event ev = { .rec = &r };
	size_t len = strlen(path) + 1;

	/* no field may read more of the record than its own bytes */
	memset(&r, 0xa5, sizeof(r));
	r.n = n;
	r.bytes = bytes;
	r.ent.pid = current->pid;
	strscpy(r.name, name, sizeof(r.name));
	memcpy(r.data, path, min(len, sizeof(r.data)));
	r.path = len << 16 | HMT_AT(data);
	preempt_disable();	/* as on the event path */
	hist_data_update(t->hd, &ev);
	preempt_enable();
}

/* The trigger line and the entries, as the hist file would show them. */
static const char *hist_map_test_show(struct kunit *test,
				      struct hist_map_test *t)
{
	struct seq_file m = { .size = 8192 };
	int n;

	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	hist_print_trigger(&m, t->hd, NULL, false);
	n = hist_print_entries(&m, t->hd);
	KUNIT_EXPECT_GE(test, n, 0);
	hist_print_totals(&m, t->hd, max(n, 0));
	KUNIT_EXPECT_FALSE(test, seq_has_overflowed(&m));
	return m.buf;
}

/*
 * Expect @cmd (parsed fine) to be refused when bound to ev_a, or when its
 * variables are registered in @scope (if any), with @err at @pos.
 */
static void hist_map_test_refused(struct kunit *test, const char *cmd,
				  struct hist_vars_scope *scope,
				  enum hist_err err, int pos)
{
	struct hist_map_test *t = kzalloc_obj(*t);
	struct hist_bind b = {
		.call = &hist_map_test_call, .resolve_var = hist_vars_resolve,
		.priv = scope,
	};
	struct hist_data *hd = ERR_PTR(-EINVAL);
	int ret = -EINVAL;

	KUNIT_ASSERT_NOT_NULL(test, t);
	b.err = &t->err;
	mutex_lock(&event_mutex);
	if (!hist_parse(&t->spec, cmd, 5, &t->err))
		hd = hist_data_create(&t->spec, &b);
	if (!IS_ERR(hd)) {
		ret = scope ? hist_vars_register(hd, scope, &t->err) : 0;
		hist_data_destroy(hd);
	}
	mutex_unlock(&event_mutex);
	KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "%s", cmd);
	KUNIT_EXPECT_EQ_MSG(test, t->err.err, err, "%s: %s", cmd,
			    hist_err_text[t->err.err]);
	KUNIT_EXPECT_EQ_MSG(test, t->err.pos, pos, "%s", cmd);
	kfree(t);
}

/* A command refused, the message and its column. */
struct hist_map_test_refusal {
	const char	*cmd;
	int		pos;
	enum hist_err	err;
};

static void hist_map_test_refuse_all(struct kunit *test,
				     const struct hist_map_test_refusal *cases,
				     unsigned int n, struct hist_vars_scope *scope)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		hist_map_test_refused(test, cases[i].cmd, scope, cases[i].err,
				      cases[i].pos);
}

static void hist_map_test_counts(struct kunit *test)
{
	struct hist_map_test *t = hist_map_test_make(test, "hist:key=n:val=bytes");

	KUNIT_ASSERT_NOT_NULL(test, t);
	hist_map_test_feed(t, 1, 10, "a", "");
	hist_map_test_feed(t, 3, 100, "a", "");
	hist_map_test_feed(t, 1, 20, "a", "");
	hist_map_test_feed(t, 2, 5, "a", "");
	hist_map_test_feed(t, 1, 30, "a", "");
	hist_map_test_feed(t, 3, 200, "a", "");
	KUNIT_EXPECT_STREQ(test, hist_map_test_show(test, t),
			   "hist:keys=n:vals=hitcount,bytes:sort=hitcount:size=2048 [active]\n"
			   "{ n:          2 } hitcount:          1  bytes:          5\n"
			   "{ n:          3 } hitcount:          2  bytes:        300\n"
			   "{ n:          1 } hitcount:          3  bytes:         60\n"
			   "\n"
			   "Totals:\n"
			   "    Hits: 6\n"
			   "    Entries: 3\n"
			   "    Dropped: 0\n");
}

/* Feed one record from @depth nested calls down. */
static noinline void hist_map_test_deep(struct hist_map_test *t, int depth)
{
	if (depth > 0)
		hist_map_test_deep(t, depth - 1);
	else
		hist_map_test_feed(t, 1, 1, "a", "");
	/* no tail call: each level keeps its frame */
	barrier();
}

/* A stack key keeps HIST_STACKTRACE_DEPTH (31) return addresses. */
static void hist_map_test_deep_stack(struct kunit *test)
{
	struct hist_map_test *t = hist_map_test_make(test,
						     "hist:keys=common_stacktrace");
	const char *out, *p;
	int frames = 0;

	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, HIST_STACKTRACE_DEPTH, 31);
	hist_map_test_deep(t, 40);
	out = hist_map_test_show(test, t);
	p = strstr(out, "{ common_stacktrace:\n");
	KUNIT_ASSERT_NOT_NULL(test, p);
	/* one line per address, each starting with nine blanks */
	for (p = strchr(p, '\n') + 1; !strncmp(p, "         ", 9);
	     p = strchr(p, '\n') + 1)
		frames++;
	KUNIT_EXPECT_EQ_MSG(test, frames, HIST_STACKTRACE_DEPTH, "%s", out);
}

static void hist_map_test_strings(struct kunit *test)
{
	struct hist_map_test *t;
	char want[512];

	t = hist_map_test_make(test,
			       "hist:keys=name,n:vals=bytes.hex:sort=bytes.descending:size=200");
	KUNIT_ASSERT_NOT_NULL(test, t);
	/* Keys are compared whole: "ab" with 1 and "ab" with 2 differ. */
	hist_map_test_feed(t, 1, 0x10, "ab", "");
	hist_map_test_feed(t, 2, 0x20, "ab", "");
	hist_map_test_feed(t, 1, 0x01, "ab", "");
	snprintf(want, sizeof(want),
		 "hist:keys=name,n:vals=hitcount,bytes.hex:sort=bytes.hex.descending:size=256 [active]\n"
		 "{ name: %-50s, n:          2 } hitcount:          1  bytes:         20\n"
		 "{ name: %-50s, n:          1 } hitcount:          2  bytes:         11\n"
		 "\nTotals:\n    Hits: 3\n    Entries: 2\n    Dropped: 0\n", "ab", "ab");
	KUNIT_EXPECT_STREQ(test, hist_map_test_show(test, t), want);

	/* A dynamic string key, as long as the record says it is. */
	t = hist_map_test_make(test, "hist:keys=path:nohitcount:vals=n");
	KUNIT_ASSERT_NOT_NULL(test, t);
	hist_map_test_feed(t, 4, 0, "", "/usr/bin/true");
	snprintf(want, sizeof(want),
		 "hist:keys=path:vals=n:sort=hitcount:size=2048:nohitcount [active]\n"
		 "{ path: %-50s }  n:          4\n"
		 "\nTotals:\n    Hits: 1\n    Entries: 1\n    Dropped: 0\n",
		 "/usr/bin/true");
	KUNIT_EXPECT_STREQ(test, hist_map_test_show(test, t), want);
}

/*
 * A char array key as large as its slot, copied a word at a time: what
 * follows the NUL does not count, and an array without a NUL keeps 15 of
 * its 16 bytes: a key string holds at most size - 1 bytes and its NUL.
 */
static void hist_map_test_char_array(struct kunit *test)
{
	static const char names[][16] = {
		"abcdefgh\0zzzzzz", "ab\0xxxxxxxxxxxx", "ab\0yyyyyyyyyyyy",
		{ 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h',
		  'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p' },
		{ 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h',
		  'i', 'j', 'k', 'l', 'm', 'n', 'o', 'q' },
		"abcdefghijklmno",
	};
	struct hist_map_test *t = hist_map_test_make(test, "hist:keys=name");
	struct hist_map_test_rec r;
	struct hist_event ev = { .rec = &r };
	char want[512];
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		memset(&r, 0xa5, sizeof(r));
		memcpy(r.name, names[i], sizeof(r.name));
		preempt_disable();
		hist_data_update(t->hd, &ev);
		preempt_enable();
	}
	snprintf(want, sizeof(want),
		 "hist:keys=name:vals=hitcount:sort=hitcount:size=2048 [active]\n"
		 "{ name: %-50s } hitcount:          1\n"
		 "{ name: %-50s } hitcount:          2\n"
		 "{ name: %-50s } hitcount:          3\n"
		 "\nTotals:\n    Hits: 6\n    Entries: 3\n    Dropped: 0\n",
		 "abcdefgh", "ab", "abcdefghijklmno");
	KUNIT_EXPECT_STREQ(test, hist_map_test_show(test, t), want);
}

static void hist_map_test_execname(struct kunit *test)
{
	struct hist_map_test *t;
	char want[512];

	t = hist_map_test_make(test, "hist:keys=common_pid.execname:vals=bytes.percent");
	KUNIT_ASSERT_NOT_NULL(test, t);
	hist_map_test_feed(t, 0, 1, "", "");
	hist_map_test_feed(t, 0, 2, "", "");
	snprintf(want, sizeof(want),
		 "hist:keys=common_pid.execname:vals=hitcount,bytes.percent:sort=hitcount:size=2048 [active]\n"
		 "{ common_pid: %-16s[%10d] } hitcount:          2  bytes (%%): 100.00\n"
		 "\nTotals:\n    Hits: 2\n    Entries: 1\n    Dropped: 0\n",
		 current->comm, current->pid);
	KUNIT_EXPECT_STREQ(test, hist_map_test_show(test, t), want);
}

/*
 * A full map: every new key beyond its size is dropped and counted, and
 * only the events that found an entry are hits (Hits: plus Dropped: is the
 * number of events).
 */
static void hist_map_test_full(struct kunit *test)
{
	struct hist_map_test *t = hist_map_test_make(test, "hist:keys=n:size=100");
	const char *text, *totals;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, t);
	for (i = 0; i < 200; i++)
		hist_map_test_feed(t, i, 0, "", "");
	hist_map_test_feed(t, 0, 0, "", "");
	text = hist_map_test_show(test, t);
	totals = strstr(text, "\nTotals:");
	KUNIT_ASSERT_NOT_NULL(test, totals);
	KUNIT_EXPECT_STREQ(test, totals,
			   "\nTotals:\n    Hits: 129\n    Entries: 128\n    Dropped: 72\n");
}

static bool hist_map_test_ends(const char *s, const char *end)
{
	size_t n = strlen(s), k = strlen(end);

	return n >= k && !strcmp(s + n - k, end);
}

/*
 * At the limits of a command: six keys, sixteen values, four sort keys
 * (ties on the first broken by the next) and 32 variables.
 */
static void hist_map_test_wide(struct kunit *test)
{
	/* a key of each row, a value and the last value */
	static const char * const rows[][3] = {
		{ "{ name: a ", ", path: /x ", "n+14:         15" },
		{ "{ name: b ", ", n: 3, bytes: ~ 2^3  } hitcount:          2  n:          6",
		  "n+14:         34" },
		{ "{ name: b ", ", n: 2, bytes: ~ 2^5  } hitcount:          1  n:          2",
		  "n+14:         16" },
	};
	struct hist_map_test *t;
	struct tracing_map_elt *elt;
	u64 key = 7, sum = 0;
	char *cmd, *p, *text, *line;
	unsigned int i;

	t = hist_map_test_make(test,
			       "hist:keys=name,n,bytes,path,n.hex,bytes.log2:vals=n,bytes,n+1,n+2,n+3,n+4,n+5,n+6,n+7,n+8,n+9,n+10,n+11,n+12,n+13,n+14:sort=name,n.descending,bytes,hitcount");
	KUNIT_ASSERT_NOT_NULL(test, t);
	hist_map_test_feed(t, 1, 10, "a", "/x");
	hist_map_test_feed(t, 2, 20, "b", "/y");
	hist_map_test_feed(t, 3, 5, "b", "/z");
	hist_map_test_feed(t, 3, 5, "b", "/z");
	text = (char *)hist_map_test_show(test, t);
	KUNIT_EXPECT_STREQ(test, strsep(&text, "\n"),
			   "hist:keys=name,n,bytes,path,n.hex,bytes.log2:vals=hitcount,n,bytes,n+1,n+2,n+3,n+4,n+5,n+6,n+7,n+8,n+9,n+10,n+11,n+12,n+13,n+14:sort=name,n.descending,bytes,hitcount:size=2048 [active]");
	/* by name, then n descending: a, b with n 3 (seen twice), b with n 2 */
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		line = strsep(&text, "\n");
		KUNIT_ASSERT_NOT_NULL(test, line);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, rows[i][0]), "%s", line);
		KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(line, rows[i][1]), "%s", line);
		KUNIT_EXPECT_TRUE_MSG(test, hist_map_test_ends(line, rows[i][2]), "%s", line);
	}
	KUNIT_EXPECT_STREQ(test, text, "\nTotals:\n    Hits: 4\n    Entries: 3\n    Dropped: 0\n");

	cmd = kunit_kzalloc(test, 1024, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cmd);
	p = cmd + sprintf(cmd, "hist:keys=n");
	for (i = 0; i < HIST_VARS_MAX; i++)
		p += sprintf(p, ":v%u=bytes+%u", i, i);
	t = hist_map_test_make(test, cmd);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, t->hd->n_vars, HIST_VARS_MAX);
	hist_map_test_feed(t, 7, 100, "", "");
	elt = tracing_map_lookup(t->hd->map, &key);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	for (i = 0; i < HIST_VARS_MAX; i++)
		sum += tracing_map_read_var(elt, i);
	/* (100 + 0) + (100 + 1) + ... + (100 + 31), in whatever order */
	KUNIT_EXPECT_EQ(test, sum, 3696);
}

static void hist_map_test_vars(struct kunit *test)
{
	struct hist_map_test *t;
	struct tracing_map_elt *elt;
	u64 key = 7;

	t = hist_map_test_make(test, "hist:keys=n:b2=bytes*2,ts=common_timestamp.usecs");
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_EQ(test, t->hd->n_vars, 2);
	KUNIT_EXPECT_TRUE(test, t->hd->timestamps);

	t = hist_map_test_make(test, "hist:keys=n:b2=bytes*2:sort=n.descending:clock=mono");
	KUNIT_ASSERT_NOT_NULL(test, t);
	hist_map_test_feed(t, 7, 21, "", "");
	elt = tracing_map_lookup(t->hd->map, &key);
	KUNIT_ASSERT_NOT_NULL(test, elt);
	KUNIT_EXPECT_EQ(test, tracing_map_read_var(elt, 0), 42);
	/* no clock= in the listing: nothing reads the clock */
	KUNIT_EXPECT_STREQ(test, hist_map_test_show(test, t),
			   "hist:keys=n:vals=hitcount:b2=bytes*2:sort=n.descending:size=2048 [active]\n"
			   "{ n:          7 } hitcount:          1\n"
			   "\nTotals:\n    Hits: 1\n    Entries: 1\n    Dropped: 0\n");
}

static void hist_map_test_refusals(struct kunit *test)
{
	static const struct hist_map_test_refusal cases[] = {
		{ "hist:keys=n:sort=nosuch", 17, HIST_ERR_INVALID_SORT_FIELD },
		{ "hist:keys=n:vals=bytes:sort=n,hitcount,bytes,n,bytes", 23,
		  HIST_ERR_TOO_MANY_SORT_FIELDS },
		{ "hist:keys=path,name,path", 20, HIST_ERR_KEY_TOO_LARGE },
		{ "hist:keys=n:nohitcount", 0, HIST_ERR_NEED_NOHC_VAL },
		{ "hist:keys=n:vals=nosuch", 17, HIST_ERR_FIELD_NOT_FOUND },
	};

	hist_map_test_refuse_all(test, cases, ARRAY_SIZE(cases), NULL);
}

/* The value of variable @idx of @t's entry for key @n, or -1 if unset. */
static u64 hist_map_test_var(struct hist_map_test *t, u64 n, unsigned int idx)
{
	struct tracing_map_elt *elt = tracing_map_lookup(t->hd->map, &n);

	if (!elt || !tracing_map_var_set(elt, idx))
		return -1;
	return tracing_map_read_var(elt, idx);
}

/* A scope that outlives the histograms the test registers in it. */
static struct hist_vars_scope *hist_map_test_scope(struct kunit *test)
{
	struct hist_vars_scope *scope = kunit_kzalloc(test, sizeof(*scope),
						      GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, scope);
	INIT_LIST_HEAD(&scope->hists);
	return scope;
}

/* A wakeup-latency pair: ev_a records ts0 per key, ev_b reads it once. */
static void hist_map_test_references(struct kunit *test)
{
	struct hist_vars_scope *scope = hist_map_test_scope(test);
	struct hist_map_test *a, *b, *t;
	u64 one = 1;

	a = hist_map_test_make_in(test, "hist:keys=n:ts0=bytes",
				  &hist_map_test_call, scope);
	KUNIT_ASSERT_NOT_NULL(test, a);
	b = hist_map_test_make_in(test, "hist:keys=n:lat=bytes-$ts0",
				  &hist_map_test_call_b, scope);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_EQ(test, b->hd->n_refs, 1);
	KUNIT_EXPECT_PTR_EQ(test, b->hd->refs[0]->var_hd, a->hd);
	KUNIT_EXPECT_TRUE(test, b->hd->refs[0]->read_once);
	KUNIT_EXPECT_EQ(test, a->hd->n_users, 1);

	/* no ts0 for key 1 yet: the event does not count */
	hist_map_test_feed(b, 1, 130, "", "");
	KUNIT_EXPECT_NULL(test, tracing_map_lookup(b->hd->map, &one));

	hist_map_test_feed(a, 1, 100, "", "");
	KUNIT_EXPECT_EQ(test, hist_map_test_var(a, 1, 0), 100);
	hist_map_test_feed(b, 1, 130, "", "");
	KUNIT_EXPECT_EQ(test, hist_map_test_var(b, 1, 0), 30);
	/* ts0 was consumed: a second event of ev_b counts nothing */
	KUNIT_EXPECT_EQ(test, hist_map_test_var(a, 1, 0), (u64)-1);
	hist_map_test_feed(b, 1, 150, "", "");
	KUNIT_EXPECT_EQ(test, hist_map_test_var(b, 1, 0), 30);
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->hd->map->hits), 1);
	/* another key has no ts0 */
	hist_map_test_feed(a, 1, 200, "", "");
	hist_map_test_feed(b, 2, 250, "", "");
	KUNIT_EXPECT_EQ(test, atomic64_read(&b->hd->map->hits), 1);

	/* the same name on one event twice is refused where it is defined */
	t = hist_map_test_make_in(test, "hist:keys=n:x=n:ts0=bytes",
				  &hist_map_test_call, scope);
	KUNIT_EXPECT_NULL(test, t);
	/* a ts0 on ev_b too: an unqualified $ts0 is ambiguous */
	t = hist_map_test_make_in(test, "hist:keys=bytes:ts0=n",
				  &hist_map_test_call_b, scope);
	KUNIT_ASSERT_NOT_NULL(test, t);
	t = hist_map_test_make_in(test, "hist:keys=n:d=n-$ts0",
				  &hist_map_test_call_b, scope);
	KUNIT_EXPECT_NULL(test, t);
	t = hist_map_test_make_in(test, "hist:keys=n:d=n-hist_map_test.ev_a.$ts0",
				  &hist_map_test_call_b, scope);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_PTR_EQ(test, t->hd->refs[0]->var_hd, a->hd);
	KUNIT_EXPECT_EQ(test, a->hd->n_users, 2);
	/* a variable of its own */
	t = hist_map_test_make_in(test, "hist:keys=n:v=bytes,w=$v", &hist_map_test_call, NULL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_PTR_EQ(test, t->hd->refs[0]->var_hd, t->hd);
	KUNIT_EXPECT_STREQ(test, t->hd->refs[0]->type, "u64");
}

/*
 * A variable referenced twice (and once bare) is one slot: read once
 * per event, both expressions see it, and using it as an operand
 * anywhere consumes it.
 */
static void hist_map_test_shared_reference(struct kunit *test)
{
	struct hist_vars_scope *scope = hist_map_test_scope(test);
	struct hist_map_test *a, *b;

	a = hist_map_test_make_in(test, "hist:keys=n:ts0=bytes",
				  &hist_map_test_call, scope);
	KUNIT_ASSERT_NOT_NULL(test, a);
	b = hist_map_test_make_in(test,
				  "hist:keys=n:t=$ts0,lat=bytes-$ts0,lat2=bytes-$ts0",
				  &hist_map_test_call_b, scope);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_EQ(test, b->hd->n_refs, 1);
	KUNIT_EXPECT_TRUE(test, b->hd->refs[0]->read_once);
	KUNIT_EXPECT_EQ(test, a->hd->n_users, 1);

	hist_map_test_feed(a, 1, 100, "", "");
	hist_map_test_feed(b, 1, 130, "", "");
	KUNIT_EXPECT_EQ(test, hist_map_test_var(b, 1, 0), 100);
	KUNIT_EXPECT_EQ(test, hist_map_test_var(b, 1, 1), 30);
	KUNIT_EXPECT_EQ(test, hist_map_test_var(b, 1, 2), 30);
	KUNIT_EXPECT_EQ(test, hist_map_test_var(a, 1, 0), (u64)-1);
}

static void hist_map_test_reference_errors(struct kunit *test)
{
	struct hist_vars_scope *scope = hist_map_test_scope(test);
	static const struct hist_map_test_refusal cases[] = {
		{ "hist:keys=n:x=n:ts0=bytes", 16, HIST_ERR_DUPLICATE_VAR },
		{ "hist:keys=n:d=n-$ts0", 16, HIST_ERR_VAR_NOT_UNIQUE },
		{ "hist:keys=n:d=n-$nosuch", 16, HIST_ERR_VAR_NOT_FOUND },
		{ "hist:keys=n:d=n-hist_map_test.ev_x.$ts0", 16, HIST_ERR_VAR_NOT_FOUND },
		{ "hist:keys=$ts0", 10, HIST_ERR_INVALID_REF_KEY },
	};

	KUNIT_ASSERT_NOT_NULL(test, hist_map_test_make_in(test, "hist:keys=n:ts0=bytes",
							  &hist_map_test_call, scope));
	KUNIT_ASSERT_NOT_NULL(test, hist_map_test_make_in(test, "hist:keys=n:ts0=n",
							  &hist_map_test_call_b, scope));
	hist_map_test_refuse_all(test, cases, ARRAY_SIZE(cases), scope);
}

/* onmax() and onchange() with save(): the entry keeps what it saw. */
static void hist_map_test_track(struct kunit *test)
{
	struct hist_map_test *t;
	char want[512];

	t = hist_map_test_make(test, "hist:keys=n:b=bytes:onmax($b).save(name,bytes)");
	KUNIT_ASSERT_NOT_NULL(test, t);
	hist_map_test_feed(t, 1, 5, "five", "");
	hist_map_test_feed(t, 1, 9, "nine", "");
	hist_map_test_feed(t, 1, 3, "three", "");
	snprintf(want, sizeof(want),
		 "hist:keys=n:vals=hitcount:b=bytes:sort=hitcount:size=2048:onmax($b).save(name,bytes) [active]\n"
		 "{ n:          1 } hitcount:          3\n"
		 "\tmax:          9  name: %-32s  bytes:          9\n"
		 "\nTotals:\n    Hits: 3\n    Entries: 1\n    Dropped: 0\n", "nine");
	KUNIT_EXPECT_STREQ(test, hist_map_test_show(test, t), want);

	t = hist_map_test_make(test,
			       "hist:keys=n:b=bytes:onchange($b).save(bytes):onmax($b).snapshot()");
	KUNIT_ASSERT_NOT_NULL(test, t);
	hist_map_test_feed(t, 2, 5, "", "");
	hist_map_test_feed(t, 2, 7, "", "");
	hist_map_test_feed(t, 2, 6, "", "");
	KUNIT_EXPECT_STREQ(test, hist_map_test_show(test, t),
			   "hist:keys=n:vals=hitcount:b=bytes:sort=hitcount:size=2048:onchange($b).save(bytes):onmax($b).snapshot() [active]\n"
			   "{ n:          2 } hitcount:          3\n"
			   "\tchanged:          6  bytes:          6\n"
			   "\nTotals:\n    Hits: 3\n    Entries: 1\n    Dropped: 0\n");
}

/* What the made-up synthetic event's probe saw. */
struct hist_map_test_fired {
	unsigned int	count;
	u64		lat;
	char		name[16];
};

static void hist_map_test_probe(void *data, u64 *vals, unsigned int *idx)
{
	struct hist_map_test_fired *fired = data;

	fired->count++;
	fired->lat = vals[idx[0]];
	strscpy(fired->name, (char *)(unsigned long)vals[idx[1]], sizeof(fired->name));
}

static struct hist_map_test_fired hist_map_test_fired;

static void hist_map_test_synth_gone(void *se)
{
	tracepoint_probe_unregister(((struct synth_event *)se)->tp,
				    hist_map_test_probe, &hist_map_test_fired);
	tracepoint_synchronize_unregister();
	synth_event_delete("hist_kunit_lat");
}

/* onmatch().trace(): the latency of each matched pair goes out. */
static void hist_map_test_onmatch(struct kunit *test)
{
	struct hist_vars_scope *scope = hist_map_test_scope(test);
	static struct synth_field_desc fields[] = {
		{ .type = "u64", .name = "lat" },
		{ .type = "char[16]", .name = "name" },
	};
	struct hist_map_test *a, *b;
	struct synth_event *se;
	const char *listed;

	KUNIT_ASSERT_EQ(test, synth_event_create("hist_kunit_lat", fields, 2, NULL), 0);
	mutex_lock(&event_mutex);
	se = find_synth_event("hist_kunit_lat");
	mutex_unlock(&event_mutex);
	KUNIT_ASSERT_NOT_NULL(test, se);
	KUNIT_ASSERT_EQ(test, tracepoint_probe_register(se->tp, hist_map_test_probe,
							&hist_map_test_fired), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, hist_map_test_synth_gone, se), 0);
	memset(&hist_map_test_fired, 0, sizeof(hist_map_test_fired));

	a = hist_map_test_make_in(test, "hist:keys=n:ts0=bytes", &hist_map_test_call, scope);
	KUNIT_ASSERT_NOT_NULL(test, a);
	b = hist_map_test_make_in(test,
				  "hist:keys=n:lat=bytes-$ts0:onmatch(hist_map_test.ev_a).trace(hist_kunit_lat,$lat,name)",
				  &hist_map_test_call_b, scope);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_EQ(test, se->ref, 1);
	/* in use: it cannot be deleted */
	KUNIT_EXPECT_EQ(test, synth_event_delete("hist_kunit_lat"), -EBUSY);

	hist_map_test_feed(b, 1, 50, "early", "");
	KUNIT_EXPECT_EQ(test, hist_map_test_fired.count, 0);
	hist_map_test_feed(a, 1, 100, "", "");
	hist_map_test_feed(b, 1, 130, "switch", "");
	KUNIT_EXPECT_EQ(test, hist_map_test_fired.count, 1);
	KUNIT_EXPECT_EQ(test, hist_map_test_fired.lat, 30);
	KUNIT_EXPECT_STREQ(test, hist_map_test_fired.name, "switch");

	/* the legacy spelling, and the listing of both */
	b = hist_map_test_make_in(test,
				  "hist:keys=n:l2=bytes-$ts0:onmatch(hist_map_test.ev_a).hist_kunit_lat($l2,name)",
				  &hist_map_test_call_b, scope);
	KUNIT_ASSERT_NOT_NULL(test, b);
	KUNIT_EXPECT_EQ(test, se->ref, 2);
	listed = strstr(hist_map_test_show(test, b),
			":onmatch(hist_map_test.ev_a).hist_kunit_lat($l2,name) [active]\n");
	KUNIT_EXPECT_NOT_NULL(test, listed);
}

static void hist_map_test_action_errors(struct kunit *test)
{
	static const struct hist_map_test_refusal cases[] = {
		{ "hist:keys=n:onmax($nosuch).save(n)", 18, HIST_ERR_ONX_VAR_NOT_FOUND },
		{ "hist:keys=n:v=n:onmatch(a.b).trace(nosuch,$v)", 35,
		  HIST_ERR_SYNTH_EVENT_NOT_FOUND },
		{ "hist:keys=n:v=n:onmax($v).save(nosuch)", 31, HIST_ERR_FIELD_NOT_FOUND },
	};

	hist_map_test_refuse_all(test, cases, ARRAY_SIZE(cases), NULL);
}

/* What hist_debug prints of @hd. */
static char *hist_map_test_debug_text(struct kunit *test, struct hist_data *hd)
{
	struct seq_file m = { .size = 8192 };

	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	hist_print_debug(&m, hd);
	return m.buf;
}

static void hist_map_test_mm_gone(void *unused)
{
	synth_event_delete("hist_kunit_mm");
}

/* The synthetic event's count and types must fit the parameters. */
static void hist_map_test_synth_mismatch(struct kunit *test)
{
	static struct synth_field_desc fields[] = {
		{ .type = "u64", .name = "lat" },
		{ .type = "char[16]", .name = "name" },
	};
	static const struct hist_map_test_refusal cases[] = {
		{ "hist:keys=n:v=bytes:onmatch(a.b).trace(hist_kunit_mm,$v)", 20,
		  HIST_ERR_SYNTH_COUNT_MISMATCH },
		{ "hist:keys=n:v=bytes:onmatch(a.b).trace(hist_kunit_mm,n,name)", 53,
		  HIST_ERR_SYNTH_TYPE_MISMATCH },
	};
	struct hist_map_test *fits;

	KUNIT_ASSERT_EQ(test, synth_event_create("hist_kunit_mm", fields, 2, NULL), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, hist_map_test_mm_gone, NULL), 0);
	hist_map_test_refuse_all(test, cases, ARRAY_SIZE(cases), NULL);
	fits = hist_map_test_make(test,
				  "hist:keys=n:v=bytes:onmatch(a.b).trace(hist_kunit_mm,$v,name)");
	KUNIT_ASSERT_NOT_NULL(test, fits);
	/* name is read from the record: a parameter with no variable */
	KUNIT_EXPECT_NOT_NULL(test, strstr(hist_map_test_debug_text(test, fits->hd),
					   "\n  field variables:\n\n"
					   "    hist_data->actions[0].params[1]:\n"
					   "      kind: HIST_FIELD_STR\n"
					   "      ftrace_event_field name: name\n"
					   "      type: char[16]\n      size: 16\n"
					   "      is_signed: 0\n\n"
					   "  action tracking variables"));
}

/* hist_debug: each section of the file, describing this histogram. */
static void hist_map_test_debug(struct kunit *test)
{
	static const char * const fmt[] = {
		"hist_data: %p\n\n  n_vals: 4\n  n_keys: 1\n  n_fields: 5\n",
		"\n  val fields:\n",
		"\n    hist_data->vals[0]:\n      kind: HIST_FIELD_HITCOUNT\n",
		"      type: u64\n      size: 8\n      is_signed: 0\n",
		"\n    hist_data->vals[1]:\n      kind: HIST_FIELD_NUM\n",
		"      ftrace_event_field name: bytes\n",
		"      type: u64\n      size: 8\n      is_signed: 0\n",
		"\n    hist_data->vals[2]:\n      kind: HIST_FIELD_HITCOUNT\n",
		"      type: u64\n      size: 8\n      is_signed: 0\n",
		"\n    hist_data->vars[0]:\n      kind: HIST_FIELD_MUL\n",
		"      var.name: b\n      var.idx (into tracing_map_elt.vars[]): 0\n",
		"      type: u64\n      size: 8\n      is_signed: 0\n",
		"\n  key fields:\n",
		"\n    hist_data->keys[0]:\n      kind: HIST_FIELD_NUM\n",
		"      ftrace_event_field name: n\n",
		"      type: u32\n      size: 8\n      is_signed: 0\n",
		"\n  variable reference fields:\n",
		"\n    hist_data->refs[0]:\n      kind: HIST_FIELD_VAR_REF\n",
		"      name: b\n      var.idx (into tracing_map_elt.vars[]): 0\n",
		"      var.hist_data: %p\n",
		"      var_ref_idx (into hist_event.vars[]): 0\n",
		"      type: u64\n      size: 8\n      is_signed: 0\n",
		"\n  action tracking variables (for onmax()/onchange()/onmatch()):\n",
		"\n    hist_data->actions[0].track:\n      kind: HIST_FIELD_VAR_REF\n",
		"      name: b\n      var.idx (into tracing_map_elt.vars[]): 0\n",
		"      var.hist_data: %p\n",
		"      var_ref_idx (into hist_event.vars[]): 0\n",
		"      type: u64\n      size: 8\n      is_signed: 0\n",
		"\n    hist_data->actions[0].track_var:\n",
		"      var.name: __max\n",
		"      var.idx (into tracing_map_elt.vars[]): 1\n",
		"      type: u64\n      size: 8\n      is_signed: 0\n",
		"\n  save action variables (save() params):\n",
		"\n    hist_data->actions[0].params[0]:\n",
		"      var.name: name\n      var.idx (into tracing_map_elt.vars[]): 2\n",
		"      kind: HIST_FIELD_STR\n      ftrace_event_field name: name\n",
		"      type: char[16]\n      size: 16\n      is_signed: 0\n",
	};
	struct hist_map_test *t;
	char *want, *got, *p;
	unsigned int i;

	t = hist_map_test_make(test,
			       "hist:keys=n:vals=bytes,hitcount.percent:b=bytes*2:onmax($b).save(name)");
	KUNIT_ASSERT_NOT_NULL(test, t);
	want = kunit_kzalloc(test, 8192, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, want);
	for (i = 0, p = want; i < ARRAY_SIZE(fmt); i++)
		p += sprintf(p, fmt[i], t->hd);
	got = hist_map_test_debug_text(test, t->hd);
	/* long texts: say where they part, not just that they do */
	for (i = 0; got[i] && got[i] == want[i]; i++)
		;
	KUNIT_EXPECT_TRUE_MSG(test, got[i] == want[i],
			      "at %u: got \"%.60s\", want \"%.60s\"", i,
			      got + i, want + i);
}

static struct kunit_case hist_map_test_cases[] = {
	KUNIT_CASE(hist_map_test_counts),
	KUNIT_CASE(hist_map_test_strings),
	KUNIT_CASE(hist_map_test_char_array),
	KUNIT_CASE(hist_map_test_execname),
	KUNIT_CASE(hist_map_test_deep_stack),
	KUNIT_CASE(hist_map_test_full),
	KUNIT_CASE(hist_map_test_wide),
	KUNIT_CASE(hist_map_test_vars),
	KUNIT_CASE(hist_map_test_refusals),
	KUNIT_CASE(hist_map_test_references),
	KUNIT_CASE(hist_map_test_shared_reference),
	KUNIT_CASE(hist_map_test_reference_errors),
	KUNIT_CASE(hist_map_test_track),
	KUNIT_CASE(hist_map_test_onmatch),
	KUNIT_CASE(hist_map_test_action_errors),
	KUNIT_CASE(hist_map_test_synth_mismatch),
	KUNIT_CASE(hist_map_test_debug),
	{}
};

static struct kunit_suite hist_map_test_suite = {
	.name = "trace_hist_data",
	.init = hist_map_test_init,
	.test_cases = hist_map_test_cases,
};

kunit_test_suite(hist_map_test_suite);
