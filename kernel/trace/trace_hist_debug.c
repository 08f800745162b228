// SPDX-License-Identifier: GPL-2.0
/*
 * trace_hist_debug - the hist_debug file (CONFIG_HIST_TRIGGERS_DEBUG): what
 * a histogram is made of, for people debugging histograms and this code.
 *
 * Each entry is named after the member of struct hist_data or struct
 * hist_act that holds it, and each field shows its enum hist_field_kind,
 * so the file reads against trace_hist.h.  The sections follow the
 * histogram: the values (hitcount first) and the variables, the keys,
 * the variable references in the order of the values they get on each
 * event, the trace() parameters that name an event field, what each
 * handler keeps in the map's variables, and the saved fields.  Indexes
 * shown as var.idx are those of tracing_map_elt.vars[].
 */
#include <linux/seq_file.h>

#include "trace_hist.h"

static const char *const hist_kind_names[] = {
	[HIST_FIELD_NUM]	= "HIST_FIELD_NUM",
	[HIST_FIELD_STR]	= "HIST_FIELD_STR",
	[HIST_FIELD_DYN_STR]	= "HIST_FIELD_DYN_STR",
	[HIST_FIELD_REL_STR]	= "HIST_FIELD_REL_STR",
	[HIST_FIELD_STACK]	= "HIST_FIELD_STACK",
	[HIST_FIELD_CALLER]	= "HIST_FIELD_CALLER",
	[HIST_FIELD_TIMESTAMP]	= "HIST_FIELD_TIMESTAMP",
	[HIST_FIELD_CPU]	= "HIST_FIELD_CPU",
	[HIST_FIELD_COMM]	= "HIST_FIELD_COMM",
	[HIST_FIELD_HITCOUNT]	= "HIST_FIELD_HITCOUNT",
	[HIST_FIELD_CONST]	= "HIST_FIELD_CONST",
	[HIST_FIELD_VAR_REF]	= "HIST_FIELD_VAR_REF",
	[HIST_FIELD_ADD]	= "HIST_FIELD_ADD",
	[HIST_FIELD_SUB]	= "HIST_FIELD_SUB",
	[HIST_FIELD_MUL]	= "HIST_FIELD_MUL",
	[HIST_FIELD_DIV]	= "HIST_FIELD_DIV",
	[HIST_FIELD_NEG]	= "HIST_FIELD_NEG",
};

static_assert(ARRAY_SIZE(hist_kind_names) == HIST_FIELD_NEG + 1);

/* The field's kind, and the event field it reads, if any */
static void hist_print_debug_head(struct seq_file *m, const struct hist_field *f)
{
	seq_printf(m, "      kind: %s\n", hist_kind_names[f->kind]);
	if (f->field)
		seq_printf(m, "      ftrace_event_field name: %s\n", f->field->name);
}

static void hist_print_debug_tail(struct seq_file *m, const struct hist_field *f)
{
	seq_printf(m, "      type: %s\n", f->type);
	seq_printf(m, "      size: %u\n", f->size);
	seq_printf(m, "      is_signed: %u\n", f->is_signed);
}

/* A map variable: @len bytes of @name, its index. */
static void hist_print_debug_var(struct seq_file *m, const char *name,
				 int len, unsigned int idx)
{
	seq_printf(m, "      var.name: %.*s\n", len, name);
	seq_printf(m, "      var.idx (into tracing_map_elt.vars[]): %u\n", idx);
}

/* hist_data->vals[i], or hist_data->vars[i] named @var */
static void hist_debug_val(struct seq_file *m, const struct hist_field *f,
			   unsigned int i, const struct trace_token *var)
{
	seq_printf(m, "\n    hist_data->%s[%u]:\n", var ? "vars" : "vals", i);
	hist_print_debug_head(m, f);
	if (var)
		hist_print_debug_var(m, var->start, var->len, i);
	if (f->kind == HIST_FIELD_CONST)
		seq_printf(m, "      constant: %llu\n", f->constant);
	hist_print_debug_tail(m, f);
}

static void hist_print_debug_ref(struct seq_file *m, const struct hist_field *f)
{
	const struct hist_expr *e = f->expr;

	hist_print_debug_head(m, f);
	seq_printf(m, "      name: %.*s\n", e->name.len, e->name.start);
	seq_printf(m, "      var.idx (into tracing_map_elt.vars[]): %u\n",
		   f->var_idx);
	seq_printf(m, "      var.hist_data: %p\n", f->var_hd);
	seq_printf(m, "      var_ref_idx (into hist_event.vars[]): %u\n",
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
 * event is read from the record when the action runs; a field of another
 * event is the variable made for it on a histogram of that event, which
 * the parameter references (its name, index and histogram first).
 */
static void hist_print_field_vars_debug(struct seq_file *m,
					const struct hist_data *hd)
{
	unsigned int i, j;
	bool any = false;

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
			if (!any)
				seq_puts(m, "\n  field variables:\n");
			any = true;
			seq_printf(m, "\n    hist_data->actions[%u].params[%u]:\n", i, j);
			if (ref) {
				hist_print_debug_var(m, a->names[j], strlen(a->names[j]),
						     ref->var_idx);
				seq_printf(m, "      var.hist_data: %p\n", ref->var_hd);
			}
			hist_print_debug_head(m, f);
			hist_print_debug_tail(m, f);
		}
	}
}

/* The handlers' part: what each keeps, and the saved fields. */
static void hist_print_actions_debug(struct seq_file *m, const struct hist_data *hd)
{
	unsigned int i, j;

	hist_print_field_vars_debug(m, hd);
	if (hd->n_actions)
		seq_puts(m, "\n  action tracking variables (for onmax()/onchange()/onmatch()):\n");
	for (i = 0; i < hd->n_actions; i++) {
		const struct hist_act *a = hd->actions[i];
		const struct hist_spec_action *sa = a->spec;
		const char *track = sa->handler == HIST_ONMAX ? "__max" : "__change";

		if (a->track) {
			seq_printf(m, "\n    hist_data->actions[%u].track:\n", i);
			hist_print_debug_ref(m, a->track);
			seq_printf(m, "\n    hist_data->actions[%u].track_var:\n", i);
			hist_print_debug_var(m, track, strlen(track), a->track_var);
			seq_puts(m, "      type: u64\n      size: 8\n      is_signed: 0\n");
		} else {
			seq_printf(m, "\n    hist_data->actions[%u].spec->system: %.*s\n",
				   i, sa->system.len, sa->system.start);
			seq_printf(m, "    hist_data->actions[%u].spec->event: %.*s\n",
				   i, sa->event.len, sa->event.start);
		}
	}
	for (i = 0; i < hd->n_actions; i++) {
		const struct hist_act *a = hd->actions[i];

		if (a->spec->action != HIST_ACT_SAVE)
			continue;
		seq_puts(m, "\n  save action variables (save() params):\n");
		for (j = 0; j < a->n_params; j++) {
			const struct trace_token *name = &a->spec->params[j];

			seq_printf(m, "\n    hist_data->actions[%u].params[%u]:\n", i, j);
			hist_print_debug_var(m, name->start, name->len, a->save_var[j]);
			hist_print_debug_head(m, a->params[j]);
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
		hist_debug_val(m, hd->vals[i], i, NULL);
	for (i = 0; i < hd->n_vars; i++)
		hist_debug_val(m, hd->vars[i], i, &hd->spec->vars[i].var);

	seq_puts(m, "\n  key fields:\n");
	for (i = 0; i < hd->n_keys; i++) {
		seq_printf(m, "\n    hist_data->keys[%u]:\n", i);
		hist_print_debug_head(m, hd->keys[i]);
		hist_print_debug_tail(m, hd->keys[i]);
	}

	if (hd->n_refs)
		seq_puts(m, "\n  variable reference fields:\n");
	for (i = 0; i < hd->n_refs; i++) {
		seq_printf(m, "\n    hist_data->refs[%u]:\n", i);
		hist_print_debug_ref(m, hd->refs[i]);
	}
	hist_print_actions_debug(m, hd);
}
