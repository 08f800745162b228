// SPDX-License-Identifier: GPL-2.0
/*
 * trace_hist_debug - the hist_debug file (CONFIG_HIST_TRIGGERS_DEBUG): what
 * a histogram is made of, for people debugging histograms and this code.
 *
 * The sections and their wording are the ones histogram-design.rst
 * walks through, so that the documentation reads the same as the file.
 * What they describe is the histogram as this code builds it: the values
 * (hitcount first) and then the variables as "val fields", the keys, the
 * variable references in the order of the values they get on each event,
 * what each handler keeps in the map's variables, and the saved fields.
 * Indexes shown as var.idx are those of tracing_map_elt.vars[].
 */
#include <linux/seq_file.h>

#include "trace_hist.h"

static void hist_print_debug_tail(struct seq_file *m, const struct hist_field *f)
{
	seq_printf(m, "      type: %s\n", f->type);
	seq_printf(m, "      size: %u\n", f->size);
	seq_printf(m, "      is_signed: %u\n", f->is_signed);
}

/* A map variable of the handlers: its flag, @len bytes of @name, its index. */
static void hist_print_debug_var(struct seq_file *m, const char *name,
				 int len, unsigned int idx)
{
	seq_puts(m, "      flags:\n        HIST_FIELD_FL_VAR\n");
	seq_printf(m, "      var.name: %.*s\n", len, name);
	seq_printf(m, "      var.idx (into tracing_map_elt.vars[]): %u\n", idx);
}

/* A value (@var < 0) or a variable (@var its name). */
static void hist_debug_val(struct seq_file *m, const struct hist_field *f,
			   unsigned int i, const struct trace_token *var,
			   unsigned int var_idx)
{
	seq_printf(m, "\n    hist_data->fields[%u]:\n      flags:\n", i);
	if (f->kind == HIST_FIELD_HITCOUNT && !var)
		seq_puts(m, "        VAL: HIST_FIELD_FL_HITCOUNT\n");
	else if (var)
		seq_puts(m, "        HIST_FIELD_FL_VAR\n");
	else
		seq_puts(m, "        VAL: normal u64 value\n");
	if (f->kind == HIST_FIELD_CONST)
		seq_puts(m, "        HIST_FIELD_FL_CONST\n");
	if (f->field)
		seq_printf(m, "      ftrace_event_field name: %s\n", f->field->name);
	if (var) {
		seq_printf(m, "      var.name: %.*s\n", var->len, var->start);
		seq_printf(m, "      var.idx (into tracing_map_elt.vars[]): %u\n",
			   var_idx);
	}
	if (f->kind == HIST_FIELD_CONST)
		seq_printf(m, "      constant: %llu\n", f->constant);
	hist_print_debug_tail(m, f);
}

static void hist_print_debug_ref(struct seq_file *m, const struct hist_field *f)
{
	const struct hist_expr *e = f->expr;

	seq_puts(m, "      flags:\n        HIST_FIELD_FL_VAR_REF\n");
	seq_printf(m, "      name: %.*s\n", e->name.len, e->name.start);
	seq_printf(m, "      var.idx (into tracing_map_elt.vars[]): %u\n",
		   f->var_idx);
	seq_printf(m, "      var.hist_data: %p\n", f->var_hd);
	seq_printf(m, "      var_ref_idx (into hist_data->var_refs[]): %u\n",
		   f->var_ref_idx);
	if (e->system.len) {
		seq_printf(m, "      system: %.*s\n", e->system.len, e->system.start);
		seq_printf(m, "      event_name: %.*s\n", e->event.len, e->event.start);
	}
	hist_print_debug_tail(m, f);
}

/*
 * The "field variables" of hist_debug: the trace() parameters that name
 * an event field rather than a $variable.  A field of the histogram's own
 * event is read from the record when the action runs, so it has a .val
 * and no .var; a field of another event is the variable made for it on a
 * histogram of that event, which the parameter references.
 */
static void hist_print_field_vars_debug(struct seq_file *m,
					const struct hist_data *hd)
{
	unsigned int i, j, n = 0;

	for (i = 0; i < hd->n_actions; i++) {
		const struct hist_act *a = hd->actions[i];

		if (a->spec->action != HIST_ACT_TRACE)
			continue;
		for (j = 0; j < a->n_params; j++) {
			/* a field of another event: a reference to its variable */
			const struct hist_field *ref = a->names[j] ? a->params[j] : NULL;
			const struct hist_field *f = ref ? ref->var_hd->vars[ref->var_idx] :
							 a->params[j];

			if (!f->field)
				continue;
			if (!n)
				seq_puts(m, "\n  field variables:\n");
			seq_printf(m, "\n    hist_data->field_vars[%u]:\n", n);
			if (ref) {
				seq_printf(m, "\n      field_vars[%u].var:\n", n);
				hist_print_debug_var(m, a->names[j], strlen(a->names[j]),
						     ref->var_idx);
				seq_printf(m, "      var.hist_data: %p\n", ref->var_hd);
			}
			seq_printf(m, "\n      field_vars[%u].val:\n", n++);
			seq_printf(m, "      ftrace_event_field name: %s\n",
				   f->field->name);
			hist_print_debug_tail(m, f);
		}
	}
}

/* The handlers' part: what each keeps, and the saved fields. */
static void hist_print_actions_debug(struct seq_file *m, const struct hist_data *hd)
{
	unsigned int i, j, n = 0;

	hist_print_field_vars_debug(m, hd);
	if (hd->n_actions)
		seq_puts(m, "\n  action tracking variables (for onmax()/onchange()/onmatch()):\n");
	for (i = 0; i < hd->n_actions; i++) {
		const struct hist_act *a = hd->actions[i];
		const struct hist_spec_action *sa = a->spec;
		const char *track = sa->handler == HIST_ONMAX ? "__max" : "__change";

		if (a->track) {
			seq_printf(m, "\n    hist_data->actions[%u].track_data.var_ref:\n", i);
			hist_print_debug_ref(m, a->track);
			seq_printf(m, "\n    hist_data->actions[%u].track_data.track_var:\n", i);
			hist_print_debug_var(m, track, strlen(track), a->track_var);
			seq_puts(m, "      type: u64\n      size: 8\n      is_signed: 0\n");
		} else {
			seq_printf(m, "\n    hist_data->actions[%u].match_data.event_system: %.*s\n",
				   i, sa->system.len, sa->system.start);
			seq_printf(m, "    hist_data->actions[%u].match_data.event: %.*s\n",
				   i, sa->event.len, sa->event.start);
		}
	}
	for (i = 0; i < hd->n_actions; i++) {
		const struct hist_act *a = hd->actions[i];

		if (a->spec->action != HIST_ACT_SAVE)
			continue;
		seq_puts(m, "\n  save action variables (save() params):\n");
		for (j = 0; j < a->n_params; j++, n++) {
			const struct trace_token *name = &a->spec->params[j];

			seq_printf(m, "\n    hist_data->save_vars[%u]:\n", n);
			seq_printf(m, "\n      save_vars[%u].var:\n", n);
			hist_print_debug_var(m, name->start, name->len, a->save_var[j]);
			seq_printf(m, "\n      save_vars[%u].val:\n", n);
			if (a->params[j]->field)
				seq_printf(m, "      ftrace_event_field name: %s\n",
					   a->params[j]->field->name);
			hist_print_debug_tail(m, a->params[j]);
		}
	}
}

void hist_print_debug(struct seq_file *m, const struct hist_data *hd)
{
	unsigned int i, n_vals = hd->n_vals + hd->n_vars;

	seq_printf(m, "hist_data: %p\n\n", hd);
	seq_printf(m, "  n_vals: %u\n", n_vals);
	seq_printf(m, "  n_keys: %u\n", hd->n_keys);
	seq_printf(m, "  n_fields: %u\n", n_vals + hd->n_keys);

	seq_puts(m, "\n  val fields:\n");
	for (i = 0; i < hd->n_vals; i++)
		hist_debug_val(m, hd->vals[i], i, NULL, 0);
	for (i = 0; i < hd->n_vars; i++)
		hist_debug_val(m, hd->vars[i], hd->n_vals + i,
			       &hd->spec->vars[i].var, i);

	seq_puts(m, "\n  key fields:\n");
	for (i = 0; i < hd->n_keys; i++) {
		seq_printf(m, "\n    hist_data->fields[%u]:\n", n_vals + i);
		seq_puts(m, "      flags:\n        HIST_FIELD_FL_KEY\n");
		if (hd->keys[i]->field)
			seq_printf(m, "      ftrace_event_field name: %s\n",
				   hd->keys[i]->field->name);
		hist_print_debug_tail(m, hd->keys[i]);
	}

	if (hd->n_refs)
		seq_puts(m, "\n  variable reference fields:\n");
	for (i = 0; i < hd->n_refs; i++) {
		seq_printf(m, "\n    hist_data->var_refs[%u]:\n", i);
		hist_print_debug_ref(m, hd->refs[i]);
	}
	hist_print_actions_debug(m, hd);
}
