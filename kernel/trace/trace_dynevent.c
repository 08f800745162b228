// SPDX-License-Identifier: GPL-2.0
/*
 * trace_dynevent - the registry of dynamic events and the dynamic_events
 * tracefs file.  See trace_dynevent.h for the locking.
 *
 * Copyright (C) 2018 Masami Hiramatsu <mhiramat@kernel.org>
 *
 * A dynamic event's trace_event_call also counts the users that are not
 * tracefs files (perf, BPF): trace_event_dyn_try_get_ref() takes a count
 * only while the call is still registered, and an event is busy, so not
 * deletable, while its count is not zero.
 */
#include <linux/cleanup.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/ring_buffer.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracefs.h>

#include "trace.h"
#include "trace_output.h"	/* trace_event_sem */
#include "trace_dynevent.h"

/* Guards dyn_event_kinds and every create(); trace_probe.c asserts it. */
DEFINE_MUTEX(dyn_event_ops_mutex);
static LIST_HEAD(dyn_event_kinds);

LIST_HEAD(dyn_event_list);

static bool dyn_call_check(struct trace_event_call *call)
{
	return !WARN_ON_ONCE(!(call->flags & TRACE_EVENT_FL_DYNAMIC));
}

bool trace_event_dyn_try_get_ref(struct trace_event_call *target)
{
	struct trace_event_call *it;

	if (!dyn_call_check(target))
		return false;
	guard(rwsem_read)(&trace_event_sem);
	list_for_each_entry(it, &ftrace_events, list) {
		if (it != target)
			continue;
		atomic_inc(&target->refcnt);
		return true;
	}
	return false;
}

void trace_event_dyn_put_ref(struct trace_event_call *target)
{
	/* an unbalanced put must not make the event look unused forever */
	if (dyn_call_check(target) &&
	    WARN_ON_ONCE(atomic_dec_if_positive(&target->refcnt) < 0))
		atomic_set(&target->refcnt, 0);
}

bool trace_event_dyn_busy(struct trace_event_call *target)
{
	return atomic_read(&target->refcnt) > 0;
}

int dyn_event_init(struct dyn_event *dev, struct dyn_event_operations *kind)
{
	if (!dev || !kind)
		return -EINVAL;
	dev->ops = kind;
	INIT_LIST_HEAD(&dev->list);
	return 0;
}

/* Publish @dev; @call is marked dynamic so it can be pinned and counted. */
int dyn_event_add(struct dyn_event *dev, struct trace_event_call *call)
{
	lockdep_assert_held(&event_mutex);
	if (!dev || !dev->ops)
		return -EINVAL;
	list_add_tail(&dev->list, &dyn_event_list);
	call->flags |= TRACE_EVENT_FL_DYNAMIC;
	return 0;
}

void dyn_event_remove(struct dyn_event *dev)
{
	lockdep_assert_held(&event_mutex);
	list_del_init(&dev->list);
}

/*
 * Retired events.  A deleted event's records stay in the ring buffers of
 * the instances it was enabled in until they are read, overwritten or
 * cleared.  Its type must not go to a new event before then: the records
 * would be printed as the new event's, read by a layout they do not have
 * (offsets and lengths included).  So an event that was ever enabled
 * keeps its type and its output when it is deleted, as a ghost that no
 * file, list or name reaches, until no instance it was enabled in holds
 * a record stamped before its deletion.  This keeps the records of an
 * event whose last user left readable as what they are, where clearing
 * the buffers would lose them and every other event's with them.
 *
 * The ghosts are looked at, under event_mutex, each time an event
 * retires.  At most DYN_GHOSTS_MAX are kept: past that the oldest one's
 * instances are cleared, as deleting through dynamic_events does.
 *
 * A delete through dynamic_events (or truncating it, or a kind's own
 * file) clears the instances the event was enabled in, right away, as it
 * does for every dynamic event: an event retired there keeps nothing.
 * No other delete clears a buffer, then or at a later delete.
 */
#define DYN_GHOSTS_MAX	64

struct dyn_ghost_seen {
	struct trace_array	*tr;	/* only compared while not listed */
	u64			stamp;	/* its clock when the event retired */
};

struct dyn_ghost {
	struct list_head	link;
	struct trace_event_call	*call;
	void			(*release)(struct trace_event_call *call);
	unsigned int		nr;
	struct dyn_ghost_seen	seen[] __counted_by(nr);
};

static LIST_HEAD(dyn_ghosts);		/* oldest first; event_mutex */
static unsigned int dyn_nr_ghosts;	/* event_mutex */
static bool dyn_releasing;		/* event_mutex: the deletes clear */

/* Is tr still an instance?  It is not dereferenced before this says so. */
static bool dyn_tr_listed(const struct trace_array *tr)
{
	struct trace_array *it;

	list_for_each_entry(it, &ftrace_trace_arrays, list)
		if (it == tr)
			return true;
	return false;
}

/* Does @buffer still hold a record stamped at or before @stamp? */
static bool dyn_buffer_holds_older(struct trace_buffer *buffer, u64 stamp)
{
	u64 ts;
	int cpu;

	if (!buffer)
		return false;
	/* the oldest record each CPU has left, read or not by iterators */
	for_each_possible_cpu(cpu)
		if (ring_buffer_peek(buffer, cpu, &ts, NULL) && ts <= stamp)
			return true;
	return false;
}

static bool dyn_ghost_gone(const struct dyn_ghost *g)
{
	const struct dyn_ghost_seen *s;
	unsigned int i;

	for (i = 0; i < g->nr; i++) {
		s = &g->seen[i];
		if (!dyn_tr_listed(s->tr))
			continue;
		if (dyn_buffer_holds_older(s->tr->array_buffer.buffer, s->stamp))
			return false;
#ifdef CONFIG_TRACER_SNAPSHOT
		if (dyn_buffer_holds_older(s->tr->snapshot_buffer.buffer, s->stamp))
			return false;
#endif
	}
	return true;
}

static void dyn_ghost_free(struct dyn_ghost *g)
{
	/* takes trace_event_sem: no output is printing a record of it */
	unregister_trace_event(&g->call->event);
	g->release(g->call);
	list_del(&g->link);
	dyn_nr_ghosts--;
	kfree(g);
}

/* Free the ghosts whose records are gone, and the oldest past the limit */
static void dyn_ghosts_reap(void)
{
	struct dyn_ghost *g, *tmp;
	unsigned int i;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry_safe(g, tmp, &dyn_ghosts, link)
		if (dyn_ghost_gone(g))
			dyn_ghost_free(g);
	if (dyn_nr_ghosts <= DYN_GHOSTS_MAX)
		return;
	g = list_first_entry(&dyn_ghosts, struct dyn_ghost, link);
	scoped_guard(mutex, &trace_types_lock) {
		for (i = 0; i < g->nr; i++)
			if (dyn_tr_listed(g->seen[i].tr))
				g->seen[i].tr->clear_trace = true;
		tracing_reset_all_online_cpus_unlocked();
	}
	dyn_ghost_free(g);
}

/* The instances whose file of @call was ever enabled */
static unsigned int dyn_call_seen(struct trace_event_call *call,
				  struct dyn_ghost *g)
{
	struct trace_event_file *file;
	struct trace_array *tr;
	unsigned int nr = 0;

	list_for_each_entry(tr, &ftrace_trace_arrays, list) {
		list_for_each_entry(file, &tr->events, list) {
			if (file->event_call != call)
				continue;
			if (!(file->flags & EVENT_FILE_FL_WAS_ENABLED))
				break;
			if (g) {
				g->seen[nr].tr = tr;
				g->seen[nr].stamp =
					ring_buffer_time_stamp(tr->array_buffer.buffer);
			}
			nr++;
			break;
		}
	}
	return nr;
}

/**
 * dyn_event_retire - remove a dynamic event's call, keeping its type
 * @call: the event; not enabled anywhere, nor used by perf
 *
 * Removes @call from the events of every instance, as
 * trace_remove_event_call() does, but leaves its type registered and
 * its instances uncleared when records of it may remain (not inside a
 * delete through dynamic_events, which clears them): finish with
 * dyn_event_retired().
 *
 * Context: process context, event_mutex held.
 * Return: what to hand to dyn_event_retired(), or an ERR_PTR: -EBUSY
 * while @call is used, -ENOMEM; @call is untouched then.
 */
struct dyn_ghost *dyn_event_retire(struct trace_event_call *call)
{
	struct dyn_ghost *g = NULL;
	unsigned int nr;
	int ret;

	lockdep_assert_held(&event_mutex);
	nr = dyn_releasing ? 0 : dyn_call_seen(call, NULL);
	if (nr) {
		g = kzalloc(struct_size(g, seen, nr), GFP_KERNEL);
		if (!g)
			return ERR_PTR(-ENOMEM);
		g->nr = nr;
		/* the list cannot change: event_mutex guards instances too */
		dyn_call_seen(call, g);
		call->flags |= TRACE_EVENT_FL_KEEP_TYPE;
	}
	ret = trace_remove_event_call(call);
	if (ret) {
		call->flags &= ~TRACE_EVENT_FL_KEEP_TYPE;
		kfree(g);
		return ERR_PTR(ret);
	}
	return g;
}

/**
 * dyn_event_retired - free a retired event now or once its records are gone
 * @g: what dyn_event_retire() returned for @call
 * @call: the event, removed from every list of its kind
 * @release: frees @call and what its output needs
 *
 * Context: process context, event_mutex held.
 */
void dyn_event_retired(struct dyn_ghost *g, struct trace_event_call *call,
		       void (*release)(struct trace_event_call *call))
{
	lockdep_assert_held(&event_mutex);
	if (!g) {
		release(call);
	} else {
		g->call = call;
		g->release = release;
		list_add_tail(&g->link, &dyn_ghosts);
		dyn_nr_ghosts++;
	}
	dyn_ghosts_reap();
}

int dyn_event_register(struct dyn_event_operations *kind)
{
	if (!kind || !kind->create || !kind->match || !kind->show ||
	    !kind->is_busy || !kind->free)
		return -EINVAL;

	guard(mutex)(&dyn_event_ops_mutex);
	list_add_tail(&kind->list, &dyn_event_kinds);
	return 0;
}

/*
 * Split a delete command's first word, "-:[group/]name" or
 * "<prefix>:[group/]name", in place.  Returns the name, or NULL.
 */
static char *dyn_event_parse_target(char *word, char **group)
{
	char *colon = strchr(word, ':'), *slash;

	*group = NULL;
	if (!colon || (word[0] == '-' && colon != word + 1))
		return NULL;
	slash = strchr(++colon, '/');
	if (slash) {
		*slash = '\0';
		*group = colon;
		return slash + 1;
	}
	return *colon ? colon : NULL;
}

/*
 * Delete the events (of @kind, or any kind when NULL) a delete command
 * names; the words after the name go to match().  Returns -ENOENT when
 * none matched, else 0 or the first refusal.
 */
int dyn_event_release(const char *cmd, struct dyn_event_operations *kind)
{
	struct dyn_event *dev, *next;
	char **words, *group, *name;
	int nr_words, err = -ENOENT;

	words = argv_split(GFP_KERNEL, cmd, &nr_words);
	if (!words)
		return -ENOMEM;
	name = nr_words ? dyn_event_parse_target(words[0], &group) : NULL;
	if (!name) {
		argv_free(words);
		return -EINVAL;
	}

	mutex_lock(&event_mutex);
	dyn_releasing = true;
	list_for_each_entry_safe(dev, next, &dyn_event_list, list) {
		if (kind && dev->ops != kind)
			continue;
		if (dev->ops->match(group, name, nr_words - 1,
				    (const char **)&words[1], dev)) {
			err = dev->ops->free(dev);
			if (err)
				break;
		}
	}
	dyn_releasing = false;
	tracing_reset_all_online_cpus();
	mutex_unlock(&event_mutex);
	argv_free(words);
	return err;
}

/* What a kind's own tracefs file uses to create one of its events. */
int dyn_event_create(const char *cmd, struct dyn_event_operations *kind)
{
	guard(mutex)(&dyn_event_ops_mutex);
	return kind->create(cmd);
}

/* error_log keeps a pointer to the table, read when the log is */
static const char * const dyn_event_errs[] = {
	"No matching dynamic event type",
};

/* One dynamic_events line: a delete, or a definition some kind takes. */
static int dyn_event_command(const char *line)
{
	struct dyn_event_operations *kind;
	int err = -ENODEV;

	if (*line == '-' || *line == '!')
		return dyn_event_release(line, NULL);

	scoped_guard(mutex, &dyn_event_ops_mutex) {
		list_for_each_entry(kind, &dyn_event_kinds, list) {
			err = kind->create(line);
			if (err != -ECANCELED)
				break;
		}
	}
	if (err != -ECANCELED)
		return err;
	/* no kind recognised the line */
	tracing_log_err(NULL, "dynevent", line, (const char **)dyn_event_errs,
			0, 0);
	return -EINVAL;
}

void *dyn_event_seq_start(struct seq_file *seq, loff_t *index)
{
	mutex_lock(&event_mutex);
	return seq_list_start(&dyn_event_list, *index);
}

void *dyn_event_seq_next(struct seq_file *seq, void *cur, loff_t *index)
{
	return seq_list_next(cur, &dyn_event_list, index);
}

void dyn_event_seq_stop(struct seq_file *seq, void *cur)
{
	mutex_unlock(&event_mutex);
}

static int dyn_event_seq_show(struct seq_file *seq, void *cur)
{
	struct dyn_event *dev = cur;

	if (!dev || !dev->ops)
		return 0;
	return dev->ops->show(seq, dev);
}

static const struct seq_operations dyn_event_seq_ops = {
	.show	= dyn_event_seq_show,
	.start	= dyn_event_seq_start,
	.stop	= dyn_event_seq_stop,
	.next	= dyn_event_seq_next,
};

static bool dyn_event_of_kind(struct dyn_event *dev,
			      struct dyn_event_operations *kind)
{
	return !kind || dev->ops == kind;
}

/*
 * Delete every event of @kind (every event when NULL), or none of them:
 * -EBUSY when one is in use.
 */
int dyn_events_release_all(struct dyn_event_operations *kind)
{
	struct dyn_event *dev, *next;
	int err = 0;

	mutex_lock(&event_mutex);
	list_for_each_entry(dev, &dyn_event_list, list) {
		if (dyn_event_of_kind(dev, kind) && dev->ops->is_busy(dev)) {
			err = -EBUSY;
			goto unlock;
		}
	}
	dyn_releasing = true;
	list_for_each_entry_safe(dev, next, &dyn_event_list, list) {
		if (!dyn_event_of_kind(dev, kind))
			continue;
		err = dev->ops->free(dev);
		if (err)
			break;
	}
	dyn_releasing = false;
unlock:
	tracing_reset_all_online_cpus();
	mutex_unlock(&event_mutex);
	return err;
}

static int dynamic_events_open(struct inode *inode, struct file *filp)
{
	bool truncate = (filp->f_mode & FMODE_WRITE) &&
			(filp->f_flags & O_TRUNC);
	int err;

	err = security_locked_down(LOCKDOWN_TRACEFS) ?:
	      tracing_check_open_get_tr(NULL);
	if (!err && truncate)
		err = dyn_events_release_all(NULL);
	return err < 0 ? err : seq_open(filp, &dyn_event_seq_ops);
}

static ssize_t dynamic_events_write(struct file *filp, const char __user *ubuf,
				    size_t len, loff_t *off)
{
	return trace_parse_run_command(filp, ubuf, len, off, dyn_event_command);
}

static const struct file_operations dynamic_events_fops = {
	.owner		= THIS_MODULE,
	.open		= dynamic_events_open,
	.write		= dynamic_events_write,
	.read		= seq_read,
	.llseek		= seq_lseek,
	.release	= seq_release,
};

static __init int dynamic_events_init(void)
{
	if (tracing_init_dentry())
		return 0;
	trace_create_file("dynamic_events", TRACE_MODE_WRITE, NULL, NULL,
			  &dynamic_events_fops);
	return 0;
}
fs_initcall(dynamic_events_init);
