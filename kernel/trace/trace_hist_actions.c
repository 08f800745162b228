// SPDX-License-Identifier: GPL-2.0
/*
 * trace_hist_actions - what a histogram does besides counting: handlers
 * and their actions.
 *
 *   onmatch(sys.event).trace(synth, params)   after each counted event
 *   onmax($var).ACTION(...)                   when $var beats the entry's max
 *   onchange($var).ACTION(...)                when $var differs from the last
 *
 * with ACTION one of trace(synth, params) (or the older synth(params)),
 * save(fields) and snapshot().
 *
 * Binding (event_mutex held) finds the synthetic event and takes a
 * reference on it so that it cannot be deleted under the histogram,
 * binds each parameter as a variable reference or a field of the event
 * and checks it against the synthetic event's field, and reserves the
 * map variables a handler keeps per entry: the tracked value, and one
 * per saved field (a string is copied into the entry's own buffer,
 * struct hist_elt, since the record it points into is gone after the
 * event).
 *
 * Running (the event path, after the entry was updated) reads the
 * histogram's references to its own variables, then each action in the
 * order written.  A synthetic event is fired through its tracepoint's
 * probes, so that every instance and perf see it, with the parameter
 * values in an array on the stack: nothing is allocated and no lock is
 * taken.
 */
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_hist.h"

/*
 * var_ref_idx for a synthetic event's probe: parameter i is value i.
 * Filled at the first binding, under event_mutex, before any event can
 * run an action.
 */
static unsigned int hist_param_idx[HIST_PARAMS_MAX];

/*
 * A parameter: $var, sys.event.$var, a field of the event, or
 * sys.event.field.  A qualified field's system and event go to
 * @e->system and @e->event, its name to @e->name.
 */
static void hist_param_expr(struct hist_expr *e, const struct trace_token *t)
{
	const char *end = t->start + t->len;
	const char *dot = strnchr(t->start, t->len, '.');
	const char *dot2 = dot ? strnchr(dot + 1, end - dot - 1, '.') : NULL;

	e->text = *t;
	e->name = *t;
	e->kind = HIST_EXPR_FIELD;
	if (t->len && t->start[0] == '$') {
		e->kind = HIST_EXPR_VAR;
		e->name.start++;
		e->name.pos++;
		e->name.len--;
		return;
	}
	if (!dot2)
		return;
	e->system.start = t->start;
	e->system.pos = t->pos;
	e->system.len = dot - t->start;
	e->event.start = dot + 1;
	e->event.pos = t->pos + (dot + 1 - t->start);
	e->event.len = dot2 - dot - 1;
	e->name.start = dot2 + 1;
	e->name.pos = t->pos + (dot2 + 1 - t->start);
	e->name.len = end - dot2 - 1;
	if (e->name.len && e->name.start[0] == '$') {
		e->kind = HIST_EXPR_VAR;
		e->name.start++;
		e->name.pos++;
		e->name.len--;
	}
}

/*
 * A field parameter that is not a field of the histogram's own event:
 * a field of the event it names, or (onmatch) of the matched event.  The
 * trigger code makes it a variable of a histogram on that event, and the
 * parameter becomes a reference to it, sys.event.$synthetic_<field>.
 */
static struct hist_field *hist_param_field_var(struct hist_bind *b,
					       struct hist_act *a,
					       struct hist_expr *e,
					       char **name)
{
	const struct hist_spec_action *sa = a->spec;
	int ret;

	if (!e->system.len && sa->handler == HIST_ONMATCH) {
		e->system = sa->system;
		e->event = sa->event;
	}
	if (!e->system.len || !b->field_var)
		return ERR_PTR(trace_parse_fail(b->err, HIST_ERR_FIELD_NOT_FOUND,
						e->name.pos));
	ret = b->field_var(b, &e->system, &e->event, &e->name, name);
	if (ret)
		return ERR_PTR(ret);
	e->kind = HIST_EXPR_VAR;
	e->name.start = *name;
	e->name.len = strlen(*name);
	return hist_field_bind(b, e, HIST_ROLE_VAR);
}

/* A parameter bound: a reference, or a field of this or another event. */
static struct hist_field *hist_param_bind(struct hist_bind *b,
					  struct hist_act *a,
					  struct hist_expr *e, char **name)
{
	struct trace_event_call *call = b->call;
	struct hist_field *f;

	if (e->kind == HIST_EXPR_VAR)
		return hist_field_bind(b, e, HIST_ROLE_VAR);
	if (e->system.len &&
	    (!trace_token_is(&e->system, call->class->system) ||
	     !trace_token_is(&e->event, trace_event_name(call))))
		return hist_param_field_var(b, a, e, name);

	f = hist_field_bind(b, e, HIST_ROLE_VAR);
	if (!IS_ERR(f) || b->err->err != HIST_ERR_FIELD_NOT_FOUND ||
	    e->system.len)
		return f;
	b->err->err = HIST_ERR_NONE;
	return hist_param_field_var(b, a, e, name);
}

/*
 * Whether a value of @f can go into the synthetic field @sf: a stack for
 * a stack, the same type, a string for a string, or a value of the same
 * size and sign under another name (const char * for unsigned long, say),
 * which existing commands pass between such fields.
 */
static bool hist_param_fits(const struct hist_field *f,
			    const struct synth_field *sf)
{
	/* a stack only for a stack, also through variables */
	if (hist_field_is_stack(f) || sf->is_stack)
		return hist_field_is_stack(f) && sf->is_stack;
	return !strcmp(f->type, sf->type) ||
	       (sf->is_string && hist_field_is_string(f)) ||
	       (f->size == sf->size &&
		(sf->is_string || f->is_signed == sf->is_signed));
}

/*
 * Reserve a map variable for the action to keep per entry, in @var; the
 * map has HIST_VARS_MAX of them for the command's and the actions' own.
 */
static int hist_hidden_var(struct hist_data *hd, struct hist_bind *b,
			   enum hist_err err, int pos, unsigned int *var)
{
	if (hd->n_vars + hd->n_hidden >= HIST_VARS_MAX)
		return trace_parse_fail(b->err, err, pos);
	*var = hd->n_vars + hd->n_hidden++;
	return 0;
}

static int hist_action_params(struct hist_data *hd, struct hist_bind *b,
			      struct hist_act *a)
{
	const struct hist_spec_action *sa = a->spec;
	unsigned int i;

	a->exprs = kcalloc(sa->n_params, sizeof(*a->exprs), GFP_KERNEL);
	a->names = kcalloc(sa->n_params, sizeof(*a->names), GFP_KERNEL);
	if (sa->n_params && (!a->exprs || !a->names))
		return -ENOMEM;
	a->n_names = sa->n_params;
	for (i = 0; i < sa->n_params; i++) {
		struct hist_field *f;

		hist_param_expr(&a->exprs[i], &sa->params[i]);
		f = hist_param_bind(b, a, &a->exprs[i], &a->names[i]);
		if (IS_ERR(f))
			return PTR_ERR(f);
		a->params[a->n_params++] = f;
		if (a->synth && !hist_param_fits(f, a->synth->fields[i]))
			return trace_parse_fail(b->err, HIST_ERR_SYNTH_TYPE_MISMATCH,
						sa->params[i].pos);
		/* a string is copied into the entry: trace() and save() alike */
		a->str_slot[i] = hist_field_is_string(f) ? hd->n_strs++ : -1;
		if (sa->action == HIST_ACT_SAVE &&
		    hist_hidden_var(hd, b, HIST_ERR_SAVE_VAR_FAIL,
				    sa->params[i].pos, &a->save_var[i]))
			return -EINVAL;
	}
	return 0;
}

/*
 * The registered histograms with a trace() action, whose event fires
 * the synthetic events they trace: the edges that a loop of events
 * would be made of.  Under event_mutex.
 */
static LIST_HEAD(hist_tracers);

/* Marks the synthetic events one hist_leads_to() walk has seen. */
static unsigned int hist_walk;

/*
 * Longest chain of synthetic events followed.  A longer one counts as a
 * loop: it would go deeper than the event path's pads allow anyway (see
 * trace_hist_data.c), and the walk's recursion stays small.
 */
#define HIST_CHAIN_MAX		16

/*
 * Whether tracing @se can fire @call again: @se is @call, or a histogram
 * on @se traces an event that leads to @call.  The graph has no loop
 * (each edge was checked when added) and each event is looked at once
 * per walk, so a walk is as long as the graph, however shared its paths.
 */
static bool hist_leads_to_walk(struct synth_event *se,
			       struct trace_event_call *call, unsigned int depth)
{
	struct hist_data *hd;
	unsigned int i;

	if (&se->call == call || depth == HIST_CHAIN_MAX)
		return true;
	if (se->walk == hist_walk)
		return false;
	se->walk = hist_walk;
	list_for_each_entry(hd, &hist_tracers, tracer_node) {
		if (hd->call != &se->call)
			continue;
		for (i = 0; i < hd->n_actions; i++)
			if (hd->actions[i]->synth &&
			    hist_leads_to_walk(hd->actions[i]->synth, call,
					       depth + 1))
				return true;
	}
	return false;
}

static bool hist_leads_to(struct synth_event *se, struct trace_event_call *call)
{
	lockdep_assert_held(&event_mutex);
	if (!++hist_walk)	/* 0 is the mark of events never walked */
		hist_walk++;
	return hist_leads_to_walk(se, call, 0);
}

void hist_actions_register(struct hist_data *hd)
{
	unsigned int i;

	lockdep_assert_held(&event_mutex);
	for (i = 0; i < hd->n_actions; i++) {
		if (hd->actions[i]->synth) {
			list_add(&hd->tracer_node, &hist_tracers);
			return;
		}
	}
}

/* Drop the synthetic events @hd fires; its actions keep the pointers. */
void hist_actions_unregister(struct hist_data *hd)
{
	unsigned int i;

	list_del_init(&hd->tracer_node);
	for (i = 0; i < hd->n_actions; i++) {
		struct hist_act *a = hd->actions[i];

		if (a->holds_synth)
			a->synth->ref--;
		a->holds_synth = false;
	}
}

static int hist_action_bind(struct hist_data *hd, struct hist_bind *b,
			    struct hist_act *a)
{
	const struct hist_spec_action *sa = a->spec;
	struct hist_expr *track;

	if (sa->handler != HIST_ONMATCH) {
		/* the tracked $var: a variable of this histogram */
		track = &a->track_expr;
		track->kind = HIST_EXPR_VAR;
		track->name = sa->var;
		track->text.start = sa->var.start - 1;
		track->text.pos = sa->var.pos - 1;
		track->text.len = sa->var.len + 1;
		a->track = hist_field_bind(b, track, HIST_ROLE_VAR);
		if (IS_ERR(a->track)) {
			int ret = PTR_ERR(a->track);

			a->track = NULL;
			if (b->err->err == HIST_ERR_VAR_NOT_FOUND)
				b->err->err = HIST_ERR_ONX_VAR_NOT_FOUND;
			return ret;
		}
		if (hist_hidden_var(hd, b, HIST_ERR_ONX_VAR_CREATE_FAIL,
				    track->text.pos, &a->track_var))
			return -EINVAL;
	}
	if (sa->action == HIST_ACT_TRACE) {
		char *name = trace_token_dup(&sa->synth);

		if (!name)
			return -ENOMEM;
		a->synth = find_synth_event(name);
		kfree(name);
		if (!a->synth)
			return trace_parse_fail(b->err, HIST_ERR_SYNTH_EVENT_NOT_FOUND,
						sa->synth.pos);
		a->synth->ref++;
		a->holds_synth = true;
		/*
		 * One that fires this event again would recurse: refused now
		 * where it can be seen (the event path bounds what cannot,
		 * a loop through an eprobe, say)
		 */
		if (hist_leads_to(a->synth, b->call))
			return trace_parse_fail(b->err, HIST_ERR_TRACE_LOOP,
						sa->synth.pos);
		if (a->synth->n_fields != sa->n_params)
			return trace_parse_fail(b->err, HIST_ERR_SYNTH_COUNT_MISMATCH,
						sa->text.pos);
	}
	return hist_action_params(hd, b, a);
}

int hist_actions_bind(struct hist_data *hd, struct hist_bind *b)
{
	unsigned int i;
	int ret;

	lockdep_assert_held(&event_mutex);

	for (i = 0; i < HIST_PARAMS_MAX; i++)
		hist_param_idx[i] = i;
	for (i = 0; i < hd->spec->n_actions; i++) {
		struct hist_act *a = kzalloc_obj(*a);

		if (!a)
			return -ENOMEM;
		a->spec = &hd->spec->actions[i];
		hd->actions[hd->n_actions++] = a;
		ret = hist_action_bind(hd, b, a);
		if (ret)
			return ret;
	}
	return 0;
}

void hist_actions_free(struct hist_data *hd)
{
	unsigned int i, j;

	for (i = 0; i < hd->n_actions; i++) {
		struct hist_act *a = hd->actions[i];

		if (a->holds_synth)
			a->synth->ref--;
		hist_field_free(a->track);
		for (j = 0; j < a->n_params; j++)
			hist_field_free(a->params[j]);
		for (j = 0; j < a->n_names; j++)
			kfree(a->names[j]);
		kfree(a->exprs);
		kfree(a->names);
		kfree(a);
	}
	hd->n_actions = 0;
}

/*
 * Whether a parameter reads the event's time stamp.  Such a histogram,
 * like one whose keys, values or variables read it, turns off the
 * per-CPU buffered event, whose records have no time stamp yet
 * (hist_filter_buffering() in trace_events_hist.c).
 */
bool hist_actions_use_clock(const struct hist_data *hd)
{
	unsigned int i, j;

	for (i = 0; i < hd->n_actions; i++)
		for (j = 0; j < hd->actions[i]->n_params; j++)
			if (hist_field_uses_clock(hd->actions[i]->params[j]))
				return true;
	return false;
}

/* ---- the event path ---- */

/*
 * Parameter @i of @a for the event @ev.  A string of the record need not
 * end within its field (a user event's char[N], say): the entry keeps a
 * copy that does, and the action gets that.
 */
static u64 hist_param_value(const struct hist_act *a, unsigned int i,
			    struct hist_elt *he, const struct hist_event *ev)
{
	const struct hist_field *f = a->params[i];
	char *s;
	u64 v;

	/* mostly variables: read those without a call */
	v = f->kind == HIST_FIELD_VAR_REF ? ev->vars[f->var_ref_idx] :
	    hist_field_value(f, ev);
	if (a->str_slot[i] < 0)
		return v;
	s = he->strs[a->str_slot[i]];
	hist_str_copy(s, (const char *)(unsigned long)v,
		      hist_str_room(f, ev, STR_VAR_LEN_MAX - 1));
	return (unsigned long)s;
}

static void hist_action_do(struct hist_data *hd, struct hist_act *a,
			   struct tracing_map_elt *elt,
			   const struct hist_event *ev, struct hist_pad *pad)
{
	struct hist_elt *he = elt->private_data;
	unsigned int i;

	switch (a->spec->action) {
	case HIST_ACT_TRACE:
		for (i = 0; i < a->n_params; i++)
			pad->params[i] = hist_param_value(a, i, he, ev);
		synth_event_fire(a->synth, pad->params, hist_param_idx);
		break;
	case HIST_ACT_SAVE:
		for (i = 0; i < a->n_params; i++)
			tracing_map_set_var(elt, a->save_var[i],
					    hist_param_value(a, i, he, ev));
		break;
	case HIST_ACT_SNAPSHOT:
		if (hd->snapshot)
			hd->snapshot(hd, elt, pad->key);
		break;
	}
}

/*
 * @pad holds the key and the values of the variables referenced, of
 * other histograms and (stored by this very event) of its own, set by
 * hist_data_update(); pad->refs is what ev->vars points to when there
 * are any.
 */
void hist_actions_run(struct hist_data *hd, struct tracing_map_elt *elt,
		      const struct hist_event *ev, struct hist_pad *pad)
{
	unsigned int i;

	for (i = 0; i < hd->n_actions; i++) {
		struct hist_act *a = hd->actions[i];

		if (a->track) {
			u64 v = pad->refs[a->track->var_ref_idx];
			u64 old = tracing_map_read_var(elt, a->track_var);

			if (a->spec->handler == HIST_ONMAX ? v <= old : v == old)
				continue;
			tracing_map_set_var(elt, a->track_var, v);
		}
		hist_action_do(hd, a, elt, ev, pad);
	}
}

/* ---- snapshot(): the condition, kept by the trigger code ---- */

const struct hist_act *hist_snapshot_act(const struct hist_data *hd)
{
	unsigned int i;

	for (i = 0; i < hd->n_actions; i++)
		if (hd->actions[i]->spec->action == HIST_ACT_SNAPSHOT)
			return hd->actions[i];
	return NULL;
}

/*
 * Whether the value @elt's snapshot() handler tracks beats *@best, the
 * one of the last snapshot (greater for onmax, different for onchange);
 * if so it becomes *@best.
 */
bool hist_snapshot_beats(const struct hist_data *hd,
			 struct tracing_map_elt *elt, u64 *best)
{
	const struct hist_act *a = hist_snapshot_act(hd);
	u64 v;

	if (!a)
		return false;
	v = tracing_map_read_var(elt, a->track_var);
	if (a->spec->handler == HIST_ONMAX ? v <= *best : v == *best)
		return false;
	*best = v;
	return true;
}
