// SPDX-License-Identifier: GPL-2.0-only
/*
 * user_events: the registry of events and their consumers.
 *
 * Copyright (c) 2021, Microsoft Corporation.
 *
 * Authors:
 *   Beau Belgrave <beaub@linux.microsoft.com>
 *
 * An event is created from a parsed command in a group, lives on
 * user_event_list (and in user_event_table, to be found by group and name)
 * and in the trace core (events/<group's system>/<name>/, dynamic_events:
 * events/user_events/<name>/ for the default group) and is destroyed by an
 * explicit delete once nothing references it, or, when transient, once
 * nothing pins nor uses it.  Multi-format events live under
 * events/user_events_multi/<name>.<id>/ (in a group's own system for the
 * other groups), one per distinct field list.  All
 * of this happens under event_mutex; see trace_user.h for the whole
 * locking picture.
 */
#include <linux/hashtable.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/stringhash.h>
#include <linux/workqueue.h>

#include "trace.h"
#include "trace_user.h"

#define CREATE_TRACE_POINTS
#include <trace/events/user_events_registry.h>

/*
 * The default group: the top-level user_events_data and user_events_status,
 * with no folder and no limit but kernel.user_events_max.
 */
struct user_event_group user_event_default_group = {
	.system		= USER_EVENTS_SYSTEM,
	.multi_system	= USER_EVENTS_MULTI_SYSTEM,
	.max		= UINT_MAX,
};

/* All events, in registration order (event_mutex) */
LIST_HEAD(user_event_list);

/*
 * The same events by a hash of their group and name (event_mutex), so
 * that a registration does not walk every event: tens of thousands may
 * exist.  The events of a multi-format name share its bucket.
 */
#define USER_EVENT_HASH_BITS	10
static DEFINE_HASHTABLE(user_event_table, USER_EVENT_HASH_BITS);

/* Suffix of the next multi-format event's name (event_mutex) */
static u64 user_event_multi_id;

/* First wait of the reaper, and the longest between two of its tries */
#define USER_EVENT_REAP_WAIT		(HZ / 50)
#define USER_EVENT_REAP_WAIT_MAX	(10 * HZ)

static void user_event_reap(struct work_struct *work);
static DECLARE_DELAYED_WORK(user_event_reaper, user_event_reap);
/* The reaper's next wait when it finds an orphan in use (event_mutex) */
static unsigned long user_event_reap_wait = USER_EVENT_REAP_WAIT;

/* The trace core asks for our fields through this entry */
static struct trace_event_fields user_event_fields_array[] = {
	{ .type = TRACE_FUNCTION_TYPE,
	  .define_fields = user_event_define_fields },
	{}
};

static bool user_event_is_multi(const struct user_event *ev)
{
	return ev->reg_flags & USER_EVENT_REG_MULTI_FORMAT;
}

/* A transient event nothing pins nor consumes: it is to be destroyed */
static bool user_event_orphaned(const struct user_event *ev)
{
	return ev->transient && refcount_read(&ev->refs) == 1 &&
	       !user_event_consumed(ev);
}

/* Have the reaper look for orphans soon (event_mutex) */
static void user_event_reap_soon(void)
{
	lockdep_assert_held(&event_mutex);
	user_event_reap_wait = USER_EVENT_REAP_WAIT;
	mod_delayed_work(system_wq, &user_event_reaper, USER_EVENT_REAP_WAIT);
}

/* Hash of the group and the event name held in the first len bytes */
static u32 user_event_key(const struct user_event_group *group,
			  const char *name, size_t len)
{
	return full_name_hash(group, name, len);
}

/*
 * The event desc registers as: same name and fields, or -EADDRINUSE for a
 * single-format name declared with other fields.  Single- and multi-format
 * events never match each other.
 */
static struct user_event *user_event_match(struct user_event_group *group,
					   const struct user_event_desc *desc,
					   bool multi)
{
	u32 key = user_event_key(group, desc->name, strlen(desc->name));
	struct user_event *ev;

	lockdep_assert_held(&event_mutex);
	hash_for_each_possible(user_event_table, ev, hnode, key) {
		if (ev->group != group || user_event_is_multi(ev) != multi ||
		    strcmp(ev->desc.name, desc->name))
			continue;
		if (user_event_desc_same_fields(&ev->desc, desc))
			return ev;
		if (!multi)
			return ERR_PTR(-EADDRINUSE);
	}
	return NULL;
}

/*
 * class->reg: ftrace and perf attach or detach; keeps the status bit true.
 * Registration comes with event_mutex held; perf open/close/add/del (the
 * latter from scheduler context) need nothing from us.
 */
static int user_event_reg(struct trace_event_call *call, enum trace_reg type,
			  void *data)
{
	struct user_event *ev = call->data;
	int ret = 0;

	switch (type) {
	case TRACE_REG_REGISTER:
		ret = tracepoint_probe_register(&ev->tp,
						user_event_ftrace_probe, data);
		if (!ret)
			ev->ftrace_users++;
		break;
	case TRACE_REG_UNREGISTER:
		tracepoint_probe_unregister(&ev->tp, user_event_ftrace_probe,
					    data);
		ev->ftrace_users--;
		break;
#ifdef CONFIG_PERF_EVENTS
	case TRACE_REG_PERF_REGISTER:
		ret = user_event_big_bufs_get();
		if (ret)
			break;
		ret = tracepoint_probe_register(&ev->tp, user_event_perf_probe,
						call);
		if (ret) {
			user_event_big_bufs_put();
			break;
		}
		ev->perf_users++;
		break;
	case TRACE_REG_PERF_UNREGISTER:
		tracepoint_probe_unregister(&ev->tp, user_event_perf_probe,
					    call);
		ev->perf_users--;
		user_event_big_bufs_put();
		break;
#endif
	default:
		return 0;
	}
	if (user_event_bit_update(ev))
		trace_user_event_status(ev->tp.name, ev->bit, ev->status_on,
					ev->ftrace_users, ev->perf_users);
	user_event_enablers_update(ev);
	/* Not here: the trace core goes on using the event after reg() */
	if (user_event_orphaned(ev))
		user_event_reap_soon();
	return ret;
}

static void user_event_free(struct user_event *ev)
{
	if (ev->reports_loss)
		user_event_big_bufs_put();
	if (ev->tp.name != ev->desc.name)
		kfree(ev->tp.name);
	kfree(ev->call.print_fmt);
	user_event_desc_free(&ev->desc);
	kfree(ev);
}

/* Make desc a live event of group; desc is consumed whatever the outcome */
static int user_event_create(struct user_event_group *group,
			     struct user_event_desc *desc,
			     const struct user_event_reg_opts *opts,
			     struct user_event **evp)
{
	struct user_event *ev;
	int ret;

	lockdep_assert_held(&event_mutex);
	ev = kzalloc_obj(*ev);
	if (!ev) {
		user_event_desc_free(desc);
		return -ENOMEM;
	}
	ev->desc = *desc;
	memset(desc, 0, sizeof(*desc));
	INIT_LIST_HEAD(&ev->enablers);
	ev->group = group;
	ev->reg_flags = opts->flags & ~USER_EVENT_REG_REPORT_LOSS;
	ev->transient = !opts->keep;
	ev->tp.name = ev->desc.name;
	ev->class.system = group->system;
	if (user_event_is_multi(ev)) {
		ev->tp.name = kasprintf(GFP_KERNEL_ACCOUNT, "%s.%llx",
					ev->desc.name, user_event_multi_id++);
		ev->class.system = group->multi_system;
		if (!ev->tp.name) {
			ev->tp.name = ev->desc.name;
			ret = -ENOMEM;
			goto err_free;
		}
	}

	ev->call.print_fmt = user_event_print_fmt(&ev->desc);
	if (!ev->call.print_fmt) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = user_event_count_add(group);
	if (ret)
		goto err_free;
	if (opts->status_bit) {
		ret = user_event_bit_get(ev);
		if (ret)
			goto err_count;
	}

	/*
	 * Named by its tracepoint, as kernel events are: that is what lets
	 * perf attach BPF tracepoint programs to it.
	 */
	ev->call.tp = &ev->tp;
	ev->call.flags = TRACE_EVENT_FL_TRACEPOINT;
	ev->class.reg = user_event_reg;
	ev->class.fields_array = user_event_fields_array;
	INIT_LIST_HEAD(&ev->class.fields);
	ev->call.class = &ev->class;
	ev->call.event.funcs = &user_event_output_funcs;
	ev->call.data = ev;
	refcount_set(&ev->refs, 1);

	if (!register_trace_event(&ev->call.event)) {
		ret = -ENODEV;
		goto err_count;
	}
	ret = dyn_event_init(&ev->devent, &user_event_dyn_ops);
	if (!ret)
		ret = dyn_event_add(&ev->devent, &ev->call);
	if (ret)
		goto err_type;
	ret = trace_add_event_call(&ev->call);
	if (ret)
		goto err_dyn;

	list_add_tail(&ev->link, &user_event_list);
	hash_add(user_event_table, &ev->hnode,
		 user_event_key(group, ev->desc.name, strlen(ev->desc.name)));
	*evp = ev;
	return 0;

err_dyn:
	dyn_event_remove(&ev->devent);
err_type:
	unregister_trace_event(&ev->call.event);
err_count:
	user_event_bit_put(ev);
	user_event_count_sub(group);
err_free:
	user_event_free(ev);
	return ret;
}

static bool user_event_busy(struct user_event *ev)
{
	return refcount_read(&ev->refs) > 1 || ev->ftrace_users ||
	       ev->perf_users || trace_event_dyn_busy(&ev->call);
}

/* Its records are gone (dyn_event_retired()): nothing prints it any more */
static void user_event_release(struct trace_event_call *call)
{
	user_event_free(call->data);
}

/*
 * Its name, bit and place in the group's count go now; its type and its
 * output stay while records of it may remain in a ring buffer.
 */
static int user_event_destroy(struct user_event *ev)
{
	struct dyn_ghost *ghost;

	lockdep_assert_held(&event_mutex);
	if (user_event_busy(ev))
		return -EBUSY;
	ghost = dyn_event_retire(&ev->call);
	if (IS_ERR(ghost))
		return PTR_ERR(ghost);
	trace_user_event_delete(ev->tp.name, ev->bit);
	dyn_event_remove(&ev->devent);
	list_del(&ev->link);
	hash_del(&ev->hnode);
	user_event_bit_put(ev);
	user_event_count_sub(ev->group);
	dyn_event_retired(ghost, &ev->call, user_event_release);
	return 0;
}

/*
 * Register cmd in group, or find the identical event it names there.  The
 * caller gets a pin it must drop with user_event_put().
 */
int user_event_register_cmd(struct user_event_group *group, const char *cmd,
			    const struct user_event_reg_opts *opts,
			    struct user_event **evp,
			    struct trace_parse_err *perr)
{
	bool multi = opts->flags & USER_EVENT_REG_MULTI_FORMAT;
	bool loss = opts->flags & USER_EVENT_REG_REPORT_LOSS;
	struct user_event_desc desc;
	struct user_event *ev;
	bool created = false;
	int ret;

	ret = user_event_parse(cmd, &desc, perr);
	if (ret)
		return ret;

	guard(mutex)(&event_mutex);
	/* an event that reports loss has the large-record buffers (write) */
	if (loss) {
		ret = user_event_big_bufs_get();
		if (ret) {
			user_event_desc_free(&desc);
			return ret;
		}
	}
	ev = user_event_match(group, &desc, multi);
	if (ev) {
		user_event_desc_free(&desc);
		ret = PTR_ERR_OR_ZERO(ev);
		if (!ret && opts->status_bit)
			ret = user_event_bit_get(ev);
		if (!ret && opts->keep)
			ev->transient = false;
	} else {
		ret = user_event_create(group, &desc, opts, &ev);
		created = !ret;
	}
	if (loss && (ret || ev->reports_loss))
		user_event_big_bufs_put();
	if (ret)
		return ret;
	if (loss)
		ev->reports_loss = true;
	refcount_inc(&ev->refs);
	trace_user_event_register(ev->tp.name, cmd, ev->bit,
				  ev->reg_flags |
				  (loss ? USER_EVENT_REG_REPORT_LOSS : 0),
				  created);
	*evp = ev;
	return 0;
}

/* Pin ev again: the caller holds a pin already (event_mutex) */
void user_event_get(struct user_event *ev)
{
	lockdep_assert_held(&event_mutex);
	refcount_inc(&ev->refs);
}

/*
 * Drop a pin that the caller knows is not the last one (it holds another),
 * without event_mutex: nothing can be destroyed.
 */
void user_event_put_not_last(struct user_event *ev)
{
	refcount_dec(&ev->refs);
}

/*
 * Drop a pin (event_mutex); a transient event goes with its last one, or,
 * if something still uses it, once that is over (user_event_reap()).
 */
void user_event_put(struct user_event *ev)
{
	lockdep_assert_held(&event_mutex);
	refcount_dec(&ev->refs);
	if (user_event_orphaned(ev) && user_event_destroy(ev))
		user_event_reap_soon();
}

/* Destroy the orphans that are idle; try again later for the others */
static void user_event_reap(struct work_struct *work)
{
	struct user_event *ev, *tmp;
	bool again = false;

	guard(mutex)(&event_mutex);
	list_for_each_entry_safe(ev, tmp, &user_event_list, link)
		if (user_event_orphaned(ev) && user_event_destroy(ev))
			again = true;
	if (!again)
		return;
	queue_delayed_work(system_wq, &user_event_reaper, user_event_reap_wait);
	user_event_reap_wait = min(user_event_reap_wait * 2,
				   USER_EVENT_REAP_WAIT_MAX);
}

/**
 * user_event_may_persist() - may the caller make and delete persistent events
 * @group: the group of the events
 *
 * A caller with CAP_PERFMON may, in any group.  In a group other than the
 * default one, so may anyone once its user_events_persist holds 1: the
 * group's creator delegates persistence to whoever may write its
 * user_events_data, bounded by its user_events_max.
 *
 * Return: true when USER_EVENT_REG_PERSIST is the caller's to use.
 */
bool user_event_may_persist(const struct user_event_group *group)
{
	return perfmon_capable() || user_event_group_persist(group);
}

/*
 * May an explicit delete remove ev?  Not while anything uses it (-EBUSY),
 * nor a persistent event unless the caller may make one (-EPERM), tested
 * in that order.
 */
static int user_event_deletable(struct user_event *ev)
{
	lockdep_assert_held(&event_mutex);
	if (user_event_busy(ev))
		return -EBUSY;
	if ((ev->reg_flags & USER_EVENT_REG_PERSIST) &&
	    !user_event_may_persist(ev->group))
		return -EPERM;
	return 0;
}

static int user_event_delete_checked(struct user_event *ev)
{
	return user_event_deletable(ev) ?: user_event_destroy(ev);
}

/*
 * Is ev named name: its registered name, which all the formats of a
 * multi-format name share, or its tracepoint's ("name.<id>")?
 */
static bool user_event_named(const struct user_event *ev, const char *name)
{
	return !strcmp(ev->desc.name, name) || !strcmp(ev->tp.name, name);
}

/*
 * DIAG_IOCSDEL: every event of group the name names, single-format and
 * every format of a multi-format name alike; none while one of them is
 * busy or not the caller's to delete.
 */
int user_event_delete(struct user_event_group *group, const char *name)
{
	u32 key = user_event_key(group, name, strchrnul(name, '.') - name);
	struct user_event *ev;
	struct hlist_node *tmp;
	int ret = -ENOENT;

	guard(mutex)(&event_mutex);
	hash_for_each_possible(user_event_table, ev, hnode, key) {
		if (ev->group != group || !user_event_named(ev, name))
			continue;
		ret = user_event_deletable(ev);
		if (ret)
			return ret;
	}
	hash_for_each_possible_safe(user_event_table, ev, tmp, hnode, key) {
		if (ev->group != group || !user_event_named(ev, name))
			continue;
		ret = user_event_destroy(ev);
		if (ret)
			break;
	}
	return ret;
}

/*
 * rmdir of group: all its events go, or none when one is busy (-EBUSY).
 * The caller holds user_event_group_mutex and no file of group is open,
 * so no registration can add one meanwhile.
 */
int user_event_group_destroy_events(struct user_event_group *group)
{
	struct user_event *ev, *tmp;
	int ret;

	guard(mutex)(&event_mutex);
	list_for_each_entry(ev, &user_event_list, link)
		if (ev->group == group && user_event_busy(ev))
			return -EBUSY;
	list_for_each_entry_safe(ev, tmp, &user_event_list, link) {
		if (ev->group != group)
			continue;
		ret = user_event_destroy(ev);
		if (ret)
			return ret;
	}
	return 0;
}

static struct user_event *user_event_from_devent(struct dyn_event *dev)
{
	return container_of(dev, struct user_event, devent);
}

/*
 * dynamic_events: "u:name fields" creates (or finds) an event.  What an
 * administrator declares there persists (USER_EVENT_REG_PERSIST): only a
 * caller with CAP_PERFMON may make or delete it, even through a file
 * opened by someone who could.
 */
static int user_event_dyn_create(const char *raw)
{
	struct user_event_reg_opts opts = {
		.flags = USER_EVENT_REG_PERSIST,
		.keep = true,
	};
	struct trace_parse_err perr;
	struct user_event *ev;
	int ret;

	if (!str_has_prefix(raw, USER_EVENTS_PREFIX))
		return -ECANCELED;
	if (!perfmon_capable())
		return -EPERM;
	ret = user_event_register_cmd(&user_event_default_group,
				      raw + strlen(USER_EVENTS_PREFIX), &opts,
				      &ev, &perr);
	if (ret == -EINVAL && perr.err != USER_ERR_NONE)
		tracing_log_err(NULL, "user_events", raw, user_event_errs,
				perr.err, perr.pos + strlen(USER_EVENTS_PREFIX));
	if (!ret) {
		guard(mutex)(&event_mutex);
		user_event_put(ev);
	}
	return ret;
}

static int user_event_dyn_show(struct seq_file *m, struct dyn_event *dev)
{
	user_event_show_cmd(m, user_event_from_devent(dev));
	return 0;
}

static bool user_event_dyn_is_busy(struct dyn_event *dev)
{
	return user_event_busy(user_event_from_devent(dev));
}

/* "!u:name" and "-:user_events/name": the checks of DIAG_IOCSDEL */
static int user_event_dyn_free(struct dyn_event *dev)
{
	return user_event_delete_checked(user_event_from_devent(dev));
}

/*
 * "!u:name [fields]": the name, and the fields when given, must match.
 * The name is the registered one, which names every format of a
 * multi-format name, or one format's tracepoint name ("name.<id>").  A
 * system names the group's events by either of its systems
 * ("-:user_events/name" and "-:user_events_multi/name" alike); without
 * one only the default group's events match, another group's are named
 * with theirs ("-:user_events_NAME/name").
 */
static bool user_event_dyn_match(const char *system, const char *event,
				 int argc, const char **argv,
				 struct dyn_event *dev)
{
	struct user_event *ev = user_event_from_devent(dev);
	struct trace_parse_err perr;
	struct user_event_desc desc;
	size_t len = 1;
	bool same;
	char *buf;
	int i;

	if (!system && ev->group != &user_event_default_group)
		return false;
	if (system && strcmp(system, ev->group->system) &&
	    strcmp(system, ev->group->multi_system))
		return false;
	if (!user_event_named(ev, event))
		return false;
	if (!argc)
		return true;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	buf = kzalloc(len, GFP_KERNEL);
	if (!buf)
		return false;
	for (i = 0; i < argc; i++) {
		strcat(buf, argv[i]);
		strcat(buf, " ");
	}
	if (user_event_parse_fields(buf, &desc, &perr)) {
		kfree(buf);
		return false;
	}
	same = user_event_desc_same_fields(&ev->desc, &desc);
	user_event_desc_free(&desc);
	kfree(buf);
	return same;
}

struct dyn_event_operations user_event_dyn_ops = {
	.create		= user_event_dyn_create,
	.show		= user_event_dyn_show,
	.is_busy	= user_event_dyn_is_busy,
	.free		= user_event_dyn_free,
	.match		= user_event_dyn_match,
};
