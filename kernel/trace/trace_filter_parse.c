// SPDX-License-Identifier: GPL-2.0
/*
 * trace_filter_parse - compile filter text into a program.
 *
 * Three steps, none of them recursive, so that a deeply nested expression
 * cannot exhaust the kernel stack:
 *
 *  1. filter_scan() checks quotes and parentheses over the whole text and
 *     counts operators, which bounds every array the next steps need.
 *  2. filter_parse_expr() reads the text left to right with an operator
 *     stack ("!" binds tighter than "&&", which binds tighter than "||")
 *     and builds a small tree; each leaf is a predicate compiled at once
 *     into its program entry, numbered in source order.
 *  3. filter_link() walks the tree with an explicit stack, giving every
 *     leaf the entry to run when it is true and when it is false.
 *
 * Errors carry the column of the text that is wrong; see struct trace_parse_err.
 * Runs in process context with event_mutex held by the callers.
 */
#include <linux/ctype.h>
#include <linux/kallsyms.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_parse.h"
#include "trace_filter.h"

/* The relational operators a predicate may use. */
enum filter_op {
	FILTER_OP_EQ,
	FILTER_OP_NE,
	FILTER_OP_LT,
	FILTER_OP_LE,
	FILTER_OP_GT,
	FILTER_OP_GE,
	FILTER_OP_BAND,
	FILTER_OP_GLOB,
	FILTER_OP_MAX,
};

static const char * const filter_op_text[FILTER_OP_MAX] = {
	[FILTER_OP_EQ]		= "==",
	[FILTER_OP_NE]		= "!=",
	[FILTER_OP_LT]		= "<",
	[FILTER_OP_LE]		= "<=",
	[FILTER_OP_GT]		= ">",
	[FILTER_OP_GE]		= ">=",
	[FILTER_OP_BAND]	= "&",
	[FILTER_OP_GLOB]	= "~",
};

/* Longest accepted numeric operand, "0xfeedfacedeadbeef" and a sign. */
#define FILTER_NUM_MAX		24

/* Characters that end an unquoted value. */
#define FILTER_WORD_STOP	"()&|'\""

/* Tree node kinds; FILTER_NODE_OPEN only lives on the operator stack. */
enum filter_node_kind {
	FILTER_NODE_LEAF,	/* a predicate: program entry ->first */
	FILTER_NODE_NOT,	/* negation of ->left */
	FILTER_NODE_AND,	/* ->left && ->right */
	FILTER_NODE_OR,		/* ->left || ->right */
	FILTER_NODE_OPEN,	/* a '(' waiting for its ')' */
};

/* A node of the expression tree. */
struct filter_node {
	enum filter_node_kind	kind;	/* what the node computes */
	int			left;	/* first operand (node index) */
	int			right;	/* second operand of AND/OR */
	int			first;	/* entry index of the leftmost leaf */
};

/* A node filter_link() has yet to visit, and its leaves' targets. */
struct filter_visit {
	int	node;		/* node index */
	int	t;		/* target when the node is true */
	int	f;		/* target when it is false */
};

/* A pending operator on the operator stack. */
struct filter_pending {
	enum filter_node_kind	kind;	/* NOT, AND, OR or OPEN */
	int			pos;	/* column, for "Too many '('" */
};

/* What filter_scan() learns about the text. */
struct filter_counts {
	int	nots;		/* '!' outside quotes (upper bound of NOTs) */
	int	binops;		/* "&&" and "||" outside quotes */
	int	opens;		/* '(' outside quotes */
	bool	terms;		/* anything that could be a predicate */
};

/* The state of one compilation. */
struct filter_compiler {
	struct trace_parse		p;		/* cursor over the text */
	const struct filter_fields	*fields;	/* field lookup */
	struct trace_parse_err		*err;		/* first error found */
	struct prog_entry		*prog;		/* entries, one per leaf */
	int				nr_leaves;	/* entries used */
	int				max_leaves;	/* entries allocated */
	struct filter_node		*nodes;		/* the tree */
	int				nr_nodes;	/* nodes used */
	int				max_nodes;	/* nodes allocated */
	int				*operands;	/* node indices awaiting operators */
	int				nr_operands;	/* depth of @operands */
	struct filter_pending		*ops;		/* the operator stack */
	int				nr_ops;		/* depth of @ops */
	int				max_ops;	/* size of @ops */
	struct filter_visit		*visits;	/* filter_link()'s stack */
	bool				header_ctx;	/* see FILTER_FL_HEADER_CTX */
};

/*
 * Where the innermost '(' left open by @text is: the last one that took the
 * depth to @depth, the depth at the end.  Only called on that error.
 */
static int filter_open_pos(const char *text, int depth)
{
	int d = 0, pos = 0, i;
	char quote = 0;

	for (i = 0; text[i]; i++) {
		if (quote) {
			if (text[i] == quote)
				quote = 0;
		} else if (text[i] == '"' || text[i] == '\'') {
			quote = text[i];
		} else if (text[i] == '(') {
			if (++d == depth)
				pos = i;
		} else if (text[i] == ')') {
			d--;
		}
	}
	return pos;
}

/*
 * Step 1.  Quotes and parentheses are checked before anything else so that
 * an unbalanced one is reported even when a predicate before it is wrong.
 */
static int filter_scan(const char *text, struct filter_counts *cnt,
		       struct trace_parse_err *err)
{
	int quote_pos = 0, depth = 0, i;
	char quote = 0;

	memset(cnt, 0, sizeof(*cnt));
	for (i = 0; text[i]; i++) {
		char c = text[i];

		if (quote) {
			if (c == quote)
				quote = 0;
			continue;
		}
		switch (c) {
		case '"':
		case '\'':
			quote = c;
			quote_pos = i;
			cnt->terms = true;
			break;
		case '(':
			depth++;
			cnt->opens++;
			break;
		case ')':
			if (!depth)
				return trace_parse_fail(err, FILTER_ERR_TOO_MANY_CLOSE, i);
			depth--;
			break;
		case '!':
			cnt->nots++;
			break;
		case '&':
		case '|':
			if (text[i + 1] == c) {
				cnt->binops++;
				i++;
				break;
			}
			cnt->terms = true;
			break;
		default:
			if (!isspace(c))
				cnt->terms = true;
		}
	}
	if (quote)
		return trace_parse_fail(err, FILTER_ERR_MISSING_QUOTE, quote_pos);
	if (depth)
		return trace_parse_fail(err, FILTER_ERR_TOO_MANY_OPEN,
					filter_open_pos(text, depth));
	return 0;
}

/* Copy a token into a NUL-terminated buffer the caller frees. */
static char *filter_tok_dup(const struct trace_token *tok)
{
	return kmemdup_nul(tok->start, tok->len, GFP_KERNEL);
}

/**
 * filter_pattern_new - compile the string operand of a predicate
 * @text: the operand, without quotes
 * @len: its length
 * @glob: the operator is "~": @text may hold wildcards and a leading '!'
 * @negate: flipped when the pattern starts with '!'
 *
 * Return: the pattern, for filter_pattern_free(), or NULL when out of memory.
 */
struct filter_pattern *filter_pattern_new(const char *text, int len,
					  bool glob, bool *negate)
{
	struct filter_pattern *pat;
	char *search;
	int not = 0;

	pat = kzalloc(struct_size(pat, text, len + 1), GFP_KERNEL);
	if (!pat)
		return NULL;
	memcpy(pat->text, text, len);
	pat->how = FILTER_MATCH_FULL;
	if (glob) {
		switch (filter_parse_regex(pat->text, len, &search, &not)) {
		case MATCH_FRONT_ONLY:
			pat->how = FILTER_MATCH_FRONT;
			break;
		case MATCH_MIDDLE_ONLY:
			pat->how = FILTER_MATCH_MIDDLE;
			break;
		case MATCH_END_ONLY:
			pat->how = FILTER_MATCH_END;
			break;
		case MATCH_GLOB:
			pat->how = FILTER_MATCH_GLOB;
			break;
		default:
			break;
		}
		memmove(pat->text, search, strlen(search) + 1);
		if (not)
			*negate = !*negate;
	}
	pat->len = strlen(pat->text);
	if (pat->how == FILTER_MATCH_GLOB) {
		pat->glob = filter_glob_compile(pat->text);
		if (!pat->glob) {
			kfree(pat);
			return NULL;
		}
	}
	return pat;
}

void filter_pattern_free(struct filter_pattern *pat)
{
	if (pat)
		kfree(pat->glob);
	kfree(pat);
}

/* Allocated with the first pointer predicate, then kept for good. */
struct filter_strbuf __percpu *filter_strbuf;

int filter_strbuf_alloc(void)
{
	struct filter_strbuf __percpu *bufs;

	if (READ_ONCE(filter_strbuf))
		return 0;
	bufs = alloc_percpu(struct filter_strbuf);
	if (!bufs)
		return -ENOMEM;
	if (cmpxchg(&filter_strbuf, NULL, bufs))
		free_percpu(bufs);
	return 0;
}

/* Size of a numeric field as an index into the numeric family, or -1. */
static int filter_size_index(int size)
{
	switch (size) {
	case 1:
		return 0;
	case 2:
		return 1;
	case 4:
		return 2;
	case 8:
		return 3;
	}
	return -1;
}

/*
 * Turn "field <kind> ->val" on a field of @size bytes (signed when @sign)
 * into an entry.  The constant is first cut to the field's width, as the
 * field itself is, so that "u8field == 257" still means "== 1"; "==", "<"
 * and "<=" then become the range of values that pass (see enum
 * filter_code).
 */
static void filter_set_num(struct prog_entry *e, int size, bool sign,
			   enum filter_num_kind kind)
{
	static const u8 range_code[4][2] = {
		{ FILTER_T_RANGE_U8, FILTER_T_RANGE_S8 },
		{ FILTER_T_RANGE_U16, FILTER_T_RANGE_S16 },
		{ FILTER_T_RANGE_U32, FILTER_T_RANGE_S32 },
		{ FILTER_T_RANGE_64, FILTER_T_RANGE_64 },
	};
	int idx = filter_size_index(size);
	u64 c, lo, hi;

	if (idx < 0) {
		/* The engine cannot load such a field: never matches. */
		e->code = FILTER_T_CONST;
		e->val = 0;
		e->flags &= ~FILTER_FL_SWAP;
		return;
	}
	if (kind == FILTER_NUM_BAND || kind == FILTER_NUM_IN) {
		e->code = (kind == FILTER_NUM_BAND ? FILTER_T_BAND8 :
			   FILTER_T_IN8) + idx;
		return;
	}

	if (sign)
		c = sign_extend64(e->val, size * 8 - 1);
	else
		c = size == 8 ? e->val : e->val & (BIT_ULL(size * 8) - 1);
	lo = sign ? (u64)S64_MIN : 0;	/* the smallest value of all */
	hi = c;
	if (kind == FILTER_NUM_EQ) {
		lo = c;
	} else if (kind == FILTER_NUM_LT) {
		if (c == lo) {
			/* nothing is below the smallest value */
			e->code = FILTER_T_CONST;
			e->val = 0;
			return;
		}
		hi = c - 1;
	}
	e->code = range_code[idx][sign];
	e->val = lo;
	e->val2 = hi - lo;
}

/* "field.function == name" or "== 0xaddr": an address inside a function. */
static int filter_pred_function(struct filter_compiler *fc,
				struct ftrace_event_field *field,
				int field_pos, enum filter_op op, int op_pos,
				struct prog_entry *e)
{
	struct trace_parse *p = &fc->p;
	unsigned long addr, size, offset;
	struct trace_token tok;
	char *name;

	if (field->size != sizeof(long))
		return trace_parse_fail(fc->err, FILTER_ERR_ILLEGAL_FIELD_OP, field_pos);
	if (op != FILTER_OP_EQ && op != FILTER_OP_NE)
		return trace_parse_fail(fc->err, FILTER_ERR_INVALID_OP, op_pos);

	if (isdigit(trace_parse_cur(p))) {
		char num[FILTER_NUM_MAX];

		trace_parse_ident(p, &tok);
		if (!trace_token_cstr(&tok, num, sizeof(num)))
			return trace_parse_fail(fc->err, FILTER_ERR_OPERAND_TOO_LONG,
						tok.pos);
		if (kstrtoul(num, 0, &addr))
			return trace_parse_fail(fc->err, FILTER_ERR_INVALID_VALUE, tok.pos);
	} else {
		if (!trace_parse_word(p, &tok, FILTER_WORD_STOP))
			return trace_parse_fail(fc->err, FILTER_ERR_NO_FUNCTION, tok.pos);
		name = filter_tok_dup(&tok);
		if (!name)
			return -ENOMEM;
		addr = kallsyms_lookup_name(name);
		kfree(name);
		if (!addr)
			return trace_parse_fail(fc->err, FILTER_ERR_NO_FUNCTION, tok.pos);
	}
	if (!kallsyms_lookup_size_offset(addr, &size, &offset))
		return trace_parse_fail(fc->err, FILTER_ERR_NO_FUNCTION, tok.pos);

	if (op == FILTER_OP_NE)
		e->flags |= FILTER_FL_SWAP;
	e->code = FILTER_T_FUNC;
	e->val = addr - offset;
	e->val2 = e->val + size;
	return 0;
}

/* perf's ftrace:function event: "ip == list" names functions to trace. */
static int filter_pred_ip(struct filter_compiler *fc,
			  struct ftrace_event_field *field, int field_pos,
			  enum filter_op op, int op_pos, struct prog_entry *e)
{
	struct trace_parse *p = &fc->p;
	struct trace_token tok;
	bool unused = false;

	if (strcmp(field->name, "ip"))
		return trace_parse_fail(fc->err, FILTER_ERR_IP_FIELD_ONLY, field_pos);
	if (op != FILTER_OP_EQ && op != FILTER_OP_NE)
		return trace_parse_fail(fc->err, FILTER_ERR_INVALID_OP, op_pos);

	/* Unquoted, the list runs up to the next ')', '&' or '|'. */
	if (trace_parse_quoted(p, &tok))
		trace_parse_span(p, &tok, ")&|");
	if (tok.len >= MAX_FILTER_STR_VAL)
		return trace_parse_fail(fc->err, FILTER_ERR_OPERAND_TOO_LONG, tok.pos);
	e->pat = filter_pattern_new(tok.start, tok.len, false, &unused);
	if (!e->pat)
		return -ENOMEM;
	e->code = FILTER_T_IP;
	return 0;
}

/* "field op CPUS{list}": CPU numbers and cpumask fields against a set. */
static int filter_pred_cpus(struct filter_compiler *fc,
			    struct ftrace_event_field *field, int field_pos,
			    enum filter_op op, int op_pos, struct prog_entry *e)
{
	struct trace_parse *p = &fc->p;
	struct trace_token tok;
	bool single;
	char *list;
	int ret;

	switch (field->filter_type) {
	case FILTER_CPUMASK:
	case FILTER_CPU:
	case FILTER_OTHER:
		break;
	default:
		return trace_parse_fail(fc->err, FILTER_ERR_ILLEGAL_FIELD_OP, field_pos);
	}
	if (op != FILTER_OP_EQ && op != FILTER_OP_NE && op != FILTER_OP_BAND)
		return trace_parse_fail(fc->err, FILTER_ERR_ILLEGAL_FIELD_OP, op_pos);

	p->pos += strlen("CPUS");
	if (!trace_parse_literal(p, "{"))
		return trace_parse_fail(fc->err, FILTER_ERR_MISSING_BRACE_OPEN, p->pos);
	if (trace_parse_until(p, &tok, '}'))
		return trace_parse_fail(fc->err, FILTER_ERR_MISSING_BRACE_CLOSE,
					p->pos + strlen(p->text + p->pos));
	if (!tok.len)
		return trace_parse_fail(fc->err, FILTER_ERR_INVALID_CPULIST, tok.pos);

	list = filter_tok_dup(&tok);
	if (!list)
		return -ENOMEM;
	e->mask = kzalloc(cpumask_size(), GFP_KERNEL);
	ret = e->mask ? cpulist_parse(list, e->mask) : -ENOMEM;
	kfree(list);
	if (ret) {
		kfree(e->mask);
		e->mask = NULL;
		if (ret == -ENOMEM)
			return ret;
		return trace_parse_fail(fc->err, FILTER_ERR_INVALID_CPULIST, tok.pos);
	}

	if (op == FILTER_OP_NE)
		e->flags |= FILTER_FL_SWAP;
	single = cpumask_weight(e->mask) == 1;
	if (single) {
		/* One CPU is tested by its number, before ->val2 is used. */
		e->val = cpumask_first(e->mask);
		kfree(e->mask);
		e->mask = NULL;
	}

	switch (field->filter_type) {
	case FILTER_CPUMASK:
		if (single)
			e->code = op == FILTER_OP_BAND ? FILTER_T_MASK_HAS :
							 FILTER_T_MASK_ONLY;
		else
			e->code = op == FILTER_OP_BAND ? FILTER_T_MASK_BAND :
							 FILTER_T_MASK_EQ;
		break;
	case FILTER_CPU:
		if (single)
			e->code = FILTER_T_CPU_EQ;
		else if (op == FILTER_OP_BAND)
			e->code = FILTER_T_CPU_IN;
		else
			e->code = FILTER_T_CONST;	/* one CPU never equals a set */
		break;
	default:
		if (single)
			filter_set_num(e, field->size, field->is_signed,
				       FILTER_NUM_EQ);
		else if (op == FILTER_OP_BAND)
			filter_set_num(e, field->size, field->is_signed,
				       FILTER_NUM_IN);
		else
			e->code = FILTER_T_CONST;
		break;
	}
	if (e->code == FILTER_T_CONST)
		e->val = 0;
	if (!single && !filter_code_has_mask(e->code)) {
		kfree(e->mask);
		e->mask = NULL;
	}
	return 0;
}

/* A string operand, quoted or a bare word. */
static int filter_pred_string(struct filter_compiler *fc,
			      struct ftrace_event_field *field, bool ustring,
			      enum filter_op op, int op_pos,
			      const struct trace_token *tok,
			      struct prog_entry *e)
{
	bool negate = op == FILTER_OP_NE;

	if (op != FILTER_OP_EQ && op != FILTER_OP_NE && op != FILTER_OP_GLOB)
		return trace_parse_fail(fc->err, FILTER_ERR_ILLEGAL_FIELD_OP, op_pos);
	if (!is_string_field(field))
		return trace_parse_fail(fc->err, FILTER_ERR_EXPECT_DIGIT, tok->pos);
	if (tok->len >= MAX_FILTER_STR_VAL)
		return trace_parse_fail(fc->err, FILTER_ERR_OPERAND_TOO_LONG, tok->pos);

	e->pat = filter_pattern_new(tok->start, tok->len,
				    op == FILTER_OP_GLOB, &negate);
	if (!e->pat)
		return -ENOMEM;
	if (negate)
		e->flags |= FILTER_FL_SWAP;

	switch (field->filter_type) {
	case FILTER_COMM:
		e->code = FILTER_T_COMM;
		break;
	case FILTER_STATIC_STRING:
		e->code = FILTER_T_STR;
		/*
		 * A char[] of size 0 is the flexible array that ends a record
		 * the kernel builds itself (ftrace's print buf): it is always
		 * NUL-terminated and never longer than a page.
		 */
		e->val = field->size ? field->size : PAGE_SIZE;
		break;
	case FILTER_DYN_STRING:
		e->code = FILTER_T_DSTR;
		break;
	case FILTER_RDYN_STRING:
		e->code = FILTER_T_RSTR;
		break;
	default:
		if (filter_strbuf_alloc()) {
			filter_pattern_free(e->pat);
			e->pat = NULL;
			return -ENOMEM;
		}
		e->code = ustring ? FILTER_T_USTR : FILTER_T_PSTR;
		break;
	}
	return 0;
}

/* A numeric operand: decimal, 0x hex or 0 octal, '-' for signed fields. */
static int filter_pred_number(struct filter_compiler *fc,
			      struct ftrace_event_field *field,
			      enum filter_op op, int op_pos,
			      struct prog_entry *e)
{
	static const enum filter_code cpu_code[FILTER_OP_MAX] = {
		[FILTER_OP_EQ] = FILTER_T_CPU_EQ, [FILTER_OP_NE] = FILTER_T_CPU_EQ,
		[FILTER_OP_LT] = FILTER_T_CPU_LT, [FILTER_OP_GE] = FILTER_T_CPU_LT,
		[FILTER_OP_LE] = FILTER_T_CPU_LE, [FILTER_OP_GT] = FILTER_T_CPU_LE,
		[FILTER_OP_BAND] = FILTER_T_CPU_BAND,
	};
	struct trace_parse *p = &fc->p;
	char num[FILTER_NUM_MAX];
	struct trace_token tok;
	int start = p->pos;
	enum filter_num_kind kind;
	int ret;

	if (is_string_field(field))
		return trace_parse_fail(fc->err, FILTER_ERR_EXPECT_STRING, start);
	if (op == FILTER_OP_GLOB)
		return trace_parse_fail(fc->err, FILTER_ERR_ILLEGAL_FIELD_OP, op_pos);

	trace_parse_literal(p, "-");
	while (isalnum(trace_parse_cur(p)))
		p->pos++;
	tok.start = p->text + start;
	tok.len = p->pos - start;
	if (!trace_token_cstr(&tok, num, sizeof(num)))
		return trace_parse_fail(fc->err, FILTER_ERR_OPERAND_TOO_LONG, start);
	if (field->is_signed)
		ret = kstrtoll(num, 0, (s64 *)&e->val);
	else
		ret = kstrtoull(num, 0, &e->val);
	if (ret)
		return trace_parse_fail(fc->err, FILTER_ERR_ILLEGAL_INTVAL, start);

	if (op == FILTER_OP_NE || op == FILTER_OP_GT || op == FILTER_OP_GE)
		e->flags |= FILTER_FL_SWAP;

	if (field->filter_type == FILTER_CPU) {
		e->code = cpu_code[op];
		return 0;
	}
	switch (op) {
	case FILTER_OP_LT:
	case FILTER_OP_GE:
		kind = FILTER_NUM_LT;
		break;
	case FILTER_OP_LE:
	case FILTER_OP_GT:
		kind = FILTER_NUM_LE;
		break;
	case FILTER_OP_BAND:
		kind = FILTER_NUM_BAND;
		break;
	default:
		kind = FILTER_NUM_EQ;
		break;
	}
	filter_set_num(e, field->size, field->is_signed, kind);
	return 0;
}

/* Field names this long or longer are copied to the heap for the lookup */
#define FILTER_NAME_STACK	64

static struct ftrace_event_field *filter_find(struct filter_compiler *fc,
					      const struct trace_token *tok)
{
	struct ftrace_event_field *field;
	char buf[FILTER_NAME_STACK], *name = buf;

	if (!trace_token_cstr(tok, buf, sizeof(buf))) {
		name = filter_tok_dup(tok);
		if (!name)
			return ERR_PTR(-ENOMEM);
	}
	field = fc->fields->find(fc->fields->data, name);
	if (name != buf)
		kfree(name);
	return field;
}

/* Compile "field[.ustring][.function] op value" into @e. */
static int filter_parse_pred(struct filter_compiler *fc, struct prog_entry *e)
{
	struct trace_parse *p = &fc->p;
	struct ftrace_event_field *field;
	struct trace_token name, tok;
	bool ustring, function;
	int op_pos, ret;
	enum filter_op op;
	char c;

	if (!trace_parse_ident(p, &name))
		return trace_parse_fail(fc->err, FILTER_ERR_FIELD_NOT_FOUND, p->pos);
	field = filter_find(fc, &name);
	if (IS_ERR(field))
		return PTR_ERR(field);
	if (!field) {
		/*
		 * The caret goes under what follows the unknown name (its
		 * operator, as a rule), where ftracetest's
		 * tracing-error-log.tc looks for it.
		 */
		trace_parse_skip_space(p);
		return trace_parse_fail(fc->err, FILTER_ERR_FIELD_NOT_FOUND, p->pos);
	}
	if (field->offset < 0 || field->offset > U16_MAX)
		return trace_parse_fail(fc->err, FILTER_ERR_ILLEGAL_FIELD_OP, name.pos);
	e->offset = field->offset;
	/* CPU and COMM have neither offset nor size: they read no record */
	if (field->offset < offsetof(struct trace_entry, pid) &&
	    field->offset + field->size > offsetof(struct trace_entry, flags))
		fc->header_ctx = true;

	ustring = trace_parse_literal(p, ".ustring");
	function = trace_parse_literal(p, ".function");

	trace_parse_skip_space(p);
	op_pos = p->pos;
	ret = trace_parse_one_of(p, filter_op_text, FILTER_OP_MAX);
	if (ret < 0)
		return trace_parse_fail(fc->err, FILTER_ERR_INVALID_OP, op_pos);
	op = ret;
	if (op == FILTER_OP_NE)
		e->flags |= FILTER_FL_NE;

	c = trace_parse_peek(p);
	if (function)
		return filter_pred_function(fc, field, name.pos, op, op_pos, e);
	if (fc->fields->function_event)
		return filter_pred_ip(fc, field, name.pos, op, op_pos, e);
	if (!strncmp(p->text + p->pos, "CPUS", 4))
		return filter_pred_cpus(fc, field, name.pos, op, op_pos, e);
	if (c == '"' || c == '\'') {
		if (op != FILTER_OP_EQ && op != FILTER_OP_NE &&
		    op != FILTER_OP_GLOB)
			return trace_parse_fail(fc->err, FILTER_ERR_ILLEGAL_FIELD_OP,
						op_pos);
		if (!is_string_field(field))
			return trace_parse_fail(fc->err, FILTER_ERR_EXPECT_DIGIT, p->pos);
		if (trace_parse_quoted(p, &tok))
			return trace_parse_fail(fc->err, FILTER_ERR_MISSING_QUOTE, p->pos);
		return filter_pred_string(fc, field, ustring, op, op_pos,
					  &tok, e);
	}
	if (isdigit(c) || c == '-')
		return filter_pred_number(fc, field, op, op_pos, e);
	/* A bare word is accepted as a string for string fields. */
	tok.pos = p->pos;
	if (is_string_field(field) &&
	    (op == FILTER_OP_EQ || op == FILTER_OP_NE || op == FILTER_OP_GLOB) &&
	    trace_parse_word(p, &tok, FILTER_WORD_STOP) &&
	    trace_parse_cur(p) != '"' && trace_parse_cur(p) != '\'')
		return filter_pred_string(fc, field, ustring, op, op_pos,
					  &tok, e);
	return trace_parse_fail(fc->err, FILTER_ERR_INVALID_VALUE, tok.pos);
}

static int filter_new_node(struct filter_compiler *fc,
			   enum filter_node_kind kind, int left, int right)
{
	struct filter_node *n;

	if (fc->nr_nodes >= fc->max_nodes)
		return -E2BIG;
	n = &fc->nodes[fc->nr_nodes];
	n->kind = kind;
	n->left = left;
	n->right = right;
	n->first = kind == FILTER_NODE_LEAF ? left : fc->nodes[left].first;
	return fc->nr_nodes++;
}

/* Pop the top operator and combine its operands into a node. */
static int filter_reduce(struct filter_compiler *fc)
{
	enum filter_node_kind kind = fc->ops[--fc->nr_ops].kind;
	int need = kind == FILTER_NODE_NOT ? 1 : 2;
	int left, right = -1, node;

	if (fc->nr_operands < need)
		return -EINVAL;
	if (need == 2)
		right = fc->operands[--fc->nr_operands];
	left = fc->operands[--fc->nr_operands];
	node = filter_new_node(fc, kind, left, right);
	if (node < 0)
		return node;
	fc->operands[fc->nr_operands++] = node;
	return 0;
}

static int filter_precedence(enum filter_node_kind kind)
{
	switch (kind) {
	case FILTER_NODE_NOT:
		return 3;
	case FILTER_NODE_AND:
		return 2;
	case FILTER_NODE_OR:
		return 1;
	default:
		return 0;
	}
}

/* Reduce pending operators that bind at least as tightly as @kind. */
static int filter_reduce_to(struct filter_compiler *fc,
			    enum filter_node_kind kind)
{
	int ret;

	while (fc->nr_ops && fc->ops[fc->nr_ops - 1].kind != FILTER_NODE_OPEN &&
	       filter_precedence(fc->ops[fc->nr_ops - 1].kind) >=
	       filter_precedence(kind)) {
		ret = filter_reduce(fc);
		if (ret)
			return ret;
	}
	return 0;
}

static int filter_push_op(struct filter_compiler *fc,
			  enum filter_node_kind kind, int pos)
{
	if (fc->nr_ops >= fc->max_ops)
		return -E2BIG;
	fc->ops[fc->nr_ops].kind = kind;
	fc->ops[fc->nr_ops].pos = pos;
	fc->nr_ops++;
	return 0;
}

/* An operand was expected at the cursor; read one or fail. */
static int filter_parse_operand(struct filter_compiler *fc,
				const struct filter_counts *cnt, bool *done)
{
	struct trace_parse *p = &fc->p;
	struct prog_entry e = {};
	char c = trace_parse_peek(p);
	int ret, node;

	*done = false;
	if (c == '(') {
		p->pos++;
		return filter_push_op(fc, FILTER_NODE_OPEN, p->pos - 1);
	}
	if (c == '!' && p->text[p->pos + 1] != '=' &&
	    p->text[p->pos + 1] != '~') {
		p->pos++;
		return filter_push_op(fc, FILTER_NODE_NOT, p->pos - 1);
	}
	if (!c || c == ')' || !strncmp(p->text + p->pos, "&&", 2) ||
	    !strncmp(p->text + p->pos, "||", 2)) {
		if (!cnt->terms)
			return trace_parse_fail(fc->err, FILTER_ERR_NO_FILTER, p->pos);
		return trace_parse_fail(fc->err, FILTER_ERR_INVALID_FILTER, p->pos);
	}
	if (fc->nr_leaves >= fc->max_leaves || fc->nr_leaves >= MAX_FILTER_PRED)
		return trace_parse_fail(fc->err, FILTER_ERR_TOO_MANY_PREDS, p->pos);

	/* On failure filter_parse_pred() has released what it allocated. */
	ret = filter_parse_pred(fc, &e);
	if (ret)
		return ret;
	fc->prog[fc->nr_leaves] = e;
	node = filter_new_node(fc, FILTER_NODE_LEAF, fc->nr_leaves++, -1);
	if (node < 0)
		return node;
	fc->operands[fc->nr_operands++] = node;
	*done = true;
	return 0;
}

/* Step 2: build the tree; returns the root node or a negative error. */
static int filter_parse_expr(struct filter_compiler *fc,
			     const struct filter_counts *cnt)
{
	struct trace_parse *p = &fc->p;
	bool operand = false;
	int ret;
	char c;

	for (;;) {
		if (!operand) {
			ret = filter_parse_operand(fc, cnt, &operand);
			if (ret)
				return ret;
			continue;
		}
		c = trace_parse_peek(p);
		if (!c)
			break;
		if (c == ')') {
			ret = filter_reduce_to(fc, FILTER_NODE_OR);
			if (ret)
				return ret;
			if (!fc->nr_ops)
				return trace_parse_fail(fc->err, FILTER_ERR_TOO_MANY_CLOSE,
							p->pos);
			fc->nr_ops--;	/* the matching '(' */
			p->pos++;
			continue;
		}
		if (trace_parse_literal(p, "&&")) {
			ret = filter_reduce_to(fc, FILTER_NODE_AND);
			if (!ret)
				ret = filter_push_op(fc, FILTER_NODE_AND,
						     p->pos - 2);
		} else if (trace_parse_literal(p, "||")) {
			ret = filter_reduce_to(fc, FILTER_NODE_OR);
			if (!ret)
				ret = filter_push_op(fc, FILTER_NODE_OR,
						     p->pos - 2);
		} else {
			return trace_parse_fail(fc->err, FILTER_ERR_TOO_MANY_PREDS, p->pos);
		}
		if (ret)
			return ret;
		operand = false;
	}

	ret = filter_reduce_to(fc, FILTER_NODE_OR);
	if (ret)
		return ret;
	if (fc->nr_ops)
		return trace_parse_fail(fc->err, FILTER_ERR_TOO_MANY_OPEN,
					fc->ops[fc->nr_ops - 1].pos);
	if (fc->nr_operands != 1)
		return -EINVAL;
	return fc->operands[0];
}

/* An entry index or verdict as the pointer the evaluator follows. */
static const struct prog_entry *filter_target(const struct prog_entry *prog,
					      int target)
{
	if (target >= 0)
		return &prog[target];
	return target == FILTER_ACCEPT ? FILTER_NEXT_ACCEPT : FILTER_NEXT_REJECT;
}

/* Step 3: give every leaf its true and false targets. */
static int filter_link(struct filter_compiler *fc, int root)
{
	struct filter_visit *stack = fc->visits, *top = stack;
	int i, ret = 0;

	/* Every node is pushed once: @stack has room for all of them. */
	*top++ = (struct filter_visit){ root, FILTER_ACCEPT, FILTER_REJECT };
	while (top != stack) {
		struct filter_visit cur = *--top;
		struct filter_node *n = &fc->nodes[cur.node];
		struct prog_entry *e;
		int first_right;

		switch (n->kind) {
		case FILTER_NODE_LEAF:
			e = &fc->prog[n->first];
			if (e->flags & FILTER_FL_SWAP)
				swap(cur.t, cur.f);
			e->on_true = cur.t;
			e->on_false = cur.f;
			break;
		case FILTER_NODE_NOT:
			*top++ = (struct filter_visit){ n->left, cur.f, cur.t };
			break;
		case FILTER_NODE_AND:
			first_right = fc->nodes[n->right].first;
			*top++ = (struct filter_visit){ n->right, cur.t, cur.f };
			*top++ = (struct filter_visit){ n->left, first_right, cur.f };
			break;
		default:
			first_right = fc->nodes[n->right].first;
			*top++ = (struct filter_visit){ n->right, cur.t, cur.f };
			*top++ = (struct filter_visit){ n->left, cur.t, first_right };
			break;
		}
	}

	/* Every jump goes forward, so evaluation always terminates. */
	for (i = 0; i < fc->nr_leaves; i++) {
		struct prog_entry *e = &fc->prog[i];

		if ((e->on_true >= 0 && e->on_true <= i) ||
		    (e->on_false >= 0 && e->on_false <= i))
			ret = -EINVAL;
		e->next[0] = filter_target(fc->prog, e->on_false);
		e->next[1] = filter_target(fc->prog, e->on_true);
	}
	return ret;
}

bool filter_code_has_pattern(int code)
{
	return (code >= FILTER_T_STR && code <= FILTER_T_COMM) || code == FILTER_T_IP;
}

bool filter_code_has_mask(int code)
{
	return (code >= FILTER_T_IN8 && code <= FILTER_T_IN64) ||
	       code == FILTER_T_CPU_IN || code == FILTER_T_MASK_EQ ||
	       code == FILTER_T_MASK_BAND;
}

/* Free a program and the operands its entries own. */
void filter_prog_free(struct prog_entry *prog)
{
	struct prog_entry *e;

	if (!prog)
		return;
	for (e = prog; e->code != FILTER_T_END; e++) {
		if (filter_code_has_pattern(e->code))
			filter_pattern_free(e->pat);
		else if (filter_code_has_mask(e->code))
			kfree(e->mask);
	}
	kfree(prog);
}

/*
 * Carve the compiler's work arrays out of one allocation; all hold ints,
 * so each starts aligned where the one before ends.
 */
static void *filter_scratch_alloc(struct filter_compiler *fc)
{
	size_t per_node = sizeof(*fc->nodes) + sizeof(*fc->visits) +
			  sizeof(*fc->operands);
	void *scratch;

	scratch = kmalloc(size_add(array_size(fc->max_nodes, per_node),
				   array_size(fc->max_ops, sizeof(*fc->ops))),
			  GFP_KERNEL);
	if (!scratch)
		return NULL;
	fc->nodes = scratch;
	fc->visits = (struct filter_visit *)(fc->nodes + fc->max_nodes);
	fc->ops = (struct filter_pending *)(fc->visits + fc->max_nodes);
	fc->operands = (int *)(fc->ops + fc->max_ops);
	return scratch;
}

/**
 * filter_compile - turn filter text into a program
 * @text: the expression, NUL-terminated
 * @fields: how to find the fields the expression names
 * @err: set to the message and column when the text is wrong
 *
 * Return: the program, or an ERR_PTR(): -EINVAL with @err filled in for bad
 * text, -ENOMEM (err->err FILTER_ERR_NONE) when memory ran out.
 */
struct prog_entry *filter_compile(const char *text,
				  const struct filter_fields *fields,
				  struct trace_parse_err *err)
{
	struct filter_compiler fc = { .fields = fields, .err = err };
	struct filter_counts cnt;
	void *scratch;
	int root, ret;

	err->err = FILTER_ERR_NONE;
	err->pos = 0;
	ret = filter_scan(text, &cnt, err);
	if (ret)
		return ERR_PTR(ret);

	trace_parse_init(&fc.p, text);
	fc.max_leaves = cnt.binops + 1;
	fc.max_nodes = fc.max_leaves + cnt.nots + cnt.binops;
	fc.max_ops = cnt.nots + cnt.binops + cnt.opens + 1;
	fc.prog = kcalloc(fc.max_leaves + 1, sizeof(*fc.prog), GFP_KERNEL);
	scratch = filter_scratch_alloc(&fc);
	ret = -ENOMEM;
	if (!fc.prog || !scratch)
		goto out;

	root = filter_parse_expr(&fc, &cnt);
	ret = root < 0 ? root : filter_link(&fc, root);
	if (!ret && fc.header_ctx)
		fc.prog[0].flags |= FILTER_FL_HEADER_CTX;
out:
	if (fc.prog)
		fc.prog[fc.nr_leaves].code = FILTER_T_END;
	kfree(scratch);
	if (!ret)
		return fc.prog;
	filter_prog_free(fc.prog);
	if (ret != -ENOMEM && err->err == FILTER_ERR_NONE) {
		/* An internal inconsistency; still tell the user something. */
		err->err = FILTER_ERR_INVALID_FILTER;
		err->pos = fc.p.pos;
	}
	return ERR_PTR(ret == -ENOMEM ? -ENOMEM : -EINVAL);
}

/*
 * perf's function event accepts only a plain "||" list of "ip" tests:
 * every entry accepts when true and otherwise moves on to the next one,
 * the last one rejecting.
 */
bool filter_ip_list(const struct prog_entry *prog)
{
	int i;

	for (i = 0; prog[i].code != FILTER_T_END; i++) {
		int t = prog[i].on_true, f = prog[i].on_false;
		int next = prog[i + 1].code == FILTER_T_END ? FILTER_REJECT : i + 1;

		/* "!=" only selects notrace here: the targets are not swapped */
		if (prog[i].code != FILTER_T_IP)
			return false;
		if (t != FILTER_ACCEPT || f != next)
			return false;
	}
	return i > 0;
}
