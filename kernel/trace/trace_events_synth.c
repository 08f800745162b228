// SPDX-License-Identifier: GPL-2.0
/*
 * trace_events_synth - the registry of synthetic events: creating and
 * deleting them from synthetic_events, dynamic_events ("s:") and the
 * in-kernel API, and listing them back.
 *
 * Copyright (C) 2015, 2020 Tom Zanussi <tom.zanussi@linux.intel.com>
 *
 * Every event lives on the dynamic event list under event_mutex (see
 * trace_synth.h).  A definition is parsed whole before anything is
 * allocated, so a refused one creates nothing and logs one error_log
 * entry whose caret points at the word that is wrong.
 */
#include <linux/hashtable.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/stringhash.h>
#include <linux/trace_events.h>
#include <linux/tracefs.h>

#include "trace.h"
#include "trace_synth.h"

static struct dyn_event_operations synth_event_ops;

static inline struct synth_event *to_synth_event(struct dyn_event *dev)
{
	return dev->ops == &synth_event_ops ?
	       container_of(dev, struct synth_event, devent) : NULL;
}

/*
 * The registered events by name: added to and removed from under
 * event_mutex, read under it or, by synth_event_get() in any context,
 * under RCU; an event is freed a grace period after its removal.
 */
static DEFINE_READ_MOSTLY_HASHTABLE(synth_by_name, 6);

static u32 synth_name_hash(const char *name)
{
	return full_name_hash(NULL, name, strlen(name));
}

/* The registered event called @name; event_mutex or RCU held. */
static struct synth_event *synth_lookup(const char *name)
{
	struct synth_event *event;

	hash_for_each_possible_rcu(synth_by_name, event, by_name,
				   synth_name_hash(name),
				   lockdep_is_held(&event_mutex))
		if (!strcmp(event->name, name))
			return event;
	return NULL;
}

struct synth_event *find_synth_event(const char *name)
{
	lockdep_assert_held(&event_mutex);
	return synth_lookup(name);
}

/**
 * synth_event_get - find a synthetic event by name and hold it
 * @name: the event's name, without its "synthetic/" system
 *
 * The event cannot be deleted (that fails with -EBUSY) until
 * synth_event_put().  Hold it no longer than it takes to fire it.
 *
 * Context: any, NMI included; takes no lock.
 * Return: the event, or NULL when no synthetic event has that name or
 * it is being deleted.
 */
struct synth_event *synth_event_get(const char *name)
{
	struct synth_event *event;

	guard(rcu)();
	event = synth_lookup(name);
	return event && refcount_inc_not_zero(&event->holders) ? event : NULL;
}

/**
 * synth_event_put - let go of an event held by synth_event_get()
 * @event: the event
 *
 * Context: any.
 */
void synth_event_put(struct synth_event *event)
{
	/* the registry keeps its own count until it deletes the event */
	refcount_dec(&event->holders);
}

static void synth_event_free(struct synth_event *event)
{
	struct synth_field *f;

	while (event->n_fields) {
		f = event->fields[--event->n_fields];
		kfree(f->name);
		kfree(f->type);
		kfree(f);
	}
	kfree(event->name);
	kfree(event->fields);
	kfree(event);
}

static void synth_event_free_rcu(struct rcu_head *rcu)
{
	synth_event_free(container_of(rcu, struct synth_event, rcu));
}

/*
 * Its records are gone (dyn_event_retired()): nothing prints it any more,
 * and once a grace period ends, synth_event_get() cannot be reading it.
 */
static void synth_event_release(struct trace_event_call *call)
{
	struct synth_event *event = call->data;

	kfree(call->print_fmt);
	call_rcu(&event->rcu, synth_event_free_rcu);
}

/* Build the event @spec describes (not yet registered). */
static struct synth_event *synth_event_alloc(const struct synth_spec *spec)
{
	unsigned int i, n = spec->n_fields;
	struct synth_event *event;

	event = kzalloc_obj(*event);
	if (event)
		event->name = kmemdup_nul(spec->name.start, spec->name.len,
					  GFP_KERNEL);
	if (!event)
		return NULL;
	dyn_event_init(&event->devent, &synth_event_ops);
	event->fields = kcalloc(2 * n, sizeof(*event->fields), GFP_KERNEL);
	if (!event->name || !event->fields)
		goto fail;
	event->dynamic_fields = event->fields + n;
	event->only_nums = true;

	for (i = 0; i < n; i++) {
		const struct synth_spec_field *sf = &spec->fields[i];
		struct synth_field *f = kzalloc_obj(*f);
		bool is_signed;
		u16 size;

		if (!f)
			goto fail;
		event->fields[event->n_fields++] = f;
		f->kind = sf->kind;
		f->field_pos = i;
		f->offset = event->n_u64;
		f->name = kmemdup_nul(sf->name.start, sf->name.len, GFP_KERNEL);
		f->is_dynamic = sf->kind == SYNTH_DYN_STR || sf->kind == SYNTH_STACK;
		f->is_string = sf->kind == SYNTH_STR || sf->kind == SYNTH_DYN_STR;
		f->is_stack = sf->kind == SYNTH_STACK;
		f->type = kasprintf(GFP_KERNEL, "%s%s",
				    f->is_dynamic ? "__data_loc " : "",
				    sf->full_type);
		if (!f->name || !f->type)
			goto fail;
		f->is_signed = !str_has_prefix(f->type, "u") &&
			       strcmp(f->type, "gfp_t");
		f->fmt = "%s";
		f->size = f->is_dynamic ? sizeof(u64) : sf->size;
		if (sf->kind == SYNTH_NUM) {
			synth_type_lookup(f->type, &size, &is_signed, &f->fmt);
			event->num_mask[i] = GENMASK_ULL(f->size * BITS_PER_BYTE - 1, 0);
		} else {
			event->only_nums = false;
		}
		if (sf->kind == SYNTH_STR)
			f->str_len = sf->size;	/* 256 wraps to 0: the whole slot */
		event->n_u64 += sf->kind == SYNTH_STR ?
				STR_VAR_LEN_MAX / sizeof(u64) : 1;
		if (f->is_dynamic)
			event->dynamic_fields[event->n_dynamic_fields++] = f;
	}
	return event;
fail:
	synth_event_free(event);
	return NULL;
}

static void synth_log_err(const char *cmd, int err, int pos)
{
	tracing_log_err(NULL, "synthetic_events", cmd, synth_err_text, err, pos);
}

/*
 * Create the event defined by @cmd, a synthetic_events line or, with
 * @dynevent, a dynamic_events "s:" line; @mod is the creating module.
 */
static int synth_create(const char *cmd, bool dynevent, struct module *mod)
{
	struct synth_spec *spec;
	struct synth_event *event;
	struct trace_parse p;
	char *name = NULL;
	int ret;

	spec = kmalloc_obj(*spec);
	if (!spec)
		return -ENOMEM;
	trace_parse_init(&p, cmd);
	mutex_lock(&event_mutex);
	ret = synth_spec_parse_name(spec, &p, dynevent);
	if (ret)
		goto log;
	ret = -ENOMEM;
	name = kmemdup_nul(spec->name.start, spec->name.len, GFP_KERNEL);
	if (!name)
		goto out;
	if (find_synth_event(name)) {
		trace_parse_fail(&spec->err, SYNTH_ERR_EVENT_EXISTS,
				 spec->name.pos);
		ret = -EEXIST;
		goto log;
	}
	ret = synth_spec_parse_fields(spec, &p);
	if (ret)
		goto log;

	ret = -ENOMEM;
	event = synth_event_alloc(spec);
	if (!event)
		goto out;
	event->mod = mod;
	ret = synth_event_setup_call(event);
	if (ret) {
		synth_event_free(event);
		goto out;
	}
	dyn_event_add(&event->devent, &event->call);
	refcount_set(&event->holders, 1);
	hash_add_rcu(synth_by_name, &event->by_name,
		     synth_name_hash(event->name));
	goto out;
log:
	synth_log_err(cmd, spec->err.err, spec->err.pos);
out:
	mutex_unlock(&event_mutex);
	kfree(name);
	kfree(spec);
	return ret;
}

/*
 * Whether something uses @event: a histogram's trace() action, an open
 * file of it, a consumer (enabled, perf, or a trigger holding it in soft
 * mode) registered on its tracepoint, or a holder of synth_event_get().
 * All but the last change under event_mutex, which the caller holds;
 * synth_destroy() makes sure of the last.
 */
static bool synth_event_busy(struct synth_event *event)
{
	lockdep_assert_held(&event_mutex);
	return event->ref || trace_event_dyn_busy(&event->call) ||
	       rcu_access_pointer(event->tp->funcs) ||
	       refcount_read(&event->holders) > 1;
}

/* Delete @event unless something uses it.  Called with event_mutex. */
static int synth_destroy(struct synth_event *event)
{
	struct dyn_ghost *ghost;

	lockdep_assert_held(&event_mutex);

	/* From the registry's count dropped to 0, nobody gets the event */
	if (synth_event_busy(event) || !refcount_dec_if_one(&event->holders))
		return -EBUSY;
	ghost = synth_event_remove_call(event);
	if (IS_ERR(ghost)) {
		refcount_set(&event->holders, 1);
		return PTR_ERR(ghost);
	}
	hash_del_rcu(&event->by_name);
	dyn_event_remove(&event->devent);
	dyn_event_retired(ghost, &event->call, synth_event_release);
	return 0;
}

/**
 * synth_event_delete - delete a synthetic event by name
 * @event_name: the event's name, without its "synthetic/" system
 *
 * Removes the event from events/synthetic/ and dynamic_events and frees
 * it, unless something still uses it: a histogram action that fires it,
 * an open file of it, or a consumer on its tracepoint (tracing, perf, or
 * a trigger keeping it in soft mode).  When a module created the event,
 * the trace buffers are cleared afterwards, since the records it left
 * could no longer be printed once the module is gone.
 *
 * Context: process context; takes event_mutex.
 *
 * Return: 0 when the event was deleted, -ENOENT when no synthetic event
 * has that name, -EBUSY while it is in use, or another error from
 * removing its event call.
 */
int synth_event_delete(const char *event_name)
{
	struct synth_event *victim;
	bool had_module = false;
	int ret = -ENOENT;

	scoped_guard(mutex, &event_mutex) {
		victim = find_synth_event(event_name);
		if (victim) {
			had_module = victim->mod;
			ret = synth_destroy(victim);
		}
	}

	/*
	 * The print side of a module's events goes with the module: drop
	 * the records it could no longer print.
	 */
	if (!ret && had_module)
		tracing_reset_all_online_cpus();
	return ret;
}
EXPORT_SYMBOL_GPL(synth_event_delete);

/* One line of synthetic_events: a definition or "!name". */
static int synth_events_command(const char *cmd)
{
	size_t len;
	char *name;
	int ret;

	cmd = skip_spaces(cmd);
	if (!*cmd)
		return 0;
	if (*cmd != '!')
		return synth_create(cmd, false, NULL);

	len = strcspn(cmd + 1, " \t");
	name = kmemdup_nul(cmd + 1, len, GFP_KERNEL);
	if (!name)
		return -ENOMEM;
	ret = synth_event_delete(name);
	kfree(name);
	return ret;
}

/* dynamic_events operations */

static int synth_dyn_create(const char *line)
{
	line = skip_spaces(line);
	if (!*line)
		return 0;
	return str_has_prefix(line, "s:") ? synth_create(line, true, NULL) :
					    -ECANCELED;
}

static int synth_dyn_show(struct seq_file *seq, struct dyn_event *dev)
{
	seq_puts(seq, "s:" SYNTH_SYSTEM "/");
	synth_event_print_def(seq, to_synth_event(dev));
	return 0;
}

static bool synth_dyn_is_busy(struct dyn_event *dev)
{
	return synth_event_busy(to_synth_event(dev));
}

static int synth_dyn_free(struct dyn_event *dev)
{
	return synth_destroy(to_synth_event(dev));
}

static bool synth_dyn_match(const char *group, const char *name, int argc,
			    const char **argv, struct dyn_event *dev)
{
	if (group && strcmp(group, SYNTH_SYSTEM))
		return false;
	return !strcmp(to_synth_event(dev)->name, name);
}

static struct dyn_event_operations synth_event_ops = {
	.create		= synth_dyn_create,
	.match		= synth_dyn_match,
	.show		= synth_dyn_show,
	.is_busy	= synth_dyn_is_busy,
	.free		= synth_dyn_free,
};

/* The in-kernel API: definitions built with dynevent_cmd. */

static int synth_run_command(struct dynevent_cmd *dcmd)
{
	return synth_create(skip_spaces(dcmd->seq.buffer), false,
			    dcmd->private_data);
}

/**
 * synth_event_cmd_init - set up a command that defines a synthetic event
 * @dcmd: the command
 * @text: the caller's buffer for the definition's text
 * @size: bytes in @text; MAX_DYNEVENT_CMD_LEN is the usual size
 *
 * The definition then gets its name and first fields from
 * synth_event_gen_cmd_start() or synth_event_gen_cmd_array_start(), more
 * fields from the synth_event_add_field*() functions, and becomes an
 * event with synth_event_gen_cmd_end().
 */
void synth_event_cmd_init(struct dynevent_cmd *dcmd, char *text, int size)
{
	dynevent_cmd_init(dcmd, text, size, DYNEVENT_TYPE_SYNTH, synth_run_command);
}
EXPORT_SYMBOL_GPL(synth_event_cmd_init);

/* Veto a type the definition parser will not take: not a number nor an array. */
static int synth_check_type(void *piece)
{
	const char *type = ((struct dynevent_arg_pair *)piece)->lhs;
	const char *unused_fmt;
	bool unused_sign;
	u16 unused_size;

	if (strchr(type, '['))
		return 0;
	return synth_type_lookup(type, &unused_size, &unused_sign, &unused_fmt);
}

/*
 * Has @dcmd room for one more field?  A definition has at most 64, and a
 * field refused for it leaves nothing in the command.
 */
static bool synth_cmd_room(struct dynevent_cmd *dcmd)
{
	return dcmd->n_fields < SYNTH_FIELDS_MAX;
}

static bool synth_cmd_ok(struct dynevent_cmd *dcmd)
{
	return dcmd->type == DYNEVENT_TYPE_SYNTH;
}

/**
 * synth_event_add_field - add a field to a synthetic event definition
 * @dcmd: a started command (synth_event_gen_cmd_start())
 * @type: the field's type: a number ("u64", "s32", "unsigned long",
 *	"pid_t", ...), "char[N]" for a string of at most N bytes stored in
 *	the record, "char[]" for a string of any length, or "long[]" for a
 *	stack trace
 * @field: the field's name
 *
 * Appends " type field;" to the definition.  A type that is neither a
 * known number nor an array is refused at once; an array's form is
 * checked when the event is created.
 *
 * Return: 0, -EINVAL for a command of another kind, a missing argument,
 * an unknown type or a field past SYNTH_FIELDS_MAX, or -E2BIG when the
 * buffer is full.
 */
int synth_event_add_field(struct dynevent_cmd *dcmd, const char *type,
			  const char *field)
{
	struct dynevent_arg_pair piece;
	int err;

	if (!synth_cmd_ok(dcmd) || !type || !field || !synth_cmd_room(dcmd))
		return -EINVAL;
	dynevent_arg_pair_init(&piece, 0, ';');
	piece.lhs = type;
	piece.rhs = field;
	err = dynevent_arg_pair_add(dcmd, &piece, synth_check_type);
	if (!err)
		dcmd->n_fields++;
	return err;
}
EXPORT_SYMBOL_GPL(synth_event_add_field);

/**
 * synth_event_add_field_str - add a field given as "type name" text
 * @dcmd: a started command (synth_event_gen_cmd_start())
 * @decl: the field as a definition writes it ("u64 lat",
 *	"char comm[16]")
 *
 * Appends @decl and a ';' as they are.  Nothing in @decl is checked
 * before the event is created.
 *
 * Return: 0, -EINVAL for a command of another kind, a missing @decl or
 * a field past SYNTH_FIELDS_MAX, or -E2BIG when the buffer is full.
 */
int synth_event_add_field_str(struct dynevent_cmd *dcmd, const char *decl)
{
	struct dynevent_arg piece;
	int err;

	if (!synth_cmd_ok(dcmd) || !decl || !synth_cmd_room(dcmd))
		return -EINVAL;
	dynevent_arg_init(&piece, ';');
	piece.str = decl;
	err = dynevent_arg_add(dcmd, &piece, NULL);
	if (!err)
		dcmd->n_fields++;
	return err;
}
EXPORT_SYMBOL_GPL(synth_event_add_field_str);

/**
 * synth_event_add_fields - add the fields of an array of descriptions
 * @dcmd: a started command (synth_event_gen_cmd_start())
 * @descs: the fields, each a type and a name as synth_event_add_field()
 *	takes them
 * @count: the number of entries in @descs
 *
 * Adds the fields in order and stops at the first error; the fields
 * added before it stay in the definition.
 *
 * Return: 0, -EINVAL for an entry without a type or a name, or the
 * first error of synth_event_add_field().
 */
int synth_event_add_fields(struct dynevent_cmd *dcmd,
			   struct synth_field_desc *descs, unsigned int count)
{
	int err = 0;

	while (count-- && !err) {
		err = descs->type && descs->name ?
		      synth_event_add_field(dcmd, descs->type, descs->name) :
		      -EINVAL;
		descs++;
	}
	return err;
}
EXPORT_SYMBOL_GPL(synth_event_add_fields);

/* Start @dcmd with the event's name; @owner is recorded for the event. */
static int synth_cmd_start(struct dynevent_cmd *dcmd, const char *event_name,
			   struct module *owner)
{
	struct dynevent_arg piece;

	if (!synth_cmd_ok(dcmd) || !event_name)
		return -EINVAL;
	dcmd->private_data = owner;
	dcmd->event_name = event_name;
	dynevent_arg_init(&piece, 0);
	piece.str = event_name;
	return dynevent_arg_add(dcmd, &piece, NULL);
}

/**
 * __synth_event_gen_cmd_start - name a synthetic event and add fields
 * @dcmd: a command set up by synth_event_cmd_init()
 * @event_name: the event's name
 * @owner: the module that creates the event, or NULL; enabling the
 *	event holds a reference on it
 * @...: pairs of strings, a type and a field name each (see
 *	synth_event_add_field()), ended by a NULL
 *
 * Callers use synth_event_gen_cmd_start(), which appends the NULL.
 *
 * Return: 0, -EINVAL for a command of another kind or no name, -E2BIG
 * when the name does not fit, or the first error of adding a field.
 */
int __synth_event_gen_cmd_start(struct dynevent_cmd *dcmd,
				const char *event_name, struct module *owner, ...)
{
	const char *type, *field;
	va_list ap;
	int err;

	err = synth_cmd_start(dcmd, event_name, owner);
	va_start(ap, owner);
	while (!err && (type = va_arg(ap, const char *)) &&
	       (field = va_arg(ap, const char *)))
		err = synth_event_add_field(dcmd, type, field);
	va_end(ap);
	return err;
}
EXPORT_SYMBOL_GPL(__synth_event_gen_cmd_start);

/**
 * synth_event_gen_cmd_array_start - name a synthetic event and add fields
 *	from an array
 * @dcmd: a command set up by synth_event_cmd_init()
 * @event_name: the event's name
 * @owner: the module that creates the event, or NULL; enabling the
 *	event holds a reference on it
 * @descs: the first fields, as synth_event_add_fields() takes them
 * @count: the number of entries in @descs
 *
 * Return: 0, -EINVAL for more than SYNTH_FIELDS_MAX fields, a command of
 * another kind or no name, -E2BIG when the name does not fit, or the
 * first error of adding a field.
 */
int synth_event_gen_cmd_array_start(struct dynevent_cmd *dcmd,
				    const char *event_name,
				    struct module *owner,
				    struct synth_field_desc *descs,
				    unsigned int count)
{
	int err = count <= SYNTH_FIELDS_MAX ? 0 : -EINVAL;

	err = err ?: synth_cmd_start(dcmd, event_name, owner);
	return err ?: synth_event_add_fields(dcmd, descs, count);
}
EXPORT_SYMBOL_GPL(synth_event_gen_cmd_array_start);

/**
 * synth_event_create - create a synthetic event in one call
 * @event_name: the event's name
 * @descs: its fields, as synth_event_add_fields() takes them
 * @count: the number of entries in @descs
 * @owner: the module that creates the event, or NULL; enabling the
 *	event holds a reference on it
 *
 * Builds the definition in a buffer of MAX_DYNEVENT_CMD_LEN bytes of its
 * own and creates the event from it.  A definition the parser refuses
 * is also reported in error_log.
 *
 * Context: process context; takes event_mutex.
 *
 * Return: 0 when the event was created, -EEXIST when a synthetic event
 * of that name exists, -EINVAL for a bad name, type or field, -E2BIG
 * when the definition does not fit the buffer, -ENOMEM, or the error of
 * registering the new event.
 */
int synth_event_create(const char *event_name, struct synth_field_desc *descs,
		       unsigned int count, struct module *owner)
{
	struct dynevent_cmd dcmd;
	char *text;
	int err;

	text = kzalloc(MAX_DYNEVENT_CMD_LEN, GFP_KERNEL);
	if (!text)
		return -ENOMEM;
	synth_event_cmd_init(&dcmd, text, MAX_DYNEVENT_CMD_LEN);
	err = synth_event_gen_cmd_array_start(&dcmd, event_name, owner, descs,
					      count);
	err = err ?: synth_event_gen_cmd_end(&dcmd);
	kfree(text);
	return err;
}
EXPORT_SYMBOL_GPL(synth_event_create);

/* The synthetic_events file: the dynamic_events walk, synthetic ones only. */

static int synthetic_events_show(struct seq_file *seq, void *cur)
{
	struct dyn_event *dev = cur;

	if (dev->ops == &synth_event_ops)
		synth_event_print_def(seq, to_synth_event(dev));
	return 0;
}

static const struct seq_operations synthetic_events_seq_ops = {
	.show	= synthetic_events_show,
	.start	= dyn_event_seq_start,
	.stop	= dyn_event_seq_stop,
	.next	= dyn_event_seq_next,
};

static int synthetic_events_open(struct inode *inode, struct file *filp)
{
	bool truncate = (filp->f_mode & FMODE_WRITE) &&
			(filp->f_flags & O_TRUNC);
	int err = security_locked_down(LOCKDOWN_TRACEFS);

	if (!err && truncate)
		err = dyn_events_release_all(&synth_event_ops);
	return err < 0 ? err : seq_open(filp, &synthetic_events_seq_ops);
}

static ssize_t synthetic_events_write(struct file *filp,
				      const char __user *ubuf, size_t len,
				      loff_t *off)
{
	return trace_parse_run_command(filp, ubuf, len, off,
				       synth_events_command);
}

static const struct file_operations synthetic_events_fops = {
	.open		= synthetic_events_open,
	.read		= seq_read,
	.write		= synthetic_events_write,
	.llseek		= seq_lseek,
	.release	= seq_release,
};

#ifdef CONFIG_MODULES
/*
 * A module going away takes the events it created and did not delete
 * with it.  One still in use (a histogram's action traces it, a file of
 * it is open) stays, cut loose from the module: nothing of the event is
 * module code, and its ->mod must not name a freed module when it is
 * next enabled.  Enabling and perf pin the module, so none of them is
 * enabled or open by perf.
 */
static int synth_module_going(struct notifier_block *nb, unsigned long state,
			      void *data)
{
	struct dyn_event *dev, *next;
	struct synth_event *event;

	if (state != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	guard(mutex)(&event_mutex);
	list_for_each_entry_safe(dev, next, &dyn_event_list, list) {
		event = to_synth_event(dev);
		if (event && event->mod == data && synth_destroy(event))
			event->mod = NULL;
	}
	return NOTIFY_DONE;
}

static struct notifier_block synth_module_nb = {
	.notifier_call = synth_module_going,
};
#endif /* CONFIG_MODULES */

/* Register early so boot-time tracing can define events. */
static __init int synth_events_register(void)
{
	int err = dyn_event_register(&synth_event_ops);

	if (err) {
		pr_warn("synthetic events: registry refused them (%d)\n", err);
		return err;
	}
#ifdef CONFIG_MODULES
	err = register_module_notifier(&synth_module_nb);
	if (err)
		pr_warn("synthetic events: no module notifier (%d)\n", err);
#endif
	return err;
}
core_initcall(synth_events_register);

static __init int synthetic_events_file_init(void)
{
	if (tracing_init_dentry())
		return 0;
	if (!tracefs_create_file("synthetic_events", TRACE_MODE_WRITE, NULL,
				 NULL, &synthetic_events_fops))
		pr_warn("synthetic events: no tracefs file synthetic_events\n");
	return 0;
}
fs_initcall(synthetic_events_file_init);
