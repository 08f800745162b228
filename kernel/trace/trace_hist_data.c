// SPDX-License-Identifier: GPL-2.0
/*
 * trace_hist_data - a histogram: a parsed command bound to an event, its
 * tracing_map, and the update each event makes.
 *
 * hist_data_create() runs when the command is written (event_mutex held,
 * may sleep): it binds every key, value and variable, lays the keys out
 * in the compound key, resolves sort= against the keys and values, and
 * creates the map with all its elements.  Nothing of it changes after.
 *
 * hist_data_update() runs for each event, in any context the event fires
 * in.  It builds the key in a per-CPU pad (a single number needs no
 * buffer; otherwise the key slots are zeroed and filled: numbers as u64,
 * strings truncated to their slot less a NUL, stacks as saved), inserts
 * it, and adds each value to its sum.  A full map counts the event as
 * dropped (tracing_map.c); the entries already there keep counting.
 *
 * The pads.  An update needs over a kilobyte of scratch (struct
 * hist_pad), and an action's synthetic event may run a histogram of its
 * own inside the first update, on the same stack.  So each CPU has, for
 * each of the four contexts an event can fire in (task, softirq, hardirq,
 * NMI), HIST_NEST_MAX pads and a count of those in use.  On one CPU the
 * contexts nest strictly: an interrupt that takes a pad of its own
 * context gives it back before the code it interrupted runs again, so a
 * context's count is changed only by code of that context, in call order,
 * and needs no atomic operation.  An update that finds its context's pads
 * all taken is nested too deep (a synthetic event whose histogram fires
 * it again, directly or through a loop of events): it is counted as
 * dropped and goes no further, which is what bounds such a recursion.
 *
 * The pads exist while any histogram does: the first one created
 * allocates them and the last one destroyed frees them, after its trigger
 * was unlinked and the event path waited for.  A histogram keeps the
 * pointer, so the event path reaches the pads through the histogram it
 * updates, ordered after its publication like the rest of it.
 */
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>

#include "trace_hist.h"

/*
 * Entries keep the comm of the task that created them (.execname) and the
 * strings save() copies: struct hist_elt, made with the map.
 */
static int hist_elt_alloc(struct tracing_map_elt *elt)
{
	struct hist_data *hd = elt->map->private_data;
	struct hist_elt *he;

	he = kzalloc(struct_size(he, strs, hd->n_strs), GFP_KERNEL);
	elt->private_data = he;
	return he ? 0 : -ENOMEM;
}

static void hist_elt_free(struct tracing_map_elt *elt)
{
	kfree(elt->private_data);
	elt->private_data = NULL;
}

static void hist_elt_init(struct tracing_map_elt *elt)
{
	struct hist_elt *he = elt->private_data;

	if (!current->pid)
		strscpy(he->comm, "<idle>", TASK_COMM_LEN);
	else
		memcpy(he->comm, current->comm, TASK_COMM_LEN);
}

static const struct tracing_map_ops hist_elt_ops = {
	.elt_alloc	= hist_elt_alloc,
	.elt_free	= hist_elt_free,
	.elt_init	= hist_elt_init,
};

/* Contexts of interrupt_context_level(), and pads per context and CPU. */
#define HIST_CONTEXTS		4
#define HIST_NEST_MAX		3

struct hist_pads {
	u8			depth[HIST_CONTEXTS];	/* pads in use */
	struct hist_pad		pad[HIST_CONTEXTS][HIST_NEST_MAX];
};

/* Both under event_mutex. */
static struct hist_pads __percpu *hist_pads;
static unsigned int hist_pads_users;

static struct hist_pads __percpu *hist_pads_get(void)
{
	lockdep_assert_held(&event_mutex);
	if (!hist_pads_users) {
		hist_pads = alloc_percpu(struct hist_pads);
		if (!hist_pads)
			return NULL;
	}
	hist_pads_users++;
	return hist_pads;
}

static void hist_pads_put(void)
{
	lockdep_assert_held(&event_mutex);
	if (--hist_pads_users)
		return;
	free_percpu(hist_pads);
	hist_pads = NULL;
}

/*
 * What a removed histogram gives back at once: its uses of other
 * histograms' variables, its place in the instance's scope and the
 * synthetic events its actions fire.  Its fields and map, which an event
 * still running it may read, stay for hist_data_destroy().
 */
void hist_data_retire(struct hist_data *hd)
{
	lockdep_assert_held(&event_mutex);

	if (!hd)
		return;
	hist_vars_unregister(hd);
	hist_actions_unregister(hd);
}

void hist_data_destroy(struct hist_data *hd)
{
	unsigned int i;

	if (!hd)
		return;
	/* before the fields go: the actions own some of the references */
	hist_data_retire(hd);
	hist_actions_free(hd);
	if (hd->map)
		tracing_map_destroy(hd->map);
	for (i = 0; i < hd->n_keys; i++)
		hist_field_free(hd->keys[i]);
	for (i = 0; i < hd->n_vals; i++)
		hist_field_free(hd->vals[i]);
	for (i = 0; i < hd->n_vars; i++)
		hist_field_free(hd->vars[i]);
	if (hd->pads)
		hist_pads_put();
	kfree(hd);
}

/* Bind the keys and give each its slot in the compound key. */
static int hist_data_keys(struct hist_data *hd, struct hist_bind *b)
{
	const struct hist_spec *spec = hd->spec;
	unsigned int i, slot;

	for (i = 0; i < spec->n_keys; i++) {
		struct hist_field *f;

		f = hist_field_bind(b, spec->keys[i].expr, HIST_ROLE_KEY);
		if (IS_ERR(f))
			return PTR_ERR(f);
		hd->keys[hd->n_keys++] = f;
		if (hist_field_is_stack(f))
			slot = HIST_STACKTRACE_SIZE;
		else
			slot = ALIGN(f->size, sizeof(u64));
		if (hd->key_size + slot > HIST_KEY_SIZE_MAX)
			return trace_parse_fail(b->err, HIST_ERR_KEY_TOO_LARGE,
						spec->keys[i].expr->text.pos);
		f->key_offset = hd->key_size;
		f->size = slot;
		hd->key_size += slot;
		hd->execname |= !!(f->mods & HIST_MOD_EXECNAME);
		hd->compound |= hist_field_is_string(f) || hist_field_is_stack(f);
	}
	hd->compound |= hd->n_keys > 1;
	return 0;
}

static int hist_data_vals(struct hist_data *hd, struct hist_bind *b)
{
	const struct hist_spec *spec = hd->spec;
	struct hist_field *f;
	unsigned int i;

	f = kzalloc_obj(*f);
	if (!f)
		return -ENOMEM;
	f->kind = HIST_FIELD_HITCOUNT;
	f->type = "u64";
	f->size = sizeof(u64);
	hd->vals[hd->n_vals++] = f;

	for (i = 0; i < spec->n_vals; i++) {
		f = hist_field_bind(b, spec->vals[i].expr, HIST_ROLE_VAL);
		if (IS_ERR(f))
			return PTR_ERR(f);
		hd->vals[hd->n_vals++] = f;
	}
	if ((spec->flags & HIST_SPEC_NOHITCOUNT) && hd->n_vals == 1) {
		trace_parse_fail(b->err, HIST_ERR_NEED_NOHC_VAL, 0);
		return -ENOENT;		/* the errno it has always had */
	}

	for (i = 0; i < spec->n_vars; i++) {
		f = hist_field_bind(b, spec->vars[i].expr, HIST_ROLE_VAR);
		if (IS_ERR(f))
			return PTR_ERR(f);
		/* a string or a stack outlives the record in the entry */
		hd->var_str[hd->n_vars] = -1;
		if (hist_field_is_string(f) || hist_field_is_stack(f))
			hd->var_str[hd->n_vars] = hd->n_strs++;
		hd->vars[hd->n_vars++] = f;
	}
	return hist_vars_order(hd, b);
}

/* sort=: map field indexes; the sums come first, then the keys. */
static int hist_data_sort(struct hist_data *hd, struct hist_bind *b)
{
	const struct hist_spec *spec = hd->spec;
	unsigned int i, j;

	hd->n_sort = max(spec->n_sort, 1U);	/* by hitcount by default */
	for (i = 0; i < spec->n_sort; i++) {
		const struct trace_token *name = &spec->sort[i].name;
		unsigned int idx = 0;

		hd->sort[i].descending = spec->sort[i].descending;
		if (trace_token_is(name, "hitcount"))
			goto found;
		for (j = 1; j < hd->n_vals + hd->n_keys; j++) {
			idx = j;
			if (hist_field_named(j < hd->n_vals ? hd->vals[j] :
					     hd->keys[j - hd->n_vals], name))
				goto found;
		}
		return trace_parse_fail(b->err, HIST_ERR_INVALID_SORT_FIELD, name->pos);
found:
		hd->sort[i].field_idx = idx;
	}
	return 0;
}

static int hist_data_map(struct hist_data *hd)
{
	struct tracing_map *map;
	unsigned int i;
	int ret;

	map = tracing_map_create(hd->spec->map_bits, hd->key_size,
				 hd->execname || hd->n_strs ? &hist_elt_ops : NULL,
				 hd);
	if (IS_ERR(map))
		return PTR_ERR(map);
	hd->map = map;
	for (i = 0; i < hd->n_vals; i++) {
		ret = tracing_map_add_sum_field(map);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < hd->n_vars + hd->n_hidden; i++) {
		ret = tracing_map_add_var(map);
		if (ret < 0)
			return ret;
	}
	for (i = 0; i < hd->n_keys; i++) {
		struct hist_field *f = hd->keys[i];
		tracing_map_cmp_fn_t cmp;

		if (hist_field_is_string(f))
			cmp = tracing_map_cmp_string;
		else if (hist_field_is_stack(f))
			cmp = tracing_map_cmp_none;
		else
			cmp = tracing_map_cmp_num(sizeof(u64), f->is_signed);
		ret = tracing_map_add_key_field(map, f->key_offset, cmp);
		if (ret < 0)
			return ret;
	}
	return tracing_map_init(map);
}

struct hist_data *hist_data_create(const struct hist_spec *spec,
				   struct hist_bind *b)
{
	struct hist_data *hd = kzalloc_obj(*hd);
	unsigned int i;
	int ret;

	lockdep_assert_held(&event_mutex);

	if (!hd)
		return ERR_PTR(-ENOMEM);
	hd->spec = spec;
	hd->call = b->call;
	INIT_LIST_HEAD(&hd->scope_node);
	INIT_LIST_HEAD(&hd->tracer_node);
	memset(hd->var_slot, -1, sizeof(hd->var_slot));
	b->hd = hd;
	ret = hist_data_keys(hd, b);
	if (!ret)
		ret = hist_data_vals(hd, b);
	if (!ret)
		ret = hist_actions_bind(hd, b);
	if (!ret)
		ret = hist_data_sort(hd, b);
	if (!ret)
		ret = hist_data_map(hd);
	if (!ret) {
		hd->pads = hist_pads_get();
		if (!hd->pads)
			ret = -ENOMEM;
	}
	if (ret) {
		hd->n_refs = 0;		/* their fields may be gone already */
		hist_data_destroy(hd);
		return ERR_PTR(ret);
	}
	for (i = 0; i < hd->n_keys; i++)
		hd->timestamps |= hist_field_uses_clock(hd->keys[i]);
	for (i = 0; i < hd->n_vals; i++)
		hd->timestamps |= hist_field_uses_clock(hd->vals[i]);
	for (i = 0; i < hd->n_vars; i++)
		hd->timestamps |= hist_field_uses_clock(hd->vars[i]);
	hd->timestamps |= hist_actions_use_clock(hd);
	return hd;
}

/*
 * Whether @a and @b are the same histogram: all that their listings show
 * but size= and clock= is the same, compared part by part.
 */
bool hist_data_same(const struct hist_data *a, const struct hist_data *b)
{
	const struct hist_spec *sa = a->spec, *sb = b->spec;
	unsigned int i;

	if (!trace_token_eq(&sa->name, &sb->name) ||
	    (sa->flags & HIST_SPEC_NOHITCOUNT) != (sb->flags & HIST_SPEC_NOHITCOUNT) ||
	    a->n_keys != b->n_keys || a->n_vals != b->n_vals ||
	    a->n_vars != b->n_vars || a->n_sort != b->n_sort ||
	    a->n_actions != b->n_actions)
		return false;
	for (i = 0; i < a->n_keys; i++)
		if (!hist_field_equal(a->keys[i], b->keys[i]))
			return false;
	for (i = 0; i < a->n_vals; i++)
		if (!hist_field_equal(a->vals[i], b->vals[i]))
			return false;
	for (i = 0; i < a->n_vars; i++)
		if (!trace_token_eq(&sa->vars[i].var, &sb->vars[i].var) ||
		    !hist_field_equal(a->vars[i], b->vars[i]))
			return false;
	for (i = 0; i < a->n_sort; i++)
		if (a->sort[i].field_idx != b->sort[i].field_idx ||
		    a->sort[i].descending != b->sort[i].descending)
			return false;
	for (i = 0; i < a->n_actions; i++)
		if (!hist_spec_action_same(a->actions[i]->spec, b->actions[i]->spec))
			return false;
	return true;
}

/*
 * Whether records of @b's event can be counted by @a as they are counted
 * by @b: what a histogram shared by name must hold, since every event
 * sharing it is read through the first one's fields.
 */
bool hist_data_same_layout(const struct hist_data *a, const struct hist_data *b)
{
	unsigned int i;

	if (a->n_keys != b->n_keys || a->n_vals != b->n_vals ||
	    a->n_vars != b->n_vars || a->key_size != b->key_size)
		return false;
	for (i = 0; i < a->n_keys; i++)
		if (!hist_field_same(a->keys[i], b->keys[i], a, b))
			return false;
	for (i = 0; i < a->n_vals; i++)
		if (!hist_field_same(a->vals[i], b->vals[i], a, b))
			return false;
	for (i = 0; i < a->n_vars; i++)
		if (!hist_field_same(a->vars[i], b->vars[i], a, b))
			return false;
	return true;
}

/* ---- the event path ---- */

/*
 * The value of @f for @ev, as hist_field_value() gives it, with the
 * common case, an event field as it is, read in line.
 */
static __always_inline u64 hist_fetch(const struct hist_field *f,
				      const struct hist_event *ev)
{
	if (f->kind == HIST_FIELD_NUM &&
	    !(f->mods & HIST_MOD_BUCKETING))
		return hist_read_num(ev->rec + f->offset, f->width, f->is_signed);
	return hist_field_value(f, ev);
}

/*
 * Clear the words of a string slot from byte @from (a multiple of the
 * word) to @size.  A slot is a few words: stores cost less than a string
 * instruction, which the compiler would turn a plain loop back into.
 */
static __always_inline void hist_slot_clear(char *slot, unsigned int from,
					    unsigned int size)
{
	for (; from < size; from += sizeof(long))
		WRITE_ONCE(*(unsigned long *)(slot + from), 0);
}

/*
 * A string key copied into its slot, the rest of the slot cleared.
 *
 * A char array of the record as large as its slot (comm's 16 bytes, the
 * usual string key) moves a word at a time with no bound to check, and
 * only the words after the NUL's are cleared; one without a NUL loses its
 * last byte to the NUL, as a copy of size - 1 bytes would.
 */
static __always_inline void hist_key_str(char *slot, const struct hist_field *f,
					 const struct hist_event *ev)
{
	const char *src = ev->rec + f->offset;
	unsigned int i;

	if (f->kind == HIST_FIELD_STR && f->field->size == f->size) {
		for (i = 0; i < f->size; i += sizeof(long))
			if (hist_str_word(slot + i, src + i))
				break;
		if (i == f->size)
			slot[i - 1] = '\0';
		else
			hist_slot_clear(slot, i + sizeof(long), f->size);
		return;
	}
	hist_slot_clear(slot, 0, f->size);
	hist_str_copy(slot, (const char *)(unsigned long)hist_field_value(f, ev),
		      hist_str_room(f, ev, f->size - 1));
}

/*
 * HIST_STACKTRACE_SKIP (trace.h) counts the trace core's frames between
 * the traced code and the trigger that saves a stack; the histogram's own
 * calls add three: hist_trigger_event() calls hist_data_update(), which
 * calls hist_key_stack() for keys and stack variables alike (from
 * hist_update(), inlined), so that both kinds of stack start at the same
 * frame.
 */
#define HIST_SKIP	(HIST_STACKTRACE_SKIP + 3)

static noinline void hist_key_stack(unsigned long *dst,
				    const struct hist_field *f,
				    const struct hist_event *ev)
{
	const unsigned long *src;
	unsigned int len;

	if (f->kind == HIST_FIELD_CALLER) {
		stack_trace_save(dst, HIST_STACKTRACE_DEPTH, HIST_SKIP);
		/* a call, not a jump: this frame is one of HIST_SKIP's */
		barrier();
		return;
	}
	/* a stacktrace field: its count of entries, then the entries */
	src = (const unsigned long *)(unsigned long)hist_field_value(f, ev);
	len = min_t(unsigned long, src[0], HIST_STACKTRACE_DEPTH);
	memcpy(dst, src + 1, len * sizeof(*src));
}

/*
 * A string variable: its value copied into the entry's own slot, which
 * the variable then points to.
 */
static noinline u64 hist_var_keep(struct hist_data *hd,
				  struct tracing_map_elt *elt, unsigned int i,
				  const struct hist_event *ev)
{
	const struct hist_field *f = hd->vars[i];
	struct hist_elt *he = elt->private_data;
	char *slot = he->strs[hd->var_str[i]];

	hist_str_copy(slot, (const char *)(unsigned long)hist_field_value(f, ev),
		      hist_str_room(f, ev, STR_VAR_LEN_MAX - 1));
	return (unsigned long)slot;
}

/*
 * A stack variable: the stack saved into the entry's own slot as a
 * stacktrace field holds it (its count of entries, then the entries),
 * which the variable then points to.  Inlined into hist_update() so that
 * hist_key_stack() is called from the same frame as for a key and both
 * stacks start at the same place.
 */
static __always_inline u64 hist_var_stack(struct hist_data *hd,
					  struct tracing_map_elt *elt,
					  unsigned int i,
					  const struct hist_event *ev)
{
	struct hist_elt *he = elt->private_data;
	unsigned long *stack = (unsigned long *)he->strs[hd->var_str[i]];

	BUILD_BUG_ON((HIST_STACKTRACE_DEPTH + 1) * sizeof(long) > STR_VAR_LEN_MAX);
	memset(stack, 0, (HIST_STACKTRACE_DEPTH + 1) * sizeof(long));
	hist_key_stack(stack + 1, hd->vars[i], ev);
	while (stack[0] < HIST_STACKTRACE_DEPTH && stack[stack[0] + 1])
		stack[0]++;
	return (unsigned long)stack;
}

static __always_inline void hist_update(struct hist_data *hd,
					struct hist_event *ev,
					struct hist_pad *pad)
{
	u64 *buf = pad->key;
	struct tracing_map_elt *elt;
	unsigned int i, n;

	/* one read of the clock, however many fields want it */
	if (hd->timestamps && ev->buffer) {
		ev->ts = hist_event_time(ev);
		ev->has_ts = true;
	}
	if (!hd->compound) {
		buf[0] = hist_fetch(hd->keys[0], ev);
	} else {
		/*
		 * Every byte of the key counts in its hash and compare: a
		 * number fills its slot, a string or a stack is cleared first.
		 */
		for (i = 0; i < hd->n_keys; i++) {
			const struct hist_field *f = hd->keys[i];
			void *slot = (void *)buf + f->key_offset;

			if (hist_field_is_string(f)) {
				hist_key_str(slot, f, ev);
			} else if (hist_field_is_stack(f)) {
				memset(slot, 0, f->size);
				hist_key_stack(slot, f, ev);
			} else {
				*(u64 *)slot = hist_fetch(f, ev);
			}
		}
	}

	/*
	 * An event whose references to other histograms are not all set yet
	 * (no wakeup recorded for this key, say) does not count.
	 */
	if (hd->n_refs) {
		memset(pad->refs, 0, hd->n_refs * sizeof(*pad->refs));
		if (!hist_refs_read(hd, buf, pad->refs))
			return;
		ev->vars = pad->refs;
	}
	elt = tracing_map_insert(hd->map, buf);
	if (!elt)
		return;
	/*
	 * The variables first, each after those it reads: a reference to
	 * one of its own (in a variable, a value or an action) sees what
	 * this event stores.
	 */
	for (n = 0; n < hd->n_vars; n++) {
		unsigned int j = hd->var_order[n];
		u64 v;

		if (hd->var_str[j] < 0)
			v = hist_fetch(hd->vars[j], ev);
		else if (hist_field_is_string(hd->vars[j]))
			v = hist_var_keep(hd, elt, j, ev);
		else
			v = hist_var_stack(hd, elt, j, ev);

		tracing_map_set_var(elt, j, v);
		if (hd->var_slot[j] >= 0)
			pad->refs[hd->var_slot[j]] = v;
	}
	/* hitcount, first of the values unless nohitcount, is a count */
	i = 0;
	if (hd->n_vals && hd->vals[0]->kind == HIST_FIELD_HITCOUNT)
		tracing_map_update_sum(elt, i++, 1);
	for (; i < hd->n_vals; i++)
		tracing_map_update_sum(elt, i, hist_fetch(hd->vals[i], ev));
	if (hd->n_actions)
		hist_actions_run(hd, elt, ev, pad);
}

/* The caller keeps preemption disabled, as every event path does. */
void hist_data_update(struct hist_data *hd, struct hist_event *ev)
{
	struct hist_pads *pads = this_cpu_ptr(hd->pads);
	unsigned int ctx = interrupt_context_level();
	unsigned int depth = pads->depth[ctx];

	if (unlikely(depth == HIST_NEST_MAX)) {
		atomic64_inc(&hd->map->drops);
		return;
	}
	pads->depth[ctx] = depth + 1;
	hist_update(hd, ev, &pads->pad[ctx][depth]);
	pads->depth[ctx] = depth;
}
