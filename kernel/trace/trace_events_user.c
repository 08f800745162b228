// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: the registry of events and their consumers.
 *
 * An event is created from a parsed command, lives on user_event_list and
 * in the trace core (events/user_events/<name>/, dynamic_events) and is
 * destroyed only by an explicit delete once nothing references it.  All of
 * this happens under event_mutex; see trace_events_user.h for the whole
 * locking picture.
 */
#include <linux/slab.h>
#include <linux/string.h>

#include "trace.h"
#include "trace_events_user.h"

/* All events, in registration order (event_mutex) */
LIST_HEAD(user_event_list);

/* The trace core asks for our fields through this entry */
static struct trace_event_fields user_event_fields_array[] = {
	{ .type = TRACE_FUNCTION_TYPE,
	  .define_fields = user_event_define_fields },
	{}
};

static struct user_event *user_event_find(const char *name)
{
	struct user_event *ev;

	lockdep_assert_held(&event_mutex);
	list_for_each_entry(ev, &user_event_list, link)
		if (!strcmp(ev->desc.name, name))
			return ev;
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
		ret = tracepoint_probe_register(&ev->tp, user_event_perf_probe,
						call);
		if (!ret)
			ev->perf_users++;
		break;
	case TRACE_REG_PERF_UNREGISTER:
		tracepoint_probe_unregister(&ev->tp, user_event_perf_probe,
					    call);
		ev->perf_users--;
		break;
#endif
	default:
		return 0;
	}
	user_event_bit_update(ev);
	return ret;
}

static void user_event_free(struct user_event *ev)
{
	kfree(ev->call.print_fmt);
	user_event_desc_free(&ev->desc);
	kfree(ev);
}

/* Make desc a live event; desc is consumed whatever the outcome */
static int user_event_create(struct user_event_desc *desc,
			     struct user_event **evp)
{
	struct user_event *ev;
	int ret;

	lockdep_assert_held(&event_mutex);
	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev) {
		user_event_desc_free(desc);
		return -ENOMEM;
	}
	ev->desc = *desc;
	memset(desc, 0, sizeof(*desc));

	ev->call.print_fmt = user_event_print_fmt(&ev->desc);
	if (!ev->call.print_fmt) {
		ret = -ENOMEM;
		goto err_free;
	}
	ret = user_event_bit_alloc(&ev->bit);
	if (ret)
		goto err_free;

	ev->tp.name = ev->desc.name;
	ev->class.system = USER_EVENTS_SYSTEM;
	ev->class.reg = user_event_reg;
	ev->class.fields_array = user_event_fields_array;
	INIT_LIST_HEAD(&ev->class.fields);
	ev->call.class = &ev->class;
	ev->call.name = ev->desc.name;
	ev->call.event.funcs = &user_event_output_funcs;
	ev->call.data = ev;
	refcount_set(&ev->refs, 1);

	if (!register_trace_event(&ev->call.event)) {
		ret = -ENODEV;
		goto err_bit;
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
	*evp = ev;
	return 0;

err_dyn:
	dyn_event_remove(&ev->devent);
err_type:
	unregister_trace_event(&ev->call.event);
err_bit:
	user_event_bit_free(ev->bit);
err_free:
	user_event_free(ev);
	return ret;
}

static bool user_event_busy(struct user_event *ev)
{
	return refcount_read(&ev->refs) > 1 || ev->ftrace_users ||
	       ev->perf_users || trace_event_dyn_busy(&ev->call);
}

static int user_event_destroy(struct user_event *ev)
{
	int ret;

	lockdep_assert_held(&event_mutex);
	if (user_event_busy(ev))
		return -EBUSY;
	ret = trace_remove_event_call(&ev->call);
	if (ret)
		return ret;
	dyn_event_remove(&ev->devent);
	list_del(&ev->link);
	user_event_bit_free(ev->bit);
	user_event_free(ev);
	return 0;
}

/*
 * Register cmd, or find the identical event it names.  With pin the caller
 * gets a reference it must drop with refcount_dec().
 */
int user_event_register_cmd(const char *cmd, bool pin, struct user_event **evp,
			    struct user_event_parse_err *perr)
{
	struct user_event_desc desc;
	struct user_event *ev;
	int ret;

	ret = user_event_parse(cmd, &desc, perr);
	if (ret)
		return ret;

	guard(mutex)(&event_mutex);
	ev = user_event_find(desc.name);
	if (ev) {
		ret = user_event_desc_same_fields(&ev->desc, &desc) ?
		      0 : -EADDRINUSE;
		user_event_desc_free(&desc);
	} else {
		ret = user_event_create(&desc, &ev);
	}
	if (ret)
		return ret;
	if (pin)
		refcount_inc(&ev->refs);
	*evp = ev;
	return 0;
}

int user_event_delete(const char *name)
{
	struct user_event *ev;

	guard(mutex)(&event_mutex);
	ev = user_event_find(name);
	if (!ev)
		return -ENOENT;
	return user_event_destroy(ev);
}

static struct user_event *user_event_from_devent(struct dyn_event *dev)
{
	return container_of(dev, struct user_event, devent);
}

/* dynamic_events: "u:name fields" creates (or finds) an event */
static int user_event_dyn_create(const char *raw)
{
	struct user_event_parse_err perr;
	struct user_event *ev;
	int ret;

	if (!str_has_prefix(raw, USER_EVENTS_PREFIX))
		return -ECANCELED;
	ret = user_event_register_cmd(raw + strlen(USER_EVENTS_PREFIX), false,
				      &ev, &perr);
	if (ret == -EINVAL && perr.err != USER_ERR_NONE)
		tracing_log_err(NULL, "user_events", raw, user_event_errs,
				perr.err, perr.pos + strlen(USER_EVENTS_PREFIX));
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

static int user_event_dyn_free(struct dyn_event *dev)
{
	return user_event_destroy(user_event_from_devent(dev));
}

/* "!u:name [fields]": the name, and the fields when given, must match */
static bool user_event_dyn_match(const char *system, const char *event,
				 int argc, const char **argv,
				 struct dyn_event *dev)
{
	struct user_event *ev = user_event_from_devent(dev);
	struct user_event_parse_err perr;
	struct user_event_desc desc;
	size_t len = 1;
	bool same;
	char *buf;
	int i;

	if (system && strcmp(system, USER_EVENTS_SYSTEM))
		return false;
	if (strcmp(event, ev->desc.name))
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
