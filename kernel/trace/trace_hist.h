/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Internal header of the histogram engine: what its files share.
 *
 * A "hist:" trigger command goes through three steps:
 *
 *   text --(parse)--> struct hist_spec --(bind)--> struct hist_data
 *        --(each event)--> map updates, handlers, actions
 *
 * Files, by role, in the order of this header's sections (the types each
 * one shares; the functions each one defines are declared at the end,
 * under its name, trace_hist_field.c's beside its types):
 *   trace_hist_parse.c    the command text -> struct hist_spec, checked for
 *                         syntax only; names are trace_tokens into the text,
 *                         so later steps report errors at their column
 *   trace_hist_field.c    one expression bound to one event: fields,
 *                         modifiers, operators, their values and spelling
 *   trace_hist_actions.c  handlers and actions (onmatch, onmax, onchange;
 *                         trace, save, snapshot)
 *   trace_hist_vars.c     variables: who defines and who reads them, the
 *                         order they are computed in, references between
 *                         histograms
 *   trace_hist_data.c     a whole histogram: its tracing_map, keys, sort,
 *                         and the update each event makes
 *   trace_hist_output.c   the hist file and the trigger listing
 *   trace_hist_debug.c    the hist_debug file
 *   trace_events_hist.c   the trigger command: named histograms, pause,
 *                         clear, the registry of histograms and its
 *                         lifetimes (named like the other
 *                         trace_events_*.c command files)
 * A file may call those listed above it; output and debug print what the
 * others built, and only they print.
 *
 * Calling contexts:
 *   - parsing takes no lock and allocates only the spec;
 *   - binding, creating, registering and destroying run when a command is
 *     written or removed, with event_mutex held (asserted), and may sleep;
 *   - hist_data_update(), hist_field_value(), hist_refs_read() and
 *     hist_actions_run() run for each event, in any context an event fires
 *     in, NMI included: they take no lock and allocate nothing;
 *   - printing runs when a hist file is read, with event_mutex held.
 */
#ifndef _TRACE_HIST_H
#define _TRACE_HIST_H

#include <linux/reciprocal_div.h>
#include <linux/types.h>
#include <linux/unaligned.h>
#include <asm/word-at-a-time.h>
#include "trace.h"
#include "trace_parse.h"
#include "trace_synth.h"
#include "tracing_map.h"

/*
 * Limits of a command.  error_log messages name them (hist_err_text[]),
 * so they are plain numbers, checked against the map's below.
 */
#define HIST_KEYS_MAX		6
#define HIST_VALS_MAX		16	/* besides hitcount */
#define HIST_SORT_MAX		4
#define HIST_VARS_MAX		32
static_assert(HIST_KEYS_MAX == TRACING_MAP_KEYS_MAX);
static_assert(HIST_VALS_MAX + 1 == TRACING_MAP_VALS_MAX);
static_assert(HIST_SORT_MAX == TRACING_MAP_SORT_KEYS_MAX);
static_assert(HIST_VARS_MAX == TRACING_MAP_VARS_MAX);
#define HIST_ACTIONS_MAX	8
#define HIST_PARAMS_MAX		64	/* a synthetic event's fields */
#define HIST_OPS_MAX		3	/* operators in one expression */
/* Each expression has at most 2 * HIST_OPS_MAX + 1 nodes. */
#define HIST_NODES_MAX		((HIST_KEYS_MAX + HIST_VALS_MAX + HIST_VARS_MAX) * \
				 (2 * HIST_OPS_MAX + 1))

/*
 * What the parser can complain about.  The text of each is in
 * hist_err_text[] (trace_hist_parse.c); where error_log has long had a
 * message for a case, the text is that message, which ftracetest and
 * scripts match.
 */
enum hist_err {
	HIST_ERR_NONE,
	HIST_ERR_MALFORMED_ASSIGNMENT,	/* "=" with nothing before it */
	HIST_ERR_EMPTY_ASSIGNMENT,	/* "keys=", "x=" with nothing after */
	HIST_ERR_DUPLICATE_VAR,		/* the same variable twice */
	HIST_ERR_TOO_MANY_VARS,
	HIST_ERR_TOO_MANY_KEYS,
	HIST_ERR_TOO_MANY_VALS,
	HIST_ERR_NO_KEYS,		/* a command without keys= */
	HIST_ERR_BAD_SIZE,		/* size= not a number or out of range */
	HIST_ERR_UNKNOWN_ATTR,		/* a word that is no attribute */
	HIST_ERR_BAD_FIELD_MODIFIER,
	HIST_ERR_TOO_MANY_SUBEXPR,
	HIST_ERR_EXPECT_NUMBER,
	HIST_ERR_UNARY_MINUS_SUBEXPR,	/* "-(x)" followed by more */
	HIST_ERR_DIVISION_BY_ZERO,
	HIST_ERR_INCOMPLETE_EXPR,	/* an operator without its operand */
	HIST_ERR_UNEXPECTED_CHAR,	/* e.g. "keys=a(b)" */
	HIST_ERR_TOO_COMPLEX,		/* expressions beyond HIST_NODES_MAX */
	HIST_ERR_NO_CLOSING_PAREN,
	HIST_ERR_EMPTY_SORT_FIELD,
	HIST_ERR_INVALID_SORT_MODIFIER,
	HIST_ERR_TOO_MANY_SORT_FIELDS,
	HIST_ERR_SUBSYS_NOT_FOUND,	/* onmatch(event) without its system */
	HIST_ERR_INVALID_SUBSYS_EVENT,
	HIST_ERR_ONX_NOT_VAR,		/* onmax(x) where x is not a $var */
	HIST_ERR_ACTION_NOT_FOUND,	/* a handler without .action() */
	HIST_ERR_ACTION_MISMATCH,	/* e.g. onmatch().snapshot() */
	HIST_ERR_NO_SAVE_PARAMS,
	HIST_ERR_TOO_MANY_SAVE_ACTIONS,
	HIST_ERR_TOO_MANY_SNAPSHOTS,
	HIST_ERR_TOO_MANY_PARAMS,
	HIST_ERR_INVALID_PARAM,		/* an empty parameter */
	HIST_ERR_TOO_MANY_ACTIONS,
	/* binding an expression to an event (trace_hist_field.c) */
	HIST_ERR_FIELD_NOT_FOUND,
	HIST_ERR_HIST_CREATE_FAIL,	/* a field no histogram can use */
	HIST_ERR_INVALID_STR_OPERAND,
	HIST_ERR_TIMESTAMP_MISMATCH,
	HIST_ERR_INVALID_REF_KEY,
	HIST_ERR_VAR_NOT_FOUND,
	HIST_ERR_VAR_NOT_UNIQUE,
	HIST_ERR_REF_KEYS_DIFFER,	/* $var of a histogram with other keys */
	/* actions (trace_hist_actions.c) */
	HIST_ERR_SYNTH_EVENT_NOT_FOUND,
	HIST_ERR_SYNTH_TYPE_MISMATCH,
	HIST_ERR_SYNTH_COUNT_MISMATCH,
	HIST_ERR_ONX_VAR_NOT_FOUND,
	HIST_ERR_TRACE_LOOP,		/* trace() of an event leading back */
	HIST_ERR_SAVE_VAR_FAIL,		/* no map variable left for save() */
	HIST_ERR_ONX_VAR_CREATE_FAIL,	/* ... nor for onmax()/onchange() */
	/* a whole histogram (trace_hist_data.c) */
	HIST_ERR_INVALID_SORT_FIELD,
	HIST_ERR_KEY_TOO_LARGE,
	HIST_ERR_NEED_NOHC_VAL,
	/* the trigger command (trace_events_hist.c) */
	HIST_ERR_NAMED_MISMATCH,
	HIST_ERR_TRIGGER_EEXIST,
	HIST_ERR_TRIGGER_ENOENT_CLEAR,
	HIST_ERR_SET_CLOCK_FAIL,
	HIST_ERR_IN_USE,		/* !hist of one whose variables are read */
	HIST_ERR_TOO_MANY_FIELD_VARS,
	HIST_ERR_EVENT_FILE_NOT_FOUND,
	HIST_ERR_HIST_NOT_FOUND,
	HIST_ERR_TRAILING_TEXT,		/* "keys=a b": more than the attributes */
	HIST_ERR_BAD_LOGLIN_BITS,	/* "a.log2=K", K past the maximum */
	HIST_ERR_MAX
};

extern const char * const hist_err_text[HIST_ERR_MAX];
extern const char * const hist_handler_names[];	/* by enum hist_handler */

/* Field modifiers, the ".name" after a field. */
enum hist_mod {
	HIST_MOD_HEX		= BIT(0),
	HIST_MOD_SYM		= BIT(1),
	HIST_MOD_SYM_OFFSET	= BIT(2),
	HIST_MOD_EXECNAME	= BIT(3),
	HIST_MOD_SYSCALL	= BIT(4),
	HIST_MOD_LOG2		= BIT(5),
	HIST_MOD_USECS		= BIT(6),
	HIST_MOD_BUCKETS	= BIT(7),	/* .buckets=N, N in mod_arg */
	HIST_MOD_PERCENT	= BIT(8),
	HIST_MOD_GRAPH		= BIT(9),
	HIST_MOD_STACKTRACE	= BIT(10),
	HIST_MOD_LOGLIN		= BIT(11),	/* .log2=K, K in mod_arg */
};

/* The modifiers that change a number into its bucket. */
#define HIST_MOD_BUCKETING	(HIST_MOD_LOG2 | HIST_MOD_BUCKETS | HIST_MOD_LOGLIN)

/* .log2=K: 2^K buckets per power of two, K at most this. */
#define HIST_LOGLIN_BITS_MAX	6

/* A modifier's spelling; hist_mod_names[] ends with an empty entry. */
struct hist_mod_name {
	const char	*name;
	unsigned int	mod;
};

extern const struct hist_mod_name hist_mod_names[];

/* One node of an expression tree. */
enum hist_expr_kind {
	HIST_EXPR_FIELD,	/* an event field, common_*, hitcount, ... */
	HIST_EXPR_CONST,	/* a number */
	HIST_EXPR_VAR,		/* $var or system.event.$var */
	HIST_EXPR_ADD,
	HIST_EXPR_SUB,
	HIST_EXPR_MUL,
	HIST_EXPR_DIV,
	HIST_EXPR_NEG,		/* -(x): arg[0] only */
};

struct hist_expr {
	enum hist_expr_kind	kind;
	unsigned int		mods;		/* HIST_MOD_*, fields only */
	struct trace_token	text;		/* the node as written */
	struct trace_token	name;		/* field or variable name */
	struct trace_token	system;		/* of a qualified $var, or empty */
	struct trace_token	event;		/* of a qualified $var, or empty */
	u64			value;		/* HIST_EXPR_CONST */
	unsigned long		mod_arg;	/* BUCKETS: N, LOGLIN: K */
	struct hist_expr	*arg[2];	/* operands of an operator */
};

/* A key, a value or a variable: "expr" or "name=expr". */
struct hist_spec_field {
	struct trace_token	var;		/* variable name, or empty */
	struct hist_expr	*expr;
};

struct hist_spec_sort {
	struct trace_token	name;		/* a key, a value or "hitcount" */
	bool			descending;
};

enum hist_handler {
	HIST_ONMATCH,		/* onmatch(system.event) */
	HIST_ONMAX,		/* onmax($var) */
	HIST_ONCHANGE,		/* onchange($var) */
};

enum hist_action {
	HIST_ACT_TRACE,		/* .trace(synth, params) or .synth(params) */
	HIST_ACT_SAVE,		/* .save(fields) */
	HIST_ACT_SNAPSHOT,	/* .snapshot() */
};

/* One "handler(target).action(params)" of the command. */
struct hist_spec_action {
	enum hist_handler	handler;
	enum hist_action	action;
	struct trace_token	text;		/* the whole clause */
	struct trace_token	system;		/* onmatch: the matched event */
	struct trace_token	event;
	struct trace_token	var;		/* onmax/onchange: name after '$' */
	struct trace_token	synth;		/* trace: synthetic event */
	bool			legacy;		/* written as .<synth>(params) */
	unsigned int		n_params;
	struct trace_token	params[HIST_PARAMS_MAX];
};

enum hist_spec_flags {
	HIST_SPEC_PAUSE		= BIT(0),
	HIST_SPEC_CONT		= BIT(1),
	HIST_SPEC_CLEAR		= BIT(2),
	HIST_SPEC_NOHITCOUNT	= BIT(3),
};

/* A "hist:" command, parsed.  See the top of this file. */
struct hist_spec {
	unsigned int		n_keys, n_vals, n_vars, n_sort, n_actions;
	struct hist_spec_field	keys[HIST_KEYS_MAX];
	struct hist_spec_field	vals[HIST_VALS_MAX];
	struct hist_spec_field	vars[HIST_VARS_MAX];
	struct hist_spec_sort	sort[HIST_SORT_MAX];
	struct hist_spec_action	actions[HIST_ACTIONS_MAX];
	bool			hitcount_val;	/* "hitcount" among the vals */
	struct trace_token	name;		/* name=, or empty */
	struct trace_token	clock;		/* clock=, or empty */
	unsigned int		map_bits;	/* from size=, or the default */
	unsigned int		flags;		/* HIST_SPEC_* */
	int			end;		/* column after the last attribute */
	unsigned int		n_nodes;
	struct hist_expr	nodes[HIST_NODES_MAX];
};

/*
 * ---- Fields: an expression bound to an event (trace_hist_field.c) ----
 *
 * A bound expression is a small tree of struct hist_field, built when the
 * command is written and read on every event by hist_field_value(): a
 * switch on the kind, no indirect call, no allocation, no lock.
 */
enum hist_field_kind {
	HIST_FIELD_NUM,		/* integer in the record: offset, size, sign */
	HIST_FIELD_STR,		/* char[N] in the record */
	HIST_FIELD_DYN_STR,	/* __data_loc char[] */
	HIST_FIELD_REL_STR,	/* __rel_loc char[] */
	HIST_FIELD_STACK,	/* a stacktrace field (of a synthetic event) */
	HIST_FIELD_CALLER,	/* common_stacktrace: the stack, saved as a key */
	HIST_FIELD_TIMESTAMP,	/* common_timestamp */
	HIST_FIELD_CPU,		/* common_cpu */
	HIST_FIELD_COMM,	/* common_comm: the current task's comm */
	HIST_FIELD_HITCOUNT,	/* 1 per event */
	HIST_FIELD_CONST,
	HIST_FIELD_VAR_REF,	/* a variable's value, read before the update */
	HIST_FIELD_ADD,
	HIST_FIELD_SUB,
	HIST_FIELD_MUL,
	HIST_FIELD_DIV,
	HIST_FIELD_NEG,
};

struct hist_field {
	enum hist_field_kind	kind;
	unsigned int		mods;		/* HIST_MOD_* applied to the value */
	const char		*type;		/* C type of the value */
	unsigned int		size;		/* bytes, as a key */
	bool			is_signed;
	bool			usecs;		/* a timestamp in microseconds */
	unsigned int		offset;		/* in the record */
	unsigned int		width;		/* NUM: bytes in the record */
	unsigned int		key_offset;	/* in the compound key */
	u64			constant;	/* CONST, and a constant divisor */
	struct reciprocal_value	recip;		/* DIV by a constant below 2^32 */
	unsigned long		mod_arg;	/* BUCKETS: N, LOGLIN: K */
	unsigned int		var_ref_idx;	/* VAR_REF: index in hist_event.vars */
	struct hist_data	*var_hd;	/* VAR_REF: the histogram defining it */
	unsigned int		var_idx;	/* VAR_REF: its index there */
	bool			read_once;	/* VAR_REF: an operand, consumes it */
	bool			ref_stack;	/* VAR_REF: to a stack, maybe by refs */
	struct hist_field	*arg[2];	/* operands */
	const struct hist_expr	*expr;		/* as written */
	struct ftrace_event_field *field;	/* the event field, if any */
};

/* What a field is used as: modifiers allowed differ. */
enum hist_field_role {
	HIST_ROLE_KEY,
	HIST_ROLE_VAL,
	HIST_ROLE_VAR,
};

/* Binding one command's expressions to one event. */
struct hist_bind {
	struct trace_event_call	*call;
	struct hist_data	*hd;		/* the histogram being made, if any */
	struct trace_parse_err	*err;
	bool			clock_in_ns;	/* .usecs divides by 1000 */
	/*
	 * Resolves a $var (HIST_EXPR_VAR) into @f: type, size, sign, usecs
	 * and var_ref_idx.  Returns 0, or an error set with trace_parse_fail(b->err).
	 * hist_vars_resolve() is the one for histograms, with @priv their
	 * struct hist_vars_scope.
	 */
	int (*resolve_var)(struct hist_bind *b, const struct hist_expr *e,
			   struct hist_field *f);
	void			*priv;
	/*
	 * Makes @field of the event @system.@event a variable of some
	 * histogram on that event (a field variable, which an action's
	 * parameter can then reference) and sets @name to its name, which
	 * the caller frees.  NULL where there are no other events (KUnit).
	 */
	int (*field_var)(struct hist_bind *b, const struct trace_token *system,
			 const struct trace_token *event,
			 const struct trace_token *field, char **name);
	void			*owner;		/* field_var's */
};

/* The event a histogram is updated from. */
struct hist_event {
	void			*rec;
	struct trace_buffer	*buffer;
	struct ring_buffer_event *rbe;		/* NULL: the record is kept nowhere */
	const u64		*vars;		/* values of the variable refs */
	u64			ts;		/* the event's time stamp, */
	bool			has_ts;		/* if read already */
};

struct hist_field *hist_field_bind(struct hist_bind *b,
				   const struct hist_expr *e,
				   enum hist_field_role role);
void hist_field_free(struct hist_field *f);
const char *hist_pseudo_name(const struct hist_field *f);
bool hist_field_named(const struct hist_field *f, const struct trace_token *name);
bool hist_field_equal(const struct hist_field *a, const struct hist_field *b);
bool hist_field_same(const struct hist_field *a, const struct hist_field *b,
		     const struct hist_data *ha, const struct hist_data *hb);
/* Whether @f reads the event's time stamp (common_timestamp). */
bool hist_field_uses_clock(const struct hist_field *f);
/* The value of @f for the event @ev (a string: the address of its bytes) */
u64 hist_field_value(const struct hist_field *f, const struct hist_event *ev);
u64 hist_loglin_low(u64 v, unsigned int k);
u64 hist_loglin_high(u64 low, unsigned int k);

static __always_inline u64 hist_read_num(const void *p, unsigned int size,
					 bool is_signed)
{
	switch (size) {
	case 1:
		return is_signed ? (u64)*(const s8 *)p : *(const u8 *)p;
	case 2:
		return is_signed ? (u64)*(const s16 *)p : *(const u16 *)p;
	case 4:
		return is_signed ? (u64)*(const s32 *)p : *(const u32 *)p;
	default:
		return *(const u64 *)p;
	}
}

static __always_inline bool hist_field_is_string(const struct hist_field *f)
{
	return f->kind == HIST_FIELD_STR || f->kind == HIST_FIELD_DYN_STR ||
	       f->kind == HIST_FIELD_COMM ||
	       f->kind == HIST_FIELD_REL_STR;
}

/* A stack: common_stacktrace, a stacktrace field, or a variable of one. */
static __always_inline bool hist_field_is_stack(const struct hist_field *f)
{
	return f->kind == HIST_FIELD_CALLER || f->kind == HIST_FIELD_STACK ||
	       f->ref_stack;
}

/*
 * ---- A histogram: a command bound to an event (trace_hist_data.c) ----
 *
 * The map's sum fields are the values, hitcount first; its key fields
 * the keys, laid out one after the other in a compound key, each in a
 * slot of a multiple of 8 bytes; its variables the command's variables.
 * Everything is set up when the command is written; the event path
 * (hist_data_update()) builds the key on the stack, inserts it and adds
 * to the sums, with no lock and no allocation.
 */
/* Bytes of a compound key: a string and a stack fit, whatever the words. */
#define HIST_KEY_SIZE_MAX	512
static_assert(MAX_FILTER_STR_VAL + HIST_STACKTRACE_SIZE <= HIST_KEY_SIZE_MAX);
#define HIST_REFS_MAX		HIST_VARS_MAX	/* references per histogram */

/*
 * The scratch of one histogram update, too large for the stack of
 * whatever context an event fires in: the compound key, the values of
 * the variables the histogram references, and the parameters of a
 * trace() action.  Per CPU and context, see hist_data_update().
 */
struct hist_pad {
	u64			key[HIST_KEY_SIZE_MAX / sizeof(u64)];
	u64			refs[HIST_REFS_MAX];
	u64			params[HIST_PARAMS_MAX];
};

struct hist_pads;

/*
 * A handler of the command bound to the histogram (trace_hist_actions.c):
 * what it tracks, what it fires or saves, and where it keeps it.
 */
struct hist_act {
	const struct hist_spec_action *spec;
	struct synth_event	*synth;		/* trace: its event */
	bool			holds_synth;	/* a ->ref on synth, until retired */
	struct hist_field	*track;		/* onmax/onchange: its $var */
	unsigned int		track_var;	/* map variable: max or last */
	unsigned int		n_params;
	struct hist_field	*params[HIST_PARAMS_MAX];
	unsigned int		save_var[HIST_PARAMS_MAX];	/* save: map variable */
	int			str_slot[HIST_PARAMS_MAX];	/* string slot, or -1 */
	struct hist_expr	*exprs;		/* what params[] were bound from */
	char			**names;	/* of field variables, or NULL */
	unsigned int		n_names;	/* entries of names */
	struct hist_expr	track_expr;	/* what track was bound from */
};

struct hist_data {
	const struct hist_spec	*spec;		/* the command it was made from */
	struct hist_field	*keys[HIST_KEYS_MAX];
	struct hist_field	*vals[HIST_VALS_MAX + 1];	/* [0]: hitcount */
	struct hist_field	*vars[HIST_VARS_MAX];
	int			var_str[HIST_VARS_MAX];	/* its slot in hist_elt, or -1 */
	u8			var_order[HIST_VARS_MAX];	/* as stored, see vars */
	unsigned int		n_keys, n_vals, n_vars;
	unsigned int		key_size;	/* bytes of the compound key */
	bool			compound;	/* else one number is the key */
	bool			execname;	/* entries keep their first comm */
	bool			timestamps;	/* some field reads the clock */
	struct tracing_map_sort_key sort[HIST_SORT_MAX];
	unsigned int		n_sort;
	struct tracing_map	*map;
	struct hist_pads __percpu *pads;	/* the event path's scratch */
	/* variables (trace_hist_vars.c) */
	struct trace_event_call	*call;		/* the event it is bound to */
	struct hist_field	*refs[HIST_REFS_MAX];	/* its VAR_REF fields */
	unsigned int		n_refs;
	/* per variable: the slot in refs[] of a reference to it, or -1 */
	s8			var_slot[HIST_VARS_MAX];
	struct list_head	scope_node;	/* in hist_vars_scope.hists */
	unsigned int		n_users;	/* registered ones reading its variables */
	bool			registered;	/* hist_vars_register() done */
	/* handlers and actions (trace_hist_actions.c) */
	struct hist_act	*actions[HIST_ACTIONS_MAX];
	unsigned int		n_actions;
	struct list_head	tracer_node;	/* hist_tracers, see actions */
	unsigned int		n_hidden;	/* map variables the actions keep */
	unsigned int		n_strs;		/* strings saved per entry */
	/* takes the snapshot of onmax().snapshot(), set by the trigger code */
	void (*snapshot)(struct hist_data *hd, struct tracing_map_elt *elt,
			 void *key);
	void			*snapshot_data;	/* the trigger code's */
};

/*
 * What each entry of a histogram keeps besides the map's sums and
 * variables: the comm of .execname, and the strings and stacks its
 * variables and save() keep.
 */
struct hist_elt {
	char			comm[TASK_COMM_LEN];
	char			strs[][STR_VAR_LEN_MAX];
};

/*
 * The histograms whose variables others can reference: one scope per
 * trace instance, changed and read under event_mutex only.
 */
struct hist_vars_scope {
	struct list_head	hists;
};

u64 hist_event_time(const struct hist_event *ev);
unsigned int hist_str_room(const struct hist_field *f,
			   const struct hist_event *ev, unsigned int room);
void hist_str_copy(char *dst, const char *src, unsigned int n);

/*
 * One word of a string from @src to @dst, true if it holds the NUL: it
 * is then stored with its bytes from the NUL on cleared.
 */
static __always_inline bool hist_str_word(char *dst, const char *src)
{
	const struct word_at_a_time zero = WORD_AT_A_TIME_CONSTANTS;
	unsigned long w = get_unaligned((const unsigned long *)src), bits;

	if (has_zero(w, &bits, &zero)) {
		bits = create_zero_mask(prep_zero_mask(w, bits, &zero));
		put_unaligned(w & zero_bytemask(bits), (unsigned long *)dst);
		return true;
	}
	put_unaligned(w, (unsigned long *)dst);
	return false;
}

/*
 * ---- Output: the hist file and the trigger listing (trace_hist_output.c)
 *
 * The formats are fixed, byte for byte, since scripts and libtracefs
 * parse them.  Everything here runs under event_mutex when a file is
 * read; nothing is on the event path.
 */

/* The largest and the sum of one value over all entries (.percent, .graph) */
struct hist_val_stat {
	u64	max;
	u64	total;
};

/* trace_hist_parse.c */
int hist_parse(struct hist_spec *spec, const char *cmd, int start,
	       struct trace_parse_err *err);
int hist_parse_expr(struct hist_spec *spec, const char *cmd, int start,
		    int end, struct hist_expr **expr,
		    struct trace_parse_err *err);
int hist_spec_var(const struct hist_spec *spec, const struct trace_token *name);
bool hist_spec_action_same(const struct hist_spec_action *a,
			   const struct hist_spec_action *b);

/* trace_hist_actions.c */
int hist_actions_bind(struct hist_data *hd, struct hist_bind *b);
void hist_actions_free(struct hist_data *hd);
bool hist_actions_use_clock(const struct hist_data *hd);
void hist_actions_register(struct hist_data *hd);
void hist_actions_unregister(struct hist_data *hd);
void hist_actions_run(struct hist_data *hd, struct tracing_map_elt *elt,
		      const struct hist_event *ev, struct hist_pad *pad);
const struct hist_act *hist_snapshot_act(const struct hist_data *hd);
bool hist_snapshot_beats(const struct hist_data *hd,
			 struct tracing_map_elt *elt, u64 *best);

/* trace_hist_vars.c */
bool hist_keys_lead(const struct hist_data *a, const struct hist_data *b,
		    bool types);
int hist_vars_resolve(struct hist_bind *b, const struct hist_expr *e,
		      struct hist_field *f);
int hist_vars_order(struct hist_data *hd, struct hist_bind *b);
int hist_vars_register(struct hist_data *hd, struct hist_vars_scope *scope,
		       struct trace_parse_err *err);
void hist_vars_unregister(struct hist_data *hd);
/*
 * Reads the variables of other histograms that @hd references, for the
 * entry of @key, into @vals (by slot); false when one is not set.  The
 * slots of its own variables are stored by hist_data_update().
 */
bool hist_refs_read(struct hist_data *hd, void *key, u64 *vals);

/* trace_hist_data.c */
struct hist_data *hist_data_create(const struct hist_spec *spec,
				   struct hist_bind *b);
void hist_data_retire(struct hist_data *hd);
void hist_data_destroy(struct hist_data *hd);
bool hist_data_same(const struct hist_data *a, const struct hist_data *b);
bool hist_data_same_layout(const struct hist_data *a, const struct hist_data *b);
/* @ev, made by the caller, gets its time stamp and variables' values. */
void hist_data_update(struct hist_data *hd, struct hist_event *ev);

/* trace_hist_output.c */
void hist_print_expr(struct seq_file *m, const struct hist_field *f);
void hist_print_trigger(struct seq_file *m, const struct hist_data *hd,
			const char *filter, bool paused);
int hist_print_entries(struct seq_file *m, struct hist_data *hd);
void hist_print_totals(struct seq_file *m, const struct hist_data *hd,
		       unsigned int n_entries);
void hist_print_key(struct seq_file *m, struct hist_field * const *keys,
		    unsigned int n_keys, const void *key, const char *comm);
void hist_print_val(struct seq_file *m, const struct hist_field *f,
		    u64 val, const struct hist_val_stat *stat);
unsigned int hist_percentage(u64 val, u64 total);
void hist_print_snapshot_handler(struct seq_file *m, const struct hist_data *hd);

/* trace_hist_debug.c */
void hist_print_debug(struct seq_file *m, const struct hist_data *hd);

#endif /* _TRACE_HIST_H */
