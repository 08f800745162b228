// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz: single inputs of every text and binary entry, from their
 * grammars, and their mutations.
 *
 * An OP_TEXT operation is one input to one entry: a filter, a trigger,
 * set_event_pid, a dynamic_events or synthetic_events command, a
 * DIAG_IOCSREG or DIAG_IOCSDEL argument, a write of user_events_data, an
 * mmap of the status page or a perf attach.  A generator builds a valid
 * input from the entry's grammar; half of the time it is then mutated
 * (bit flips, truncation, splicing, huge numbers, deep nesting, long
 * names, non-UTF-8 bytes, embedded NULs).  The names these inputs make
 * (fz_d*, fz_t*, fz_x*, fz_r*) are apart from the programs' own, whose
 * model they would otherwise blur; programs reach the grammars' depth,
 * these their breadth.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fz_text.h"

void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->len >= t->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len = t->len + n < t->cap ? t->len + n : t->cap - 1;
}

static const char *const huge[] = {
	"18446744073709551615", "18446744073709551616", "-9223372036854775809",
	"0xffffffffffffffffff", "99999999999999999999999999", "-1", "0x", "1e9",
	"4294967296", "-2147483649",
};

void add_number(struct rng *r, struct text *t)
{
	switch (below(r, 5)) {
	case 0:
		add(t, "%s", pick(r, huge, ARRAY_SIZE(huge)));
		break;
	case 1:
		add(t, "0x%llx", (unsigned long long)rnd(r));
		break;
	case 2:
		add(t, "-%u", below(r, 1000));
		break;
	default:
		add(t, "%u", below(r, 100));
	}
}

static void add_name(struct rng *r, struct text *t)
{
	static const char *const names[] = {
		"a", "lat", "pid", "x_1", "common_pid", "$ts0", "comm", "Z",
	};
	int i;

	if (chance(r, 12)) {
		for (i = 0; i < 300; i++)
			add(t, "%c", 'a' + i % 26);
		return;
	}
	add(t, "%s", pick(r, names, ARRAY_SIZE(names)));
}

const char *field_of(struct rng *r, struct fz_event *e, int *is_string)
{
	static const char *const common[] = {
		"common_pid", "common_cpu", "CPU", "COMM", "common_timestamp",
		".function", "nosuchfield",
	};
	int i;

	if (!e->nf || chance(r, 6)) {
		*is_string = 0;
		return pick(r, common, ARRAY_SIZE(common));
	}
	i = below(r, e->nf);
	*is_string = e->f[i].str;
	return e->f[i].name;
}

static void gen_pred(struct rng *r, struct fz_event *e, struct text *t, int depth)
{
	static const char *const num_ops[] = { "==", "!=", "<", "<=", ">", ">=", "&" };
	static const char *const str_ops[] = { "==", "!=", "~" };
	static const char *const globs[] = {
		"\"*\"", "\"ab*\"", "\"*x\"", "\"*mid*\"", "\"a?c\"", "\"[a-z]*\"",
		"\"[!0-9]\"", "\"\"", "bare", "\"\\\"\"", "\"[\"", "\"*[*\"",
	};
	int s;
	const char *f;

	if (depth < 6 && chance(r, 4)) {
		add(t, "%s(", chance(r, 3) ? "!" : "");
		gen_pred(r, e, t, depth + 1);
		add(t, " %s ", chance(r, 2) ? "&&" : "||");
		gen_pred(r, e, t, depth + 1);
		add(t, ")");
		return;
	}
	f = field_of(r, e, &s);
	if (chance(r, 10)) {
		add(t, "CPUS{%u-%u,%u}", below(r, 4), below(r, 8), below(r, 300));
		return;
	}
	if (s)
		add(t, "%s %s ", f, pick(r, str_ops, ARRAY_SIZE(str_ops)));
	else
		add(t, "%s %s ", f, pick(r, num_ops, ARRAY_SIZE(num_ops)));
	if (s || chance(r, 8))
		add(t, "%s", pick(r, globs, ARRAY_SIZE(globs)));
	else
		add_number(r, t);
}

void gen_filter(struct rng *r, struct fz_event *e, struct text *t)
{
	int n = 1 + below(r, 4);

	while (n--) {
		gen_pred(r, e, t, 0);
		if (n)
			add(t, " %s ", chance(r, 2) ? "&&" : "||");
	}
}

static const char *const hist_mods[] = {
	"", "", "", ".hex", ".sym", ".sym-offset", ".execname", ".syscall",
	".log2", ".buckets=10", ".buckets=0", ".buckets=18446744073709551615",
	".usecs", ".percent", ".graph", ".stacktrace", ".nosuch", ".",
};

/* The histogram variables the generators define and refer to */
static const char *const hist_vars[] = { "ts0", "lat", "a", "b" };

/*
 * An operand of a histogram expression: a field with a modifier, a
 * number, a variable of this or another event (sched_waking holds $ts0
 * when an earlier input put it there), or a field named with its event.
 */
static void gen_hist_atom(struct rng *r, struct fz_event *e, struct text *t)
{
	struct fz_event *o = &fz_events[below(r, fz_nevents)];
	int s;

	switch (below(r, 8)) {
	case 0:
		add_number(r, t);
		break;
	case 1:
		add(t, "$%s", pick(r, hist_vars, ARRAY_SIZE(hist_vars)));
		break;
	case 2:
		add(t, "%s.%s.$%s", o->sys, o->name,
		    pick(r, hist_vars, ARRAY_SIZE(hist_vars)));
		break;
	case 3:
		add(t, "%s.%s.%s", e->sys, e->name, field_of(r, e, &s));
		break;
	case 4:
		add(t, "common_timestamp%s", chance(r, 2) ? ".usecs" : "");
		break;
	default:
		add(t, "%s%s", field_of(r, e, &s),
		    pick(r, hist_mods, ARRAY_SIZE(hist_mods)));
	}
}

/* An expression: + - * / of operands, parentheses and unary minus. */
static void gen_hist_expr(struct rng *r, struct fz_event *e, struct text *t,
			  int depth)
{
	static const char ops[] = "+-*/";

	if (depth < 5 && chance(r, 4)) {
		add(t, "%s(", chance(r, 3) ? "-" : "");
		gen_hist_expr(r, e, t, depth + 1);
		add(t, ")");
	} else {
		gen_hist_atom(r, e, t);
	}
	if (depth < 5 && chance(r, 3)) {
		add(t, "%c", ops[below(r, 4)]);
		gen_hist_expr(r, e, t, depth + 1);
	}
}

/* The parameters of an action: fields, variables, whole expressions. */
static void gen_hist_params(struct rng *r, struct fz_event *e, struct text *t)
{
	int n = chance(r, 10) ? 1 + below(r, 40) : below(r, 5), i, s;

	for (i = 0; i < n; i++) {
		if (i)
			add(t, chance(r, 8) ? " , " : ",");
		switch (below(r, 4)) {
		case 0:
			add(t, "$%s", pick(r, hist_vars, ARRAY_SIZE(hist_vars)));
			break;
		case 1:
			gen_hist_atom(r, e, t);
			break;
		default:
			add(t, "%s", field_of(r, e, &s));
		}
	}
}

/* A handler with one or more actions, as a trigger may hold several. */
static void gen_hist_handler(struct rng *r, struct fz_event *e, struct text *t)
{
	static const char *const handlers[] = { "onmatch", "onmax", "onchange" };
	const char *h = pick(r, handlers, ARRAY_SIZE(handlers));
	struct fz_event *o = &fz_events[below(r, fz_nevents)];

	if (!strcmp(h, "onmatch"))
		add(t, ":onmatch(%s.%s)", chance(r, 2) ? "sched" : o->sys,
		    chance(r, 2) ? "sched_waking" : o->name);
	else
		add(t, ":%s($%s)", h, pick(r, hist_vars, ARRAY_SIZE(hist_vars)));
	switch (below(r, 5)) {
	case 0:
		/* the legacy form: the synthetic event as the action */
		add(t, ".fz_s%u(", below(r, 4));
		break;
	case 1:
		add(t, ".save(");
		break;
	case 2:
		add(t, ".snapshot(");
		break;
	default:
		if (chance(r, 8))
			add(t, ".trace(nosuch");
		else
			add(t, ".trace(fz_s%u", below(r, 4));
		add(t, "%s", chance(r, 6) ? "" : ",");
	}
	gen_hist_params(r, e, t);
	add(t, "%s", chance(r, 12) ? "" : ")");
}

static void gen_hist(struct rng *r, struct fz_event *e, struct text *t)
{
	int s, n;

	/* a new key per event now and then: small maps fill up */
	add(t, "hist:%s=", chance(r, 4) ? "key" : "keys");
	switch (below(r, 8)) {
	case 0:
		add(t, "common_timestamp");
		break;
	case 1:
		add(t, "%s", chance(r, 2) ? "common_stacktrace" : "stacktrace");
		break;
	case 2:
		gen_hist_expr(r, e, t, 3);
		break;
	default:
		add(t, "%s%s", field_of(r, e, &s),
		    pick(r, hist_mods, ARRAY_SIZE(hist_mods)));
	}
	for (n = chance(r, 2) ? below(r, 5) : 0; n; n--)
		add(t, ",%s%s", field_of(r, e, &s),
		    pick(r, hist_mods, ARRAY_SIZE(hist_mods)));
	if (chance(r, 2)) {
		add(t, ":%s=hitcount", chance(r, 3) ? "values" : "vals");
		for (n = 1 + below(r, 4); n; n--) {
			add(t, ",");
			gen_hist_expr(r, e, t, 4);
		}
	}
	if (chance(r, 3))
		add(t, ":ts0=common_timestamp.usecs");
	if (chance(r, 4))
		add(t, ":lat=common_timestamp.usecs-$ts0");
	for (n = chance(r, 3) ? 1 + below(r, 3) : 0; n; n--) {
		add(t, ":%s=", pick(r, hist_vars, ARRAY_SIZE(hist_vars)));
		gen_hist_expr(r, e, t, 0);
	}
	if (chance(r, 3))
		add(t, ":sort=%s%s", chance(r, 2) ? "hitcount" : field_of(r, e, &s),
		    chance(r, 2) ? ".descending" : "");
	if (chance(r, 3)) {
		add(t, ":size=");
		if (chance(r, 2))
			add(t, "%u", 128u << below(r, 3));
		else
			add_number(r, t);
	}
	if (chance(r, 4))
		add(t, ":name=fz_h%u", below(r, 3));
	if (chance(r, 5))
		add(t, ":%s", chance(r, 2) ? "pause" : (chance(r, 2) ? "cont" : "clear"));
	if (chance(r, 8))
		add(t, ":nohitcount");
	for (n = chance(r, 2) ? 1 + below(r, chance(r, 8) ? 10 : 2) : 0; n; n--)
		gen_hist_handler(r, e, t);
	if (chance(r, 8))
		add(t, ":clock=%s", chance(r, 2) ? "global" : "nosuch");
}

static void gen_trigger(struct rng *r, struct fz_event *e, struct text *t)
{
	static const char *const simple[] = {
		"traceon", "traceoff", "snapshot", "stacktrace",
	};
	static const char *const targets[] = {
		"enable_event", "disable_event", "enable_hist", "disable_hist",
	};
	struct fz_event *o = &fz_events[below(r, fz_nevents)];

	if (chance(r, 4))
		add(t, "!");
	switch (below(r, 3)) {
	case 0:
		add(t, "%s", pick(r, simple, ARRAY_SIZE(simple)));
		break;
	case 1:
		add(t, "%s:%s:%s", pick(r, targets, ARRAY_SIZE(targets)), o->sys, o->name);
		break;
	default:
		gen_hist(r, e, t);
	}
	if (chance(r, 3)) {
		add(t, ":");
		add_number(r, t);
	}
	if (chance(r, 3)) {
		add(t, " if ");
		gen_filter(r, e, t);
	}
}

static void gen_pids(struct rng *r, struct text *t)
{
	int n = below(r, 6);

	while (n--) {
		add_number(r, t);
		add(t, " ");
	}
}

static const char *const ue_types[] = {
	"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "int",
	"unsigned int", "char", "unsigned char", "short", "char[16]",
	"char[0x10]", "unsigned char[3]", "__data_loc char[]",
	"__rel_loc char[]", "struct fz 8", "long", "bool", "char[9999]",
	"__data_loc u8[]", "char[]",
};

static void gen_ue_fields(struct rng *r, struct text *t)
{
	int n = below(r, 6), i;

	for (i = 0; i < n; i++) {
		const char *ty = pick(r, ue_types, ARRAY_SIZE(ue_types));

		if (!strncmp(ty, "struct", 6)) {
			add(t, "struct fz ");
			add_name(r, t);
			add(t, " %u", below(r, 40));
		} else {
			add(t, "%s ", ty);
			add_name(r, t);
		}
		add(t, "%s", i + 1 < n ? (chance(r, 5) ? ";" : "; ") : "");
	}
}

static const char *const synth_types[] = {
	"u64", "s32", "int", "unsigned int", "long", "unsigned long", "pid_t",
	"gfp_t", "bool", "char[16]", "char[]", "long[]", "unsigned long[]",
	"stacktrace", "u8", "s16", "char[0]", "char[4096]", "float",
};

/*
 * A few fields, or now and then as many as the limit of 64 and a few more
 * (distinct names, so the count is what is refused).
 */
static void gen_synth_fields(struct rng *r, struct text *t)
{
	int many = chance(r, 16), n = many ? 60 + below(r, 10) : below(r, 5), i;

	for (i = 0; i < n; i++) {
		add(t, "%s ", pick(r, synth_types, ARRAY_SIZE(synth_types)));
		if (many)
			add(t, "f%d", i);
		else
			add_name(r, t);
		if (i + 1 < n)
			add(t, "; ");
	}
}

static void gen_dynevent(struct rng *r, struct text *t)
{
	unsigned int k = below(r, 3);

	switch (below(r, 7)) {
	case 0:
		add(t, "u:fz_d%u ", k);
		gen_ue_fields(r, t);
		break;
	case 1:
		add(t, "!u:fz_d%u ", k);
		gen_ue_fields(r, t);
		break;
	case 2:
		add(t, "s:%sfz_t%u ", chance(r, 2) ? "synthetic/" : "", k);
		gen_synth_fields(r, t);
		break;
	case 3:
		add(t, "-:%sfz_%c%u", chance(r, 2) ? "synthetic/" : "",
		    chance(r, 2) ? 't' : 'd', k);
		break;
	case 4:
		add(t, "!s:fz_t%u", k);
		break;
	case 5:
		add(t, "e:fz_x%u sched.sched_switch prev_pid=$prev_pid:u32 %s",
		    k, chance(r, 2) ? "next_comm=$next_comm:string" : "");
		break;
	default:
		add(t, "-:fz_x%u", k);
	}
}

static void gen_synth(struct rng *r, struct text *t)
{
	unsigned int k = below(r, 3);

	if (chance(r, 3)) {
		add(t, "!fz_t%u", k);
		return;
	}
	add(t, "fz_t%u ", k);
	gen_synth_fields(r, t);
}

/* ---- mutations of a text ---- */

static void mutate(struct rng *r, struct fz_op *in)
{
	static const char *const pieces[] = {
		"((((((((((((((((((((", "))))", " && ", "||", "\"", "$", ":", ";",
		"!", "[", "]", "\xff\xfe", "\xc0\x80", "\xe2\x82", "=", "\\",
		"18446744073709551616", " if ", ".", ",",
	};
	int n = 1 + below(r, 4);

	while (n--) {
		uint32_t pos = in->len ? below(r, in->len + 1) : 0;

		switch (below(r, 6)) {
		case 0:		/* bit flips */
			if (in->len)
				in->text[below(r, in->len)] ^= 1 << below(r, 8);
			break;
		case 1:		/* truncation */
			in->len = pos;
			break;
		case 2:		/* an embedded NUL */
			if (in->len)
				in->text[below(r, in->len)] = 0;
			break;
		case 3: {	/* deep nesting */
			uint32_t d = below(r, 2000);

			if (in->len + 2 * d < FZ_TEXT_MAX) {
				memmove(in->text + d, in->text, in->len);
				memset(in->text, '(', d);
				memset(in->text + d + in->len, ')', d);
				in->len += 2 * d;
			}
			break;
		}
		default: {	/* splice a piece in */
			const char *p = pick(r, pieces, ARRAY_SIZE(pieces));
			size_t l = strlen(p);

			if (in->len + l < FZ_TEXT_MAX) {
				memmove(in->text + pos + l, in->text + pos, in->len - pos);
				memcpy(in->text + pos, p, l);
				in->len += l;
			}
		}
		}
	}
}

const char *const text_target_name[TGT_COUNT] = {
	"filter", "subsystem-filter", "trigger", "set_event_pid",
	"dynamic_events", "synthetic_events", "ue-reg", "ue-del",
	"ue-write", "ue-mmap", "perf",
};

/*
 * How often each entry is drawn, out of the sum: the binary entries of
 * user_events, cheap and meant for less privileged writers, most often.
 */
static const unsigned int target_weight[TGT_COUNT] = {
	[TGT_FILTER] = 2, [TGT_SUBSYS_FILTER] = 1, [TGT_TRIGGER] = 3,
	[TGT_EVENT_PID] = 1, [TGT_DYNEVENT] = 2, [TGT_SYNTH] = 2,
	[TGT_UE_REG] = 6, [TGT_UE_DEL] = 2, [TGT_UE_WRITE] = 8,
	[TGT_UE_MMAP] = 2, [TGT_PERF] = 1,
};

static int pick_target(struct rng *r)
{
	unsigned int sum = 0, x;
	int t;

	for (t = 0; t < TGT_COUNT; t++)
		sum += target_weight[t];
	x = below(r, sum);
	for (t = 0; x >= target_weight[t]; t++)
		x -= target_weight[t];
	return t;
}

/*
 * Input for entry op->arg[0] on event op->arg[1]: the text, and numbers
 * in arg[2..5] that choose pointers, sizes and flags when it is applied.
 */
void fz_text_gen(struct rng *r, struct fz_op *op)
{
	struct fz_event *e;
	struct text t;
	int i;

	op->kind = OP_TEXT;
	op->arg[0] = pick_target(r);
	op->arg[1] = below(r, fz_nevents);
	for (i = 2; i < 6; i++)
		op->arg[i] = rnd(r);
	e = &fz_events[op->arg[1]];
	t.buf = op->text;
	t.len = 0;
	t.cap = FZ_TEXT_MAX;
	switch (op->arg[0]) {
	case TGT_FILTER:
	case TGT_SUBSYS_FILTER:
		gen_filter(r, e, &t);
		break;
	case TGT_TRIGGER:
		gen_trigger(r, e, &t);
		break;
	case TGT_EVENT_PID:
		gen_pids(r, &t);
		break;
	case TGT_DYNEVENT:
		gen_dynevent(r, &t);
		break;
	case TGT_SYNTH:
		gen_synth(r, &t);
		break;
	case TGT_UE_REG:
		add(&t, "fz_r%u ", below(r, 4));
		gen_ue_fields(r, &t);
		break;
	case TGT_UE_DEL:
		add(&t, "fz_r%u", below(r, 5));
		break;
	case TGT_UE_WRITE:
		/* a payload: numbers, two loc words, text */
		for (i = 0; i < 40; i++)
			add(&t, "%c", (char)rnd(r));
		add(&t, "hello, world");
		break;
	default:
		break;
	}
	op->len = t.len;
	if (op->arg[0] <= TGT_UE_DEL && chance(r, 2))
		mutate(r, op);
	op->text[op->len] = '\0';
}
