// SPDX-License-Identifier: GPL-2.0
/*
 * trace_hist_field - expressions of a hist command bound to an event, and
 * their values on each event.
 *
 * hist_field_bind() turns a parsed expression (struct hist_expr) into a
 * tree of struct hist_field when the command is written: it finds each
 * field in the event's format, checks what a command must satisfy (the
 * field exists and has a size a histogram can use, .execname is on
 * common_pid, .percent and .graph are on values, no string in
 * arithmetic, timestamps in one unit), folds operations on constants,
 * and prepares a division by a constant so that the event path needs no
 * division instruction for it.  Variable references are resolved by the
 * caller's resolve_var(), which knows the other histograms.
 *
 * hist_field_value() runs for every event in the context of the
 * tracepoint (NMI included): it reads the record through a switch on the
 * field's kind, recursing at most HIST_OPS_MAX levels, and neither
 * allocates nor locks.  Strings are returned as the address of their
 * bytes in the record, as the key code copies them.
 */
#include <linux/bitops.h>
#include <linux/log2.h>
#include <linux/math64.h>
#include <linux/slab.h>

#include "trace_hist.h"
#include "trace_loc.h"

void hist_field_free(struct hist_field *f)
{
	if (!f)
		return;
	hist_field_free(f->arg[0]);
	hist_field_free(f->arg[1]);
	kfree(f);
}

/*
 * How modifiers are spelled, for the parser and the listing alike.  The
 * order decides which modifier a field shows when it has several: the
 * first of them in this table.  "bucket" is another spelling, read and
 * never shown.
 */
const struct hist_mod_name hist_mod_names[] = {
	{ "hex", HIST_MOD_HEX },		{ "sym", HIST_MOD_SYM },
	{ "sym-offset", HIST_MOD_SYM_OFFSET },	{ "execname", HIST_MOD_EXECNAME },
	{ "syscall", HIST_MOD_SYSCALL },	{ "log2", HIST_MOD_LOG2 },
	{ "buckets", HIST_MOD_BUCKETS },	{ "usecs", HIST_MOD_USECS },
	{ "percent", HIST_MOD_PERCENT },	{ "graph", HIST_MOD_GRAPH },
	{ "stacktrace", HIST_MOD_STACKTRACE },	{ "bucket", HIST_MOD_BUCKETS },
	{ "log2", HIST_MOD_LOGLIN },
	{}
};

/* The generic names that are not fields of any event. */
static const struct {
	const char		*name;
	enum hist_field_kind	kind;
	const char		*type;
	unsigned int		size;
} hist_pseudo[] = {
	{ "common_timestamp", HIST_FIELD_TIMESTAMP, "u64", sizeof(u64) },
	{ "common_cpu", HIST_FIELD_CPU, "unsigned int", sizeof(int) },
	{ "common_comm", HIST_FIELD_COMM, "char[16]", TASK_COMM_LEN },
	{ "common_stacktrace", HIST_FIELD_CALLER, "unsigned long[]",
	  HIST_STACKTRACE_SIZE },
	{ "hitcount", HIST_FIELD_HITCOUNT, "u64", sizeof(u64) },
};

/* The name of a field that is no field of the event, or NULL. */
const char *hist_pseudo_name(const struct hist_field *f)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hist_pseudo); i++)
		if (hist_pseudo[i].kind == f->kind)
			return hist_pseudo[i].name;
	return NULL;
}

/* Make @f the pseudo field of @kind. */
static void hist_field_pseudo(struct hist_field *f, enum hist_field_kind kind)
{
	unsigned int i;

	for (i = 0; hist_pseudo[i].kind != kind; i++)
		;
	f->kind = kind;
	f->type = hist_pseudo[i].type;
	f->size = hist_pseudo[i].size;
}

/* Modifiers a value or a variable may not have (keys: see below). */
static const unsigned int hist_role_refused[] = {
	[HIST_ROLE_KEY] = 0,
	[HIST_ROLE_VAL] = HIST_MOD_BUCKETING | HIST_MOD_SYM |
			  HIST_MOD_SYM_OFFSET | HIST_MOD_SYSCALL |
			  HIST_MOD_STACKTRACE,
	[HIST_ROLE_VAR] = HIST_MOD_BUCKETING | HIST_MOD_PERCENT |
			  HIST_MOD_GRAPH,
};

/* An event field (or common_*, hitcount) with its modifier. */
static int hist_bind_field(struct hist_bind *b, struct hist_field *f,
			   enum hist_field_role role)
{
	char *name __free(kfree) = trace_token_dup(&f->expr->name);
	const struct hist_expr *e = f->expr;
	struct ftrace_event_field *field;
	int mod_pos = e->name.pos + e->name.len + 1;
	unsigned int i;

	if (!name)
		return -ENOMEM;
	/* system.event.field: a field of this very event */
	if (e->system.len &&
	    (!trace_token_is(&e->system, b->call->class->system) ||
	     !trace_token_is(&e->event, trace_event_name(b->call))))
		return trace_parse_fail(b->err, HIST_ERR_FIELD_NOT_FOUND, e->text.pos);

	for (i = 0; i < ARRAY_SIZE(hist_pseudo); i++)
		if (!strcmp(name, hist_pseudo[i].name))
			break;
	if (i < ARRAY_SIZE(hist_pseudo)) {
		hist_field_pseudo(f, hist_pseudo[i].kind);
	} else {
		field = trace_find_event_field(b->call, name);
		/*
		 * "cpu", "comm" and "stacktrace" (and "CPU", "COMM"), the
		 * filter's names, are the common ones here too
		 */
		if (field && !field->size && field->filter_type == FILTER_CPU)
			hist_field_pseudo(f, HIST_FIELD_CPU);
		else if (field && !field->size && field->filter_type == FILTER_COMM)
			hist_field_pseudo(f, HIST_FIELD_COMM);
		else if (field && !field->size &&
			 field->filter_type == FILTER_STACKTRACE)
			hist_field_pseudo(f, HIST_FIELD_CALLER);
		else if (!field || (!field->size &&
				    field->filter_type != FILTER_STATIC_STRING))
			return trace_parse_fail(b->err, HIST_ERR_FIELD_NOT_FOUND,
						e->name.pos);
		else
			f->field = field;
	}

	field = f->field;
	if (field) {
		f->type = field->type;
		f->offset = field->offset;
		f->size = field->size;
		switch (field->filter_type) {
		case FILTER_STATIC_STRING:
			f->kind = HIST_FIELD_STR;
			/* char buf[] at the end (trace_marker): up to the record's end */
			if (!f->size)
				f->size = MAX_FILTER_STR_VAL;
			break;
		case FILTER_DYN_STRING:
			f->kind = HIST_FIELD_DYN_STR;
			f->size = MAX_FILTER_STR_VAL;
			break;
		case FILTER_RDYN_STRING:
			f->kind = HIST_FIELD_REL_STR;
			f->size = MAX_FILTER_STR_VAL;
			break;
		case FILTER_STACKTRACE:
			f->kind = HIST_FIELD_STACK;
			f->size = MAX_FILTER_STR_VAL;
			break;
		default:
			/* char * included: the pointer, never what it points to */
			f->kind = HIST_FIELD_NUM;
			f->is_signed = field->is_signed;
			f->width = f->size;
			if (f->size != 1 && f->size != 2 && f->size != 4 &&
			    f->size != 8)
				return trace_parse_fail(b->err, HIST_ERR_HIST_CREATE_FAIL,
							e->name.pos);
		}
	}

	if (f->kind == HIST_FIELD_TIMESTAMP && (f->mods & HIST_MOD_USECS)) {
		f->usecs = true;
		f->constant = b->clock_in_ns;	/* convert on each event */
	}
	/* a call stack prints as one, so the listing shows no .hex on it */
	if (f->kind == HIST_FIELD_CALLER)
		f->mods &= ~HIST_MOD_HEX;
	/* a string or a stack is read through its address: keep it whole */
	if (((f->mods & HIST_MOD_BUCKETING) &&
	     (hist_field_is_string(f) || hist_field_is_stack(f))) ||
	    ((f->mods & HIST_MOD_EXECNAME) && strcmp(name, "common_pid")) ||
	    ((f->mods & HIST_MOD_STACKTRACE) && f->kind != HIST_FIELD_STACK) ||
	    ((f->mods & (HIST_MOD_PERCENT | HIST_MOD_GRAPH)) &&
	     role == HIST_ROLE_KEY))
		return trace_parse_fail(b->err, HIST_ERR_BAD_FIELD_MODIFIER, mod_pos);
	/* what a value or a variable cannot be, at the expression's column */
	if ((f->mods & hist_role_refused[role]) ||
	    (role == HIST_ROLE_VAL && hist_field_is_stack(f)))
		return trace_parse_fail(b->err, HIST_ERR_BAD_FIELD_MODIFIER, e->text.pos);
	return 0;
}

static int hist_bind(struct hist_bind *b, const struct hist_expr *e,
		     enum hist_field_role role, struct hist_field **out);

/* hist_bind_op() maps an operator node to its field kind by position */
static_assert(HIST_FIELD_SUB - HIST_FIELD_ADD == HIST_EXPR_SUB - HIST_EXPR_ADD);
static_assert(HIST_FIELD_MUL - HIST_FIELD_ADD == HIST_EXPR_MUL - HIST_EXPR_ADD);
static_assert(HIST_FIELD_DIV - HIST_FIELD_ADD == HIST_EXPR_DIV - HIST_EXPR_ADD);
static_assert(HIST_FIELD_NEG - HIST_FIELD_ADD == HIST_EXPR_NEG - HIST_EXPR_ADD);

/* An operator: both operands numbers in one unit; constants folded. */
static int hist_bind_op(struct hist_bind *b, struct hist_field *f,
			enum hist_field_role role)
{
	const struct hist_expr *e = f->expr;
	struct hist_field *a, *c;
	int i, ret;

	for (i = 0; i < (e->kind == HIST_EXPR_NEG ? 1 : 2); i++) {
		ret = hist_bind(b, e->arg[i], role, &f->arg[i]);
		if (ret)
			return ret;
		/* a string or a stack is an address, not a number */
		if (hist_field_is_string(f->arg[i]) ||
		    hist_field_is_stack(f->arg[i]))
			return trace_parse_fail(b->err, HIST_ERR_INVALID_STR_OPERAND,
						e->arg[i]->text.pos);
		/*
		 * An operand consumes the variable: one value, one use.  So
		 * does the slot of the histogram's references that every
		 * reference to that variable shares (hist_vars_resolve()).
		 */
		if (f->arg[i]->kind == HIST_FIELD_VAR_REF) {
			f->arg[i]->read_once = true;
			if (b->hd)
				b->hd->refs[f->arg[i]->var_ref_idx]->read_once = true;
		}
	}
	a = f->arg[0];
	c = f->arg[1];
	if (c && a->usecs != c->usecs)
		return trace_parse_fail(b->err, HIST_ERR_TIMESTAMP_MISMATCH, e->text.pos);

	f->kind = HIST_FIELD_ADD + (e->kind - HIST_EXPR_ADD);
	f->type = a->type;
	f->size = a->size;
	f->is_signed = a->is_signed;
	f->usecs = a->usecs;

	if (c && c->kind == HIST_FIELD_CONST && f->kind == HIST_FIELD_DIV) {
		if (!c->constant)
			return trace_parse_fail(b->err, HIST_ERR_DIVISION_BY_ZERO,
						e->arg[1]->text.pos);
		if (!is_power_of_2(c->constant) && c->constant <= U32_MAX)
			f->recip = reciprocal_value(c->constant);
	}
	if (c && a->kind == HIST_FIELD_CONST && c->kind == HIST_FIELD_CONST) {
		f->constant = hist_field_value(f, NULL);
		f->kind = HIST_FIELD_CONST;
		f->type = "u64";
		f->size = sizeof(u64);
		f->is_signed = false;
		hist_field_free(a);
		hist_field_free(c);
		f->arg[0] = NULL;
		f->arg[1] = NULL;
	}
	return 0;
}

static int hist_bind(struct hist_bind *b, const struct hist_expr *e,
		     enum hist_field_role role, struct hist_field **out)
{
	struct hist_field *f = kzalloc_obj(*f);
	int ret;

	*out = f;
	if (!f)
		return -ENOMEM;
	f->expr = e;
	f->mods = e->mods;
	f->mod_arg = e->mod_arg;
	switch (e->kind) {
	case HIST_EXPR_FIELD:
		return hist_bind_field(b, f, role);
	case HIST_EXPR_CONST:
		f->kind = HIST_FIELD_CONST;
		f->constant = e->value;
		f->type = "u64";
		f->size = sizeof(u64);
		return 0;
	case HIST_EXPR_VAR:
		f->kind = HIST_FIELD_VAR_REF;
		if (role == HIST_ROLE_KEY)
			return trace_parse_fail(b->err, HIST_ERR_INVALID_REF_KEY,
						e->text.pos);
		if (!b->resolve_var)
			return trace_parse_fail(b->err, HIST_ERR_VAR_NOT_FOUND,
						e->text.pos);
		ret = b->resolve_var(b, e, f);
		return ret;
	default:
		return hist_bind_op(b, f, role);
	}
}

struct hist_field *hist_field_bind(struct hist_bind *b,
				   const struct hist_expr *e,
				   enum hist_field_role role)
{
	struct hist_field *f;
	int ret = hist_bind(b, e, role, &f);

	if (ret) {
		hist_field_free(f);
		return ERR_PTR(ret);
	}
	return f;
}

/*
 * Whether @a, bound for the histogram @ha, reads the same bytes of a
 * record in the same way as @b, bound for @hb: same kind, place, size,
 * sign, type and modifiers, the same operands, references to the same
 * variable (or to the same variable of each one's own histogram).
 */
bool hist_field_same(const struct hist_field *a, const struct hist_field *b,
		     const struct hist_data *ha, const struct hist_data *hb)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind || a->mods != b->mods || a->offset != b->offset ||
	    a->width != b->width || a->size != b->size ||
	    a->is_signed != b->is_signed || a->usecs != b->usecs ||
	    a->constant != b->constant || a->mod_arg != b->mod_arg ||
	    strcmp(a->type, b->type) || !a->field != !b->field ||
	    (a->field && (a->field->size != b->field->size ||
			  a->field->filter_type != b->field->filter_type)))
		return false;
	if (a->kind == HIST_FIELD_VAR_REF &&
	    (a->var_idx != b->var_idx ||
	     (a->var_hd != b->var_hd && (a->var_hd != ha || b->var_hd != hb))))
		return false;
	return hist_field_same(a->arg[0], b->arg[0], ha, hb) &&
	       hist_field_same(a->arg[1], b->arg[1], ha, hb);
}

/*
 * Whether @a and @b are the same expression as a listing shows it: the
 * same fields by name, modifiers, constants and references as written.
 * (hist_field_same() asks more: the same bytes of the record.)
 */
bool hist_field_equal(const struct hist_field *a, const struct hist_field *b)
{
	const struct hist_expr *ea, *eb;

	if (!a || !b)
		return a == b;
	ea = a->expr;
	eb = b->expr;
	/* a stack field shows .stacktrace whether it was written or not */
	if (a->kind != b->kind || !a->field != !b->field ||
	    (a->kind != HIST_FIELD_STACK && a->mods != b->mods) ||
	    ((a->mods & (HIST_MOD_BUCKETS | HIST_MOD_LOGLIN)) &&
	     a->mod_arg != b->mod_arg) ||
	    (a->kind == HIST_FIELD_CONST && a->constant != b->constant) ||
	    (a->field && strcmp(a->field->name, b->field->name)))
		return false;
	if (a->kind == HIST_FIELD_VAR_REF &&
	    (!trace_token_eq(&ea->system, &eb->system) ||
	     !trace_token_eq(&ea->event, &eb->event) ||
	     !trace_token_eq(&ea->name, &eb->name)))
		return false;
	return hist_field_equal(a->arg[0], b->arg[0]) &&
	       hist_field_equal(a->arg[1], b->arg[1]);
}

/* Take "@prefix@sep" off the front of @t, if it is there. */
static bool hist_token_take(struct trace_token *t,
			    const struct trace_token *prefix, char sep)
{
	if (t->len <= prefix->len || memcmp(t->start, prefix->start, prefix->len) ||
	    t->start[prefix->len] != sep)
		return false;
	t->start += prefix->len + 1;
	t->len -= prefix->len + 1;
	return true;
}

/*
 * Whether @name, as sort= writes it, names @f: the field's name without
 * its modifier, [system.event.]$var for a reference, the number for a
 * constant, and an expression as it was written.
 */
bool hist_field_named(const struct hist_field *f, const struct trace_token *name)
{
	const struct hist_expr *e = f->expr;
	struct trace_token t = *name;
	char num[24];
	u64 v;

	if (hist_pseudo_name(f))
		return trace_token_is(name, hist_pseudo_name(f));
	if (f->field)
		return trace_token_is(name, f->field->name);
	switch (f->kind) {
	case HIST_FIELD_CONST:
		return trace_token_cstr(name, num, sizeof(num)) &&
		       !kstrtoull(num, 10, &v) && v == f->constant;
	case HIST_FIELD_VAR_REF:
		if (e->system.len && (!hist_token_take(&t, &e->system, '.') ||
				      !hist_token_take(&t, &e->event, '.')))
			return false;
		if (!t.len || t.start[0] != '$')
			return false;
		t.start++;
		t.len--;
		return trace_token_eq(&t, &e->name);
	default:
		return trace_token_eq(name, &e->text);
	}
}

bool hist_field_uses_clock(const struct hist_field *f)
{
	return f && (f->kind == HIST_FIELD_TIMESTAMP ||
		     hist_field_uses_clock(f->arg[0]) ||
		     hist_field_uses_clock(f->arg[1]));
}

/* ---- the event path ---- */

/*
 * The event's time stamp: its ring buffer event's, or for a record in no
 * ring buffer (one a probe built on its stack for the triggers alone) the
 * buffer's clock now, as tracing_event_time_stamp() gives for the per-CPU
 * buffered event.
 */
u64 hist_event_time(const struct hist_event *ev)
{
	if (ev->rbe)
		return tracing_event_time_stamp(ev->buffer, ev->rbe);
	return ring_buffer_time_stamp(ev->buffer);
}

/*
 * How many bytes of the string field @f the record of @ev holds, at most
 * @room: a char[N] need not end with a NUL, a dynamic string has its
 * length, and a flexible char[] at the end (trace_marker's buf) ends
 * with the record.
 */
unsigned int hist_str_room(const struct hist_field *f,
			   const struct hist_event *ev, unsigned int room)
{
	unsigned int len = 0;

	if (f->kind == HIST_FIELD_COMM)
		len = TASK_COMM_LEN;
	else if (f->kind != HIST_FIELD_STR)
		len = trace_loc_len(*(u32 *)(ev->rec + f->offset));
	else if (f->field->size)
		len = f->field->size;
	else if (ev->rbe && ring_buffer_event_length(ev->rbe) > f->offset)
		len = ring_buffer_event_length(ev->rbe) - f->offset;
	return min(len, room);
}

/*
 * Up to @n bytes of @src, to its NUL if it has one; then a NUL.  A word
 * at a time while whole words fit in @n (what is read stays inside the
 * field); a word holding the NUL is stored with its bytes from the NUL
 * on cleared.  @dst is left as it was after the NUL.
 */
void hist_str_copy(char *dst, const char *src, unsigned int n)
{
	unsigned int i;

	for (i = 0; i + sizeof(long) <= n; i += sizeof(long))
		if (hist_str_word(dst + i, src + i))
			return;
	for (; i < n && src[i]; i++)
		dst[i] = src[i];
	dst[i] = '\0';
}

/*
 * .log2=K: the powers of two [2^e, 2^(e+1)) are cut into 2^K buckets of
 * 2^(e-K) numbers each.  Below 2^(K+1) that width would be one number or
 * less, so there every number is a bucket of its own.
 */
static unsigned int hist_loglin_shift(u64 v, unsigned int k)
{
	unsigned int bits = fls64(v);	/* e + 1, or 0 for 0 */

	return bits > k + 1 ? bits - 1 - k : 0;
}

/**
 * hist_loglin_low() - the lowest number of @v's bucket under .log2=@k
 * @v: the number
 * @k: log2 of the number of buckets each power of two is cut into
 *
 * Return: @v with the bits below its bucket's width cleared.
 */
u64 hist_loglin_low(u64 v, unsigned int k)
{
	return v & ~((1ULL << hist_loglin_shift(v, k)) - 1);
}

/**
 * hist_loglin_high() - the highest number of the bucket starting at @low
 * @low: a bucket's lowest number, as hist_loglin_low() gives it
 * @k: log2 of the number of buckets each power of two is cut into
 *
 * Return: @low plus the bucket's width less one; never past U64_MAX.
 */
u64 hist_loglin_high(u64 low, unsigned int k)
{
	return low + ((1ULL << hist_loglin_shift(low, k)) - 1);
}

/* Exact, and without a division instruction when it can be. */
static u64 hist_div_const(u64 v, const struct hist_field *f)
{
	u64 d = f->arg[1]->constant;

	if (is_power_of_2(d))
		return v >> __ffs64(d);
	if (v <= U32_MAX && d <= U32_MAX)
		return reciprocal_divide(v, f->recip);
	return div64_u64(v, d);
}

u64 hist_field_value(const struct hist_field *f, const struct hist_event *ev)
{
	u64 v, d;
	u32 loc;

	switch (f->kind) {
	case HIST_FIELD_NUM:
		v = hist_read_num(ev->rec + f->offset, f->width, f->is_signed);
		break;
	case HIST_FIELD_STR:
		v = (unsigned long)(ev->rec + f->offset);
		break;
	case HIST_FIELD_DYN_STR:
	case HIST_FIELD_STACK:
	case HIST_FIELD_REL_STR:
		loc = *(u32 *)(ev->rec + f->offset);
		v = (unsigned long)(ev->rec +
				    trace_loc_start(loc, f->offset,
						    f->kind == HIST_FIELD_REL_STR));
		break;
	case HIST_FIELD_TIMESTAMP:
		v = ev->has_ts ? ev->ts : hist_event_time(ev);
		if (f->constant)
			v = ns2usecs(v);
		break;
	case HIST_FIELD_CPU:
		v = raw_smp_processor_id();
		break;
	case HIST_FIELD_COMM:
		/* as ftrace prints it: current's, in any context */
		v = (unsigned long)current->comm;
		break;
	case HIST_FIELD_HITCOUNT:
		v = 1;
		break;
	case HIST_FIELD_CONST:
		v = f->constant;
		break;
	case HIST_FIELD_VAR_REF:
		v = ev->vars[f->var_ref_idx];
		break;
	case HIST_FIELD_ADD:
		v = hist_field_value(f->arg[0], ev) + hist_field_value(f->arg[1], ev);
		break;
	case HIST_FIELD_SUB:
		v = hist_field_value(f->arg[0], ev) - hist_field_value(f->arg[1], ev);
		break;
	case HIST_FIELD_MUL:
		v = hist_field_value(f->arg[0], ev) * hist_field_value(f->arg[1], ev);
		break;
	case HIST_FIELD_DIV:
		v = hist_field_value(f->arg[0], ev);
		if (f->arg[1]->kind == HIST_FIELD_CONST) {
			v = hist_div_const(v, f);
		} else {
			d = hist_field_value(f->arg[1], ev);
			v = d ? div64_u64(v, d) : (u64)-1;	/* documented */
		}
		break;
	case HIST_FIELD_NEG:
		v = -hist_field_value(f->arg[0], ev);
		break;
	default:	/* HIST_FIELD_CALLER: the key code saves the stack */
		return 0;
	}
	if (unlikely(f->mods & HIST_MOD_BUCKETING)) {
		if (f->mods & HIST_MOD_LOG2)
			v = v < 2 ? 0 : fls64(v - 1);
		else if (f->mods & HIST_MOD_LOGLIN)
			v = hist_loglin_low(v, f->mod_arg);
		else
			v = div64_ul(v, f->mod_arg) * f->mod_arg;
	}
	return v;
}
