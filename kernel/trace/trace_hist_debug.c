// SPDX-License-Identifier: GPL-2.0
/*
 * trace_hist_debug - the hist_debug file (CONFIG_HIST_TRIGGERS_DEBUG): what
 * a histogram is made of, for people debugging histograms and this code.
 *
 * The sections and their wording are the base kernel's, so that what its
 * documentation explains reads the same here, but what they describe is
 * this engine: the values (hitcount first) and then the variables as
 * "val fields", the keys, the variable references in the order of the
 * values they get on each event, what each handler keeps in the map's
 * variables, and the saved fields.  Indexes shown as var.idx are those of
 * tracing_map_elt.vars[].
 */
#include <linux/seq_file.h>

#include "trace_hist.h"

void hist_print_debug_tail(struct seq_file *m, const struct hist_field *f)
{
	seq_printf(m, "      type: %s\n", f->type);
	seq_printf(m, "      size: %u\n", f->size);
	seq_printf(m, "      is_signed: %u\n", f->is_signed);
}

/* A map variable of the handlers: its flag, @len bytes of @name, its index. */
void hist_print_debug_var(struct seq_file *m, const char *name, int len,
			  unsigned int idx)
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

void hist_print_debug_ref(struct seq_file *m, const struct hist_field *f)
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
