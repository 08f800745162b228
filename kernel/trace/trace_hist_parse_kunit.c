// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the "hist:" command parser (trace_hist_parse.c): what a
 * command turns into, and for each way of getting it wrong the message
 * and the column error_log's caret goes under.
 */
#include <kunit/test.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_hist.h"

/* A zeroed spec that the test frees. */
static struct hist_spec *hist_test_spec(struct kunit *test)
{
	struct hist_spec *spec = kunit_kzalloc(test, sizeof(*spec), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, spec);
	return spec;
}

/*
 * The attributes @parts joined with ':' (a part beginning with a blank, a
 * filter, is appended as it is), for commands too long for one line.
 */
static const char *hist_test_join(struct kunit *test, const char * const *parts)
{
	char *cmd = kunit_kzalloc(test, 1024, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, cmd);
	strscpy(cmd, *parts, 1024);
	while (*++parts) {
		if (**parts != ' ')
			strlcat(cmd, ":", 1024);
		strlcat(cmd, *parts, 1024);
	}
	return cmd;
}

/* Parse @cmd (which starts with "hist:") and expect success. */
static struct hist_spec *hist_test_parse(struct kunit *test, const char *cmd)
{
	struct hist_spec *spec = hist_test_spec(test);
	struct trace_parse_err err;
	int ret = hist_parse(spec, cmd, 5, &err);

	KUNIT_EXPECT_EQ_MSG(test, ret, 0, "%s: %s at %d", cmd,
			    hist_err_text[err.err], err.pos);
	return ret ? NULL : spec;
}

static void hist_expect_token(struct kunit *test,
			      const struct trace_token *tok, const char *str)
{
	KUNIT_EXPECT_TRUE_MSG(test, trace_token_is(tok, str),
			      "got \"%.*s\", want \"%s\"", tok->len,
			      tok->start, str);
}

static void hist_test_attributes(struct kunit *test)
{
	static const char * const parts[] = {
		"hist:key=pid,comm", "values=hitcount,bytes_req,bytes_alloc",
		"sort=bytes_req.descending,hitcount", "size=1000", "name=foo",
		"clock=mono", "pause", "NOHC", " if pid > 0", NULL
	};
	const char *cmd = hist_test_join(test, parts);
	struct hist_spec *spec = hist_test_parse(test, cmd);

	if (!spec)
		return;
	KUNIT_EXPECT_EQ(test, spec->n_keys, 2);
	hist_expect_token(test, &spec->keys[0].expr->name, "pid");
	hist_expect_token(test, &spec->keys[1].expr->text, "comm");
	KUNIT_EXPECT_EQ(test, spec->n_vals, 2);
	KUNIT_EXPECT_TRUE(test, spec->hitcount_val);
	hist_expect_token(test, &spec->vals[1].expr->name, "bytes_alloc");
	KUNIT_EXPECT_EQ(test, spec->n_sort, 2);
	hist_expect_token(test, &spec->sort[0].name, "bytes_req");
	KUNIT_EXPECT_TRUE(test, spec->sort[0].descending);
	hist_expect_token(test, &spec->sort[1].name, "hitcount");
	KUNIT_EXPECT_FALSE(test, spec->sort[1].descending);
	KUNIT_EXPECT_EQ(test, spec->map_bits, 10);
	hist_expect_token(test, &spec->name, "foo");
	hist_expect_token(test, &spec->clock, "mono");
	KUNIT_EXPECT_EQ(test, spec->flags, HIST_SPEC_PAUSE | HIST_SPEC_NOHITCOUNT);
	/* The filter starts after the attributes; the trigger code owns it. */
	KUNIT_EXPECT_STREQ(test, cmd + spec->end, " if pid > 0");

	spec = hist_test_parse(test, "hist:keys=pid:cont:clear");
	if (spec) {
		KUNIT_EXPECT_EQ(test, spec->flags, HIST_SPEC_CONT | HIST_SPEC_CLEAR);
		KUNIT_EXPECT_EQ(test, spec->map_bits, TRACING_MAP_BITS_DEFAULT);
	}
	spec = hist_test_parse(test, "hist:keys=pid:size=65:continue");
	if (spec) {
		KUNIT_EXPECT_EQ(test, spec->map_bits, TRACING_MAP_BITS_MIN);
		KUNIT_EXPECT_EQ(test, spec->flags, HIST_SPEC_CONT);
	}
	spec = hist_test_parse(test, "hist:keys=pid:size=131072:nohitcount");
	if (spec)
		KUNIT_EXPECT_EQ(test, spec->map_bits, TRACING_MAP_BITS_MAX);
	/* A later keys= replaces an earlier one. */
	spec = hist_test_parse(test, "hist:keys=a,b:keys=c");
	if (spec) {
		KUNIT_EXPECT_EQ(test, spec->n_keys, 1);
		hist_expect_token(test, &spec->keys[0].expr->name, "c");
	}
}

static void hist_test_modifiers(struct kunit *test)
{
	static const struct {
		const char	*key;
		unsigned int	mods;
		unsigned long	arg;
	} cases[] = {
		{ "a.hex", HIST_MOD_HEX },		{ "a.sym", HIST_MOD_SYM },
		{ "a.sym-offset", HIST_MOD_SYM_OFFSET },
		{ "common_pid.execname", HIST_MOD_EXECNAME },
		{ "id.syscall", HIST_MOD_SYSCALL },	{ "a.log2", HIST_MOD_LOG2 },
		{ "common_timestamp.usecs", HIST_MOD_USECS },
		{ "a.percent", HIST_MOD_PERCENT },	{ "a.graph", HIST_MOD_GRAPH },
		{ "a.stacktrace", HIST_MOD_STACKTRACE },
		{ "a.buckets=100", HIST_MOD_BUCKETS, 100 },
		{ "a.bucket=0x10", HIST_MOD_BUCKETS, 16 },	{ "a", 0 },
		{ "a.log2=0", HIST_MOD_LOGLIN, 0 },
		{ "a.log2=6", HIST_MOD_LOGLIN, 6 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		char cmd[64];
		struct hist_spec *spec;

		snprintf(cmd, sizeof(cmd), "hist:keys=%s", cases[i].key);
		spec = hist_test_parse(test, cmd);
		if (!spec)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, spec->keys[0].expr->mods, cases[i].mods,
				    "%s", cmd);
		hist_expect_token(test, &spec->keys[0].expr->text, cases[i].key);
		KUNIT_EXPECT_EQ(test, spec->keys[0].expr->mod_arg, cases[i].arg);
	}
}

static void hist_test_expressions(struct kunit *test)
{
	static const char * const parts[] = {
		"hist:keys=pid",
		"lat=common_timestamp.usecs-$ts0,x=a+b*c-d",
		"y=sched.sched_wakeup.$ts0,c=0x10*2,n=-(a+b),w=a/4", NULL
	};
	struct hist_spec *spec = hist_test_parse(test, hist_test_join(test, parts));
	struct hist_expr *e;

	if (!spec)
		return;
	KUNIT_ASSERT_EQ(test, spec->n_vars, 6);

	hist_expect_token(test, &spec->vars[0].var, "lat");
	e = spec->vars[0].expr;
	KUNIT_EXPECT_EQ(test, e->kind, HIST_EXPR_SUB);
	/* Printed back as written, references included. */
	hist_expect_token(test, &e->text, "common_timestamp.usecs-$ts0");
	KUNIT_EXPECT_EQ(test, e->arg[0]->kind, HIST_EXPR_FIELD);
	KUNIT_EXPECT_EQ(test, e->arg[0]->mods, HIST_MOD_USECS);
	KUNIT_EXPECT_EQ(test, e->arg[1]->kind, HIST_EXPR_VAR);
	hist_expect_token(test, &e->arg[1]->name, "ts0");
	KUNIT_EXPECT_EQ(test, e->arg[1]->system.len, 0);

	/* (a + (b * c)) - d */
	e = spec->vars[1].expr;
	KUNIT_EXPECT_EQ(test, e->kind, HIST_EXPR_SUB);
	hist_expect_token(test, &e->arg[1]->name, "d");
	KUNIT_EXPECT_EQ(test, e->arg[0]->kind, HIST_EXPR_ADD);
	hist_expect_token(test, &e->arg[0]->text, "a+b*c");
	KUNIT_EXPECT_EQ(test, e->arg[0]->arg[1]->kind, HIST_EXPR_MUL);
	hist_expect_token(test, &e->arg[0]->arg[1]->text, "b*c");

	e = spec->vars[2].expr;
	KUNIT_EXPECT_EQ(test, e->kind, HIST_EXPR_VAR);
	hist_expect_token(test, &e->system, "sched");
	hist_expect_token(test, &e->event, "sched_wakeup");
	hist_expect_token(test, &e->name, "ts0");

	e = spec->vars[3].expr;
	KUNIT_EXPECT_EQ(test, e->kind, HIST_EXPR_MUL);
	KUNIT_EXPECT_EQ(test, e->arg[0]->kind, HIST_EXPR_CONST);
	KUNIT_EXPECT_EQ(test, e->arg[0]->value, 16);
	KUNIT_EXPECT_EQ(test, e->arg[1]->value, 2);

	e = spec->vars[4].expr;
	KUNIT_EXPECT_EQ(test, e->kind, HIST_EXPR_NEG);
	hist_expect_token(test, &e->text, "-(a+b)");
	KUNIT_EXPECT_EQ(test, e->arg[0]->kind, HIST_EXPR_ADD);

	e = spec->vars[5].expr;
	KUNIT_EXPECT_EQ(test, e->kind, HIST_EXPR_DIV);
	KUNIT_EXPECT_EQ(test, e->arg[1]->value, 4);

	/* Three operators is the most; keys may be expressions too. */
	KUNIT_EXPECT_NOT_NULL(test, hist_test_parse(test, "hist:keys=a-b:x=a-b-c-d"));
}

static void hist_test_handlers(struct kunit *test)
{
	static const char * const parts[] = {
		"hist:keys=next_pid",
		"onmatch(sched.sched_waking).trace(wakeup_latency,$lat,next_pid)",
		"onmatch(sched.sched_waking).wakeup_latency($lat,next_pid)",
		"onmax($lat).save(next_comm,prev_pid)",
		"onchange($lat).snapshot()", NULL
	};
	struct hist_spec *spec = hist_test_parse(test, hist_test_join(test, parts));
	struct hist_spec_action *a;

	if (!spec)
		return;
	KUNIT_ASSERT_EQ(test, spec->n_actions, 4);

	a = &spec->actions[0];
	KUNIT_EXPECT_EQ(test, a->handler, HIST_ONMATCH);
	KUNIT_EXPECT_EQ(test, a->action, HIST_ACT_TRACE);
	KUNIT_EXPECT_FALSE(test, a->legacy);
	hist_expect_token(test, &a->system, "sched");
	hist_expect_token(test, &a->event, "sched_waking");
	hist_expect_token(test, &a->synth, "wakeup_latency");
	KUNIT_ASSERT_EQ(test, a->n_params, 2);
	hist_expect_token(test, &a->params[0], "$lat");
	hist_expect_token(test, &a->params[1], "next_pid");
	hist_expect_token(test, &a->text, parts[1]);

	a = &spec->actions[1];
	KUNIT_EXPECT_TRUE(test, a->legacy);
	hist_expect_token(test, &a->synth, "wakeup_latency");
	KUNIT_EXPECT_EQ(test, a->n_params, 2);

	a = &spec->actions[2];
	KUNIT_EXPECT_EQ(test, a->handler, HIST_ONMAX);
	KUNIT_EXPECT_EQ(test, a->action, HIST_ACT_SAVE);
	hist_expect_token(test, &a->var, "lat");
	KUNIT_EXPECT_EQ(test, a->n_params, 2);

	a = &spec->actions[3];
	KUNIT_EXPECT_EQ(test, a->handler, HIST_ONCHANGE);
	KUNIT_EXPECT_EQ(test, a->action, HIST_ACT_SNAPSHOT);
	KUNIT_EXPECT_EQ(test, a->n_params, 0);

	/* trace() from onmax() is allowed. */
	KUNIT_EXPECT_NOT_NULL(test,
			      hist_test_parse(test, "hist:keys=a:onmax($x).trace(s,$x)"));
}

/*
 * Each bad command with a line that has '^' under the column error_log
 * must point at.
 */
static const struct {
	const char	*cmd;
	const char	*caret;
	enum hist_err	err;
} hist_test_errors[] = {
	{ "hist:vals=x",
	  "     ^", HIST_ERR_NO_KEYS },
	{ "hist:keys=",
	  "     ^", HIST_ERR_EMPTY_ASSIGNMENT },
	{ "hist:keys=a:=x",
	  "            ^", HIST_ERR_MALFORMED_ASSIGNMENT },
	{ "hist:keys=a:x=1,y",
	  "                ^", HIST_ERR_MALFORMED_ASSIGNMENT },
	{ "hist:keys=a:x=,y=1",
	  "            ^", HIST_ERR_EMPTY_ASSIGNMENT },
	{ "hist:keys=a:b=x,b=y",
	  "                ^", HIST_ERR_DUPLICATE_VAR },
	{ "hist:keys=a:x=ip-",
	  "                 ^", HIST_ERR_INCOMPLETE_EXPR },
	{ "hist:keys=a,,b",
	  "            ^", HIST_ERR_INCOMPLETE_EXPR },
	{ "hist:keys=a.foo",
	  "            ^", HIST_ERR_BAD_FIELD_MODIFIER },
	{ "hist:keys=a.hex.",
	  "            ^", HIST_ERR_BAD_FIELD_MODIFIER },
	{ "hist:keys=a.buckets=0",
	  "            ^", HIST_ERR_BAD_FIELD_MODIFIER },
	{ "hist:keys=a.log2=7",
	  "                 ^", HIST_ERR_BAD_LOGLIN_BITS },
	{ "hist:keys=a.log2=",
	  "                 ^", HIST_ERR_BAD_LOGLIN_BITS },
	{ "hist:keys=a.log2=-1,b",
	  "                 ^", HIST_ERR_BAD_LOGLIN_BITS },
	{ "hist:keys=a.log2x",
	  "            ^", HIST_ERR_BAD_FIELD_MODIFIER },
	{ "hist:keys=a:x=a+b+c+d+e",
	  "              ^", HIST_ERR_TOO_MANY_SUBEXPR },
	{ "hist:keys=a:x=32+10*3/20-4",	/* the column error_log shows */
	  "                 ^", HIST_ERR_TOO_MANY_SUBEXPR },
	{ "hist:keys=a:x=a/0",
	  "                ^", HIST_ERR_DIVISION_BY_ZERO },
	{ "hist:keys=a:x=0xzz",
	  "              ^", HIST_ERR_EXPECT_NUMBER },
	{ "hist:keys=a:x=-(a",
	  "                 ^", HIST_ERR_NO_CLOSING_PAREN },
	{ "hist:keys=a:x=-a",
	  "               ^", HIST_ERR_INCOMPLETE_EXPR },
	{ "hist:keys=a(b)",
	  "           ^", HIST_ERR_UNEXPECTED_CHAR },
	{ "hist:keys=a:sort=",
	  "            ^", HIST_ERR_EMPTY_ASSIGNMENT },
	{ "hist:keys=a:sort=b.up",
	  "                   ^", HIST_ERR_INVALID_SORT_MODIFIER },
	{ "hist:keys=a:x=b:onmax($x).snapshot():onchange($x).snapshot()",
	  "                                                  ^", HIST_ERR_TOO_MANY_SNAPSHOTS },
	{ "hist:keys=a:sort=a,b,c,d,e",	/* at "sort", as tools expect */
	  "            ^", HIST_ERR_TOO_MANY_SORT_FIELDS },
	{ "hist:keys=a:sort=,a",
	  "            ^", HIST_ERR_EMPTY_SORT_FIELD },
	{ "hist:keys=a:x=-(1)+2",
	  "                ^", HIST_ERR_UNARY_MINUS_SUBEXPR },
	{ "hist:keys=a:x=a*-(1)",
	  "                  ^", HIST_ERR_UNARY_MINUS_SUBEXPR },
	{ "hist:keys=a,b,c,d,e,f,g",
	  "                      ^", HIST_ERR_TOO_MANY_KEYS },
	{ "hist:keys=a:vals=b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q,r",
	  "                                                 ^", HIST_ERR_TOO_MANY_VALS },
	{ "hist:keys=a:size=64",
	  "                 ^", HIST_ERR_BAD_SIZE },
	{ "hist:keys=a:size=131073",
	  "                 ^", HIST_ERR_BAD_SIZE },
	{ "hist:keys=a:size=many",
	  "                 ^", HIST_ERR_BAD_SIZE },
	{ "hist:keys=a:bogus",
	  "            ^", HIST_ERR_UNKNOWN_ATTR },
	{ "hist:keys=a::pause",
	  "            ^", HIST_ERR_UNKNOWN_ATTR },
	{ "hist:keys=a:onmatch(sched_wakeup).trace(x,$y)",
	  "                    ^", HIST_ERR_SUBSYS_NOT_FOUND },
	{ "hist:keys=a:onmatch(sched.sched_wakeup",
	  "                    ^", HIST_ERR_NO_CLOSING_PAREN },
	{ "hist:keys=a:onmax(lat).save(x)",
	  "                  ^", HIST_ERR_ONX_NOT_VAR },
	{ "hist:keys=a:onmax($lat)",
	  "                       ^", HIST_ERR_ACTION_NOT_FOUND },
	{ "hist:keys=a:onmax($lat).save(x",
	  "                        ^", HIST_ERR_NO_CLOSING_PAREN },
	{ "hist:keys=a:onmax($lat).save(x).snapshot()",
	  "                               ^", HIST_ERR_ACTION_NOT_FOUND },
	{ "hist:keys=a:onmatch(s.e).save(x)",
	  "                         ^", HIST_ERR_ACTION_MISMATCH },
	{ "hist:keys=a:onmax($l).save()",
	  "                      ^", HIST_ERR_NO_SAVE_PARAMS },
	{ "hist:keys=a:onmax($l).save(x):onchange($l).save(y)",
	  "                                           ^", HIST_ERR_TOO_MANY_SAVE_ACTIONS },
	{ "hist:keys=a:onmax($l).trace(s,,x)",
	  "                              ^", HIST_ERR_INVALID_PARAM },
	{ "hist:keys=a:onmax($l).trace()",
	  "                            ^", HIST_ERR_INVALID_PARAM },
};

static void hist_test_bad_commands(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hist_test_errors); i++) {
		struct hist_spec *spec = hist_test_spec(test);
		struct trace_parse_err err;
		int ret = hist_parse(spec, hist_test_errors[i].cmd, 5, &err);

		KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL, "%s", hist_test_errors[i].cmd);
		KUNIT_EXPECT_STREQ_MSG(test, hist_err_text[err.err],
				       hist_err_text[hist_test_errors[i].err],
				       "%s", hist_test_errors[i].cmd);
		KUNIT_EXPECT_EQ_MSG(test, err.pos,
				    (int)strlen(hist_test_errors[i].caret) - 1,
				    "%s", hist_test_errors[i].cmd);
	}
}

/* Limits that need long commands, and a message for every error. */
static void hist_test_limits(struct kunit *test)
{
	struct hist_spec *spec = hist_test_spec(test);
	struct trace_parse_err err;
	char *cmd, *p;
	int i;

	cmd = kunit_kzalloc(test, 4096, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cmd);

	/* Six keys, sixteen values and four sort keys: the limits. */
	KUNIT_EXPECT_EQ(test, hist_parse(spec, "hist:keys=a,b,c,d,e,f:sort=a,b,c,d",
					 5, &err), 0);
	KUNIT_EXPECT_EQ(test, spec->n_keys, 6);
	KUNIT_EXPECT_EQ(test, spec->n_sort, 4);
	KUNIT_EXPECT_EQ(test, hist_parse(spec, "hist:keys=a:vals=b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q",
					 5, &err), 0);
	KUNIT_EXPECT_EQ(test, spec->n_vals, 16);
	KUNIT_EXPECT_STREQ(test, hist_err_text[HIST_ERR_TOO_MANY_KEYS], "Too many keys (6 max)");
	KUNIT_EXPECT_STREQ(test, hist_err_text[HIST_ERR_TOO_MANY_VALS],
			   "Too many values (16 max besides hitcount)");
	KUNIT_EXPECT_STREQ(test, hist_err_text[HIST_ERR_TOO_MANY_SORT_FIELDS],
			   "Too many sort fields (Max = 4)");

	/* 32 variables are fine, the 33rd is one too many. */
	p = cmd + sprintf(cmd, "hist:keys=a");
	for (i = 0; i < HIST_VARS_MAX; i++)
		p += sprintf(p, ":v%d=a", i);
	KUNIT_EXPECT_EQ(test, hist_parse(spec, cmd, 5, &err), 0);
	i = p - cmd + 1;
	sprintf(p, ":v%d=a", HIST_VARS_MAX);
	KUNIT_EXPECT_EQ(test, hist_parse(spec, cmd, 5, &err), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.err, HIST_ERR_TOO_MANY_VARS);
	KUNIT_EXPECT_EQ(test, err.pos, i);

	/* Repeating keys= cannot use up the expression pool silently. */
	p = cmd + sprintf(cmd, "hist:keys=a");
	for (i = 0; i < 300; i++)
		p += sprintf(p, ":keys=a+b");
	KUNIT_EXPECT_EQ(test, hist_parse(spec, cmd, 5, &err), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.err, HIST_ERR_TOO_COMPLEX);

	/* 64 parameters fit, 65 do not. */
	p = cmd + sprintf(cmd, "hist:keys=a:onmatch(s.e).trace(syn");
	for (i = 0; i < HIST_PARAMS_MAX; i++)
		p += sprintf(p, ",p%d", i);
	sprintf(p, ")");
	KUNIT_EXPECT_EQ(test, hist_parse(spec, cmd, 5, &err), 0);
	KUNIT_EXPECT_EQ(test, spec->actions[0].n_params, HIST_PARAMS_MAX);
	sprintf(p, ",p%d)", HIST_PARAMS_MAX);
	KUNIT_EXPECT_EQ(test, hist_parse(spec, cmd, 5, &err), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.err, HIST_ERR_TOO_MANY_PARAMS);

	/* Eight handlers, not nine. */
	p = cmd + sprintf(cmd, "hist:keys=a");
	for (i = 0; i < HIST_ACTIONS_MAX; i++)
		p += sprintf(p, ":onchange($x).trace(s,$x)");
	KUNIT_EXPECT_EQ(test, hist_parse(spec, cmd, 5, &err), 0);
	sprintf(p, ":onchange($x).trace(s,$x)");
	KUNIT_EXPECT_EQ(test, hist_parse(spec, cmd, 5, &err), -EINVAL);
	KUNIT_EXPECT_EQ(test, err.err, HIST_ERR_TOO_MANY_ACTIONS);

	for (i = 0; i < HIST_ERR_MAX; i++)
		KUNIT_EXPECT_NOT_NULL_MSG(test, hist_err_text[i], "error %d", i);
}

static struct kunit_case hist_parse_test_cases[] = {
	KUNIT_CASE(hist_test_attributes),
	KUNIT_CASE(hist_test_modifiers),
	KUNIT_CASE(hist_test_expressions),
	KUNIT_CASE(hist_test_handlers),
	KUNIT_CASE(hist_test_bad_commands),
	KUNIT_CASE(hist_test_limits),
	{}
};

static struct kunit_suite hist_parse_test_suite = {
	.name = "trace_hist_parse",
	.test_cases = hist_parse_test_cases,
};

kunit_test_suite(hist_parse_test_suite);
