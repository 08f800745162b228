// SPDX-License-Identifier: GPL-2.0
/*
 * trace_events_hist - the "hist" trigger command, enable_hist and
 * disable_hist, and the files that show histograms (events/.../hist and
 * hist_debug).  The engine itself is in trace_hist_*.c (trace_hist.h);
 * this file ties it to the trigger engine and to tracefs.
 *
 * Copyright (C) 2015 Tom Zanussi <tom.zanussi@linux.intel.com>
 *
 *   echo 'hist:keys=...' >> events/<system>/<event>/trigger
 *
 * goes to hist_cmd_parse(): the filter is split off, the command parsed
 * and bound to the event (a struct hist_trigger), and then added, or it
 * removes (!hist), pauses, continues or clears the histogram it matches.
 *
 * Objects.  A struct hist_trigger is one command made into a histogram:
 * its text, which the parsed spec points into, the spec, the bound
 * struct hist_data with its map, and the histograms it made on other
 * events to read their fields from its actions (field variables).  Each
 * event_trigger_data of the command points to one in private_data.
 * Named histograms share: a later trigger with the name of an existing
 * one points to the first one's hist_trigger and holds a reference on
 * the first trigger (named_data), which lives until the last of them
 * goes, even when it was removed from its own event.
 *
 * Matching.  Two commands mean the same histogram when their listings
 * would be equal but for size= and clock= (hist_data_same() compares
 * them part by part) and their filters are equal: that is how !hist,
 * :pause, :cont and :clear find their histogram, and how a second
 * identical one is refused.
 *
 * Locking.  Everything but the trigger function runs under event_mutex:
 * adding and removing, the hist files, and the instance's list of
 * histograms that have variables (tr->hist_vars, the scope in which
 * $references are looked up).  The trigger function runs on the event
 * path under the tracepoint's RCU-sched protection, and updates the map
 * without a lock or an allocation.  A removed histogram gives back at
 * once what others count (hist_trigger_retire()); its memory goes with
 * its trigger, once such readers have left it (trigger_data_free_deferred():
 * one tracepoint_synchronize_unregister() for a batch of removed triggers).
 * A histogram that reads the variables of another is removed, hence
 * queued, before that one can be, so it is never freed after it.
 * Checked by tools/memory-model/litmus-tests/tracing/trigger-list.litmus.
 */
#include <linux/poll.h>
#include <linux/seq_buf.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_hist.h"
#include "trace_trigger.h"

#define HIST_PREFIX		"hist:"
#define HIST_PREFIX_LEN		(sizeof(HIST_PREFIX) - 1)

/* A histogram made on another event for a field variable. */
struct hist_made {
	struct trace_event_file	*file;
	struct event_trigger_data *trig;	/* on file, until unmade */
};

struct hist_snap;

struct hist_trigger {
	struct trace_event_file	*file;
	char			*text;		/* "hist:" and the command */
	struct hist_spec	*spec;
	struct hist_data	*hd;
	struct hist_snap	*snap;		/* the snapshot() condition */
	bool			holds_tr;	/* a reference on file->tr */
	bool			retired;	/* removed: see hist_trigger_retire() */
	/* made for field variables: the histograms recording it in made[] */
	unsigned int		made_users;
	unsigned int		n_made;
	struct hist_made	made[HIST_PARAMS_MAX];
};

static struct event_command hist_cmd;

static struct hist_vars_scope *hist_scope(struct trace_array *tr)
{
	return container_of(&tr->hist_vars, struct hist_vars_scope, hists);
}

static bool hist_is_hist(const struct event_trigger_data *trig)
{
	return trig->cmd_ops->trigger_type == ETT_EVENT_HIST;
}

/* ---- error_log ---- */

static void hist_log(struct trace_event_file *file, const char *cmd,
		     enum hist_err err, int pos)
{
	char *loc __free(kfree) = NULL;
	struct trace_event_call *call = file->event_call;

	if (!cmd)
		return;
	/* "hist:<system>:<event>", whatever the length of the names */
	loc = kasprintf(GFP_KERNEL, HIST_PREFIX "%s:%s", call->class->system,
			trace_event_name(call));
	tracing_log_err(file->tr, loc ?: "hist", cmd,
			(const char **)hist_err_text, err, pos);
}

/* ---- the snapshot() condition ---- */

#ifdef CONFIG_TRACER_SNAPSHOT
/*
 * What the last snapshot was taken for: kept as the instance's
 * conditional snapshot data, updated under its max_lock.
 */
struct hist_snap {
	struct hist_data	*hd;
	bool			taken;
	u64			val;		/* the tracked value then */
	char			comm[TASK_COMM_LEN];
	u64			key[HIST_KEY_SIZE_MAX / sizeof(u64)];
};

struct hist_snap_ctx {
	struct tracing_map_elt	*elt;
	void			*key;
};

static bool hist_snap_update(struct trace_array *tr, void *data)
{
	struct hist_snap *s = tr->cond_snapshot->cond_data;
	struct hist_snap_ctx *ctx = data;
	struct hist_elt *he = ctx->elt->private_data;

	if (!hist_snapshot_beats(s->hd, ctx->elt, &s->val))
		return false;
	memcpy(s->key, ctx->key, s->hd->key_size);
	if (he)
		memcpy(s->comm, he->comm, sizeof(s->comm));
	s->taken = true;
	return true;
}

/* The event path: onmax()/onchange() found a new value. */
static void hist_snap_take(struct hist_data *hd, struct tracing_map_elt *elt,
			   void *key)
{
	struct hist_trigger *ht = hd->snapshot_data;
	struct hist_snap_ctx ctx = { .elt = elt, .key = key };

	tracing_snapshot_cond(ht->file->tr, &ctx);
}

static int hist_snap_start(struct hist_trigger *ht)
{
	int ret;

	if (!hist_snapshot_act(ht->hd))
		return 0;
	ht->snap = kzalloc_obj(*ht->snap);
	if (!ht->snap)
		return -ENOMEM;
	ht->snap->hd = ht->hd;
	ret = tracing_snapshot_cond_enable(ht->file->tr, ht->snap,
					   hist_snap_update);
	if (ret) {
		kfree(ht->snap);
		ht->snap = NULL;
		return ret;
	}
	ht->hd->snapshot_data = ht;
	ht->hd->snapshot = hist_snap_take;
	return 0;
}

/*
 * Only a histogram with a snapshot() action reads ht->file here: the
 * file of a named histogram's first user may be gone (its instance
 * removed) while another event still shares the histogram.
 */
static void hist_snap_stop(struct hist_trigger *ht)
{
	struct trace_array *tr;

	if (!ht->snap)
		return;
	tr = ht->file->tr;
	/* the event path may still hold it: freed with @ht */
	if (tracing_cond_snapshot_data(tr) == ht->snap)
		tracing_snapshot_cond_disable(tr);
}

static void hist_snap_show(struct seq_file *m, struct hist_trigger *ht)
{
	struct hist_snap *s = ht->snap;

	if (!s || !s->taken || tracing_cond_snapshot_data(ht->file->tr) != s)
		return;
	seq_puts(m, "\nSnapshot taken (see tracing/snapshot).  Details:\n");
	seq_puts(m, "\ttriggering value { ");
	hist_print_snapshot_handler(m, ht->hd);
	seq_printf(m, " }: %10llu\ttriggered by event with key: ", s->val);
	hist_print_key(m, ht->hd->keys, ht->hd->n_keys, s->key, s->comm);
	seq_putc(m, '\n');
}
#else
static int hist_snap_start(struct hist_trigger *ht)
{
	return 0;
}

static void hist_snap_stop(struct hist_trigger *ht)
{
}

static void hist_snap_show(struct seq_file *m, struct hist_trigger *ht)
{
}
#endif /* CONFIG_TRACER_SNAPSHOT */

/* ---- making and freeing a histogram ---- */

static int hist_cmd_parse(struct event_command *cmd,
			  struct trace_event_file *file,
			  struct trigger_line *line);

static void hist_detach(struct event_trigger_data *trig,
			struct trace_event_file *file);

/*
 * Drop the histograms made for field variables that @ht used.  Several
 * histograms may use one, each recording it and counted in its
 * made_users, which keeps it; it goes with the last of them, unless a
 * histogram written by hand reads its variable (then it stays, listed
 * in its event's trigger file, until removed by hand).
 */
static void hist_unmake(struct hist_trigger *ht)
{
	while (ht->n_made) {
		struct hist_made *made = &ht->made[--ht->n_made];
		struct hist_trigger *mht = made->trig->private_data;

		if (!--mht->made_users && !mht->hd->n_users)
			hist_detach(made->trig, made->file);
	}
}

/*
 * A histogram whose variables may be read by others, or that reads
 * those of others, keeps its instance: rmdir is refused (EBUSY) while
 * it is there, rather than tearing such a web down in some order while
 * its events fire.
 */
static int hist_hold_instance(struct hist_trigger *ht)
{
	int ret;

	if (!ht->hd->n_vars && !ht->hd->n_refs)
		return 0;
	ret = trace_array_get(ht->file->tr);
	ht->holds_tr = !ret;
	return ret;
}

/*
 * What a removed histogram gives back at once, under event_mutex: the
 * conditional snapshot, its uses of other histograms and of synthetic
 * events, the histograms made for it and its instance.  What its event
 * path may still read (its data, map and snapshot record) stays for
 * hist_trigger_free().
 */
static void hist_trigger_retire(struct hist_trigger *ht)
{
	lockdep_assert_held(&event_mutex);

	if (ht->retired)
		return;
	ht->retired = true;
	hist_snap_stop(ht);
	hist_data_retire(ht->hd);
	hist_unmake(ht);
	if (ht->holds_tr)
		trace_array_put(ht->file->tr);
	ht->holds_tr = false;
}

static void hist_trigger_free(struct hist_trigger *ht)
{
	if (!ht)
		return;
	hist_trigger_retire(ht);
	hist_data_destroy(ht->hd);
	kfree(ht->snap);
	kvfree(ht->spec);
	kfree(ht->text);
	kfree(ht);
}

/* After the grace period of a removed histogram (trigger_data_free_deferred()) */
static void hist_trigger_release(struct event_trigger_data *trig)
{
	hist_trigger_free(trig->private_data);
}

/* The histogram on @file whose keys are of the types of those of @hd. */
static struct event_trigger_data *hist_find_alike(struct trace_event_file *file,
						  const struct hist_data *hd)
{
	struct event_trigger_data *trig;

	list_for_each_entry(trig, &file->triggers, list) {
		struct hist_trigger *other = trig->private_data;

		if (hist_is_hist(trig) && other->hd->n_keys == hd->n_keys &&
		    hist_keys_lead(other->hd, hd, true))
			return trig;
	}
	return NULL;
}

/* The histogram on @file with the variable @name, or NULL. */
static struct event_trigger_data *hist_find_var(struct trace_event_file *file,
						const char *name)
{
	struct trace_token t = { .start = name, .len = strlen(name) };
	struct event_trigger_data *trig;

	list_for_each_entry(trig, &file->triggers, list) {
		struct hist_trigger *other = trig->private_data;

		if (hist_is_hist(trig) && hist_spec_var(other->spec, &t) >= 0)
			return trig;
	}
	return NULL;
}

/*
 * Add "keys=<@alike's keys>:@name=@field" to @file, with @alike's
 * filter: the histogram of a field variable.  It is an ordinary command,
 * listed in the trigger file like any other, so it is made from text:
 * @alike's keys as they were written (they were accepted on this very
 * event), built with a seq_buf.
 */
static int hist_make_field_var(struct trace_event_file *file,
			       struct event_trigger_data *alike,
			       const char *name, const char *field)
{
	struct hist_data *hd = ((struct hist_trigger *)alike->private_data)->hd;
	struct trigger_line line;
	struct seq_buf s;
	unsigned int i;
	char *cmd;
	int ret;

	cmd = kmalloc(MAX_FILTER_STR_VAL, GFP_KERNEL);
	if (!cmd)
		return -ENOMEM;
	seq_buf_init(&s, cmd, MAX_FILTER_STR_VAL);
	seq_buf_puts(&s, HIST_PREFIX "keys=");
	for (i = 0; i < hd->n_keys; i++) {
		const struct trace_token *t = &hd->keys[i]->expr->text;

		seq_buf_printf(&s, "%s%.*s", i ? "," : "", t->len, t->start);
	}
	seq_buf_printf(&s, ":%s=%s", name, field);
	if (alike->filter_str)
		seq_buf_printf(&s, " if %s", alike->filter_str);
	seq_buf_str(&s);	/* NUL-terminates @cmd */
	if (seq_buf_has_overflowed(&s)) {
		ret = -E2BIG;
	} else {
		trigger_line_init(&line, cmd);
		line.quiet = true;	/* what is wrong is the maker's to say */
		ret = hist_cmd_parse(&hist_cmd, file, &line);
	}
	kfree(cmd);
	return ret;
}

/*
 * The field_var hook of binding (see trace_hist_actions.c): a variable
 * synthetic_<field> on @system.@event, in a histogram there keyed like
 * the one being made.  One that some histogram already has is used;
 * otherwise a histogram "keys=<its keys>:synthetic_<field>=<field>" with
 * the filter of a histogram with such keys is added there.  A histogram
 * added so is removed with the last histogram that uses it.
 */
static int hist_field_var(struct hist_bind *b, const struct trace_token *system,
			  const struct trace_token *event,
			  const struct trace_token *field, char **namep)
{
	char *sys __free(kfree) = trace_token_dup(system);
	char *ev __free(kfree) = trace_token_dup(event);
	char *fname __free(kfree) = trace_token_dup(field);
	struct hist_trigger *ht = b->owner;
	struct event_trigger_data *alike, *trig;
	struct trace_event_file *file;
	unsigned int i;
	char *name;
	int ret;

	lockdep_assert_held(&event_mutex);

	if (ht->n_made == ARRAY_SIZE(ht->made))
		return trace_parse_fail(b->err, HIST_ERR_TOO_MANY_FIELD_VARS, field->pos);
	if (!sys || !ev || !fname)
		return -ENOMEM;
	name = kasprintf(GFP_KERNEL, "synthetic_%s", fname);
	if (!name)
		return -ENOMEM;
	*namep = name;
	file = __find_event_file(ht->file->tr, sys, ev);
	if (!file)
		return trace_parse_fail(b->err, HIST_ERR_EVENT_FILE_NOT_FOUND,
					field->pos);
	alike = hist_find_alike(file, b->hd);
	if (!alike)
		return trace_parse_fail(b->err, HIST_ERR_HIST_NOT_FOUND, field->pos);

	/* made already, for this histogram or another one, or by hand */
	trig = hist_find_var(file, name);
	if (trig && !((struct hist_trigger *)trig->private_data)->made_users)
		return 0;	/* written by hand: the user's to remove */
	if (!trig) {
		ret = hist_make_field_var(file, alike, name, fname);
		trig = ret ? NULL : hist_find_var(file, name);
		if (!trig)
			return trace_parse_fail(b->err, HIST_ERR_HIST_CREATE_FAIL,
						field->pos);
	}
	for (i = 0; i < ht->n_made; i++)
		if (ht->made[i].trig == trig)
			return 0;	/* once per user */
	((struct hist_trigger *)trig->private_data)->made_users++;
	ht->made[ht->n_made].file = file;
	ht->made[ht->n_made++].trig = trig;
	return 0;
}

/* Parse and bind "hist:" @param on @file; @err says why not. */
static struct hist_trigger *hist_trigger_new(struct trace_event_file *file,
					     const struct trace_token *param,
					     struct trace_parse_err *err)
{
	struct hist_bind b = {
		.call = file->event_call, .err = err, .clock_in_ns = true,
		.resolve_var = hist_vars_resolve, .priv = hist_scope(file->tr),
		.field_var = hist_field_var,
	};
	struct hist_trigger *ht;
	char clock[32];
	int ret;

	ht = kzalloc_obj(*ht);
	if (!ht)
		return ERR_PTR(-ENOMEM);
	ht->file = file;
	b.owner = ht;
	ht->text = kasprintf(GFP_KERNEL, HIST_PREFIX "%.*s", param->len,
			     param->start);
	ht->spec = kvzalloc_obj(*ht->spec);
	if (!ht->text || !ht->spec) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = hist_parse(ht->spec, ht->text, HIST_PREFIX_LEN, err);
	if (!ret && ht->text[ht->spec->end]) {
		/* the filter is split off already: nothing else may follow */
		ret = trace_parse_fail(b.err, HIST_ERR_TRAILING_TEXT,
				       ht->spec->end +
				       strspn(ht->text + ht->spec->end, " \t"));
	}
	if (ret)
		goto fail;

	/* a timestamp in usecs is converted when the clock counts ns */
	if (ht->spec->clock.len &&
	    (!trace_token_cstr(&ht->spec->clock, clock, sizeof(clock)) ||
	     trace_clock_lookup(clock, &b.clock_in_ns))) {
		ret = trace_parse_fail(b.err, HIST_ERR_SET_CLOCK_FAIL,
				       ht->spec->clock.pos);
		goto fail;
	}

	ht->hd = hist_data_create(ht->spec, &b);
	if (IS_ERR(ht->hd)) {
		ret = PTR_ERR(ht->hd);
		ht->hd = NULL;
		goto fail;
	}
	return ht;
fail:
	hist_trigger_free(ht);
	return ERR_PTR(ret);
}

/* ---- matching ---- */

/* Whether @a and @b are the same histogram (see the top of this file). */
static bool hist_same(struct event_trigger_data *a, struct event_trigger_data *b,
		      bool ignore_filter)
{
	struct hist_trigger *ha = a->private_data, *hb = b->private_data;

	if (!ignore_filter &&
	    (!a->filter_str != !b->filter_str ||
	     (a->filter_str && strcmp(a->filter_str, b->filter_str))))
		return false;
	return ha == hb || hist_data_same(ha->hd, hb->hd);
}

/* The histogram on @file that @key means. */
static struct event_trigger_data *hist_find(struct trace_event_file *file,
					    struct event_trigger_data *key)
{
	struct event_trigger_data *trig;

	list_for_each_entry(trig, &file->triggers, list)
		if (hist_is_hist(trig) && hist_same(trig, key, false))
			return trig;
	return NULL;
}

/* ---- the trigger's life ---- */

static void hist_trigger_event(struct event_trigger_data *trig,
			       struct trace_buffer *buffer, void *rec,
			       struct ring_buffer_event *rbe)
{
	struct hist_trigger *ht = trig->private_data;
	/* every member set below: no clearing of the whole on each event */
	struct hist_event ev __uninitialized;

	/* no record: called as a trigger that needs none, which it is not */
	if (unlikely(!rec))
		return;
	ev.rec = rec;
	ev.buffer = buffer;
	ev.rbe = rbe;
	ev.vars = NULL;
	ev.ts = 0;
	ev.has_ts = false;
	hist_data_update(ht->hd, &ev);
	hist_poll_wakeup();
}

static int hist_trigger_print(struct seq_file *m,
			      struct event_trigger_data *trig)
{
	struct hist_trigger *ht = trig->private_data;

	hist_print_trigger(m, ht->hd, trig->filter_str, trig->paused);
	return 0;
}

static int hist_trigger_init(struct event_trigger_data *trig)
{
	struct event_trigger_data *owner = trig->named_data;
	struct hist_trigger *ht = trig->private_data;
	int ret;

	if (!trig->ref && ht->spec->name.len) {
		char *name __free(kfree) = trace_token_dup(&ht->spec->name);

		ret = name ? save_named_trigger(name, trig) : -ENOMEM;
		if (ret)
			return ret;
	}
	if (owner)
		owner->ref++;
	trig->ref++;
	return 0;
}

static void hist_trigger_put(struct event_trigger_data *trig)
{
	/* both read now: @trig is gone once it is freed */
	struct event_trigger_data *owner = trig->named_data;
	struct hist_trigger *ht = trig->private_data;

	if (WARN_ON_ONCE(trig->ref <= 0))
		return;
	if (--trig->ref)
		return;
	if (trig->name)
		del_named_trigger(trig);
	if (owner) {
		trigger_data_free_deferred(trig);
		hist_trigger_put(owner);
		return;
	}
	/* freed once the event path has left it */
	hist_trigger_retire(ht);
	trig->private_data_free = hist_trigger_release;
	trigger_data_free_deferred(trig);
}

/*
 * A histogram that reads time stamps counts as a user of its instance's
 * no_filter_buffering_ref: while there is one, the instance's filtered
 * events are reserved in the ring buffer, each with a time stamp of its
 * own, never built in the per-CPU buffered event.
 */
static void hist_filter_buffering(struct trace_array *tr, bool on)
{
	guard(mutex)(&trace_types_lock);
	if (on)
		tr->no_filter_buffering_ref++;
	else if (!WARN_ON_ONCE(!tr->no_filter_buffering_ref))
		tr->no_filter_buffering_ref--;
}

/* Unlink @trig from its event and drop the event's reference. */
static void hist_detach(struct event_trigger_data *trig,
			struct trace_event_file *file)
{
	struct hist_trigger *ht = trig->private_data;

	list_del_rcu(&trig->list);
	trace_event_trigger_enable_disable(file, 0);
	update_cond_flag(file);
	if (ht->hd->timestamps)
		hist_filter_buffering(file->tr, false);
	hist_trigger_put(trig);
}

static int hist_attach(struct event_trigger_data *trig,
		       struct trace_event_file *file)
{
	struct hist_trigger *ht = trig->private_data;
	int ret;

	ret = hist_trigger_init(trig);
	if (ret)
		return ret;
	/*
	 * Records with time stamps from the first event on: the buffered
	 * event is off before the histogram sees any.  (A record from it
	 * would still read the clock, see tracing_event_time_stamp().)
	 */
	if (ht->hd->timestamps)
		hist_filter_buffering(file->tr, true);
	/* after the others: the hist file shows them in order */
	list_add_tail_rcu(&trig->list, &file->triggers);
	update_cond_flag(file);
	ret = trace_event_trigger_enable_disable(file, 1);
	if (ret < 0) {
		list_del_rcu(&trig->list);
		update_cond_flag(file);
		trace_event_trigger_enable_disable(file, 0);
		if (ht->hd->timestamps)
			hist_filter_buffering(file->tr, false);
		hist_trigger_put(trig);
		return ret;
	}
	return 0;
}

/* Drop a trigger that was never attached, and its histogram. */
static void hist_discard(struct event_trigger_data *trig)
{
	struct hist_trigger *ht = trig->private_data;

	trigger_data_free_deferred(trig);
	hist_trigger_free(ht);
}

/*
 * Add the new histogram @trig, or apply its :pause, :cont or :clear to
 * the one it matches.  @trig is consumed either way.
 */
static int hist_add(struct event_trigger_data *trig,
		    struct trace_event_file *file, const char *log)
{
	struct hist_trigger *ht = trig->private_data;
	const struct hist_spec *spec = ht->spec;
	struct event_trigger_data *named = NULL, *old;
	struct trace_parse_err err = {};
	char clock[32];
	int ret = 0;

	lockdep_assert_held(&event_mutex);

	if (spec->name.len) {
		char *name __free(kfree) = trace_token_dup(&spec->name);

		if (!name) {
			ret = -ENOMEM;
			goto fail;
		}
		named = find_named_trigger(name);
		/* shared, so the events must be read alike (same offsets) */
		if (named && (!hist_same(trig, named, true) ||
			      !hist_data_same_layout(ht->hd,
				((struct hist_trigger *)named->private_data)->hd))) {
			err.err = HIST_ERR_NAMED_MISMATCH;
			err.pos = spec->name.pos;
			goto fail;
		}
	}

	old = hist_find(file, trig);
	if (old && (spec->flags & HIST_SPEC_CLEAR)) {
		if (old->name)
			pause_named_trigger(old);
		tracepoint_synchronize_unregister();
		tracing_map_clear(((struct hist_trigger *)old->private_data)->hd->map);
		if (old->name)
			unpause_named_trigger(old);
	} else if (old && (spec->flags & (HIST_SPEC_PAUSE | HIST_SPEC_CONT))) {
		WRITE_ONCE(old->paused, !!(spec->flags & HIST_SPEC_PAUSE));
	} else if (old) {
		err.err = HIST_ERR_TRIGGER_EEXIST;
		ret = -EEXIST;
	} else if (spec->flags & (HIST_SPEC_CONT | HIST_SPEC_CLEAR)) {
		err.err = HIST_ERR_TRIGGER_ENOENT_CLEAR;
		ret = -ENOENT;
	}
	if (old || ret)
		goto fail;
	trig->paused = spec->flags & HIST_SPEC_PAUSE;

	if (ht->hd->timestamps) {
		if (spec->clock.len)
			trace_token_cstr(&spec->clock, clock, sizeof(clock));
		ret = tracing_set_clock(file->tr, spec->clock.len ? clock : "global");
		if (ret) {
			err.err = HIST_ERR_SET_CLOCK_FAIL;
			err.pos = spec->clock.pos;
			goto fail;
		}
	}

	if (named) {
		/* share the first one's histogram */
		hist_trigger_free(ht);
		trig->private_data = named->private_data;
		set_named_trigger_data(trig, named);
	} else {
		ret = hist_vars_register(ht->hd, hist_scope(file->tr), &err);
		if (!ret) {
			hist_actions_register(ht->hd);
			ret = hist_hold_instance(ht);
		}
		if (!ret)
			ret = hist_snap_start(ht);
		if (ret)
			goto fail;
	}
	return hist_attach(trig, file);	/* consumes @trig on failure */
fail:
	if (err.err) {
		hist_log(file, log, err.err, err.pos);
		ret = ret ?: -EINVAL;
	}
	hist_discard(trig);
	return ret;
}

static int hist_remove(struct event_trigger_data *key,
		       struct trace_event_file *file, const char *log)
{
	struct event_trigger_data *trig = hist_find(file, key);
	struct hist_trigger *ht;

	lockdep_assert_held(&event_mutex);

	if (!trig)
		return 0;
	ht = trig->private_data;
	if (ht->hd->n_users) {
		hist_log(file, log, HIST_ERR_IN_USE, 0);
		return -EBUSY;
	}
	hist_detach(trig, file);
	return 0;
}

/*
 * The hist command, "[!]hist:<param> [if filter]"; the histograms this
 * file makes itself come as quiet lines (they log nothing: their maker
 * does).  The hist errors are logged against "hist:" and what follows
 * it, the filter's against the whole line.
 */
static int hist_cmd_parse(struct event_command *cmd,
			  struct trace_event_file *file,
			  struct trigger_line *line)
{
	struct trace_parse *p = &line->p;
	struct trace_parse_err err = {};
	struct event_trigger_data *trig;
	struct trace_token param;
	struct hist_trigger *ht;
	char *log = NULL;
	int ret;

	lockdep_assert_held(&event_mutex);

	if (!trace_parse_cur(p))
		return -EINVAL;
	if (!line->quiet) {
		log = kasprintf(GFP_KERNEL, HIST_PREFIX "%s", p->text + p->pos);
		if (!log)
			return -ENOMEM;
	}
	trigger_filter_find(p, &param);

	ht = hist_trigger_new(file, &param, &err);
	if (IS_ERR(ht)) {
		if (err.err)
			hist_log(file, log, err.err, err.pos);
		ret = PTR_ERR(ht);
		goto out;
	}
	trig = trigger_data_alloc(cmd, NULL, NULL, ht);
	if (!trig) {
		hist_trigger_free(ht);
		ret = -ENOMEM;
		goto out;
	}
	ret = event_trigger_set_filter(cmd, file, line, trig);
	if (ret || line->remove) {
		if (!ret)
			ret = hist_remove(trig, file, log);
		hist_discard(trig);
	} else {
		ret = hist_add(trig, file, log);
	}
out:
	kfree(log);
	return ret;
}

/* Truncating the trigger file: all of them, unless some are in use. */
static void hist_unreg_all(struct trace_event_file *file)
{
	struct event_trigger_data *trig, *next;

	list_for_each_entry(trig, &file->triggers, list) {
		struct hist_trigger *ht = trig->private_data;

		if (hist_is_hist(trig) && ht->hd->n_users)
			return;
	}
	list_for_each_entry_safe(trig, next, &file->triggers, list)
		if (hist_is_hist(trig))
			hist_detach(trig, file);
}

static struct event_command hist_cmd = {
	.name		= "hist",
	.trigger_type	= ETT_EVENT_HIST,
	.flags		= EVENT_CMD_FL_NEEDS_REC,
	.parse		= hist_cmd_parse,
	.unreg_all	= hist_unreg_all,
	.set_filter	= set_trigger_filter,
	.trigger	= hist_trigger_event,
	.print		= hist_trigger_print,
	.init		= hist_trigger_init,
	.free		= hist_trigger_put,
};

__init int register_trigger_hist_cmd(void)
{
	int ret = register_event_command(&hist_cmd);

	WARN_ON(ret < 0);
	return ret;
}

/* ---- enable_hist and disable_hist ---- */

static void hist_enable_event(struct event_trigger_data *trig,
			      struct trace_buffer *buffer, void *rec,
			      struct ring_buffer_event *rbe)
{
	struct enable_trigger_data *target = trig->private_data;
	struct event_trigger_data *hist;

	list_for_each_entry_rcu(hist, &target->file->triggers, list,
				lockdep_is_held(&event_mutex))
		if (hist_is_hist(hist))
			WRITE_ONCE(hist->paused, !target->enable);
}

static void hist_enable_unreg_all(struct trace_event_file *file)
{
	struct event_trigger_data *trig, *next;

	list_for_each_entry_safe(trig, next, &file->triggers, list) {
		if (trig->cmd_ops->trigger_type != ETT_HIST_ENABLE)
			continue;
		list_del_rcu(&trig->list);
		update_cond_flag(file);
		trace_event_trigger_enable_disable(file, 0);
		trig->cmd_ops->free(trig);
	}
}

#define HIST_ENABLE_CMD(cmd_name) {					\
	.name		= cmd_name,					\
	.trigger_type	= ETT_HIST_ENABLE,				\
	.parse		= event_enable_trigger_parse,			\
	.reg		= event_enable_register_trigger,		\
	.unreg		= event_enable_unregister_trigger,		\
	.unreg_all	= hist_enable_unreg_all,			\
	.set_filter	= set_trigger_filter,				\
	.trigger	= hist_enable_event,				\
	.count_func	= event_trigger_count,				\
	.print		= event_enable_trigger_print,			\
	.init		= event_trigger_init,				\
	.free		= event_enable_trigger_free,			\
}

static struct event_command hist_enable_cmds[] = {
	HIST_ENABLE_CMD(ENABLE_HIST_STR),
	HIST_ENABLE_CMD(DISABLE_HIST_STR),
};

__init int register_trigger_hist_enable_disable_cmds(void)
{
	int ret = 0, i;

	for (i = 0; i < ARRAY_SIZE(hist_enable_cmds) && !ret; i++)
		ret = register_event_command(&hist_enable_cmds[i]);
	if (WARN_ON(ret < 0))
		while (i--)
			unregister_event_command(&hist_enable_cmds[i]);
	return ret;
}

/* ---- the hist file ---- */

/* What a reader of the hist file last saw, for poll(). */
struct hist_reader {
	struct file	*file;
	u64		last_read;	/* hits when last read */
	u64		last_act;	/* hits when poll last said so */
};

static u64 hist_hits(struct trace_event_file *file)
{
	struct event_trigger_data *trig;
	u64 hits = 0;

	list_for_each_entry(trig, &file->triggers, list) {
		struct hist_trigger *ht = trig->private_data;

		if (hist_is_hist(trig))
			hits += atomic64_read(&ht->hd->map->hits);
	}
	return hits;
}

/* Each histogram's header: "# event histogram" and its trigger line. */
static void hist_show_header(struct seq_file *m, struct event_trigger_data *trig,
			     unsigned int n)
{
	if (n)
		seq_puts(m, "\n\n");
	seq_puts(m, "# event histogram\n#\n# trigger info: ");
	hist_trigger_print(m, trig);
	seq_puts(m, "#\n\n");
}

static int hist_show(struct seq_file *m, void *v)
{
	struct hist_reader *r = m->private;
	struct trace_event_file *file;
	struct event_trigger_data *trig;
	unsigned int n = 0;

	guard(mutex)(&event_mutex);
	file = event_file_file(r->file);
	if (unlikely(!file))
		return -ENODEV;

	list_for_each_entry(trig, &file->triggers, list) {
		struct hist_trigger *ht = trig->private_data;
		int entries;

		if (!hist_is_hist(trig))
			continue;
		hist_show_header(m, trig, n++);
		entries = hist_print_entries(m, ht->hd);
		hist_snap_show(m, ht);
		hist_print_totals(m, ht->hd, max(entries, 0));
	}
	r->last_read = hist_hits(file);
	r->last_act = r->last_read;
	return 0;
}

static __poll_t hist_poll(struct file *filp, struct poll_table_struct *wait)
{
	struct hist_reader *r = ((struct seq_file *)filp->private_data)->private;
	struct trace_event_file *file;
	__poll_t mask = 0;
	u64 hits;

	guard(mutex)(&event_mutex);
	file = event_file_file(filp);
	if (!file)
		return EPOLLERR;
	hist_poll_wait(filp, wait);
	hits = hist_hits(file);
	if (hits != r->last_read)
		mask |= EPOLLIN | EPOLLRDNORM;
	if (hits != r->last_act) {
		r->last_act = hits;
		mask |= EPOLLPRI;
	}
	return mask;
}

static int hist_open(struct inode *inode, struct file *filp)
{
	struct trace_event_file *file;
	struct hist_reader *r;
	int ret;

	ret = tracing_open_file_tr(inode, filp);
	if (ret)
		return ret;

	mutex_lock(&event_mutex);
	file = event_file_file(filp);
	r = file ? kzalloc_obj(*r) : NULL;
	if (r) {
		r->file = filp;
		r->last_act = hist_hits(file);
	}
	mutex_unlock(&event_mutex);
	if (!r) {
		ret = file ? -ENOMEM : -ENODEV;
		goto fail;
	}
	filp->private_data = NULL;	/* single_open() wants it clear */
	ret = single_open(filp, hist_show, r);
	if (!ret)
		return 0;
	kfree(r);
fail:
	tracing_release_file_tr(inode, filp);
	return ret;
}

static int hist_release(struct inode *inode, struct file *filp)
{
	kfree(((struct seq_file *)filp->private_data)->private);
	return tracing_single_release_file_tr(inode, filp);
}

const struct file_operations event_hist_fops = {
	.open		= hist_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= hist_release,
	.poll		= hist_poll,
};

#ifdef CONFIG_HIST_TRIGGERS_DEBUG
static int hist_debug_show(struct seq_file *m, void *v)
{
	struct trace_event_file *file;
	struct event_trigger_data *trig;
	unsigned int n = 0;

	guard(mutex)(&event_mutex);
	file = event_file_file(m->private);
	if (unlikely(!file))
		return -ENODEV;

	list_for_each_entry(trig, &file->triggers, list) {
		struct hist_trigger *ht = trig->private_data;

		if (!hist_is_hist(trig))
			continue;
		hist_show_header(m, trig, n++);
		hist_print_debug(m, ht->hd);
	}
	return 0;
}

static int hist_debug_open(struct inode *inode, struct file *filp)
{
	int ret = tracing_open_file_tr(inode, filp);

	if (ret)
		return ret;
	filp->private_data = NULL;	/* single_open() wants it clear */
	ret = single_open(filp, hist_debug_show, filp);
	if (ret)
		tracing_release_file_tr(inode, filp);
	return ret;
}

const struct file_operations event_hist_debug_fops = {
	.open		= hist_debug_open,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= tracing_single_release_file_tr,
};
#endif /* CONFIG_HIST_TRIGGERS_DEBUG */
