// SPDX-License-Identifier: GPL-2.0
/*
 * Built-in event trigger commands: traceon, traceoff, snapshot,
 * stacktrace, enable_event and disable_event.  The enable/disable
 * machinery is shared with the histogram code's enable_hist and
 * disable_hist commands.
 *
 * The action callbacks run on the event hot path (preemption disabled,
 * see trace_events_trigger.c); they only flip flags or call into the
 * ring buffer.  Everything else runs under event_mutex.
 */

#include <linux/cleanup.h>
#include <linux/slab.h>

#include "trace_trigger.h"

/* traceon / traceoff: one of the two per event (same trigger_type). */

static struct trace_array *trigger_tr(struct event_trigger_data *trig)
{
	struct trace_event_file *ef = trig->private_data;

	return ef->tr;
}

static void trigger_traceon(struct event_trigger_data *trig,
			    struct trace_buffer *rb, void *rec,
			    struct ring_buffer_event *rbe)
{
	struct trace_array *tr = trigger_tr(trig);

	if (!tracer_tracing_is_on(tr))
		tracer_tracing_on(tr);
}

static void trigger_traceoff(struct event_trigger_data *trig,
			     struct trace_buffer *rb, void *rec,
			     struct ring_buffer_event *rbe)
{
	struct trace_array *tr = trigger_tr(trig);

	if (tracer_tracing_is_on(tr))
		tracer_tracing_off(tr);
}

/* A counted traceon/off spends its count only when it changes the state. */
static bool trigger_traceon_count(struct event_trigger_data *trig,
				  struct trace_buffer *rb, void *rec,
				  struct ring_buffer_event *rbe)
{
	return !tracer_tracing_is_on(trigger_tr(trig)) &&
	       trigger_count_take(trig);
}

static bool trigger_traceoff_count(struct event_trigger_data *trig,
				   struct trace_buffer *rb, void *rec,
				   struct ring_buffer_event *rbe)
{
	return tracer_tracing_is_on(trigger_tr(trig)) &&
	       trigger_count_take(trig);
}

static int trigger_print_named(struct seq_file *m,
			       struct event_trigger_data *trig)
{
	seq_puts(m, trig->cmd_ops->name);
	trigger_print_tail(m, trig);
	return 0;
}

static struct event_command trigger_traceon_cmd = {
	.name		= TRIGGER_TRACEON_STR,
	.trigger_type	= ETT_TRACE_ONOFF,
	.parse		= trigger_generic_parse,
	.reg		= trigger_generic_reg,
	.unreg		= trigger_generic_unreg,
	.set_filter	= set_trigger_filter,
	.trigger	= trigger_traceon,
	.count_func	= trigger_traceon_count,
	.print		= trigger_print_named,
	.init		= event_trigger_init,
	.free		= trigger_generic_free,
};

static struct event_command trigger_traceoff_cmd = {
	.name		= TRIGGER_TRACEOFF_STR,
	.trigger_type	= ETT_TRACE_ONOFF,
	/* Run after the commit so the triggering event is still recorded. */
	.flags		= EVENT_CMD_FL_POST_TRIGGER,
	.parse		= trigger_generic_parse,
	.reg		= trigger_generic_reg,
	.unreg		= trigger_generic_unreg,
	.set_filter	= set_trigger_filter,
	.trigger	= trigger_traceoff,
	.count_func	= trigger_traceoff_count,
	.print		= trigger_print_named,
	.init		= event_trigger_init,
	.free		= trigger_generic_free,
};

#ifdef CONFIG_TRACER_SNAPSHOT
/* snapshot: needs the instance's snapshot buffer armed while attached. */

static void trigger_snapshot(struct event_trigger_data *trig,
			     struct trace_buffer *rb, void *rec,
			     struct ring_buffer_event *rbe)
{
	tracing_snapshot_instance(trigger_tr(trig));
}

static int trigger_snapshot_reg(char *word, struct event_trigger_data *trig,
				struct trace_event_file *ef)
{
	int ret;

	ret = tracing_arm_snapshot(ef->tr);
	if (ret < 0)
		return ret;
	ret = trigger_generic_reg(word, trig, ef);
	if (ret < 0)
		tracing_disarm_snapshot(ef->tr);
	return ret;
}

static void trigger_snapshot_unreg(char *word, struct event_trigger_data *key,
				   struct trace_event_file *ef)
{
	if (trigger_generic_unreg_found(key, ef))
		tracing_disarm_snapshot(ef->tr);
}

static struct event_command trigger_snapshot_cmd = {
	.name		= TRIGGER_SNAPSHOT_STR,
	.trigger_type	= ETT_SNAPSHOT,
	.parse		= trigger_generic_parse,
	.reg		= trigger_snapshot_reg,
	.unreg		= trigger_snapshot_unreg,
	.set_filter	= set_trigger_filter,
	.trigger	= trigger_snapshot,
	.count_func	= event_trigger_count,
	.print		= trigger_print_named,
	.init		= event_trigger_init,
	.free		= trigger_generic_free,
};
#endif /* CONFIG_TRACER_SNAPSHOT */

#ifdef CONFIG_STACKTRACE
/*
 * stacktrace: runs after the commit (it writes its own record), called
 * from the probe through trace_event_buffer_commit() and
 * event_triggers_post_call().  How many frames to hide depends on the
 * unwinder; these counts hide the trigger path's own frames, so that
 * with ORC the trace starts at the event's probe function.
 */
#ifdef CONFIG_UNWINDER_ORC
#define TRIGGER_STACK_SKIP	2
#else
#define TRIGGER_STACK_SKIP	4
#endif

static void trigger_stacktrace(struct event_trigger_data *trig,
			       struct trace_buffer *rb, void *rec,
			       struct ring_buffer_event *rbe)
{
	__trace_stack(trigger_tr(trig), tracing_gen_ctx_dec(),
		      TRIGGER_STACK_SKIP);
}

static struct event_command trigger_stacktrace_cmd = {
	.name		= TRIGGER_STACKTRACE_STR,
	.trigger_type	= ETT_STACKTRACE,
	.flags		= EVENT_CMD_FL_POST_TRIGGER,
	.parse		= trigger_generic_parse,
	.reg		= trigger_generic_reg,
	.unreg		= trigger_generic_unreg,
	.set_filter	= set_trigger_filter,
	.trigger	= trigger_stacktrace,
	.count_func	= event_trigger_count,
	.print		= trigger_print_named,
	.init		= event_trigger_init,
	.free		= trigger_generic_free,
};
#endif /* CONFIG_STACKTRACE */

/*
 * enable_event / disable_event (and enable_hist / disable_hist):
 * "<cmd>:<system>:<event>[:count] [if filter]".  While the trigger
 * exists the target event is held in soft mode (registered, recording
 * only when its SOFT_DISABLED bit is clear) and pinned against removal.
 * One such trigger per trigger_type and target on an event.
 */

static void trigger_enable_event(struct event_trigger_data *trig,
				 struct trace_buffer *rb, void *rec,
				 struct ring_buffer_event *rbe)
{
	struct enable_trigger_data *target = trig->private_data;

	if (target->enable)
		clear_bit(EVENT_FILE_FL_SOFT_DISABLED_BIT, &target->file->flags);
	else
		set_bit(EVENT_FILE_FL_SOFT_DISABLED_BIT, &target->file->flags);
}

/* A count is spent only when the target actually changes state. */
static bool trigger_enable_event_count(struct event_trigger_data *trig,
				       struct trace_buffer *rb, void *rec,
				       struct ring_buffer_event *rbe)
{
	struct enable_trigger_data *target = trig->private_data;
	bool disabled = test_bit(EVENT_FILE_FL_SOFT_DISABLED_BIT,
				 &target->file->flags);

	return target->enable == disabled && trigger_count_take(trig);
}

int event_enable_trigger_print(struct seq_file *m,
			       struct event_trigger_data *trig)
{
	struct enable_trigger_data *target = trig->private_data;
	struct trace_event_call *call = target->file->event_call;

	seq_printf(m, "%s:%s:%s", trig->cmd_ops->name, call->class->system,
		   trace_event_name(call));
	trigger_print_tail(m, trig);
	return 0;
}

static void event_enable_trigger_release(struct event_trigger_data *trig)
{
	kfree(trig->private_data);
}

void event_enable_trigger_free(struct event_trigger_data *trig)
{
	struct enable_trigger_data *target = trig->private_data;

	if (WARN_ON_ONCE(trig->ref <= 0))
		return;
	if (--trig->ref)
		return;

	/*
	 * The target leaves soft mode and may go now: its removal waits for
	 * the event path that may still run @trig (quiescing).  @target is
	 * freed with @trig.
	 */
	trace_event_enable_disable(target->file, 0, 1);
	trace_event_put_ref(target->file->event_call);
	trig->release = event_enable_trigger_release;
	trigger_data_free_deferred(trig);
}

/* Is @trig a trigger of the same kind as @key, aimed at the same target? */
static bool trigger_enable_same(struct event_trigger_data *trig,
				struct event_trigger_data *key)
{
	struct enable_trigger_data *a = trig->private_data;
	struct enable_trigger_data *b = key->private_data;

	return trig->cmd_ops->trigger_type == key->cmd_ops->trigger_type &&
	       a && b && a->file == b->file;
}

int event_enable_register_trigger(char *word, struct event_trigger_data *trig,
				  struct trace_event_file *ef)
{
	struct event_trigger_data *old;

	lockdep_assert_held(&event_mutex);

	list_for_each_entry(old, &ef->triggers, list)
		if (trigger_enable_same(old, trig))
			return -EEXIST;

	return trigger_attach(trig, ef);
}

void event_enable_unregister_trigger(char *word,
				     struct event_trigger_data *key,
				     struct trace_event_file *ef)
{
	struct event_trigger_data *trig;

	lockdep_assert_held(&event_mutex);

	list_for_each_entry(trig, &ef->triggers, list) {
		if (trigger_enable_same(trig, key)) {
			trigger_detach(trig, ef);
			return;
		}
	}
}

/*
 * The event named by the "<system>:<event>[:count]" at @line's cursor,
 * which is left past that word and the blanks after it.  @count gets
 * the count as written; its start is NULL when there is none.
 */
static int trigger_enable_target(struct trigger_line *line,
				 struct trace_event_file *ef,
				 struct trace_event_file **tfile,
				 struct trace_token *sys,
				 struct trace_token *count)
{
	struct trace_parse *p = &line->p;
	struct trace_token ev;
	int start = p->pos;

	/* "sys::5" names an event "", which does not exist; "sys:" none */
	trace_parse_upto(p, sys, ": \t");
	if (!sys->len || !trace_parse_literal(p, ":") ||
	    (!trace_parse_upto(p, &ev, ": \t") && trace_parse_cur(p) != ':'))
		return trace_parse_fail(&line->err, TRIGGER_ERR_NEED_TARGET,
					start);
	count->start = NULL;
	if (trace_parse_literal(p, ":"))
		trace_parse_upto(p, count, " \t");
	trace_parse_skip_space(p);

	char *s __free(kfree) = kstrndup(sys->start, sys->len, GFP_KERNEL);
	char *e __free(kfree) = kstrndup(ev.start, ev.len, GFP_KERNEL);

	if (!s || !e)
		return -ENOMEM;
	*tfile = find_event_file(ef->tr, s, e);
	if (!*tfile)
		return trace_parse_fail(&line->err, TRIGGER_ERR_NO_TARGET,
					sys->pos);
	return 0;
}

int event_enable_trigger_parse(struct event_command *cmd,
			       struct trace_event_file *ef,
			       struct trigger_line *line)
{
	struct trace_token sys, count;
	struct enable_trigger_data *target;
	struct event_trigger_data *trig;
	struct trace_event_file *tfile;
	int ret;

	lockdep_assert_held(&event_mutex);

	if (!trace_parse_cur(&line->p))
		return trace_parse_fail(&line->err, TRIGGER_ERR_NEED_TARGET,
					line->name.pos);
	ret = trigger_enable_target(line, ef, &tfile, &sys, &count);
	if (ret)
		return ret;

	target = kzalloc_obj(*target);
	if (!target)
		return -ENOMEM;
	target->file = tfile;
	target->enable = !strcmp(cmd->name, ENABLE_EVENT_STR) ||
			 !strcmp(cmd->name, ENABLE_HIST_STR);
	target->hist = !strcmp(cmd->name, ENABLE_HIST_STR) ||
		       !strcmp(cmd->name, DISABLE_HIST_STR);

	trig = trigger_data_alloc(cmd, NULL, NULL, target);
	if (!trig) {
		ret = -ENOMEM;
		goto out_target;
	}

	if (line->remove) {
		/* Removal matches kind and target; count and filter ignored. */
		event_trigger_unregister(cmd, ef, NULL, trig);
		ret = 0;
		goto out_data;
	}

	ret = trigger_set_count_filter(cmd, ef, line,
				       count.start ? &count : NULL, trig);
	if (ret)
		goto out_data;

	/* The target must not go away while we point at it. */
	if (!trace_event_try_get_ref(tfile->event_call)) {
		ret = -EBUSY;
		trace_parse_fail(&line->err, TRIGGER_ERR_TARGET_GONE, sys.pos);
		goto out_data;
	}
	ret = trace_event_enable_disable(tfile, 1, 1);
	if (ret < 0) {
		/* a failed enable still counted the soft mode: undo it */
		trace_event_enable_disable(tfile, 0, 1);
		goto out_put;
	}

	/* Hold a reference of our own across registration. */
	event_trigger_init(trig);
	ret = event_trigger_register(cmd, ef, NULL, trig);
	if (ret == -EEXIST)
		trace_parse_fail(&line->err, TRIGGER_ERR_EXISTS, line->name.pos);
	/* On failure this drops the last reference and undoes the above. */
	event_enable_trigger_free(trig);
	return ret;

out_put:
	trace_event_put_ref(tfile->event_call);
out_data:
	trigger_data_free_deferred(trig);
out_target:
	kfree(target);
	return ret;
}

static struct event_command trigger_enable_cmd = {
	.name		= ENABLE_EVENT_STR,
	.trigger_type	= ETT_EVENT_ENABLE,
	.parse		= event_enable_trigger_parse,
	.reg		= event_enable_register_trigger,
	.unreg		= event_enable_unregister_trigger,
	.set_filter	= set_trigger_filter,
	.trigger	= trigger_enable_event,
	.count_func	= trigger_enable_event_count,
	.print		= event_enable_trigger_print,
	.init		= event_trigger_init,
	.free		= event_enable_trigger_free,
};

static struct event_command trigger_disable_cmd = {
	.name		= DISABLE_EVENT_STR,
	.trigger_type	= ETT_EVENT_ENABLE,
	.parse		= event_enable_trigger_parse,
	.reg		= event_enable_register_trigger,
	.unreg		= event_enable_unregister_trigger,
	.set_filter	= set_trigger_filter,
	.trigger	= trigger_enable_event,
	.count_func	= trigger_enable_event_count,
	.print		= event_enable_trigger_print,
	.init		= event_trigger_init,
	.free		= event_enable_trigger_free,
};

/* Registration order is the order "# Available triggers" lists them. */
static struct event_command *trigger_builtin_cmds[] __initdata = {
	&trigger_traceon_cmd,
	&trigger_traceoff_cmd,
#ifdef CONFIG_TRACER_SNAPSHOT
	&trigger_snapshot_cmd,
#endif
#ifdef CONFIG_STACKTRACE
	&trigger_stacktrace_cmd,
#endif
	&trigger_enable_cmd,
	&trigger_disable_cmd,
};

__init int register_trigger_cmds(void)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(trigger_builtin_cmds); i++)
		WARN_ON(register_event_command(trigger_builtin_cmds[i]));

	register_trigger_hist_enable_disable_cmds();
	register_trigger_hist_cmd();
	return 0;
}
