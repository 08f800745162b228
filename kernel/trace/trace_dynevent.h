/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_dynevent.h - the registry of dynamic events and the dynevent_cmd
 * builder of their definitions.
 *
 * Each kind of dynamic event (kprobes, uprobes, eprobes, fprobes, user
 * events, synthetic events) registers a struct dyn_event_operations and
 * puts each event it creates on dyn_event_list.  The dynamic_events file
 * hands a new definition to each kind in turn until one accepts it (the
 * others answer -ECANCELED), deletes with "-:[system/]name" or
 * "!<prefix>:[system/]name", and lists every event through its kind's
 * show().
 *
 * Locking: dyn_event_list is guarded by event_mutex; the list of kinds
 * and the create() calls by dyn_event_ops_mutex, taken first.
 */
#ifndef __TRACE_DYNEVENT_REGISTRY_H
#define __TRACE_DYNEVENT_REGISTRY_H

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>

#include "trace.h"

struct dyn_event;

/* One kind of dynamic event: how to create, list, match and delete it. */
struct dyn_event_operations {
	/* a dynamic_events line: 0, an error, or -ECANCELED (not this kind) */
	int (*create)(const char *cmd);
	/* does a delete command name @dev?  @group is NULL when not given */
	bool (*match)(const char *group, const char *name, int argc,
		      const char **argv, struct dyn_event *dev);
	/* print @dev as one dynamic_events line */
	int (*show)(struct seq_file *seq, struct dyn_event *dev);
	/* @dev is in use, so it may not be deleted */
	bool (*is_busy)(struct dyn_event *dev);
	/* delete @dev, event_mutex held; may refuse (-EBUSY) */
	int (*free)(struct dyn_event *dev);
	/* on the list of kinds; dyn_event_ops_mutex */
	struct list_head	list;
};

int dyn_event_register(struct dyn_event_operations *kind);

/* Serializes registration and every create(); taken before event_mutex. */
extern struct mutex dyn_event_ops_mutex;

/* Embedded in every dynamic event. */
struct dyn_event {
	/* first: the seq_file walk hands out &list as the event itself */
	struct list_head		list;	/* on dyn_event_list; event_mutex */
	struct dyn_event_operations	*ops;	/* its kind */
};

int dyn_event_init(struct dyn_event *dev, struct dyn_event_operations *kind);

/* Every dynamic event of every kind; event_mutex. */
extern struct list_head dyn_event_list;

int dyn_event_add(struct dyn_event *dev, struct trace_event_call *call);
void dyn_event_remove(struct dyn_event *dev);

/* The seq_file walk of dyn_event_list (holds event_mutex start to stop). */
void *dyn_event_seq_start(struct seq_file *seq, loff_t *index);
void *dyn_event_seq_next(struct seq_file *seq, void *cur, loff_t *index);
void dyn_event_seq_stop(struct seq_file *seq, void *cur);

int dyn_events_release_all(struct dyn_event_operations *kind);

struct dyn_ghost;
struct dyn_ghost *dyn_event_retire(struct trace_event_call *call);
void dyn_event_retired(struct dyn_ghost *g, struct trace_event_call *call,
		       void (*release)(struct trace_event_call *call));
int dyn_event_release(const char *cmd, struct dyn_event_operations *kind);
int dyn_event_create(const char *cmd, struct dyn_event_operations *kind);

/* Walk dyn_event_list; the caller holds event_mutex. */
#define for_each_dyn_event(dev)	\
	list_for_each_entry(dev, &dyn_event_list, list)
#define for_each_dyn_event_safe(dev, next)	\
	list_for_each_entry_safe(dev, next, &dyn_event_list, list)

/*
 * dynevent_cmd (struct dynevent_cmd is in <linux/trace_events.h>): a
 * definition written piece by piece into a caller's buffer and run by its
 * kind's run_command().  Every add is all or nothing: a piece that would
 * not fit returns -E2BIG and leaves the text unchanged and terminated.
 */
void dynevent_cmd_init(struct dynevent_cmd *cmd, char *buf, int maxlen,
		       enum dynevent_type kind, dynevent_create_fn_t run);

/* An optional veto on a piece before it is added (0 accepts it). */
typedef int (*dynevent_check_arg_fn_t)(void *piece);

/* Added as " <str><separator>". */
struct dynevent_arg {
	const char	*str;
	char		separator;	/* ';', ',' or a blank */
};

void dynevent_arg_init(struct dynevent_arg *piece, char sep);

/* Added as " <lhs><operator><rhs><separator>", e.g. " u64 lat;". */
struct dynevent_arg_pair {
	const char	*lhs, *rhs;
	char		operator;	/* '=' or a blank */
	char		separator;	/* ';', ',' or a blank */
};

void dynevent_arg_pair_init(struct dynevent_arg_pair *piece, char op, char sep);
int dynevent_arg_add(struct dynevent_cmd *cmd, struct dynevent_arg *piece,
		     dynevent_check_arg_fn_t check);
int dynevent_arg_pair_add(struct dynevent_cmd *cmd,
			  struct dynevent_arg_pair *piece,
			  dynevent_check_arg_fn_t check);
int dynevent_str_add(struct dynevent_cmd *cmd, const char *text);

#endif /* __TRACE_DYNEVENT_REGISTRY_H */
