// SPDX-License-Identifier: GPL-2.0
/*
 * trace_events_filter - the tracefs and perf face of the filter engine.
 *
 * Copyright (C) 2009 Tom Zanussi <tzanussi@gmail.com>
 *
 * This file owns the lifetime of struct event_filter: creating one from
 * text (compiling it with trace_filter_parse.c), installing it on
 * an event or on every event of a subsystem, printing it back, reporting
 * errors, and handing filters to perf.
 *
 * Locking: everything here runs under event_mutex (taken by the callers,
 * or here for subsystem files and perf).  A filter is installed with
 * rcu_assign_pointer() on file->filter and an old one is freed only after
 * tracepoint_synchronize_unregister(), which waits for every event
 * handler, including those running under SRCU or in NMI, that could still
 * be evaluating it; a worker does that wait once for all the filters
 * replaced meanwhile (filter_retire()), so that a write does not wait.
 * EVENT_FILE_FL_FILTERED is set after the filter is visible and cleared
 * before it goes away.
 *
 * A write that fails changes nothing that events see: the program in
 * force stays in force.  Only the text shown by the filter file changes,
 * to the failed expression with a caret under the offending column and
 * the message, and the same goes to error_log.
 */
#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/workqueue.h>

#include "trace.h"
#include "trace_filter.h"

/* The user-visible texts of this component. */
const char *filter_err_text[FILTER_ERR_MAX] = {
	[FILTER_ERR_NONE] = "No error",
	[FILTER_ERR_INVALID_OP] = "Invalid operator",
	[FILTER_ERR_TOO_MANY_OPEN] = "Too many '('",
	[FILTER_ERR_TOO_MANY_CLOSE] = "Too few '('",
	[FILTER_ERR_MISSING_QUOTE] = "Missing matching quote",
	[FILTER_ERR_MISSING_BRACE_OPEN] = "Missing '{'",
	[FILTER_ERR_MISSING_BRACE_CLOSE] = "Missing '}'",
	[FILTER_ERR_OPERAND_TOO_LONG] = "Operand too long",
	[FILTER_ERR_EXPECT_STRING] = "Expecting string field",
	[FILTER_ERR_EXPECT_DIGIT] = "Expecting numeric field",
	[FILTER_ERR_ILLEGAL_FIELD_OP] = "Illegal operation for field type",
	[FILTER_ERR_FIELD_NOT_FOUND] = "Field not found",
	[FILTER_ERR_ILLEGAL_INTVAL] = "Illegal integer value",
	[FILTER_ERR_BAD_SUBSYS_FILTER] =
		"Couldn't find or set field in one of a subsystem's events",
	[FILTER_ERR_TOO_MANY_PREDS] = "Too many terms in predicate expression",
	[FILTER_ERR_INVALID_FILTER] = "Meaningless filter expression",
	[FILTER_ERR_INVALID_CPULIST] = "Invalid cpulist",
	[FILTER_ERR_IP_FIELD_ONLY] = "Only 'ip' field is supported for function trace",
	[FILTER_ERR_INVALID_VALUE] = "Invalid value (did you forget quotes)?",
	[FILTER_ERR_NO_FUNCTION] = "Function not found",
	[FILTER_ERR_ERRNO] = "Error",
	[FILTER_ERR_NO_FILTER] = "No filter found",
};

#define FILTER_LOG_LOC		"event filter parse error"

/* What a subsystem filter file shows when it holds no error report. */
#define FILTER_SYSTEM_DEFAULT "### global filter ###\n# Use this to set"	\
	" filters for multiple events.\n# Only events with the given fields"	\
	" will be affected.\n# If no events are modified, an error message"	\
	" will be displayed here\n"

/* Which kind of filter operand a field's C type calls for. */
int filter_assign_type(const char *type)
{
	bool chars = strstr(type, "char"), loc = strstr(type, "__data_loc");
	int kind = FILTER_OTHER;

	if (loc && chars)
		kind = FILTER_DYN_STRING;
	else if (loc && strstr(type, "cpumask_t"))
		kind = FILTER_CPUMASK;
	else if (chars && strstr(type, "__rel_loc"))
		kind = FILTER_RDYN_STRING;
	else if (chars && strchr(type, '['))
		kind = FILTER_STATIC_STRING;
	else if (!strcmp(type, "char *") || !strcmp(type, "const char *"))
		kind = FILTER_PTR_STRING;
	return kind;
}

void free_event_filter(struct event_filter *filter)
{
	if (filter) {
		filter_prog_free(rcu_access_pointer(filter->prog));
		kfree(filter->filter_string);
	}
	kfree(filter);
}

/*
 * Every filter made here is the first member of a filter_box, so that one
 * taken off an event can wait for its grace period on filters_retired
 * without an allocation.  @prog_moved: its program went on to the filter
 * that replaced it and is not freed with it.  The box begins with the
 * filter, so free_event_filter() frees either; the subsystems' own
 * filters, which the event core allocates, are never retired.
 */
struct filter_box {
	struct event_filter	filter;
	struct llist_node	retired;
	bool			prog_moved;
};

/*
 * Past this many retired filters waiting, a write waits for them: several
 * times what a write to the largest subsystem (syscalls) retires at once.
 */
#define FILTER_RETIRED_MAX	8192

static LLIST_HEAD(filters_retired);
static atomic_t filters_retired_count = ATOMIC_INIT(0);

static void filter_box_free(struct filter_box *box)
{
	if (box->prog_moved)
		RCU_INIT_POINTER(box->filter.prog, NULL);
	free_event_filter(&box->filter);
}

/* Every filter of the batch was off its event before the wait began. */
static void filter_retired_work_fn(struct work_struct *work)
{
	struct llist_node *batch = llist_del_all(&filters_retired);
	struct filter_box *box, *next;

	if (!batch)
		return;
	tracepoint_synchronize_unregister();
	llist_for_each_entry_safe(box, next, batch, retired) {
		filter_box_free(box);
		atomic_dec(&filters_retired_count);
	}
}

static DECLARE_WORK(filter_retired_work, filter_retired_work_fn);

/*
 * Free @filter, just taken off its event, once no event handler can still
 * be evaluating it.  A writer looping faster than grace periods end waits
 * for the worker once FILTER_RETIRED_MAX filters are queued; the worker
 * never takes event_mutex, which the writer may hold.
 */
static void filter_retire(struct event_filter *filter, bool prog_moved)
{
	struct filter_box *box;

	if (!filter)
		return;
	box = container_of(filter, struct filter_box, filter);
	box->prog_moved = prog_moved;
	if (atomic_inc_return(&filters_retired_count) > FILTER_RETIRED_MAX)
		flush_work(&filter_retired_work);
	llist_add(&box->retired, &filters_retired);
	schedule_work(&filter_retired_work);
}

/* A filter with no program, showing @text (copied) unless it is NULL. */
static struct event_filter *filter_alloc(const char *text)
{
	struct filter_box *box = kzalloc_obj(*box);
	struct event_filter *filter = box ? &box->filter : NULL;

	if (filter && text) {
		filter->filter_string = kstrdup(text, GFP_KERNEL);
		if (!filter->filter_string) {
			free_event_filter(filter);
			filter = NULL;
		}
	}
	return filter;
}

/*
 * Log @err, the refusal of expression @text, to error_log as an error of
 * @cmd (under heading @loc), where @text starts at column @offset.
 */
static void filter_log_err(struct trace_array *tr, const char *loc,
			   const char *cmd, int offset, const char *text,
			   const struct trace_parse_err *err)
{
	if (err->err != FILTER_ERR_NONE)
		tracing_log_err(tr, loc, cmd, filter_err_text, err->err,
				offset + min_t(int, err->pos, strlen(text)));
	else
		tracing_log_err(tr, loc, cmd, filter_err_text,
				FILTER_ERR_ERRNO, offset);
}

/* Turn filter->filter_string into the error report and log it. */
static void filter_report(struct trace_array *tr, struct event_filter *filter,
			  const struct trace_parse_err *err, int ret)
{
	const char *text = filter->filter_string;
	int pos = min_t(int, err->pos, strlen(text));
	char *report;

	filter_log_err(tr, FILTER_LOG_LOC, text, 0, text, err);
	if (err->err != FILTER_ERR_NONE)
		report = kasprintf(GFP_KERNEL, "%s\n%*s\nparse_error: %s\n",
				   text, pos + 1, "^",
				   filter_err_text[err->err]);
	else
		report = kasprintf(GFP_KERNEL, "%s\nError: (%d)\n", text, ret);
	if (report) {
		kfree(filter->filter_string);
		filter->filter_string = report;
	}
}

static struct ftrace_event_field *filter_call_field(void *call,
						    const char *name)
{
	return trace_find_event_field(call, (char *)name);
}

/* Compile @text for @call; the error position is left in @err. */
static int filter_build(struct trace_event_call *call, const char *text,
			struct event_filter *filter, struct trace_parse_err *err)
{
	struct filter_fields fields = {
		.find		= filter_call_field,
		.data		= call,
		.function_event	= ftrace_event_is_function(call),
	};
	struct prog_entry *prog;

	prog = filter_compile(text, &fields, err);
	if (IS_ERR(prog))
		return PTR_ERR(prog);
	RCU_INIT_POINTER(filter->prog, prog);
	return 0;
}

/**
 * create_event_filter - compile a filter for an event
 * @tr: instance whose error_log gets the errors
 * @call: the event whose fields the expression names
 * @filter_str: the expression
 * @set_str: keep the text in the filter, and on error a report in its place
 * @filterp: must point to NULL; receives the filter
 *
 * Return: 0, or a negative error; even then *@filterp may hold a filter
 * (with the report when @set_str) that the caller must free.
 */
int create_event_filter(struct trace_array *tr, struct trace_event_call *call,
			char *filter_str, bool set_str,
			struct event_filter **filterp)
{
	struct event_filter *filter;
	struct trace_parse_err err;
	int ret;

	if (WARN_ON_ONCE(*filterp))
		*filterp = NULL;
	filter = filter_alloc(set_str ? filter_str : NULL);
	if (!filter)
		return -ENOMEM;
	ret = filter_build(call, filter_str, filter, &err);
	if (ret && set_str)
		filter_report(tr, filter, &err, ret);
	*filterp = filter;
	return ret;
}

/**
 * create_event_filter_in - compile a filter written inside a longer command
 * @tr: instance whose error_log gets the error
 * @call: the event whose fields the expression names
 * @text: the expression
 * @loc: error_log heading of the command, such as "trigger:sched:sched_switch",
 *	  or NULL to log nothing
 * @cmd: the whole command as it was written
 * @offset: column of @text in @cmd
 * @filterp: must point to NULL; receives the filter on success
 *
 * For triggers: a refused expression is logged once, as an error of the
 * whole command, with the caret inside the expression where it went wrong.
 *
 * Return: 0, or a negative error (then *@filterp is left NULL).
 */
int create_event_filter_in(struct trace_array *tr, struct trace_event_call *call,
			   const char *text, const char *loc, const char *cmd,
			   int offset, struct event_filter **filterp)
{
	struct event_filter *filter = filter_alloc(NULL);
	struct trace_parse_err err;
	int ret;

	if (!filter)
		return -ENOMEM;
	ret = filter_build(call, text, filter, &err);
	if (!ret) {
		*filterp = filter;
		return 0;
	}
	free_event_filter(filter);
	if (loc && (err.err != FILTER_ERR_NONE || ret != -ENOMEM))
		filter_log_err(tr, loc, cmd, offset, text, &err);
	return ret;
}

/*
 * The event's FILTERED flag, under event_mutex.  Atomic bit operations:
 * an enable_event or disable_event trigger flips SOFT_DISABLED in the
 * same word from the event path, without the mutex, and a plain
 * read-modify-write here could undo that.
 */
static void filter_flag_on(struct trace_event_file *file)
{
	if (test_and_set_bit(EVENT_FILE_FL_FILTERED_BIT, &file->flags))
		return;
	trace_buffered_event_enable();
}

static void filter_flag_off(struct trace_event_file *file)
{
	if (!test_and_clear_bit(EVENT_FILE_FL_FILTERED_BIT, &file->flags))
		return;
	trace_buffered_event_disable();
}

static struct event_filter *filter_of(struct trace_event_file *file)
{
	return rcu_dereference_protected(file->filter,
					 lockdep_is_held(&event_mutex));
}

/* Remove the filter of @file; returns the old one to free after a sync. */
static struct event_filter *filter_detach(struct trace_event_file *file)
{
	struct event_filter *old = filter_of(file);

	filter_flag_off(file);
	RCU_INIT_POINTER(file->filter, NULL);
	return old;
}

/* Is @text the "0" that clears filters (trailing blanks cut in place)? */
static bool filter_is_clear(char *text)
{
	return !strcmp(strstrip(text), "0");
}

/* caller must hold event_mutex */
int apply_event_filter(struct trace_event_file *file, char *filter_string)
{
	struct event_filter *filter = NULL, *old;
	int ret;

	if (file->flags & EVENT_FILE_FL_FREED)
		return -ENODEV;

	if (filter_is_clear(filter_string)) {
		filter_retire(filter_detach(file), false);
		return 0;
	}

	ret = create_event_filter(file->tr, file->event_call, filter_string,
				  true, &filter);
	if (!filter)
		return ret;

	old = filter_of(file);
	if (ret && old) {
		/* Keep the running program; only the text changes. */
		RCU_INIT_POINTER(filter->prog, rcu_access_pointer(old->prog));
	}
	rcu_assign_pointer(file->filter, filter);
	if (!ret)
		filter_flag_on(file);

	filter_retire(old, ret);
	return ret;
}

/* The text a filter file shows, or NULL for the default. */
static const char *filter_text(const struct event_filter *filter)
{
	return filter ? filter->filter_string : NULL;
}

/* The text @file's filter file lists, NULL when it has no filter */
const char *event_filter_text(struct trace_event_file *file)
{
	lockdep_assert_held(&event_mutex);
	return filter_text(filter_of(file));
}

/* caller must hold event_mutex */
void print_event_filter(struct trace_event_file *file, struct trace_seq *s)
{
	const char *text = event_filter_text(file);

	trace_seq_printf(s, "%s\n", text ?: "none");
}

void print_subsystem_event_filter(struct event_subsystem *system,
				  struct trace_seq *s)
{
	const char *text;

	guard(mutex)(&event_mutex);
	text = filter_text(system->filter);
	if (text)
		trace_seq_printf(s, "%s\n", text);
	else
		trace_seq_puts(s, FILTER_SYSTEM_DEFAULT);
}

static int filter_subsystem_clear(struct trace_subsystem_dir *dir)
{
	struct event_subsystem *system = dir->subsystem;
	struct trace_event_file *file;

	list_for_each_entry(file, &dir->tr->events, list) {
		if (file->system == dir)
			filter_retire(filter_detach(file), false);
	}
	free_event_filter(system->filter);
	system->filter = NULL;
	return 0;
}

/* The subsystem file shows why no event took the expression. */
static int filter_subsystem_fail(struct trace_subsystem_dir *dir,
				 const char *text, struct trace_parse_err *err)
{
	struct event_subsystem *system = dir->subsystem;
	struct event_filter *report;

	report = filter_alloc(text);
	if (!report)
		return -ENOMEM;
	err->err = FILTER_ERR_BAD_SUBSYS_FILTER;
	filter_report(dir->tr, report, err, -EINVAL);
	free_event_filter(system->filter);
	system->filter = report;
	return -EINVAL;
}

/*
 * Install @text on every event of @dir that has the fields it names; the
 * others keep their filters.  Fails only when no event accepts it.
 */
static int filter_subsystem_set(struct trace_subsystem_dir *dir, char *text)
{
	struct event_subsystem *system = dir->subsystem;
	struct trace_parse_err err, first = { .err = FILTER_ERR_NONE };
	struct trace_event_file *file;
	struct {
		struct trace_event_file	*file;
		struct event_filter	*filter;
	} *new;
	int i, n = 0, ret = 0;

	new = kcalloc(dir->nr_events, sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;

	/* Compile for every event before touching any of them. */
	list_for_each_entry(file, &dir->tr->events, list) {
		struct event_filter *filter;

		if (file->system != dir)
			continue;
		if (n >= dir->nr_events)
			break;
		ret = -ENOMEM;
		filter = filter_alloc(text);
		if (!filter)
			goto out;
		ret = filter_build(file->event_call, text, filter, &err);
		if (!ret) {
			new[n].file = file;
			new[n++].filter = filter;
			continue;
		}
		free_event_filter(filter);
		if (ret == -ENOMEM)
			goto out;
		if (first.err == FILTER_ERR_NONE)
			first = err;
	}

	if (!n) {
		ret = filter_subsystem_fail(dir, text, &first);
		goto out;
	}

	/* Swap in the new filters; the old ones wait for their grace period. */
	for (i = 0; i < n; i++) {
		struct event_filter *old = filter_of(new[i].file);

		rcu_assign_pointer(new[i].file->filter, new[i].filter);
		filter_flag_on(new[i].file);
		filter_retire(old, false);
	}
	n = 0;
	/* A subsystem that took a filter shows the default text again. */
	free_event_filter(system->filter);
	system->filter = NULL;
	ret = 0;
out:
	/* Filters left in new[] no event ever saw. */
	for (i = 0; i < n; i++)
		free_event_filter(new[i].filter);
	kfree(new);
	return ret;
}

int apply_subsystem_event_filter(struct trace_subsystem_dir *dir,
				 char *filter_string)
{
	guard(mutex)(&event_mutex);

	/* Make sure the system still has events */
	if (!dir->nr_events)
		return -ENODEV;
	if (filter_is_clear(filter_string))
		return filter_subsystem_clear(dir);
	return filter_subsystem_set(dir, filter_string);
}

#ifdef CONFIG_PERF_EVENTS

void ftrace_profile_free_filter(struct perf_event *event)
{
	struct event_filter *filter = event->filter;

	event->filter = NULL;
	free_event_filter(filter);
}

#ifdef CONFIG_FUNCTION_TRACER
/* Feed one "ip == a,b c" list to the event's ftrace_ops. */
static int filter_ftrace_list(struct ftrace_ops *ops, const char *list,
			      bool no_trace, bool *reset)
{
	char *copy, *cur, *name;
	int ret = 0;

	copy = kstrdup(list, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	strreplace(copy, ',', ' ');
	cur = copy;
	while ((name = strsep(&cur, " \t\n"))) {
		if (!*name)
			continue;
		if (no_trace)
			ret = ftrace_set_notrace(ops, name, strlen(name), *reset);
		else
			ret = ftrace_set_filter(ops, name, strlen(name), *reset);
		if (ret)
			break;
		*reset = false;
	}
	kfree(copy);
	return ret;
}

/* perf on ftrace:function: the filter selects the functions to trace. */
static int filter_set_ftrace(struct perf_event *event,
			     struct event_filter *filter)
{
	const struct prog_entry *prog, *e;
	bool reset_filter = true, reset_notrace = true;

	prog = rcu_dereference_protected(filter->prog,
					 lockdep_is_held(&event_mutex));
	if (!filter_ip_list(prog))
		return -EINVAL;
	for (e = prog; e->code != FILTER_T_END; e++) {
		bool no_trace = e->flags & FILTER_FL_NE;

		if (filter_ftrace_list(&event->ftrace_ops, e->pat->text,
				       no_trace, no_trace ? &reset_notrace :
							  &reset_filter))
			return -EINVAL;
	}
	return 0;
}
#else
static int filter_set_ftrace(struct perf_event *event,
			     struct event_filter *filter)
{
	return -ENODEV;
}
#endif /* CONFIG_FUNCTION_TRACER */

int ftrace_profile_set_filter(struct perf_event *event, int event_id,
			      char *filter_str)
{
	struct trace_event_call *call = event->tp_event;
	struct event_filter *filter = NULL;
	bool function;
	int ret;

	guard(mutex)(&event_mutex);
	if (!call)
		return -EINVAL;
	if (event->filter)
		return -EEXIST;

	/* No report text: perf only gets the error code. */
	ret = create_event_filter(NULL, call, filter_str, false, &filter);
	function = ftrace_event_is_function(call);
	if (!ret && function)
		ret = filter_set_ftrace(event, filter);
	if (!ret && !function) {
		event->filter = filter;
		return 0;
	}
	free_event_filter(filter);
	return ret;
}

#endif /* CONFIG_PERF_EVENTS */
