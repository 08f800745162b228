// SPDX-License-Identifier: GPL-2.0
/*
 * trace_synth.h - synthetic events: the interface the histogram engine
 * uses for onmatch().trace() and friends, and the one internal header of
 * the synthetic event files.
 *
 * The files by role:
 *   trace_synth_parse.c  - a definition ("name type field; ...") read into
 *                          a struct synth_spec, with an error and a column
 *   trace_synth_event.c  - field types, the format and print side, and the
 *                          hot path: writing one event into the ring buffer
 *   trace_events_synth.c - the registry: create and delete, the
 *                          synthetic_events file, dynamic_events ops and
 *                          the in-kernel API built on dynevent_cmd
 *
 * Locking.  Events are created, looked up and deleted under event_mutex,
 * which also guards synth_event.ref (the histogram engine counts its
 * references there).  The definition of an event never changes while it
 * exists.  Tracing an event runs from any context, including a histogram
 * trigger inside another event: it only reads the definition, reserves
 * space in the ring buffer (nested, since it may run within another
 * event's write) or perf's per-CPU buffer and copies values in.  It
 * allocates nothing and takes no lock; an event cannot be deleted while
 * it is enabled, referenced by a histogram or open by perf (perf holds a
 * reference on the event call and a probe on its tracepoint from
 * perf_event_open() to the last close), so the definition outlives every
 * writer.  A writer that finds the event by name outside event_mutex (a
 * BPF program, trace_synth_bpf.c) holds it with synth_event_get(), which
 * blocks deletion the same way until synth_event_put().
 */
#ifndef _KERNEL_TRACE_SYNTH_H
#define _KERNEL_TRACE_SYNTH_H

#include "trace_dynevent.h"
#include "trace_parse.h"

/* How a field's value is stored in the record. */
enum synth_kind {
	SYNTH_NUM,		/* a number of 1, 2, 4 or 8 bytes */
	SYNTH_STR,		/* char[N]: STR_VAR_LEN_MAX bytes in place */
	SYNTH_DYN_STR,		/* char[]: __data_loc, copied after the fields */
	SYNTH_STACK,		/* long[]: __data_loc array of return addresses */
};

#define SYNTH_SYSTEM		"synthetic"	/* their events/ folder */
struct synth_event;
#define SYNTH_FIELDS_MAX	64
struct synth_field;
/* Bytes reserved for a static string; a multiple of sizeof(u64). */
#define STR_VAR_LEN_MAX		MAX_FILTER_STR_VAL

/* One field of an event.  Read by the histogram engine; never changes. */
struct synth_field {
	char			*name;
	char			*type;		/* as the format file shows it */
	const char		*fmt;		/* printf conversion of the value */
	u8			kind;		/* enum synth_kind */
	u8			str_len;	/* char[N]: N (1..255), 0 for 256 */
	bool			is_signed, is_string;	/* char[N] or char[] */
	bool			is_dynamic, is_stack;	/* __data_loc; long[] */
	unsigned int		field_pos;	/* index in synth_event.fields */
	unsigned int		offset;		/* its first u64 slot in the record */
	size_t			size;		/* bytes of the value (8 for __data_loc) */
};

/* A synthetic event.  Everything but ref is fixed once registered. */
struct synth_event {
	char			*name;
	/* histogram actions tracing it, which block its deletion; event_mutex */
	int			ref;
	/* the last walk of the histograms' loop check to see it; event_mutex */
	unsigned int		walk;
	unsigned int		n_fields, n_dynamic_fields;
	struct synth_field	**fields;		/* in definition order */
	struct synth_field	**dynamic_fields;	/* those with __data_loc */
	unsigned int		n_u64;	/* fixed part of the record, in u64 */
	/*
	 * every field a number, in slot i: the bits of each one's width
	 * (0xff for a u8, ~0 for a u64), read without fields[]
	 */
	bool			only_nums;
	u64			num_mask[SYNTH_FIELDS_MAX];
	struct tracepoint	*tp;	/* fired by histogram actions */
	struct tracepoint	tracepoint;	/* what tp points to */
	struct trace_event_call	call;
	struct trace_event_class class;
	struct module		*mod;	/* its creator, pinned while traced */
	struct dyn_event	devent;	/* on dyn_event_list; event_mutex */
	/*
	 * Lookups from any context: one count while registered, one more
	 * for each holder of synth_event_get(), who blocks deletion
	 */
	refcount_t		holders;
	struct hlist_node	by_name;	/* in synth_by_name; RCU */
	struct rcu_head		rcu;		/* freed after a grace period */
};

/* The error_log messages of synthetic events (trace_synth_parse.c). */
enum synth_err {
	SYNTH_ERR_BAD_NAME,
	SYNTH_ERR_INVALID_CMD,
	SYNTH_ERR_INVALID_DYN_CMD,
	SYNTH_ERR_EVENT_EXISTS,
	SYNTH_ERR_TOO_MANY_FIELDS,
	SYNTH_ERR_INCOMPLETE_TYPE,
	SYNTH_ERR_INVALID_TYPE,
	SYNTH_ERR_INVALID_FIELD,
	SYNTH_ERR_INVALID_ARRAY_SPEC,
	SYNTH_ERR_DUP_FIELD,
};

extern const char *synth_err_text[];

/* Longest type we accept, "unsigned " and any [N] included. */
#define SYNTH_TYPE_MAX		32

/* One field as written: pointers into the command. */
struct synth_spec_field {
	struct trace_token	type;	/* the type word, "unsigned" excluded */
	struct trace_token	name;	/* the name without any [N] */
	struct trace_token	array;	/* "[N]" written after the name, or empty */
	bool			is_unsigned;	/* written "unsigned <type>" */
	char			full_type[SYNTH_TYPE_MAX]; /* e.g. "unsigned long[]" */
	u8			kind;	/* enum synth_kind */
	u16			size;	/* value bytes; N for char[N] */
};

/* A definition read by synth_spec_parse(); nothing is allocated. */
struct synth_spec {
	struct trace_token	name;
	unsigned int		n_fields;
	struct trace_parse_err	err;		/* enum synth_err when parsing failed */
	struct synth_spec_field	fields[SYNTH_FIELDS_MAX];
};

int synth_spec_parse_name(struct synth_spec *spec, struct trace_parse *p,
			  bool dynevent);
int synth_spec_parse_fields(struct synth_spec *spec, struct trace_parse *p);
int synth_type_lookup(const char *type, u16 *size, bool *is_signed,
		      const char **fmt);

/* trace_synth_event.c */
void synth_event_fire(struct synth_event *event, u64 *vals,
		      unsigned int *idx);
int synth_event_setup_call(struct synth_event *event);
struct dyn_ghost *synth_event_remove_call(struct synth_event *event);
void synth_event_print_def(struct seq_file *m, struct synth_event *event);

/* trace_events_synth.c */
struct synth_event *find_synth_event(const char *name);	/* event_mutex */
struct synth_event *synth_event_get(const char *name);
void synth_event_put(struct synth_event *event);

/* trace_synth_bpf.c: kfuncs, called by BPF programs only */
struct synth_event *bpf_synth_event_lookup(const char *name__str);
void bpf_synth_event_release(struct synth_event *event);
int bpf_synth_event_trace(struct synth_event *event, const u64 *vals,
			  u32 vals__sz);

#endif /* _KERNEL_TRACE_SYNTH_H */
