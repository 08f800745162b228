// SPDX-License-Identifier: GPL-2.0
/*
 * Event trigger engine: the triggers hanging off each event file, how
 * they run when the event fires, and the tracefs "trigger" file.
 *
 * Copyright (C) 2013 Tom Zanussi <tom.zanussi@linux.intel.com>
 *
 * A user writes "[!]command[:args] [if filter]" into
 * events/<system>/<event>/trigger.  The engine finds the command in the
 * registry and hands it the text; the command builds an
 * event_trigger_data and links it onto file->triggers.  While an event
 * has triggers it stays registered with its tracepoint in "trigger
 * mode" (soft mode), so triggers run even when the event is not traced.
 *
 * Concurrency
 * -----------
 *  writers  Every change to a file->triggers list, to the named-trigger
 *           list and to a trigger's filter happens with event_mutex
 *           held.  The command registry has its own trigger_cmds_lock,
 *           always taken inside event_mutex.
 *
 *  readers  The event hot path (a tracepoint probe or a trace_marker
 *           write) walks file->triggers with list_for_each_entry_rcu()
 *           with preemption disabled, i.e. inside an RCU-sched section.
 *           Triggers are unlinked with list_del_rcu() and their memory
 *           (and a replaced filter) is released only after
 *           tracepoint_synchronize_unregister(), which waits for every
 *           such section to end: one wait for a batch of removed
 *           triggers (see trigger_free_list).
 *           Checked by
 *           tools/memory-model/litmus-tests/tracing/trigger-list.litmus.
 *
 *  counts   trig->count is shared by all CPUs.  Taking one firing is a
 *           compare-and-exchange loop that never goes below zero, so a
 *           ":N" trigger fires exactly N times however many CPUs race on
 *           it.  TRIGGER_COUNT_UNLIMITED is never decremented.
 *           Checked by
 *           tools/memory-model/litmus-tests/tracing/trigger-count.litmus.
 *
 *  flags    TRIGGER_MODE and TRIGGER_COND in file->flags are changed with
 *           atomic bitops under event_mutex and read without locks by the
 *           hot path.  A stale read only sends one event down the slower
 *           (but still correct) path or skips triggers that are being
 *           added or removed at that very moment.
 *
 *  hot path The hot path allocates nothing and takes no lock.
 */

#include <linux/cleanup.h>
#include <linux/ctype.h>
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/rculist.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "trace_filter.h"
#include "trace_trigger.h"

/* Registered commands, in registration order; guarded by trigger_cmds_lock. */
static LIST_HEAD(trigger_cmds);
static DEFINE_MUTEX(trigger_cmds_lock);

/* Named triggers (shared histogram data); guarded by event_mutex. */
static LIST_HEAD(trigger_named);

static const char *trigger_err_text[] __ro_after_init = {
	[TRIGGER_ERR_NONE]		= "No error",
	[TRIGGER_ERR_UNKNOWN_CMD]	= "Unknown trigger command",
	[TRIGGER_ERR_BAD_COUNT]		= "Count must be a number from 1 to ULONG_MAX-1",
	[TRIGGER_ERR_NEED_IF]		= "Expected ':count' or 'if <filter>'",
	[TRIGGER_ERR_BAD_FILTER]	= "Invalid trigger filter",
	[TRIGGER_ERR_NEED_TARGET]	= "Expected <system>:<event>",
	[TRIGGER_ERR_NO_TARGET]		= "No such event in this instance",
	[TRIGGER_ERR_TARGET_GONE]	= "Target event is being removed",
	[TRIGGER_ERR_EXISTS]		= "A trigger of this kind is already set",
};

/*
 * error_log heading of @ef's trigger commands, "trigger:<system>:<event>"
 * whatever the length of the names (kfree() it); NULL when out of memory.
 */
static char *trigger_log_loc(struct trace_event_file *ef)
{
	struct trace_event_call *call = ef->event_call;

	return kasprintf(GFP_KERNEL, "trigger:%s:%s", call->class->system,
			 trace_event_name(call));
}

/* The error_log entry of what ->parse() found wrong in @line. */
static void trigger_log_err(struct trace_event_file *ef,
			    const struct trigger_line *line)
{
	char *loc __free(kfree) = trigger_log_loc(ef);

	tracing_log_err(ef->tr, loc ?: "trigger", line->p.text,
			trigger_err_text, line->err.err, line->err.pos);
}

/* ---------------------------------------------------------------------
 * Hot path
 */

/**
 * trigger_count_take - consume one firing of a counted trigger
 * @trig: the trigger
 *
 * Return: true if the trigger may fire (unlimited, or a count was left
 * and has now been used up by this caller), false if exhausted.
 */
bool trigger_count_take(struct event_trigger_data *trig)
{
	unsigned long left = READ_ONCE(trig->count);

	do {
		if (left == TRIGGER_COUNT_UNLIMITED)
			return true;
		if (!left)
			return false;
	} while (!try_cmpxchg(&trig->count, &left, left - 1));

	return true;
}

/* Generic count_func for commands without extra conditions. */
bool event_trigger_count(struct event_trigger_data *trig,
			 struct trace_buffer *rb, void *rec,
			 struct ring_buffer_event *rbe)
{
	return trigger_count_take(trig);
}

static __always_inline void trigger_fire(struct event_trigger_data *trig,
					 struct trace_buffer *rb,
					 void *rec,
					 struct ring_buffer_event *rbe)
{
	struct event_command *cmd = trig->cmd_ops;

	if ((trig->flags & EVENT_TRIGGER_FL_COUNT) &&
	    !cmd->count_func(trig, rb, rec, rbe))
		return;
	cmd->trigger(trig, rb, rec, rbe);
}

/* The body of event_triggers_call(), inlined where @rec is known NULL */
static __always_inline enum event_trigger_type
triggers_run(struct trace_event_file *ef, struct trace_buffer *rb, void *rec,
	     struct ring_buffer_event *rbe)
{
	enum event_trigger_type deferred = ETT_NONE;
	struct event_trigger_data *trig;
	struct event_filter *flt;

	list_for_each_entry_rcu(trig, &ef->triggers, list) {
		if (READ_ONCE(trig->paused))
			continue;
		if (rec) {
			flt = rcu_dereference_sched(trig->filter);
			if (flt && !filter_match_preds(flt, rec))
				continue;
			if (event_command_post_trigger(trig->cmd_ops)) {
				deferred |= trig->cmd_ops->trigger_type;
				continue;
			}
		}
		trigger_fire(trig, rb, rec, rbe);
	}
	return deferred;
}

/**
 * event_triggers_call - run the triggers of an event that just fired
 * @ef: the event
 * @rb: ring buffer holding the record, if any
 * @rec: the record, or NULL when no trigger needs it (no filters)
 * @rbe: ring buffer event of @rec
 *
 * Triggers whose command must run after the record is committed are
 * not run; their trigger_type bit is returned instead and the caller
 * passes it to event_triggers_post_call().
 *
 * Called with preemption disabled.
 *
 * Return: the trigger_type bits of the triggers left for
 * event_triggers_post_call(), ETT_NONE when there are none.
 */
enum event_trigger_type
event_triggers_call(struct trace_event_file *ef,
		    struct trace_buffer *rb, void *rec,
		    struct ring_buffer_event *rbe)
{
	return triggers_run(ef, rb, rec, rbe);
}
EXPORT_SYMBOL_GPL(event_triggers_call);

/**
 * event_triggers_post_call - run triggers deferred by event_triggers_call()
 * @ef: the event
 * @deferred: trigger_type bits returned by event_triggers_call()
 *
 * Called with preemption disabled, after the record was committed.
 */
void event_triggers_post_call(struct trace_event_file *ef,
			      enum event_trigger_type deferred)
{
	struct event_trigger_data *trig;

	list_for_each_entry_rcu(trig, &ef->triggers, list) {
		if (READ_ONCE(trig->paused))
			continue;
		if (trig->cmd_ops->trigger_type & deferred)
			trigger_fire(trig, NULL, NULL, NULL);
	}
}
EXPORT_SYMBOL_GPL(event_triggers_post_call);

/**
 * trace_event_trigger_record - run an event's triggers on a record kept nowhere
 * @file: the event; trace_event_triggers_first() said that only its
 *	triggers read the record
 * @rec: the record, built by the event's probe on its stack, every field
 *	filled in but the common header, which is filled in here
 *
 * A soft-disabled event whose triggers read its record (a histogram, a
 * trigger with a filter) builds the record, runs the triggers on it and
 * discards it.  Building it in the per-CPU buffered event or the ring
 * buffer only to take it back costs about as much as the histogram
 * itself, so the probe builds it on its stack and hands it here instead.
 * The triggers see what they see on the general path but a ring buffer
 * event (@rbe is NULL): a histogram takes its time stamp from the
 * buffer's clock, as it does for the per-CPU buffered event.  A task that
 * the instance's pid filter leaves out runs none of them, as on the
 * general path, where trace_event_buffer_reserve() refuses it.
 *
 * Called from the probe where it would call trace_event_buffer_commit(),
 * one frame below it, so that a stacktrace trigger skips the same frames;
 * with preemption disabled by the tracepoint.
 */
void trace_event_trigger_record(struct trace_event_file *file, void *rec)
{
	/* less the tracepoint's own preempt_disable() */
	unsigned int trace_ctx = tracing_gen_ctx_dec();
	enum event_trigger_type deferred;

	if (unlikely(file->flags & EVENT_FILE_FL_PID_FILTER) &&
	    trace_event_ignore_this_pid(file))
		return;
	tracing_generic_entry_update(rec, file->event_call->event.type,
				     trace_ctx);
	deferred = event_triggers_call(file,
				       READ_ONCE(file->tr->array_buffer.buffer),
				       rec, NULL);
	if (deferred)
		event_triggers_post_call(file, deferred);
}
EXPORT_SYMBOL_GPL(trace_event_trigger_record);

/* Soft disabled or pid filtered: the verdict on a record, given @flags */
static bool trigger_record_refused(struct trace_event_file *ef,
				   unsigned long flags)
{
	if (flags & EVENT_FILE_FL_SOFT_DISABLED)
		return true;
	if (flags & EVENT_FILE_FL_PID_FILTER)
		return trace_event_ignore_this_pid(ef);
	return false;
}

/**
 * __trace_trigger_soft_disabled - slow half of trace_trigger_soft_disabled()
 * @ef: the event; it has triggers that need no record, or is soft
 *	disabled, or pid filtered
 *
 * Runs the triggers that need no record and judges whether the event is
 * to be recorded.
 *
 * It makes the fast half's test of EVENT_FILE_FL_TRIGGER_COND again, so
 * that the probes of the TRACE_EVENT() layer may call it on any of the
 * flags above without that test of their own (stages/fields.h): triggers
 * that need the record run at the commit, and so does the check of soft
 * disabling.
 *
 * Return: true when the event must not be recorded.
 */
bool __trace_trigger_soft_disabled(struct trace_event_file *ef)
{
	unsigned long flags = READ_ONCE(ef->flags);

	if (flags & EVENT_FILE_FL_TRIGGER_COND)
		return false;
	if (flags & EVENT_FILE_FL_TRIGGER_MODE)
		triggers_run(ef, NULL, NULL, NULL);
	return trigger_record_refused(ef, flags);
}
EXPORT_SYMBOL_GPL(__trace_trigger_soft_disabled);

/**
 * trace_trigger_soft_disabled_again - trace_trigger_soft_disabled(), triggers
 *	already run
 * @ef: the event
 *
 * For a probe that tries its record again after it could not fill it in
 * (a user page that was not present): its triggers that need no record
 * ran on the first try, and a write is one event however many tries it
 * takes, so they must not run again.  Only the verdict is given.
 *
 * Return: true when the event must not be recorded.
 */
bool trace_trigger_soft_disabled_again(struct trace_event_file *ef)
{
	unsigned long flags = READ_ONCE(ef->flags);

	if (flags & EVENT_FILE_FL_TRIGGER_COND)
		return false;
	return trigger_record_refused(ef, flags);
}

/* ---------------------------------------------------------------------
 * Trigger objects and the per-event list
 */

/**
 * trigger_data_alloc - allocate a trigger for a command
 * @cmd: the command
 * @name: unused, kept for the interface
 * @arg: unused, kept for the interface (trigger_parse_count() counts)
 * @priv: command private pointer
 *
 * The trigger starts unlimited, unfiltered and with no reference.
 *
 * Return: the new trigger, or NULL when out of memory.
 */
struct event_trigger_data *trigger_data_alloc(struct event_command *cmd,
					      char *name, char *arg,
					      void *priv)
{
	struct event_trigger_data *trig;

	trig = kzalloc_obj(*trig);
	if (!trig)
		return NULL;

	trig->cmd_ops = cmd;
	trig->private_data = priv;
	trig->count = TRIGGER_COUNT_UNLIMITED;
	INIT_LIST_HEAD(&trig->list);
	INIT_LIST_HEAD(&trig->named_list);
	return trig;
}

/*
 * Freeing removed triggers.  An event that fired on another CPU just
 * before a trigger was unlinked may still be running it, until every
 * section of the event path that began before the unlink has ended
 * (tracepoint_synchronize_unregister()).  Waiting for that at each
 * removal makes a tool that removes a hundred triggers wait a hundred
 * grace periods.  Instead trigger_data_free_deferred() queues the
 * trigger on trigger_free_list, and a worker takes everything queued,
 * waits once for the lot and then frees it: every trigger of the batch
 * was unlinked before the wait began.  A command's ->free() drops at
 * once what users see (soft mode, references to other events and
 * histograms) and leaves to @trig->release what the removed trigger's
 * event path may still read.
 *
 * What such an event path reaches besides its own memory (the target
 * of enable_event, the synthetic event of a trace() action) must then
 * outlive it: whoever removes an event call first waits with
 * trace_event_triggers_quiesce().  Releases run with event_mutex held,
 * taken by the worker after its wait, so that they may drop what the
 * mutex guards; nothing that holds event_mutex waits for the worker.
 * Checked by
 * tools/memory-model/litmus-tests/tracing/trigger-batch-free.litmus.
 */
static LLIST_HEAD(trigger_free_list);
/* queued and not yet freed; quiescing waits only while there are some */
static atomic_t trigger_frees_pending = ATOMIC_INIT(0);

static void trigger_free_work_fn(struct work_struct *work)
{
	struct event_trigger_data *trig, *next;
	struct llist_node *batch;
	bool locked = false;

	batch = llist_del_all(&trigger_free_list);
	if (!batch)
		return;
	tracepoint_synchronize_unregister();

	llist_for_each_entry_safe(trig, next, batch, free_node) {
		if (trig->release) {
			/* only a release needs the mutex; frees alone do not */
			if (!locked)
				mutex_lock(&event_mutex);
			locked = true;
			trig->release(trig);
		}
		free_event_filter(rcu_access_pointer(trig->filter));
		kfree(trig->filter_str);
		kfree(trig);
		atomic_dec(&trigger_frees_pending);
	}
	if (locked)
		mutex_unlock(&event_mutex);
}

static DECLARE_WORK(trigger_free_work, trigger_free_work_fn);

/**
 * trigger_data_free - release a trigger that no event can reach any more
 * @trig: the trigger, or NULL
 *
 * Waits for hot-path walkers that may still see it, then frees it
 * together with its filter.
 */
void trigger_data_free(struct event_trigger_data *trig)
{
	if (!trig)
		return;

	tracepoint_synchronize_unregister();
	free_event_filter(rcu_access_pointer(trig->filter));
	kfree(trig->filter_str);
	kfree(trig);
}

/**
 * trigger_data_free_deferred - release a trigger once no event runs it
 * @trig: the trigger, unlinked from its event, or NULL
 *
 * As trigger_data_free(), and @trig->release is called first when set,
 * but without waiting: the trigger is freed in a worker after a grace
 * period, in a batch with the others removed meanwhile (see
 * trigger_free_list).
 *
 * Context: process context.
 */
void trigger_data_free_deferred(struct event_trigger_data *trig)
{
	if (!trig)
		return;

	atomic_inc(&trigger_frees_pending);
	llist_add(&trig->free_node, &trigger_free_list);
	schedule_work(&trigger_free_work);
}

/**
 * trace_event_triggers_quiesce - wait for the event paths of removed triggers
 *
 * Returns once no event path can still be running a trigger removed
 * before the call; before an event call goes, since the event path of a
 * removed trigger may still reach it.  Costs nothing when no removed
 * trigger waits to be freed.
 *
 * Context: process context, event_mutex held.
 */
void trace_event_triggers_quiesce(void)
{
	lockdep_assert_held(&event_mutex);

	if (atomic_read(&trigger_frees_pending))
		tracepoint_synchronize_unregister();
}

/* Generic init callback: one more owner of @trig. */
int event_trigger_init(struct event_trigger_data *trig)
{
	trig->ref++;
	return 0;
}

/* Generic free callback: drop one owner, free with the last one. */
void trigger_generic_free(struct event_trigger_data *trig)
{
	if (WARN_ON_ONCE(trig->ref <= 0))
		return;
	if (!--trig->ref)
		trigger_data_free_deferred(trig);
}

/**
 * trace_event_trigger_enable_disable - count a trigger user of an event
 * @ef: the event
 * @trigger_enable: 1 for a new user, 0 when one goes away
 *
 * The first user puts the event in trigger (soft) mode so its
 * tracepoint runs; the last one takes it out again.
 *
 * Return: 0, or the error of enabling or disabling the event when this
 * call was the first or the last user's.
 */
int trace_event_trigger_enable_disable(struct trace_event_file *ef,
				       int trigger_enable)
{
	if (trigger_enable) {
		if (atomic_inc_return(&ef->tm_ref) != 1)
			return 0;
		set_bit(EVENT_FILE_FL_TRIGGER_MODE_BIT, &ef->flags);
		return trace_event_enable_disable(ef, 1, 1);
	}

	if (atomic_dec_return(&ef->tm_ref) != 0)
		return 0;
	clear_bit(EVENT_FILE_FL_TRIGGER_MODE_BIT, &ef->flags);
	return trace_event_enable_disable(ef, 0, 1);
}

/**
 * update_cond_flag - recompute EVENT_FILE_FL_TRIGGER_COND of an event
 * @ef: the event
 *
 * The flag says some trigger needs the record: it has a filter, runs
 * after the commit, or reads the record itself.
 */
void update_cond_flag(struct trace_event_file *ef)
{
	struct event_trigger_data *trig;

	lockdep_assert_held(&event_mutex);

	list_for_each_entry(trig, &ef->triggers, list) {
		if (rcu_access_pointer(trig->filter) ||
		    event_command_post_trigger(trig->cmd_ops) ||
		    event_command_needs_rec(trig->cmd_ops)) {
			set_bit(EVENT_FILE_FL_TRIGGER_COND_BIT, &ef->flags);
			return;
		}
	}
	clear_bit(EVENT_FILE_FL_TRIGGER_COND_BIT, &ef->flags);
}

/*
 * Link @trig onto @ef and put @ef in trigger mode; undo both if that
 * fails.  The caller has checked for duplicates.
 */
int trigger_attach(struct event_trigger_data *trig,
		   struct trace_event_file *ef)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	if (trig->cmd_ops->init) {
		ret = trig->cmd_ops->init(trig);
		if (ret < 0)
			return ret;
	}

	list_add_rcu(&trig->list, &ef->triggers);
	update_cond_flag(ef);
	ret = trace_event_trigger_enable_disable(ef, 1);
	if (ret < 0) {
		list_del_rcu(&trig->list);
		/*
		 * The failed enable still counted this trigger in tm_ref
		 * (and the soft mode in sm_ref): give both back, or the
		 * event would stay in trigger mode with no trigger.
		 */
		trace_event_trigger_enable_disable(ef, 0);
		update_cond_flag(ef);
		if (trig->cmd_ops->free)
			trig->cmd_ops->free(trig);
	}
	return ret;
}

/* Unlink @trig from @ef and drop the list's reference to it. */
void trigger_detach(struct event_trigger_data *trig,
		    struct trace_event_file *ef)
{
	lockdep_assert_held(&event_mutex);
	list_del_rcu(&trig->list);
	trace_event_trigger_enable_disable(ef, 0);
	update_cond_flag(ef);
	if (trig->cmd_ops->free)
		trig->cmd_ops->free(trig);
}

/**
 * trigger_generic_reg - add a trigger, one per trigger_type per event
 * @word: command as typed (unused)
 * @trig: the new trigger
 * @ef: the event
 *
 * Return: 0, -EEXIST if a trigger of that type is there, or the error
 * of putting the event into trigger mode.
 */
int trigger_generic_reg(char *word, struct event_trigger_data *trig,
			struct trace_event_file *ef)
{
	struct event_trigger_data *old;

	lockdep_assert_held(&event_mutex);

	list_for_each_entry(old, &ef->triggers, list)
		if (old->cmd_ops->trigger_type == trig->cmd_ops->trigger_type)
			return -EEXIST;

	return trigger_attach(trig, ef);
}

/**
 * trigger_generic_unreg_found - remove the trigger of @key's command
 * @key: carries the command to remove
 * @ef: the event
 *
 * Return: true if a trigger was removed.
 */
bool trigger_generic_unreg_found(struct event_trigger_data *key,
				 struct trace_event_file *ef)
{
	struct event_trigger_data *trig;

	lockdep_assert_held(&event_mutex);

	list_for_each_entry(trig, &ef->triggers, list) {
		if (trig->cmd_ops == key->cmd_ops) {
			trigger_detach(trig, ef);
			return true;
		}
	}
	return false;
}

void trigger_generic_unreg(char *word, struct event_trigger_data *key,
			   struct trace_event_file *ef)
{
	trigger_generic_unreg_found(key, ef);
}

/**
 * clear_event_triggers - remove every trigger of an instance
 * @tr: the instance being torn down
 *
 * Called with event_mutex held.  An event probe's hook is not a
 * trigger a user wrote: its free callback does nothing, and the probe
 * frees it when the instance's events are disabled right after this.
 */
void clear_event_triggers(struct trace_array *tr)
{
	struct event_trigger_data *trig, *next;
	struct trace_event_file *ef;

	lockdep_assert_held(&event_mutex);

	list_for_each_entry(ef, &tr->events, list)
		list_for_each_entry_safe(trig, next, &ef->triggers, list)
			if (!(trig->flags & EVENT_TRIGGER_FL_PROBE))
				trigger_detach(trig, ef);
}

/* ---------------------------------------------------------------------
 * Reading a line: helpers for command parsers (also used by the
 * histogram code).  See struct trigger_line.
 */

/**
 * trigger_line_init - read the command name of a trigger line
 * @line: the line to set up
 * @text: "[!]name[:args] [if filter]", from its first non-blank
 *
 * The name runs up to the first ':', space or tab, the separators
 * trigger commands are written with; the cursor is left at the
 * arguments, past that separator and any blanks, or at the end of the
 * line when there are none.
 */
void trigger_line_init(struct trigger_line *line, const char *text)
{
	struct trace_parse *p = &line->p;

	memset(line, 0, sizeof(*line));
	trace_parse_init(p, text);
	line->remove = trace_parse_literal(p, "!");
	trace_parse_upto(p, &line->name, ": \t");
	if (trace_parse_cur(p))
		p->pos++;
	trace_parse_skip_space(p);
}

/* Whether column @pos of @text starts the word "if" that opens a filter. */
static bool trigger_filter_at(const char *text, int pos)
{
	const char *s = text + pos;

	return s[0] == 'i' && s[1] == 'f' && (!s[2] || isspace(s[2]));
}

/**
 * trigger_filter_find - read a parameter up to the filter that follows it
 * @p: cursor at the parameter, which may hold blanks (a hist command)
 * @param: gets the parameter, its trailing blanks trimmed
 *
 * The filter starts at the first word "if" that follows a blank; the
 * parameter's first word is never one.  The cursor is left there, or at
 * the end of the line.
 */
void trigger_filter_find(struct trace_parse *p, struct trace_token *param)
{
	param->pos = p->pos;
	param->start = p->text + p->pos;
	while (trace_parse_cur(p)) {
		p->pos++;
		if (isspace(p->text[p->pos - 1]) &&
		    trigger_filter_at(p->text, p->pos))
			break;
	}
	param->len = p->pos - param->pos;
	while (param->len && isspace(param->start[param->len - 1]))
		param->len--;
}

/**
 * trigger_parse_count - give a new trigger the count of ":N"
 * @line: the line, for the error
 * @count: the count as written
 * @trig: the trigger; counted from now on when its command has a
 *	  count_func
 *
 * Return: 0, or -EINVAL with the error in @line.
 */
int trigger_parse_count(struct trigger_line *line,
			const struct trace_token *count,
			struct event_trigger_data *trig)
{
	u64 n;

	if (trace_token_num(count, 1, TRIGGER_COUNT_UNLIMITED - 1, &n))
		return trace_parse_fail(&line->err, TRIGGER_ERR_BAD_COUNT,
					count->pos);
	trig->count = n;
	if (trig->cmd_ops->count_func)
		trig->flags |= EVENT_TRIGGER_FL_COUNT;
	return 0;
}

/**
 * trigger_set_count_filter - give a new trigger its count and filter
 * @cmd: the command being parsed
 * @ef: the event the trigger is for
 * @line: the line, its cursor at the filter or at the end
 * @count: the ":N" as written, or NULL when there is none
 * @trig: the new trigger
 *
 * Return: 0, or the error of trigger_parse_count() or
 * event_trigger_set_filter().
 */
int trigger_set_count_filter(struct event_command *cmd,
			     struct trace_event_file *ef,
			     struct trigger_line *line,
			     const struct trace_token *count,
			     struct event_trigger_data *trig)
{
	int ret = count ? trigger_parse_count(line, count, trig) : 0;

	return ret ?: event_trigger_set_filter(cmd, ef, line, trig);
}

/**
 * set_trigger_filter - give a new trigger the filter of its line
 * @line: the line, its cursor at "if <expression>", which runs to the end
 * @trig: the trigger, not yet seen by any event
 * @ef: the event whose fields the filter tests
 *
 * Return: 0, or a negative error (with the error in @line, or logged by
 * the filter engine).
 */
int set_trigger_filter(struct trigger_line *line,
		       struct event_trigger_data *trig,
		       struct trace_event_file *ef)
{
	char *loc __free(kfree) = NULL;
	struct trace_parse *p = &line->p;
	struct event_filter *filter = NULL;
	int spec = p->pos;
	char *text;
	int ret;

	if (!trigger_filter_at(p->text, spec))
		return trace_parse_fail(&line->err, TRIGGER_ERR_NEED_IF, spec);
	p->pos += 2;
	trace_parse_skip_space(p);
	if (!trace_parse_cur(p))
		return trace_parse_fail(&line->err, TRIGGER_ERR_BAD_FILTER, spec);

	/* refused, it is logged against the whole line, caret inside */
	if (!line->quiet) {
		loc = trigger_log_loc(ef);
		if (!loc)
			return -ENOMEM;
	}
	ret = create_event_filter_in(ef->tr, ef->event_call, p->text + p->pos,
				     loc, p->text, p->pos, &filter);
	if (ret)
		return ret;

	/* Listed as written past "if" and its separator. */
	text = kstrdup(p->text + spec + 3, GFP_KERNEL);
	if (!text) {
		free_event_filter(filter);
		return -ENOMEM;
	}
	rcu_assign_pointer(trig->filter, filter);
	trig->filter_str = text;
	return 0;
}

/* Set the filter at @line's cursor, if there is one and @cmd takes it. */
int event_trigger_set_filter(struct event_command *cmd,
			     struct trace_event_file *ef,
			     struct trigger_line *line,
			     struct event_trigger_data *trig)
{
	if (!trace_parse_cur(&line->p) || !cmd->set_filter)
		return 0;
	return cmd->set_filter(line, trig, ef);
}

int event_trigger_register(struct event_command *cmd,
			   struct trace_event_file *ef, char *word,
			   struct event_trigger_data *trig)
{
	return cmd->reg(word, trig, ef);
}

void event_trigger_unregister(struct event_command *cmd,
			      struct trace_event_file *ef, char *word,
			      struct event_trigger_data *trig)
{
	cmd->unreg(word, trig, ef);
}

/**
 * trigger_generic_parse - parse "[!]name[:count] [if filter]"
 * @cmd: the command
 * @ef: the event
 * @line: the line, its cursor at what follows the name
 *
 * A count is a word that starts with a digit; anything else after the
 * name must be the filter.  Removal needs only the command and ignores
 * the rest of the line.  Addition is all or nothing: the trigger is
 * linked only once its count and filter are valid.
 *
 * Return: 0 or a negative error (with the error in @line, or logged).
 */
int trigger_generic_parse(struct event_command *cmd,
			  struct trace_event_file *ef,
			  struct trigger_line *line)
{
	struct trace_parse *p = &line->p;
	struct event_trigger_data *trig;
	struct trace_token count;
	bool counted;
	int ret;

	lockdep_assert_held(&event_mutex);

	if (line->remove) {
		struct event_trigger_data key = { .cmd_ops = cmd };

		cmd->unreg(NULL, &key, ef);
		return 0;
	}

	counted = isdigit(trace_parse_cur(p));
	if (counted) {
		trace_parse_upto(p, &count, " \t");
		trace_parse_skip_space(p);
	}

	trig = trigger_data_alloc(cmd, NULL, NULL, ef);
	if (!trig)
		return -ENOMEM;

	ret = trigger_set_count_filter(cmd, ef, line, counted ? &count : NULL,
				       trig);
	if (ret)
		goto out_free;

	/* Our own reference keeps @trig alive whatever reg() does. */
	event_trigger_init(trig);
	ret = cmd->reg(NULL, trig, ef);
	if (ret == -EEXIST)
		trace_parse_fail(&line->err, TRIGGER_ERR_EXISTS, line->name.pos);
	trigger_generic_free(trig);
	return ret;

out_free:
	trigger_data_free_deferred(trig);
	return ret;
}

/* ---------------------------------------------------------------------
 * Command registry and the tracefs file
 */

__init int register_event_command(struct event_command *cmd)
{
	struct event_command *c;

	guard(mutex)(&trigger_cmds_lock);
	list_for_each_entry(c, &trigger_cmds, list)
		if (!strcmp(c->name, cmd->name))
			return -EBUSY;
	list_add_tail(&cmd->list, &trigger_cmds);
	return 0;
}

__init int unregister_event_command(struct event_command *cmd)
{
	struct event_command *c;

	guard(mutex)(&trigger_cmds_lock);
	list_for_each_entry(c, &trigger_cmds, list) {
		if (!strcmp(c->name, cmd->name)) {
			list_del_init(&c->list);
			return 0;
		}
	}
	return -ENODEV;
}

/* Commands are registered at boot and never go: no reference is kept. */
static struct event_command *trigger_cmd_find(const struct trace_token *name)
{
	struct event_command *c;

	guard(mutex)(&trigger_cmds_lock);
	list_for_each_entry(c, &trigger_cmds, list)
		if (trace_token_is(name, c->name))
			return c;
	return NULL;
}

/**
 * trigger_process_regex - apply one trigger command line to an event
 * @ef: the event
 * @buff: the line, without trailing newline (not modified)
 *
 * A line of blanks names no command and is refused with -EINVAL,
 * without an error_log entry: "echo > trigger" is how users truncate the
 * file, and the truncation itself has already happened at open.
 *
 * Return: 0 or a negative error.
 */
int trigger_process_regex(struct trace_event_file *ef, char *buff)
{
	struct trigger_line line;
	struct event_command *cmd;
	int ret;

	lockdep_assert_held(&event_mutex);

	buff = skip_spaces(buff);
	if (!*buff)
		return -EINVAL;

	trigger_line_init(&line, buff);
	cmd = trigger_cmd_find(&line.name);
	if (cmd)
		ret = cmd->parse(cmd, ef, &line);
	else
		ret = trace_parse_fail(&line.err, TRIGGER_ERR_UNKNOWN_CMD,
				       line.name.pos);
	if (line.err.err)
		trigger_log_err(ef, &line);
	return ret;
}

/* Print ":unlimited" or ":count=N", the filter, and the newline. */
void trigger_print_tail(struct seq_file *m, struct event_trigger_data *trig)
{
	unsigned long count = READ_ONCE(trig->count);

	if (count == TRIGGER_COUNT_UNLIMITED)
		seq_puts(m, TRIGGER_UNLIMITED_STR);
	else
		seq_printf(m, TRIGGER_COUNT_FMT, count);
	if (trig->filter_str)
		seq_printf(m, TRIGGER_FILTER_FMT, trig->filter_str);
	seq_putc(m, '\n');
}

/* seq_file cursor meaning "no user triggers: show the command list". */
#define TRIGGER_SHOW_AVAILABLE	((void *)1UL)

static bool trigger_has_user_triggers(struct trace_event_file *ef)
{
	struct event_trigger_data *trig;

	list_for_each_entry(trig, &ef->triggers, list)
		if (!(trig->flags & EVENT_TRIGGER_FL_PROBE))
			return true;
	return false;
}

static void *trigger_seq_start(struct seq_file *m, loff_t *pos)
{
	struct trace_event_file *ef;

	/* Released in trigger_seq_stop(), which runs even on error. */
	mutex_lock(&event_mutex);
	ef = event_file_file(m->private);
	if (!ef)
		return ERR_PTR(-ENODEV);

	if (!trigger_has_user_triggers(ef))
		return *pos ? NULL : TRIGGER_SHOW_AVAILABLE;
	return seq_list_start(&ef->triggers, *pos);
}

static void *trigger_seq_next(struct seq_file *m, void *v, loff_t *pos)
{
	struct trace_event_file *ef = event_file_data(m->private);

	if (v == TRIGGER_SHOW_AVAILABLE) {
		++*pos;
		return NULL;
	}
	return seq_list_next(v, &ef->triggers, pos);
}

static void trigger_seq_stop(struct seq_file *m, void *v)
{
	mutex_unlock(&event_mutex);
}

static int trigger_seq_show(struct seq_file *m, void *v)
{
	struct event_trigger_data *trig;
	struct event_command *cmd;

	if (v != TRIGGER_SHOW_AVAILABLE) {
		trig = list_entry(v, struct event_trigger_data, list);
		return trig->cmd_ops->print(m, trig);
	}

	seq_puts(m, TRIGGER_AVAILABLE_HDR);
	scoped_guard(mutex, &trigger_cmds_lock)
		list_for_each_entry(cmd, &trigger_cmds, list)
			seq_printf(m, " %s", cmd->name);
	seq_putc(m, '\n');
	return 0;
}

static const struct seq_operations trigger_seq_ops = {
	.start	= trigger_seq_start,
	.next	= trigger_seq_next,
	.stop	= trigger_seq_stop,
	.show	= trigger_seq_show,
};

static int trigger_file_open(struct inode *inode, struct file *filp)
{
	struct trace_event_file *ef;
	struct event_command *cmd;
	int ret;

	ret = security_locked_down(LOCKDOWN_TRACEFS);
	if (ret)
		return ret;

	guard(mutex)(&event_mutex);
	ef = event_file_file(filp);
	if (!ef)
		return -ENODEV;

	/* Truncation clears what commands allow to be cleared (histograms). */
	if ((filp->f_mode & FMODE_WRITE) && (filp->f_flags & O_TRUNC)) {
		guard(mutex)(&trigger_cmds_lock);
		list_for_each_entry(cmd, &trigger_cmds, list)
			if (cmd->unreg_all)
				cmd->unreg_all(ef);
	}

	if (!(filp->f_mode & FMODE_READ))
		return 0;
	ret = seq_open(filp, &trigger_seq_ops);
	if (!ret)
		((struct seq_file *)filp->private_data)->private = filp;
	return ret;
}

static ssize_t trigger_file_write(struct file *filp, const char __user *ubuf,
				  size_t len, loff_t *ppos)
{
	char *line __free(kfree) = NULL;
	struct trace_event_file *ef;
	int ret;

	if (!len)
		return 0;
	if (len > PAGE_SIZE - 1)
		return -EINVAL;

	line = memdup_user_nul(ubuf, len);
	if (IS_ERR(line))
		return PTR_ERR(line);

	guard(mutex)(&event_mutex);
	ef = event_file_file(filp);
	if (!ef)
		return -ENODEV;
	ret = trigger_process_regex(ef, strim(line));
	if (ret)
		return ret;

	*ppos += len;
	return len;
}

static int trigger_file_release(struct inode *inode, struct file *filp)
{
	if (filp->f_mode & FMODE_READ)
		return seq_release(inode, filp);
	return 0;
}

const struct file_operations event_trigger_fops = {
	.open		= trigger_file_open,
	.read		= seq_read,
	.write		= trigger_file_write,
	.llseek		= tracing_lseek,
	.release	= trigger_file_release,
};

/* ---------------------------------------------------------------------
 * Named triggers: several events sharing the data of the first one
 * registered under a name (used by histograms).  All under event_mutex.
 */

struct event_trigger_data *find_named_trigger(const char *name)
{
	struct event_trigger_data *trig;

	lockdep_assert_held(&event_mutex);
	if (!name)
		return NULL;
	list_for_each_entry(trig, &trigger_named, named_list)
		if (!trig->named_data && !strcmp(trig->name, name))
			return trig;
	return NULL;
}

/*
 * is_named_trigger() and get_named_trigger_data() complete the
 * named-trigger interface that trace.h declares; the histogram code
 * reads ->named_data directly.
 */
bool is_named_trigger(struct event_trigger_data *probe)
{
	struct event_trigger_data *trig;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(trig, &trigger_named, named_list)
		if (trig == probe)
			return true;
	return false;
}

int save_named_trigger(const char *name, struct event_trigger_data *trig)
{
	lockdep_assert_held(&event_mutex);
	trig->name = kstrdup(name, GFP_KERNEL);
	if (!trig->name)
		return -ENOMEM;
	list_add(&trig->named_list, &trigger_named);
	return 0;
}

void del_named_trigger(struct event_trigger_data *trig)
{
	lockdep_assert_held(&event_mutex);
	list_del(&trig->named_list);
	kfree(trig->name);
	trig->name = NULL;
}

/* Pausing one member of a named set pauses (or restores) all of them. */
static void trigger_named_set_paused(struct event_trigger_data *trig,
				     bool pause)
{
	struct event_trigger_data *member;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(member, &trigger_named, named_list) {
		if (strcmp(member->name, trig->name))
			continue;
		if (pause) {
			member->paused_tmp = member->paused;
			WRITE_ONCE(member->paused, true);
		} else {
			WRITE_ONCE(member->paused, member->paused_tmp);
		}
	}
}

void pause_named_trigger(struct event_trigger_data *trig)
{
	trigger_named_set_paused(trig, true);
}

void unpause_named_trigger(struct event_trigger_data *trig)
{
	trigger_named_set_paused(trig, false);
}

void set_named_trigger_data(struct event_trigger_data *trig,
			    struct event_trigger_data *owner)
{
	trig->named_data = owner;
}

struct event_trigger_data *
get_named_trigger_data(struct event_trigger_data *trig)
{
	return trig->named_data;
}
