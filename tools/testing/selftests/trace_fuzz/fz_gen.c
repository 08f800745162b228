// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz: programs, generated from (seed, epoch) alone.
 *
 * The programs of one epoch are made together, step by step across the
 * workers, by one generator that remembers what it has had them do: the
 * variables it had histograms define on each event (so that others refer
 * to them, the same histogram to itself, or two of them to each other),
 * the triggers it added (so that it removes, pauses or clears the same
 * ones), the synthetic events it defined and with which fields (so that
 * trace() actions pass what fits, or on purpose what does not).  What it
 * remembers is what it asked for, not what the kernel did: generation
 * needs no kernel, and a failing epoch is made again on the host.
 *
 * Most commands are meant to be taken: the sequences behind them (a
 * histogram reading another's variable, an action firing the synthetic
 * event its own histogram sits on, a delete while an fd is open) are
 * what is tested.  The single-input grammars (OP_TEXT) add breadth.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fz_text.h"

#define NEV 24
#define SCOPES (FZ_INSTANCES + 1)
#define ADDED 4
#define ADDED_LEN 240
#define VARS 4

/* A variable some generated histogram defines on an event */
struct gen_var {
	char name[8];
};

struct gen {
	struct rng r;
	struct gen_var var[NEV][VARS];
	int nvar[NEV];
	/* triggers added, per scope and event, for !, pause and clear */
	char added[SCOPES][NEV][ADDED][ADDED_LEN];
	int nadded[SCOPES][NEV];
	int synth_def[4];	/* definition of fz_s<i> last written */
};

static const char *const var_names[] = { "a", "b", "c", "ts0", "lat", "v" };

/* ---- paths ---- */

static void scope_prefix(int scope, char *buf, size_t n)
{
	if (scope)
		snprintf(buf, n, "instances/fz_i%d/", scope - 1);
	else
		buf[0] = '\0';
}

static void event_file(struct fz_op *op, int scope, int ev, const char *file)
{
	char pre[32];

	scope_prefix(scope, pre, sizeof(pre));
	snprintf(op->path, sizeof(op->path), "%sevents/%s/%s/%s", pre,
		 fz_events[ev].sys, fz_events[ev].name, file);
}

static int pick_scope(struct gen *g)
{
	return chance(&g->r, 3) ? 1 + below(&g->r, FZ_INSTANCES) : 0;
}

/* ---- fields ---- */

static const struct fz_field *num_field(struct gen *g, int ev)
{
	const struct fz_event *e = &fz_events[ev];
	static const struct fz_field pid = { "common_pid", "int", 4, false, true };
	int i, k;

	for (k = 0; k < 4 && e->nf; k++) {
		i = below(&g->r, e->nf);
		if (!e->f[i].str && e->f[i].size && e->f[i].size <= 8)
			return &e->f[i];
	}
	return &pid;
}

static const struct fz_field *str_field(struct gen *g, int ev)
{
	const struct fz_event *e = &fz_events[ev];
	int i, k;

	for (k = 0; k < 4 && e->nf; k++) {
		i = below(&g->r, e->nf);
		if (e->f[i].str)
			return &e->f[i];
	}
	return NULL;
}

/* A field as a key, with a modifier that suits it */
static void gen_key(struct gen *g, int ev, struct text *t)
{
	const struct fz_event *e = &fz_events[ev];
	const struct fz_field *f;

	if (chance(&g->r, 2) || !e->nf) {
		add(t, "common_pid%s", chance(&g->r, 4) ? ".execname" : "");
		return;
	}
	if (chance(&g->r, 16)) {
		add(t, "common_stacktrace");
		return;
	}
	/* a new key on every event: a small map fills up and must refuse */
	if (chance(&g->r, 8)) {
		add(t, "common_timestamp%s", chance(&g->r, 2) ? ".usecs" : "");
		return;
	}
	f = &e->f[below(&g->r, e->nf)];
	add(t, "%s", f->name);
	if (f->str || !f->size)
		return;
	switch (below(&g->r, 8)) {
	case 0:
		add(t, ".hex");
		break;
	case 1:
		add(t, ".log2");
		break;
	case 2:
		add(t, ".buckets=%u", 1 + below(&g->r, 64));
		break;
	case 3:
		if (!strcmp(f->name, "ip"))
			add(t, ".sym");
		break;
	}
}

/* A variable some histogram defines on another event, as a reference */
static void gen_other_ref(struct gen *g, int ev, struct text *t)
{
	int o = below(&g->r, fz_nevents), i;

	for (i = 0; i < 4 && !g->nvar[o]; i++)
		o = below(&g->r, fz_nevents);
	if (!g->nvar[o]) {
		add(t, "$%s", pick(&g->r, var_names, ARRAY_SIZE(var_names)));
		return;
	}
	i = below(&g->r, g->nvar[o]);
	if (chance(&g->r, 2) || o == ev)
		add(t, "$%s", g->var[o][i].name);
	else
		add(t, "%s.%s.$%s", fz_events[o].sys, fz_events[o].name,
		    g->var[o][i].name);
}

/*
 * The expression of variable @i of @n named @names: fields, timestamps,
 * references to other events' variables, and to this command's own,
 * earlier, later, or (now and then) itself, which the kernel must refuse
 * at once rather than follow forever.
 */
static void gen_var_expr(struct gen *g, int ev, const char *const *names,
			 int i, int n, struct text *t)
{
	const struct fz_field *f;

	switch (below(&g->r, 10)) {
	case 0:
	case 1:
		add(t, "%s", num_field(g, ev)->name);
		break;
	case 2:
		add(t, "common_timestamp%s", chance(&g->r, 2) ? ".usecs" : "");
		break;
	case 3:
		add(t, "common_timestamp.usecs-");
		gen_other_ref(g, ev, t);
		break;
	case 4:
		/* one of its own: earlier, later, or itself */
		add(t, "$%s", names[below(&g->r, n)]);
		break;
	case 5:
		add(t, "%s+$%s", num_field(g, ev)->name, names[below(&g->r, n)]);
		break;
	case 6:
		gen_other_ref(g, ev, t);
		break;
	case 7:
		f = str_field(g, ev);
		add(t, "%s", f ? f->name : num_field(g, ev)->name);
		break;
	case 8:
		if (chance(&g->r, 4))
			add(t, "common_stacktrace");
		else
			add(t, "$%s-$%s", names[below(&g->r, n)], names[i]);
		break;
	default:
		add(t, "$%s", names[i]);	/* itself */
	}
}

/*
 * The parameters for synthetic event @s from what the histogram has,
 * each after a comma (@lead) or between commas (the legacy form).
 */
static void gen_params(struct gen *g, int ev, const char *const *names, int n,
		       int s, bool lead, struct text *t)
{
	const struct fz_field *sf, *f;
	int nf, i, k;

	sf = fz_synth_fields(g->synth_def[s] >= 0 ? g->synth_def[s] : s, &nf);
	k = chance(&g->r, 12) ? nf + (int)below(&g->r, 3) - 1 : nf;
	for (i = 0; i < k; i++) {
		const struct fz_field *p = &sf[i < nf ? i : 0];

		if (lead || i)
			add(t, ",");
		if (p->str) {
			f = str_field(g, ev);
			if (f && !chance(&g->r, 8))
				add(t, "%s", f->name);
			else if (n)
				add(t, "$%s", names[below(&g->r, n)]);
			else
				gen_other_ref(g, ev, t);
		} else if (n && !chance(&g->r, 3)) {
			add(t, "$%s", names[below(&g->r, n)]);
		} else if (chance(&g->r, 4)) {
			gen_other_ref(g, ev, t);
		} else {
			add(t, "%s", num_field(g, ev)->name);
		}
	}
}

/* The synthetic event that eprobe event @ev sits on, or -1 */
static int eprobe_synth(int ev)
{
	const struct fz_event *e = &fz_events[ev];
	const char *body;

	if (e->kind != FZ_EV_EPROBE)
		return -1;
	body = fz_eprobe_defs[e->def].body;
	if (strncmp(body, "synthetic/fz_s", 14))
		return -1;
	return body[14] - '0';
}

static int gen_synth_target(struct gen *g, int ev)
{
	const struct fz_event *e = &fz_events[ev];

	/*
	 * A histogram on a synthetic event fires that very event, often,
	 * and so does one on an eprobe of a synthetic event: a loop the
	 * parser cannot see, which only the write path's guard stops.
	 */
	if (e->kind == FZ_EV_SYNTH && chance(&g->r, 2))
		return e->def;
	if (eprobe_synth(ev) >= 0 && chance(&g->r, 2))
		return eprobe_synth(ev);
	return below(&g->r, 4);
}

static void gen_handler(struct gen *g, int ev, const char *const *names,
			int n, struct text *t)
{
	int s, o;

	switch (below(&g->r, 4)) {
	case 0:
	case 1:
		/* itself a third of the time, two thirds on an eprobe loop */
		o = ev;
		if (eprobe_synth(ev) >= 0 ? chance(&g->r, 3) : !chance(&g->r, 3)) {
			o = below(&g->r, fz_nevents);
			for (s = 0; s < 4 && !g->nvar[o]; s++)
				o = below(&g->r, fz_nevents);
		}
		add(t, ":onmatch(%s.%s)", fz_events[o].sys, fz_events[o].name);
		break;
	case 2:
		add(t, ":onmax($%s)", n ? names[below(&g->r, n)] : "nosuch");
		break;
	default:
		add(t, ":onchange($%s)", n ? names[below(&g->r, n)] : "nosuch");
	}
	s = gen_synth_target(g, ev);
	switch (below(&g->r, 10)) {
	case 0:
		/* the legacy form: the synthetic event as the action */
		add(t, ".fz_s%d(", s);
		gen_params(g, ev, names, n, s, false, t);
		add(t, ")");
		break;
	case 1:
	case 2:
		add(t, ".save(%s", num_field(g, ev)->name);
		if (chance(&g->r, 2))
			add(t, ",%s", num_field(g, ev)->name);
		add(t, ")");
		break;
	case 3:
		add(t, ".snapshot()");
		break;
	default:
		add(t, ".trace(fz_s%d", s);
		gen_params(g, ev, names, n, s, true, t);
		add(t, ")");
	}
}

/* Keep what a command defines and adds, for the commands after it */
static void remember(struct gen *g, int scope, int ev, const char *cmd,
		     const char *const *names, int n)
{
	int i, k;

	for (i = 0; i < n; i++) {
		k = g->nvar[ev] < VARS ? g->nvar[ev]++ : (int)below(&g->r, VARS);
		snprintf(g->var[ev][k].name, sizeof(g->var[ev][k].name), "%s",
			 names[i]);
	}
	k = g->nadded[scope][ev] < ADDED ? g->nadded[scope][ev]++ :
	    (int)below(&g->r, ADDED);
	snprintf(g->added[scope][ev][k], ADDED_LEN, "%s", cmd);
}

static void gen_hist(struct gen *g, int scope, int ev, struct text *t)
{
	const char *names[3];
	int n = below(&g->r, 4), i, j;
	bool fills;

	add(t, "hist:keys=");
	gen_key(g, ev, t);
	/* keyed by time stamp: a new entry on every event */
	fills = strstr(t->buf, "keys=common_timestamp");
	if (chance(&g->r, 8)) {
		add(t, ",");
		gen_key(g, ev, t);
	}
	for (i = 0; i < n; i++) {
		names[i] = pick(&g->r, var_names, ARRAY_SIZE(var_names));
		for (j = 0; j < i; j++)
			if (names[j] == names[i] && !chance(&g->r, 16))
				names[i] = var_names[(j + i + 1) % ARRAY_SIZE(var_names)];
	}
	if (chance(&g->r, 3)) {
		add(t, ":vals=hitcount");
		if (chance(&g->r, 2))
			add(t, ",%s", num_field(g, ev)->name);
		if (n && chance(&g->r, 3))
			add(t, ",$%s", names[below(&g->r, n)]);
	}
	for (i = 0; i < n; i++) {
		add(t, ":%s=", names[i]);
		gen_var_expr(g, ev, names, i, n, t);
	}
	if (fills && chance(&g->r, 2))
		add(t, ":size=128");	/* the smallest: full within an epoch */
	else if (chance(&g->r, 5))
		add(t, ":size=%u", 128u << below(&g->r, 3));
	if (chance(&g->r, 12))
		add(t, ":name=fz_h%u", below(&g->r, 3));
	if (chance(&g->r, 10))
		add(t, ":sort=hitcount.descending");
	for (i = chance(&g->r, 2) ? 1 + below(&g->r, 2) : 0; i; i--)
		gen_handler(g, ev, names, n, t);
	if (chance(&g->r, 16))
		add(t, ":clock=%s", chance(&g->r, 2) ? "global" : "mono");
	if (chance(&g->r, 10)) {
		add(t, " if ");
		gen_filter(&g->r, &fz_events[ev], t);
	}
	remember(g, scope, ev, t->buf, names, n);
}

static void gen_trigger(struct gen *g, int scope, int ev, struct text *t)
{
	static const char *const simple[] = {
		"traceon", "traceoff", "snapshot", "stacktrace",
	};
	static const char *const targets[] = {
		"enable_event", "disable_event", "enable_hist", "disable_hist",
	};
	int o = below(&g->r, fz_nevents);

	if (chance(&g->r, 2))
		add(t, "%s", pick(&g->r, simple, ARRAY_SIZE(simple)));
	else
		add(t, "%s:%s:%s", pick(&g->r, targets, ARRAY_SIZE(targets)),
		    fz_events[o].sys, fz_events[o].name);
	if (chance(&g->r, 3))
		add(t, ":%u", 1 + below(&g->r, 5));
	if (chance(&g->r, 4)) {
		add(t, " if ");
		gen_filter(&g->r, &fz_events[ev], t);
	}
	remember(g, scope, ev, t->buf, NULL, 0);
}

/* ---- operations ---- */

static void set_text(struct fz_op *op, struct text *t)
{
	op->len = t->len;
	op->text[op->len] = '\0';
}

static void gen_write(struct fz_op *op, int role, int trunc)
{
	op->kind = OP_WRITE;
	op->arg[0] = trunc;
	op->arg[1] = role;
}

/* A trigger file: a histogram, another trigger, a removal, a control */
static void gen_trigger_op(struct gen *g, struct fz_op *op, struct text *t)
{
	int scope = pick_scope(g), ev = below(&g->r, fz_nevents), k;
	const char *old;

	event_file(op, scope, ev, "trigger");
	k = below(&g->r, 20);
	if (k < 4 && g->nadded[scope][ev]) {
		old = g->added[scope][ev][below(&g->r, g->nadded[scope][ev])];
		if (k < 2 || strncmp(old, "hist:", 5))
			add(t, "!%s", old);
		else
			add(t, "%s:%s", old, k == 2 ? "pause" : chance(&g->r, 2) ?
			    "cont" : "clear");
		gen_write(op, ROLE_TRIGGER, 0);
	} else if (k < 5) {
		/* truncate: every trigger of the event, unless in use */
		gen_write(op, ROLE_TRIGGER, 1);
		g->nadded[scope][ev] = 0;
	} else if (k < 8) {
		gen_trigger(g, scope, ev, t);
		gen_write(op, ROLE_TRIGGER, 0);
	} else {
		gen_hist(g, scope, ev, t);
		gen_write(op, ROLE_HIST, 0);
	}
}

static void gen_def_op(struct gen *g, struct fz_op *op, struct text *t)
{
	int k = below(&g->r, 12), d;

	gen_write(op, ROLE_DYNEVENT, 0);
	snprintf(op->path, sizeof(op->path), "dynamic_events");
	if (k < 5) {
		/* synthetic events, by either file */
		op->arg[1] = ROLE_SYNTH;
		d = below(&g->r, fz_n_synth_defs);
		if (chance(&g->r, 3)) {
			d %= 4;
			if (chance(&g->r, 2)) {
				add(t, "-:synthetic/fz_s%d", d);
				return;
			}
			snprintf(op->path, sizeof(op->path), "synthetic_events");
			add(t, "!fz_s%d", d);
			return;
		}
		if (d >= 4 && !chance(&g->r, 3))
			d -= 4;
		g->synth_def[fz_synth_defs[d].name[4] - '0'] = d;
		if (chance(&g->r, 2)) {
			add(t, "s:%s %s", fz_synth_defs[d].name, fz_synth_defs[d].body);
		} else {
			snprintf(op->path, sizeof(op->path), "synthetic_events");
			add(t, "%s %s", fz_synth_defs[d].name, fz_synth_defs[d].body);
		}
	} else if (k < 8) {
		/* root's user events: persistent fz_p*, and the others */
		d = below(&g->r, fz_n_ue_defs);
		if (chance(&g->r, 3))
			add(t, "%s%s", chance(&g->r, 2) ? "!u:" : "-:user_events/",
			    fz_ue_defs[d].name);
		else
			add(t, "u:%s %s", fz_ue_defs[d].name, fz_ue_defs[d].body);
	} else if (k < 10) {
		d = below(&g->r, fz_n_eprobe_defs);
		if (chance(&g->r, 3))
			add(t, "-:%s%s", chance(&g->r, 2) ? "eprobes/" : "",
			    fz_eprobe_defs[d].name);
		else
			add(t, "e:%s %s", fz_eprobe_defs[d].name, fz_eprobe_defs[d].body);
	} else {
		op->kind = chance(&g->r, 3) ? OP_RMDIR : OP_MKDIR;
		/* now and then a user_events group, opened by OP_UE_OPEN */
		if (chance(&g->r, 3))
			snprintf(op->path, sizeof(op->path),
				 "user_events_groups/fz_g%u",
				 below(&g->r, FZ_UE_GROUPS));
		else
			snprintf(op->path, sizeof(op->path), "instances/fz_i%u",
				 below(&g->r, FZ_INSTANCES));
	}
}

static void gen_read_op(struct gen *g, struct fz_op *op)
{
	static const char *const files[] = {
		"hist", "hist_debug", "trigger", "filter", "format", "enable",
		"id",
	};
	static const char *const top[] = {
		"synthetic_events", "dynamic_events", "user_events_status",
		"error_log", "set_event_pid", "trace",
	};

	op->kind = OP_READ;
	if (chance(&g->r, 6))
		snprintf(op->path, sizeof(op->path), "%s",
			 pick(&g->r, top, ARRAY_SIZE(top)));
	else
		event_file(op, pick_scope(g), below(&g->r, fz_nevents),
			   pick(&g->r, files, ARRAY_SIZE(files)));
	op->arg[0] = below(&g->r, 3);	/* now, keep, read what was kept */
	op->arg[1] = below(&g->r, FZ_HELD);
	op->arg[2] = 1 + (chance(&g->r, 2) ? below(&g->r, 64) : below(&g->r, 4096));
	op->arg[3] = rnd(&g->r);
}

/* A user events operation, of root or of the unprivileged worker */
static void gen_ue_op(struct gen *g, struct fz_op *op, bool unpriv, int k)
{
	int d;

	switch (k) {
	case OP_UE_REG:
		d = below(&g->r, fz_n_ue_defs);
		/* fz_p* only as root's persistent events */
		if (fz_persistent_name(fz_ue_defs[d].name) && unpriv)
			d = below(&g->r, 4);
		op->arg[0] = d;
		op->arg[1] = below(&g->r, FZ_DATA_FDS);
		op->arg[2] = fz_persistent_name(fz_ue_defs[d].name) ? 1 : below(&g->r, 2);
		op->arg[3] = 0;
		if (fz_persistent_name(fz_ue_defs[d].name))
			op->arg[3] = 1;		/* USER_EVENT_REG_PERSIST */
		else if (op->arg[2] && chance(&g->r, 8))
			op->arg[3] = 2;		/* USER_EVENT_REG_MULTI_FORMAT */
		else if (op->arg[2] && chance(&g->r, 8))
			op->arg[3] = 1;
		if (chance(&g->r, 4))
			op->arg[3] |= 4;	/* USER_EVENT_REG_REPORT_LOSS */
		op->arg[4] = below(&g->r, FZ_ENABLERS);
		op->arg[5] = rnd(&g->r);
		break;
	case OP_UE_DEL:
		d = below(&g->r, fz_n_ue_defs);
		if (fz_persistent_name(fz_ue_defs[d].name) && unpriv)
			d = below(&g->r, 4);
		snprintf(op->text, sizeof(op->text), "%s", fz_ue_defs[d].name);
		op->len = strlen(op->text);
		break;
	default:
		op->arg[0] = rnd(&g->r);
		op->arg[1] = rnd(&g->r);
		op->arg[2] = below(&g->r, 16);
	}
	op->kind = k;
}

struct weight {
	int kind;	/* an fz_kind, or one of the GEN_ kinds below */
	int w;
};

enum {
	GEN_TRIGGER = OP_KINDS, GEN_FILTER, GEN_ENABLE, GEN_DEF, GEN_MARKER,
};

static const struct weight root_mix[] = {
	{ GEN_TRIGGER, 24 }, { GEN_FILTER, 4 }, { GEN_ENABLE, 7 },
	{ GEN_DEF, 10 }, { GEN_MARKER, 6 }, { OP_EXEC, 2 }, { OP_PERF, 3 },
	{ OP_READ, 5 }, { OP_UE_REG, 6 }, { OP_UE_WRITE, 14 },
	{ OP_UE_UNREG, 2 }, { OP_UE_DEL, 2 }, { OP_UE_OPEN, 1 },
	{ OP_UE_STATUS, 2 }, { OP_UE_MEM, 2 }, { OP_FORK, 3 },
	{ OP_TEXT, 8 }, { OP_ORACLE, 3 }, { OP_FAULT, 3 },
};

static const struct weight unpriv_mix[] = {
	{ OP_UE_REG, 6 }, { OP_UE_WRITE, 14 }, { OP_UE_UNREG, 3 },
	{ OP_UE_DEL, 3 }, { OP_UE_OPEN, 1 }, { OP_UE_STATUS, 3 },
	{ OP_UE_MEM, 3 }, { OP_FORK, 4 }, { OP_PRIV, 6 },
};

static int draw(struct rng *r, const struct weight *m, int n)
{
	int sum = 0, i, x;

	for (i = 0; i < n; i++)
		sum += m[i].w;
	x = below(r, sum);
	for (i = 0; x >= m[i].w; i++)
		x -= m[i].w;
	return m[i].kind;
}

static void gen_marker(struct gen *g, struct fz_op *op, struct text *t)
{
	char pre[32];
	int n, i;

	scope_prefix(pick_scope(g), pre, sizeof(pre));
	snprintf(op->path, sizeof(op->path), "%strace_marker", pre);
	gen_write(op, ROLE_MARKER, 0);
	n = chance(&g->r, 16) ? below(&g->r, 5000) : below(&g->r, 40);
	for (i = 0; i < n; i++)
		add(t, "%c", chance(&g->r, 30) ? '%' : 'a' + below(&g->r, 26));
}

static void gen_fault(struct gen *g, struct fz_op *op)
{
	op->kind = OP_FAULT;
	/* the first allocations of a path most often: every unwind runs */
	op->arg[0] = 1 + (chance(&g->r, 2) ? below(&g->r, 8) : below(&g->r, 60));
	/* what it makes: see fz_fault_apply() */
	op->arg[1] = below(&g->r, 8);
	op->arg[2] = rnd(&g->r);
}

static void gen_op(struct gen *g, struct fz_op *op, bool unpriv)
{
	struct text t = { op->text, 0, FZ_TEXT_MAX };
	int k, scope, ev;

	k = unpriv ? draw(&g->r, unpriv_mix, ARRAY_SIZE(unpriv_mix)) :
	    draw(&g->r, root_mix, ARRAY_SIZE(root_mix));
	switch (k) {
	case GEN_TRIGGER:
		gen_trigger_op(g, op, &t);
		break;
	case GEN_FILTER:
		scope = pick_scope(g);
		ev = below(&g->r, fz_nevents);
		event_file(op, scope, ev, "filter");
		if (chance(&g->r, 8)) {
			char pre[32];

			scope_prefix(scope, pre, sizeof(pre));
			snprintf(op->path, sizeof(op->path), "%sevents/%s/filter",
				 pre, fz_events[ev].sys);
		}
		if (chance(&g->r, 4))
			add(&t, "0");
		else
			gen_filter(&g->r, &fz_events[ev], &t);
		gen_write(op, ROLE_FILTER, 1);
		break;
	case GEN_ENABLE:
		scope = pick_scope(g);
		ev = below(&g->r, fz_nevents);
		event_file(op, scope, ev, "enable");
		if (chance(&g->r, 12)) {
			char pre[32];

			scope_prefix(scope, pre, sizeof(pre));
			snprintf(op->path, sizeof(op->path), "%sevents/%s/enable",
				 pre, fz_events[ev].sys);
		}
		add(&t, "%d", chance(&g->r, 3) ? 0 : 1);
		gen_write(op, ROLE_ENABLE, 1);
		break;
	case GEN_DEF:
		gen_def_op(g, op, &t);
		break;
	case GEN_MARKER:
		gen_marker(g, op, &t);
		break;
	case OP_EXEC:
		op->kind = OP_EXEC;
		op->arg[0] = below(&g->r, 2);
		op->arg[1] = rnd(&g->r);
		break;
	case OP_PERF:
		op->kind = OP_PERF;
		ev = below(&g->r, fz_nevents);
		snprintf(op->path, sizeof(op->path), "events/%s/%s",
			 fz_events[ev].sys, fz_events[ev].name);
		op->arg[0] = chance(&g->r, 3);		/* 1: close */
		op->arg[1] = below(&g->r, FZ_PERF);
		op->arg[2] = rnd(&g->r);
		if (chance(&g->r, 3))
			gen_filter(&g->r, &fz_events[ev], &t);
		break;
	case OP_READ:
		gen_read_op(g, op);
		break;
	case OP_UE_REG:
	case OP_UE_WRITE:
	case OP_UE_UNREG:
	case OP_UE_DEL:
	case OP_UE_OPEN:
	case OP_UE_STATUS:
	case OP_UE_MEM:
	case OP_FORK:
		gen_ue_op(g, op, unpriv, k);
		return;
	case OP_TEXT:
		fz_text_gen(&g->r, op);
		return;
	case OP_ORACLE:
		op->kind = OP_ORACLE;
		op->arg[2] = rnd(&g->r);
		return;
	case OP_FAULT:
		gen_fault(g, op);
		return;
	case OP_PRIV:
		op->kind = OP_PRIV;
		op->arg[0] = below(&g->r, 16);
		op->arg[1] = below(&g->r, 2);
		op->arg[2] = rnd(&g->r);
		return;
	}
	set_text(op, &t);
}

/*
 * The operations of fz_records.c, drawn after the program from a stream
 * of their own: each takes the place of a root worker's operation now
 * and then (OP_NOP: it stays), so that the rest of every seed's programs
 * stays as it was.  They are long (an instance made, a buffer filled), so
 * about one root operation in twenty.
 */
static const struct weight late_mix[] = {
	{ OP_NOP, 100 }, { OP_RECREATE, 2 }, { OP_READBACK, 2 }, { OP_LOSS, 2 },
};

static void gen_records(struct rng *r, struct fz_op *op, int k)
{
	struct text t = { op->text, 0, FZ_TEXT_MAX };
	int scope = below(r, FZ_INSTANCES + 1);
	char pre[32];

	op->kind = k;
	memset(op->arg, 0, sizeof(op->arg));
	if (k == OP_LOSS) {
		/* the filter; beside a histogram; the histogram alone */
		op->arg[0] = below(r, 3);
		op->arg[1] = chance(r, 2);	/* 8 KiB sub-buffers, 5000 bytes */
		op->arg[2] = rnd(r);
		op->arg[3] = below(r, 2);	/* remote write */
		op->arg[4] = below(r, 2);	/* the CPU it fills */
		snprintf(op->path, sizeof(op->path), "instances/fz_l%u", op->worker);
		add(&t, "%sn == 1%s", op->arg[0] == 2 ? "disabled, " : "",
		    op->arg[0] ? ", hist:keys=n:t0=common_timestamp" : "");
		set_text(op, &t);
		return;
	}
	op->arg[0] = below(r, fz_n_rec_old_defs);
	op->arg[1] = below(r, 3);	/* DIAG_IOCSDEL, "!u:", last fd closed */
	op->arg[2] = rnd(r);
	op->arg[3] = below(r, fz_n_rec_new_defs);
	/* remote write, b by dynamic_events, c by dynamic_events, c's def */
	op->arg[4] = below(r, 16);
	op->arg[5] = scope;
	scope_prefix(scope, pre, sizeof(pre));
	snprintf(op->path, sizeof(op->path), "%strace", pre);
	add(&t, "fz_d%ua %s", op->worker, fz_rec_old_defs[op->arg[0]].body);
	set_text(op, &t);
}

/*
 * Set pieces: states a random program reaches too rarely for a default
 * run to see them, written by worker 0 at its first steps of one epoch
 * in three.  A map keyed by time stamp, of the smallest size, fills up
 * on sched_switch within the epoch and must refuse the rest.  An eprobe
 * on a synthetic event whose histogram traces that event again is a loop
 * no hist command shows, which only the write path's guard stops; every
 * sched_switch sets it off (a time stamp is a new maximum each time).  A
 * map with one element (every task runs at priority 120) takes the
 * context switches of every CPU at once: the same counters and sums
 * updated by two CPUs in the same instant, for KCSAN's runs.
 */
struct set_step {
	const char *path;
	int role;
	const char *text;
};

static const struct set_step set_pieces[][4] = {
	{ { "events/sched/sched_switch/trigger", ROLE_HIST,
	    "hist:keys=common_timestamp:size=128" } },
	{ { "events/sched/sched_switch/trigger", ROLE_HIST,
	    "hist:keys=next_prio:vals=prev_state" } },
	{ { "synthetic_events", ROLE_SYNTH, "fz_s0 u64 a" },
	  { "dynamic_events", ROLE_DYNEVENT, "e:fz_e2 synthetic/fz_s0 a=$a:u64" },
	  { "events/eprobes/fz_e2/trigger", ROLE_HIST,
	    "hist:keys=common_pid:onmatch(eprobes.fz_e2).trace(fz_s0,a)" },
	  { "events/sched/sched_switch/trigger", ROLE_HIST,
	    "hist:keys=common_pid:p=common_timestamp:onmax($p).trace(fz_s0,$p)" } },
};

/* The set piece of two CPUs on one map, every epoch with -c */
#define SET_PIECE_CONTENTION	1

static void gen_set_piece(struct gen *g, struct fz_epoch *ep)
{
	const struct set_step *p = set_pieces[fz_contention ? SET_PIECE_CONTENTION :
					      below(&g->r, ARRAY_SIZE(set_pieces))];
	int s;

	for (s = 0; s < (int)ARRAY_SIZE(set_pieces[0]) && s < ep->steps && p[s].path; s++) {
		struct fz_op *op = &ep->ops[s * (ep->n_workers + 1)];

		memset(op->arg, 0, sizeof(op->arg));
		gen_write(op, p[s].role, 0);
		snprintf(op->path, sizeof(op->path), "%s", p[s].path);
		op->len = snprintf(op->text, FZ_TEXT_MAX, "%s", p[s].text);
	}
}

int fz_gen_epoch(struct fz_epoch *ep, uint64_t seed, uint32_t epoch,
		 int n_workers, int steps)
{
	struct gen *g = calloc(1, sizeof(*g));
	struct rng late;
	int s, w, i = 0, k;

	if (!g)
		return -1;
	ep->seed = seed;
	ep->epoch = epoch;
	ep->n_workers = n_workers;
	ep->steps = steps;
	ep->n_ops = steps * (n_workers + 1);
	ep->ops = calloc(ep->n_ops, sizeof(*ep->ops));
	if (!ep->ops) {
		free(g);
		return -1;
	}
	g->r.s = seed ^ ((uint64_t)epoch * 0x2545f4914f6cdd1dULL);
	rnd(&g->r);
	for (s = 0; s < 4; s++)
		g->synth_def[s] = s;
	for (s = 0; s < steps; s++) {
		for (w = 0; w <= n_workers; w++, i++) {
			struct fz_op *op = &ep->ops[i];

			op->worker = w == n_workers ? FZ_UNPRIV : w;
			op->step = s;
			gen_op(g, op, w == n_workers);
		}
	}
	/* drawn after the program: the programs of every seed stay as they were */
	late.s = seed ^ ((uint64_t)epoch * 0x9e3779b97f4a7c15ULL) ^ 0x7265636f726473ULL;
	rnd(&late);
	for (i = 0; i < ep->n_ops; i++) {
		k = draw(&late, late_mix, ARRAY_SIZE(late_mix));
		if (k != OP_NOP && ep->ops[i].worker != FZ_UNPRIV)
			gen_records(&late, &ep->ops[i], k);
	}
	if (chance(&g->r, 3) || fz_contention)
		gen_set_piece(g, ep);
	free(g);
	return 0;
}
