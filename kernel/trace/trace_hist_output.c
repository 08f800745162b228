// SPDX-License-Identifier: GPL-2.0
/*
 * trace_hist_output - how histograms look in tracefs.
 *
 * Two texts are made here.  The trigger listing prints each field of a
 * command in its canonical spelling (key=, 0x10 and bucket= come back as
 * keys=, 16 and buckets=), but variable references as they were
 * written, $name or system.event.$name.  The hist file prints each entry
 * as
 *
 *   { key: value, key: value } hitcount: N  val: N  val: N
 *
 * in fixed widths and spellings, since tools parse them.  A key's
 * modifier picks its format; only the first modifier in the order of
 * hist_mod_names[] (trace_hist_field.c) counts.
 */
#include <linux/kallsyms.h>
#include <linux/math64.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "trace_hist.h"

static const char hist_op_chars[] = {
	[HIST_FIELD_ADD] = '+', [HIST_FIELD_SUB] = '-',
	[HIST_FIELD_MUL] = '*', [HIST_FIELD_DIV] = '/',
};

/* The name of a field without its modifier; ops and refs print whole. */
static void hist_print_name(struct seq_file *m, const struct hist_field *f)
{
	const struct hist_expr *e = f->expr;

	if (hist_pseudo_name(f)) {
		seq_puts(m, hist_pseudo_name(f));
		return;
	}
	switch (f->kind) {
	case HIST_FIELD_CONST:
		seq_printf(m, "%llu", f->constant);
		break;
	case HIST_FIELD_VAR_REF:
		if (e->system.len)
			seq_printf(m, "%.*s.%.*s.", e->system.len, e->system.start,
				   e->event.len, e->event.start);
		seq_printf(m, "$%.*s", e->name.len, e->name.start);
		break;
	case HIST_FIELD_NEG:
		seq_puts(m, "-(");
		hist_print_expr(m, f->arg[0]);
		seq_putc(m, ')');
		break;
	case HIST_FIELD_ADD ... HIST_FIELD_DIV:
		hist_print_expr(m, f->arg[0]);
		seq_putc(m, hist_op_chars[f->kind]);
		hist_print_expr(m, f->arg[1]);
		break;
	default:
		seq_puts(m, f->field->name);
	}
}

void hist_print_expr(struct seq_file *m, const struct hist_field *f)
{
	unsigned int i;

	hist_print_name(m, f);
	/* a stack field is always a stack key; common_stacktrace says so */
	if (f->kind == HIST_FIELD_STACK) {
		seq_puts(m, ".stacktrace");
		return;
	}
	for (i = 0; hist_mod_names[i].name; i++) {
		if (f->mods & hist_mod_names[i].mod) {
			seq_printf(m, ".%s", hist_mod_names[i].name);
			break;
		}
	}
	if (f->mods & (HIST_MOD_BUCKETS | HIST_MOD_LOGLIN))
		seq_printf(m, "=%lu", f->mod_arg);
}

/* A key of a histogram entry, as "name: value" in the modifier's format. */
static void hist_print_one_key(struct seq_file *m, const struct hist_field *f,
			       const void *key, const char *comm)
{
	u64 v = *(const u64 *)key;
	const char *name;
	unsigned int i;

	if (hist_field_is_stack(f)) {
		const unsigned long *stack = key;

		/* no ": " after a stack field's name: its frames follow */
		if (f->kind == HIST_FIELD_CALLER)
			seq_puts(m, "common_stacktrace:\n");
		else
			seq_printf(m, "%s.stacktrace", f->field->name);
		for (i = 0; i < HIST_STACKTRACE_DEPTH && stack[i]; i++)
			seq_printf(m, "%9c%pS\n", ' ', (void *)stack[i]);
		return;
	}

	hist_print_name(m, f);
	seq_puts(m, ": ");
	if (f->mods & HIST_MOD_HEX) {
		seq_printf(m, "%llx", v);
	} else if (f->mods & HIST_MOD_SYM) {
		seq_printf(m, "[%llx] %-45ps", v, (void *)(unsigned long)v);
	} else if (f->mods & HIST_MOD_SYM_OFFSET) {
		seq_printf(m, "[%llx] %-55pS", v, (void *)(unsigned long)v);
	} else if (f->mods & HIST_MOD_EXECNAME) {
		seq_printf(m, "%-16s[%10llu]", comm, v);
	} else if (f->mods & HIST_MOD_SYSCALL) {
		name = get_syscall_name(v);
		seq_printf(m, "%-30s[%3llu]", name ?: "unknown_syscall", v);
	} else if (f->mods & HIST_MOD_LOG2) {
		seq_printf(m, "~ 2^%-2llu", v);
	} else if (f->mods & HIST_MOD_BUCKETS) {
		seq_printf(m, "~ %llu-%llu", v, v + f->mod_arg - 1);
	} else if (f->mods & HIST_MOD_LOGLIN) {
		seq_printf(m, "~ %llu-%llu", v, hist_loglin_high(v, f->mod_arg));
	} else if (hist_field_is_string(f)) {
		seq_printf(m, "%-50s", (const char *)key);
	} else {
		seq_printf(m, "%10llu", v);
	}
}

void hist_print_key(struct seq_file *m, struct hist_field * const *keys,
		    unsigned int n_keys, const void *key, const char *comm)
{
	bool stack = false;
	unsigned int i;

	seq_puts(m, "{ ");
	for (i = 0; i < n_keys; i++) {
		if (i)
			seq_puts(m, ", ");
		hist_print_one_key(m, keys[i], key + keys[i]->key_offset, comm);
		stack |= hist_field_is_stack(keys[i]);
	}
	seq_puts(m, stack ? "}" : " }");
}

/* 100 times the percentage @val is of @total; UINT_MAX for x/0. */
unsigned int hist_percentage(u64 val, u64 total)
{
	if (val < U64_MAX / 10000) {
		if (total)
			return div64_u64(val * 10000, total);
	} else {
		total = div64_u64(total, 10000);
		if (total)
			return div64_u64(val, total);
	}
	return val ? UINT_MAX : 0;
}

void hist_print_val(struct seq_file *m, const struct hist_field *f,
		    u64 val, const struct hist_val_stat *stat)
{
	unsigned int pc, len, i;
	char bar[21];

	seq_putc(m, ' ');
	hist_print_name(m, f);
	if (f->mods & HIST_MOD_PERCENT) {
		pc = hist_percentage(val, stat->total);
		if (pc == UINT_MAX)
			seq_puts(m, " (%):[ERROR]");
		else
			seq_printf(m, " (%%): %3u.%02u", pc / 100, pc % 100);
	} else if (f->mods & HIST_MOD_GRAPH) {
		pc = hist_percentage(val, stat->max);
		if (pc == UINT_MAX) {
			seq_printf(m, ": %20s", "[ERROR]");
			return;
		}
		/* a bar of up to 20 '#', padded with blanks */
		len = min(pc / 500, 20U);
		for (i = 0; i < 20; i++)
			bar[i] = i < len ? '#' : ' ';
		bar[20] = '\0';
		seq_printf(m, ": %s", bar);
	} else if (f->mods & HIST_MOD_HEX) {
		seq_printf(m, ": %10llx", val);
	} else {
		seq_printf(m, ": %10llu", val);
	}
}

/* ---- handlers ---- */

/* "onmax($var)" of the snapshot() handler, for the hist file. */
void hist_print_snapshot_handler(struct seq_file *m, const struct hist_data *hd)
{
	const struct hist_act *a = hist_snapshot_act(hd);

	if (a)
		seq_printf(m, "%s($%.*s)", hist_handler_names[a->spec->handler],
			   a->spec->var.len, a->spec->var.start);
}

/* After an entry's values: the tracked value and what was saved. */
static void hist_print_actions(struct seq_file *m, const struct hist_data *hd,
			       struct tracing_map_elt *elt)
{
	unsigned int i, j;

	for (i = 0; i < hd->n_actions; i++) {
		const struct hist_act *a = hd->actions[i];

		if (!a->track || a->spec->action == HIST_ACT_SNAPSHOT)
			continue;
		seq_printf(m, "\n\t%s: %10llu",
			   a->spec->handler == HIST_ONMAX ? "max" : "changed",
			   tracing_map_read_var(elt, a->track_var));
		if (a->spec->action != HIST_ACT_SAVE)
			continue;
		for (j = 0; j < a->n_params; j++) {
			const struct trace_token *name = &a->spec->params[j];
			u64 v = tracing_map_read_var(elt, a->save_var[j]);

			if (a->str_slot[j] >= 0)
				seq_printf(m, "  %.*s: %-32s", name->len, name->start,
					   (char *)(unsigned long)v);
			else
				seq_printf(m, "  %.*s: %10llu", name->len,
					   name->start, v);
		}
	}
}

/* The handlers in the trigger listing. */
static void hist_print_actions_spec(struct seq_file *m,
				    const struct hist_data *hd)
{
	static const char * const actions[] = {
		[HIST_ACT_TRACE] = "trace", [HIST_ACT_SAVE] = "save",
		[HIST_ACT_SNAPSHOT] = "snapshot",
	};
	unsigned int i, j;

	for (i = 0; i < hd->n_actions; i++) {
		const struct hist_spec_action *sa = hd->actions[i]->spec;
		bool trace = sa->action == HIST_ACT_TRACE && !sa->legacy;

		seq_printf(m, ":%s(", hist_handler_names[sa->handler]);
		if (sa->handler == HIST_ONMATCH)
			seq_printf(m, "%.*s.%.*s", sa->system.len, sa->system.start,
				   sa->event.len, sa->event.start);
		else
			seq_printf(m, "$%.*s", sa->var.len, sa->var.start);
		if (sa->legacy)
			seq_printf(m, ").%.*s(", sa->synth.len, sa->synth.start);
		else
			seq_printf(m, ").%s(", actions[sa->action]);
		if (trace)
			seq_printf(m, "%.*s", sa->synth.len, sa->synth.start);
		for (j = 0; j < sa->n_params; j++)
			seq_printf(m, "%s%.*s", j || trace ? "," : "",
				   sa->params[j].len, sa->params[j].start);
		seq_putc(m, ')');
	}
}

/* The command in canonical form. */
static void hist_print_spec(struct seq_file *m, const struct hist_data *hd)
{
	const struct hist_spec *spec = hd->spec;
	bool nohc = spec->flags & HIST_SPEC_NOHITCOUNT;
	unsigned int i;

	seq_puts(m, "hist:");
	if (spec->name.len)
		seq_printf(m, "name=%.*s:", spec->name.len, spec->name.start);
	seq_puts(m, "keys=");
	for (i = 0; i < hd->n_keys; i++) {
		if (i)
			seq_putc(m, ',');
		hist_print_expr(m, hd->keys[i]);
	}
	seq_puts(m, ":vals=");
	if (!nohc)
		seq_puts(m, "hitcount");
	for (i = 1; i < hd->n_vals; i++) {
		if (i > 1 || !nohc)
			seq_putc(m, ',');
		hist_print_expr(m, hd->vals[i]);
	}
	for (i = 0; i < hd->n_vars; i++) {
		seq_printf(m, "%c%.*s=", i ? ',' : ':', spec->vars[i].var.len,
			   spec->vars[i].var.start);
		hist_print_expr(m, hd->vars[i]);
	}
	seq_puts(m, ":sort=");
	for (i = 0; i < hd->n_sort; i++) {
		unsigned int idx = hd->sort[i].field_idx;

		if (i)
			seq_putc(m, ',');
		if (!idx)
			seq_puts(m, "hitcount");
		else
			hist_print_expr(m, idx < hd->n_vals ? hd->vals[idx] :
					hd->keys[idx - hd->n_vals]);
		if (hd->sort[i].descending)
			seq_puts(m, ".descending");
	}
	seq_printf(m, ":size=%u", 1U << hd->map->map_bits);
	if (hd->timestamps)
		seq_printf(m, ":clock=%.*s", spec->clock.len ? spec->clock.len : 6,
			   spec->clock.len ? spec->clock.start : "global");
	if (nohc)
		seq_puts(m, ":nohitcount");
	hist_print_actions_spec(m, hd);
}

/* The command's line in the trigger file, and in the hist file's header. */
void hist_print_trigger(struct seq_file *m, const struct hist_data *hd,
			const char *filter, bool paused)
{
	hist_print_spec(m, hd);
	if (filter)
		seq_printf(m, " if %s", filter);
	seq_puts(m, paused ? " [paused]\n" : " [active]\n");
}

/* The entries of the hist file, sorted; their number. */
int hist_print_entries(struct seq_file *m, struct hist_data *hd)
{
	bool nohc = hd->spec->flags & HIST_SPEC_NOHITCOUNT;
	struct hist_val_stat stats[HIST_VALS_MAX + 1] = {};
	struct tracing_map_sort_entry **entries;
	int n, i, j;

	n = tracing_map_sort_entries(hd->map, hd->sort, hd->n_sort, &entries);
	if (n < 0)
		return n;
	for (i = 0; i < n; i++) {
		for (j = 0; j < hd->n_vals; j++) {
			u64 v = tracing_map_read_sum(entries[i]->elt, j);

			stats[j].total += v;
			stats[j].max = max(stats[j].max, v);
		}
	}
	for (i = 0; i < n; i++) {
		struct tracing_map_elt *elt = entries[i]->elt;
		struct hist_elt *he = elt->private_data;

		hist_print_key(m, hd->keys, hd->n_keys, entries[i]->key,
			       he ? he->comm : NULL);
		for (j = nohc ? 1 : 0; j < hd->n_vals; j++) {
			if (j)
				seq_putc(m, ' ');
			hist_print_val(m, hd->vals[j], tracing_map_read_sum(elt, j),
				       &stats[j]);
		}
		hist_print_actions(m, hd, elt);
		seq_putc(m, '\n');
	}
	tracing_map_destroy_sort_entries(entries, n);
	return n;
}

void hist_print_totals(struct seq_file *m, const struct hist_data *hd,
		       unsigned int n_entries)
{
	seq_printf(m, "\nTotals:\n    Hits: %llu\n    Entries: %u\n    Dropped: %llu\n",
		   (u64)atomic64_read(&hd->map->hits), n_entries,
		   (u64)atomic64_read(&hd->map->drops));
}
