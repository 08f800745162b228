// SPDX-License-Identifier: GPL-2.0
/*
 * trace_hist_vars - variables of histograms and references to them.
 *
 * A variable ("ts0=common_timestamp.usecs") is a per-entry value of the
 * histogram that defines it, kept in its tracing_map element.  Another
 * histogram (or the same one) reads it with $ts0, or sched.sched_waking.$ts0
 * when more than one histogram defines a ts0: the reference reads the
 * variable of the entry with the same key as the event at hand, so the
 * two histograms must be keyed alike (next_pid on sched_switch and pid on
 * sched_waking, say).
 *
 * Lookups of names (binding, registering) run under event_mutex, which
 * also keeps the scope's list and the n_users counts.  A registered
 * histogram counts as a user of each histogram it references (one only
 * bound, to find the histogram a !hist command means, does not); one
 * whose variables have users cannot go, the trigger code refuses to
 * remove it.
 *
 * Reading happens on the event path (hist_refs_read()): for each
 * variable referenced (one slot however often it is), a lookup in the
 * defining histogram's map (one per histogram when its references
 * follow each other) and a read of the element's variable, lock free.
 * A variable used as an operand is read once, consuming it, so a second
 * sched_switch without a new wakeup produces no latency.  When any
 * variable is missing, nothing of the event counts.
 */
#include <linux/string.h>

#include "trace_hist.h"

/* Whether @hd is on the event @system.@event (both empty: any event). */
static bool hist_on_event(const struct hist_data *hd,
			  const struct trace_token *system,
			  const struct trace_token *event)
{
	return !system->len ||
	       (trace_token_is(system, hd->call->class->system) &&
		trace_token_is(event, trace_event_name(hd->call)));
}

/*
 * Whether the keys of @a lead those of @b: @b has as many or more, and
 * the first ones are laid out alike, slot by slot (with @types, of the
 * same C types too).  A reference reads the variable's entry by looking
 * up the key of the event at hand in the defining histogram's map, which
 * reads that map's key size: the bytes must be there and mean the same.
 * (A longer key on the reading side is common in commands users write:
 * next_pid,next_prio reading what pid set.)
 */
bool hist_keys_lead(const struct hist_data *a, const struct hist_data *b,
		    bool types)
{
	unsigned int i;

	if (a->n_keys > b->n_keys)
		return false;
	for (i = 0; i < a->n_keys; i++) {
		const struct hist_field *ka = a->keys[i], *kb = b->keys[i];

		if (ka->size != kb->size ||
		    hist_field_is_string(ka) != hist_field_is_string(kb) ||
		    hist_field_is_stack(ka) != hist_field_is_stack(kb) ||
		    (types && (strcmp(ka->type, kb->type) ||
			       ka->is_signed != kb->is_signed)))
			return false;
	}
	return true;
}

int hist_vars_resolve(struct hist_bind *b, const struct hist_expr *e,
		      struct hist_field *f)
{
	struct hist_vars_scope *scope = b->priv;
	struct hist_data *self = b->hd, *def = NULL, *hd;
	const struct hist_field *var;
	int idx = -1, i;

	lockdep_assert_held(&event_mutex);

	/* its own variables first, then everybody's */
	if (hist_on_event(self, &e->system, &e->event))
		idx = hist_spec_var(self->spec, &e->name);
	if (idx >= 0) {
		def = self;
	} else if (scope) {
		list_for_each_entry(hd, &scope->hists, scope_node) {
			if (!hist_on_event(hd, &e->system, &e->event))
				continue;
			i = hist_spec_var(hd->spec, &e->name);
			if (i < 0)
				continue;
			if (def)
				return trace_parse_fail(b->err, HIST_ERR_VAR_NOT_UNIQUE,
							e->text.pos);
			def = hd;
			idx = i;
		}
	}
	if (!def)
		return trace_parse_fail(b->err, HIST_ERR_VAR_NOT_FOUND, e->text.pos);
	if (def != self && !hist_keys_lead(def, self, false))
		return trace_parse_fail(b->err, HIST_ERR_REF_KEYS_DIFFER, e->text.pos);
	/*
	 * One slot per variable, however often it is referenced: read once
	 * per event, so "a=$ts0,b=$ts0" sees the same value twice (and
	 * consuming it for a does not leave b without one).
	 */
	for (i = 0; i < self->n_refs; i++)
		if (self->refs[i]->var_hd == def && self->refs[i]->var_idx == idx)
			break;
	if (i == HIST_REFS_MAX)
		return trace_parse_fail(b->err, HIST_ERR_TOO_MANY_VARS, e->text.pos);

	/* a variable of its own may not be bound yet: then a plain u64 */
	var = idx < def->n_vars ? def->vars[idx] : NULL;
	f->type = var ? var->type : "u64";
	f->size = var ? var->size : sizeof(u64);
	f->is_signed = var && var->is_signed;
	f->usecs = var && var->usecs;
	f->ref_stack = var && hist_field_is_stack(var);
	f->var_hd = def;
	f->var_idx = idx;
	f->var_ref_idx = i;
	if (i == self->n_refs) {
		self->refs[self->n_refs++] = f;
		/* its own: the event path stores it in the slot itself */
		if (def == self && idx < HIST_VARS_MAX)
			self->var_slot[idx] = i;
	}
	return 0;
}

/* A reference in @f to a variable of @hd not in @ready, or NULL. */
static const struct hist_field *hist_own_ref(const struct hist_data *hd,
					     const struct hist_field *f,
					     unsigned long ready)
{
	const struct hist_field *ref;

	if (!f)
		return NULL;
	if (f->kind == HIST_FIELD_VAR_REF)
		return f->var_hd == hd && !(ready & BIT(f->var_idx)) ? f : NULL;
	ref = hist_own_ref(hd, f->arg[0], ready);
	return ref ?: hist_own_ref(hd, f->arg[1], ready);
}

/*
 * The order in which an event stores the variables of @hd: each after
 * those of its own that it reads ("a=$b:b=common_pid" stores b first).
 * References to other histograms cannot make a cycle (a histogram only
 * references those registered before it); references among its own
 * variables can, "a=$a" or "a=$b:b=$a", and are refused here with
 * the reference that closes the cycle.
 */
int hist_vars_order(struct hist_data *hd, struct hist_bind *b)
{
	const struct hist_field *ref;
	unsigned long ready = 0;
	unsigned int n, i;

	for (n = 0; n < hd->n_vars; n++) {
		for (i = 0; i < hd->n_vars; i++)
			if (!(ready & BIT(i)) &&
			    !hist_own_ref(hd, hd->vars[i], ready))
				break;
		if (i == hd->n_vars)
			break;
		ready |= BIT(i);
		hd->var_order[n] = i;
	}
	if (n == hd->n_vars)
		return 0;
	/* the first variable that is not ready reads one that is not either */
	for (i = 0; ready & BIT(i); i++)
		;
	ref = hist_own_ref(hd, hd->vars[i], ready);
	return trace_parse_fail(b->err, HIST_ERR_VAR_NOT_FOUND,
				ref->expr->text.pos);
}

/* Count @hd in (or out of) the users of the histograms it references. */
static void hist_vars_count_users(struct hist_data *hd, int n)
{
	unsigned int i;

	for (i = 0; i < hd->n_refs; i++)
		if (hd->refs[i]->var_hd != hd)
			hd->refs[i]->var_hd->n_users += n;
}

int hist_vars_register(struct hist_data *hd, struct hist_vars_scope *scope,
		       struct trace_parse_err *err)
{
	const struct hist_spec *spec = hd->spec;
	struct trace_token system, event;
	struct hist_data *other;
	unsigned int i;

	lockdep_assert_held(&event_mutex);

	if (!hd->n_vars)
		goto counted;
	/* names are unique among the histograms of one event */
	system.start = hd->call->class->system;
	system.len = strlen(system.start);
	event.start = trace_event_name(hd->call);
	event.len = strlen(event.start);
	list_for_each_entry(other, &scope->hists, scope_node) {
		if (!hist_on_event(other, &system, &event))
			continue;
		for (i = 0; i < hd->n_vars; i++) {
			if (hist_spec_var(other->spec, &spec->vars[i].var) >= 0) {
				err->err = HIST_ERR_DUPLICATE_VAR;
				err->pos = spec->vars[i].var.pos;
				return -EINVAL;
			}
		}
	}
	list_add_tail(&hd->scope_node, &scope->hists);
counted:
	/* from now on it uses the variables it references */
	hist_vars_count_users(hd, 1);
	hd->registered = true;
	return 0;
}

void hist_vars_unregister(struct hist_data *hd)
{
	list_del_init(&hd->scope_node);
	if (hd->registered)
		hist_vars_count_users(hd, -1);
	hd->registered = false;
}

bool hist_refs_read(struct hist_data *hd, void *key, u64 *vals)
{
	struct tracing_map_elt *elt = NULL;
	struct hist_data *last = NULL;
	unsigned int i;

	for (i = 0; i < hd->n_refs; i++) {
		const struct hist_field *f = hd->refs[i];

		if (f->var_hd == hd)
			continue;
		if (f->var_hd != last) {
			last = f->var_hd;
			elt = tracing_map_lookup(last->map, key);
		}
		if (!elt || !tracing_map_var_set(elt, f->var_idx))
			return false;
		if (f->read_once)
			vals[i] = tracing_map_read_var_once(elt, f->var_idx);
		else
			vals[i] = tracing_map_read_var(elt, f->var_idx);
	}
	return true;
}
