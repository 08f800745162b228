// SPDX-License-Identifier: GPL-2.0
/*
 * trace_hist_parse - a "hist:" command, from text to struct hist_spec.
 *
 * The command is a list of attributes separated by ':' and ending at the
 * first blank (where a filter may follow):
 *
 *   keys=EXPR[,EXPR...]  vals=EXPR[,...]  sort=NAME[.descending][,...]
 *   size=N  name=NAME  clock=NAME  pause  cont  clear  nohitcount
 *   VAR=EXPR[,VAR=EXPR...]
 *   onmatch(SYSTEM.EVENT).ACTION(...)  onmax($VAR).ACTION(...)
 *   onchange($VAR).ACTION(...)
 *
 * key=, val= and values= are accepted spellings, as are continue and NOHC.
 * An expression is a field with at most one modifier ("bytes.hex",
 * "ts.buckets=100", "lat.log2=3"), a number, a variable ($x, or sys.event.$x), or up to
 * HIST_OPS_MAX operators combining them: + and - bind less tightly than *
 * and /, all associate to the left, and -(EXPR) negates.
 *
 * The parser is a recursive descent over the shared cursor of
 * trace_parse.h, so every error carries the column of what is wrong.  It
 * checks syntax only: whether a field exists, a variable is defined or a
 * synthetic event takes these parameters is decided when the spec is
 * bound to an event.
 */
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/string.h>
#include <linux/stringify.h>

#include "trace_hist.h"

const char * const hist_err_text[HIST_ERR_MAX] = {
	[HIST_ERR_NONE]			= "No error",
	[HIST_ERR_MALFORMED_ASSIGNMENT]	= "Malformed assignment",
	[HIST_ERR_EMPTY_ASSIGNMENT]	= "Empty assignment",
	[HIST_ERR_DUPLICATE_VAR]	= "Variable already defined",
	[HIST_ERR_TOO_MANY_VARS]	= "Too many variables defined",
	[HIST_ERR_TOO_MANY_KEYS]	= "Too many keys (" __stringify(HIST_KEYS_MAX) " max)",
	[HIST_ERR_TOO_MANY_VALS]	= "Too many values (" __stringify(HIST_VALS_MAX)
					  " max besides hitcount)",
	[HIST_ERR_NO_KEYS]		= "No keys= given",
	[HIST_ERR_BAD_SIZE]		= "Map size must be between 128 and 131072",
	[HIST_ERR_UNKNOWN_ATTR]		= "Unknown hist attribute",
	[HIST_ERR_BAD_FIELD_MODIFIER]	= "Invalid field modifier",
	[HIST_ERR_TOO_MANY_SUBEXPR]	= "Too many subexpressions (3 max)",
	[HIST_ERR_EXPECT_NUMBER]	= "Expecting numeric literal",
	[HIST_ERR_UNARY_MINUS_SUBEXPR]	= "Unary minus not supported in sub-expressions",
	[HIST_ERR_DIVISION_BY_ZERO]	= "Division by zero",
	[HIST_ERR_INCOMPLETE_EXPR]	= "Operand missing in expression",
	[HIST_ERR_UNEXPECTED_CHAR]	= "Unexpected character in expression",
	[HIST_ERR_TOO_COMPLEX]		= "Too many expressions in one command",
	[HIST_ERR_NO_CLOSING_PAREN]	= "No closing paren found",
	[HIST_ERR_EMPTY_SORT_FIELD]	= "Empty sort field",
	[HIST_ERR_INVALID_SORT_MODIFIER] = "Invalid sort modifier",
	[HIST_ERR_TOO_MANY_SORT_FIELDS]	= "Too many sort fields (Max = "
					  __stringify(HIST_SORT_MAX) ")",
	[HIST_ERR_SUBSYS_NOT_FOUND]	= "Missing subsystem",
	[HIST_ERR_INVALID_SUBSYS_EVENT]	= "Invalid subsystem or event name",
	[HIST_ERR_ONX_NOT_VAR]		= "For onmax(x) or onchange(x), x must be a variable",
	[HIST_ERR_ACTION_NOT_FOUND]	= "No action found",
	[HIST_ERR_ACTION_MISMATCH]	= "Handler doesn't support action",
	[HIST_ERR_NO_SAVE_PARAMS]	= "No params found for save()",
	[HIST_ERR_TOO_MANY_SAVE_ACTIONS] = "Can't have more than one save() action per hist",
	[HIST_ERR_TOO_MANY_SNAPSHOTS]	= "Can't have more than one snapshot() action per hist",
	[HIST_ERR_TOO_MANY_PARAMS]	= "Too many action params",
	[HIST_ERR_INVALID_PARAM]	= "Invalid action param",
	[HIST_ERR_TOO_MANY_ACTIONS]	= "Too many actions (8 max)",
	[HIST_ERR_FIELD_NOT_FOUND]	= "Couldn't find field",
	[HIST_ERR_HIST_CREATE_FAIL]	= "Couldn't create histogram for field",
	[HIST_ERR_INVALID_STR_OPERAND]	= "String type can not be an operand in expression",
	[HIST_ERR_TIMESTAMP_MISMATCH]	= "Timestamp units in expression don't match",
	[HIST_ERR_INVALID_REF_KEY]	= "Using variable references in keys not supported",
	[HIST_ERR_VAR_NOT_FOUND]	= "Couldn't find variable",
	[HIST_ERR_VAR_NOT_UNIQUE]	=
		"Variable name not unique, need to use fully qualified name (subsys.event.var) for variable",
	[HIST_ERR_REF_KEYS_DIFFER]	= "Variable's histogram has other keys",
	[HIST_ERR_SYNTH_EVENT_NOT_FOUND] = "Couldn't find synthetic event",
	[HIST_ERR_SYNTH_TYPE_MISMATCH]	= "Param type doesn't match synthetic event field type",
	[HIST_ERR_SYNTH_COUNT_MISMATCH]	= "Param count doesn't match synthetic event field count",
	[HIST_ERR_ONX_VAR_NOT_FOUND]	= "Couldn't find onmax or onchange variable",
	[HIST_ERR_TRACE_LOOP]		=
		"Synthetic event fires this event again, or chains too deep",
	[HIST_ERR_SAVE_VAR_FAIL]	= "Couldn't create or find variable",
	[HIST_ERR_ONX_VAR_CREATE_FAIL]	= "Couldn't create onmax or onchange variable",
	[HIST_ERR_INVALID_SORT_FIELD]	= "Sort field must be a key or a val",
	[HIST_ERR_KEY_TOO_LARGE]	= "Keys too large (" __stringify(HIST_KEY_SIZE_MAX)
					  " bytes max)",
	[HIST_ERR_NEED_NOHC_VAL]	= "Non-hitcount value is required for 'nohitcount'",
	[HIST_ERR_NAMED_MISMATCH]	=
		"Named hist trigger doesn't match existing named trigger (includes variables)",
	[HIST_ERR_TRIGGER_EEXIST]	= "Hist trigger already exists",
	[HIST_ERR_TRIGGER_ENOENT_CLEAR]	= "Can't clear or continue a nonexistent hist trigger",
	[HIST_ERR_SET_CLOCK_FAIL]	= "Couldn't set trace_clock",
	[HIST_ERR_IN_USE]		= "Variables of this histogram are in use",
	[HIST_ERR_TOO_MANY_FIELD_VARS]	= "Too many field variables defined",
	[HIST_ERR_EVENT_FILE_NOT_FOUND]	= "Event file not found",
	[HIST_ERR_HIST_NOT_FOUND]	= "Matching event histogram not found",
	[HIST_ERR_TRAILING_TEXT]	=
		"Unexpected text after the command (a filter starts with 'if ')",
	[HIST_ERR_BAD_LOGLIN_BITS]	=
		"log2=K takes K from 0 to " __stringify(HIST_LOGLIN_BITS_MAX)
		" (2^K buckets in each power of two)",
};

const char * const hist_handler_names[] = {
	[HIST_ONMATCH] = "onmatch", [HIST_ONMAX] = "onmax",
	[HIST_ONCHANGE] = "onchange",
};

/* The parse in progress: the cursor, the spec it fills, the first error. */
struct hist_parser {
	struct trace_parse	p;
	struct hist_spec	*spec;
	struct trace_parse_err	*err;
	int			start;	/* column where the current span starts */
	int			end;	/* column where the current span ends */
};

/* Whether @a and @b are the same handler and action, as written. */
bool hist_spec_action_same(const struct hist_spec_action *a,
			   const struct hist_spec_action *b)
{
	unsigned int i;

	if (a->handler != b->handler || a->action != b->action ||
	    a->legacy != b->legacy || a->n_params != b->n_params ||
	    !trace_token_eq(&a->system, &b->system) ||
	    !trace_token_eq(&a->event, &b->event) ||
	    !trace_token_eq(&a->var, &b->var) ||
	    !trace_token_eq(&a->synth, &b->synth))
		return false;
	for (i = 0; i < a->n_params; i++)
		if (!trace_token_eq(&a->params[i], &b->params[i]))
			return false;
	return true;
}

/* The index of the variable @name in @spec, or -1. */
int hist_spec_var(const struct hist_spec *spec, const struct trace_token *name)
{
	unsigned int i;

	for (i = 0; i < spec->n_vars; i++)
		if (trace_token_eq(&spec->vars[i].var, name))
			return i;
	return -1;
}

static char hist_cur(struct hist_parser *hp)
{
	return hp->p.pos < hp->end ? trace_parse_cur(&hp->p) : '\0';
}

static void hist_token_at(struct hist_parser *hp, struct trace_token *tok,
			  int start)
{
	tok->start = hp->p.text + start;
	tok->pos = start;
	tok->len = hp->p.pos - start;
}

/* An identifier that does not run past the current span. */
static bool hist_ident(struct hist_parser *hp, struct trace_token *tok)
{
	if (!trace_parse_ident(&hp->p, tok))
		return false;
	if (hp->p.pos > hp->end) {
		tok->len -= hp->p.pos - hp->end;
		hp->p.pos = hp->end;
	}
	return tok->len > 0;
}

/* ---- expressions ---- */

static struct hist_expr *hist_node(struct hist_parser *hp,
				   enum hist_expr_kind kind, int start)
{
	struct hist_spec *spec = hp->spec;
	struct hist_expr *e;

	/* Repeating keys= or vals= could otherwise use up the pool. */
	if (spec->n_nodes == HIST_NODES_MAX) {
		trace_parse_fail(hp->err, HIST_ERR_TOO_COMPLEX, start);
		return NULL;
	}
	e = &spec->nodes[spec->n_nodes++];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->text.start = hp->p.text + start;
	e->text.pos = start;
	return e;
}

/* The ".modifier" after a field name; the cursor is on the '.'. */
static int hist_modifier(struct hist_parser *hp, struct hist_expr *e)
{
	int start = ++hp->p.pos, i;
	struct trace_token n;
	u64 arg;

	/* A modifier ends where the next operator or the span does. */
	while (hist_cur(hp) && !strchr("+*/,)", hist_cur(hp)) &&
	       !(hist_cur(hp) == '-' && strncmp(hp->p.text + start, "sym-", 4)))
		hp->p.pos++;
	for (i = 0; hist_mod_names[i].name; i++) {
		size_t len = strlen(hist_mod_names[i].name);
		unsigned int mod = hist_mod_names[i].mod;

		if (strncmp(hp->p.text + start, hist_mod_names[i].name, len))
			continue;
		if (mod == HIST_MOD_LOG2 && hp->p.text[start + len] == '=') {
			/* log2=K: K from 0 to HIST_LOGLIN_BITS_MAX */
			hist_token_at(hp, &n, start + len + 1);
			if (trace_token_num(&n, 0, HIST_LOGLIN_BITS_MAX, &arg))
				return trace_parse_fail(hp->err, HIST_ERR_BAD_LOGLIN_BITS,
							start + len + 1);
			e->mod_arg = arg;
			e->mods = HIST_MOD_LOGLIN;
			return 0;
		}
		if (mod != HIST_MOD_BUCKETS) {
			/* any word starting so is .percent or .graph */
			if (start + len != hp->p.pos &&
			    !(mod & (HIST_MOD_PERCENT | HIST_MOD_GRAPH)))
				continue;
			e->mods = mod;
			return 0;
		}
		/* buckets=N: N a positive number in any base kstrtoul takes */
		hist_token_at(hp, &n, start + len + 1);
		if (hp->p.text[start + len] != '=' ||
		    trace_token_num(&n, 1, ULONG_MAX, &arg))
			break;
		e->mod_arg = arg;
		e->mods = HIST_MOD_BUCKETS;
		return 0;
	}
	return trace_parse_fail(hp->err, HIST_ERR_BAD_FIELD_MODIFIER, start);
}

/* A number, kstrtoull's spellings (0x1f, 017, 42). */
static int hist_const(struct hist_parser *hp, struct hist_expr *e)
{
	int start = hp->p.pos;
	struct trace_token n;

	while (isalnum(hist_cur(hp)))
		hp->p.pos++;
	hist_token_at(hp, &n, start);
	if (trace_token_num(&n, 0, U64_MAX, &e->value))
		return trace_parse_fail(hp->err, HIST_ERR_EXPECT_NUMBER, start);
	return 0;
}

/* A field (with its modifier), a number, or a variable reference. */
static int hist_atom(struct hist_parser *hp, struct hist_expr **out)
{
	int start = hp->p.pos, ret = 0;
	struct trace_token a, b;
	struct hist_expr *e;
	char c = hist_cur(hp);

	if (!c || strchr("+-*/,)", c))
		return trace_parse_fail(hp->err, HIST_ERR_INCOMPLETE_EXPR, start);
	if (isdigit(c)) {
		e = hist_node(hp, HIST_EXPR_CONST, start);
		ret = e ? hist_const(hp, e) : -EINVAL;
	} else if (c == '$') {
		hp->p.pos++;
		if (!hist_ident(hp, &a))
			return trace_parse_fail(hp->err, HIST_ERR_INCOMPLETE_EXPR, hp->p.pos);
		e = hist_node(hp, HIST_EXPR_VAR, start);
		if (e)
			e->name = a;
	} else {
		if (!hist_ident(hp, &a))
			return trace_parse_fail(hp->err, HIST_ERR_INCOMPLETE_EXPR, start);
		/* system.event.$var, or system.event.field */
		if (hist_cur(hp) == '.') {
			int mark = hp->p.pos++;
			bool var;

			if (hist_ident(hp, &b) && hist_cur(hp) == '.' &&
			    hp->p.pos + 1 < hp->end) {
				var = hp->p.text[hp->p.pos + 1] == '$';
				hp->p.pos += var ? 2 : 1;
				e = hist_node(hp, var ? HIST_EXPR_VAR :
					      HIST_EXPR_FIELD, start);
				if (!e)
					return -EINVAL;
				e->system = a;
				e->event = b;
				if (!hist_ident(hp, &e->name))
					return trace_parse_fail(hp->err, HIST_ERR_INCOMPLETE_EXPR,
								hp->p.pos);
				if (!var && hist_cur(hp) == '.')
					ret = hist_modifier(hp, e);
				goto done;
			}
			hp->p.pos = mark;
		}
		e = hist_node(hp, HIST_EXPR_FIELD, start);
		if (e) {
			e->name = a;
			if (hist_cur(hp) == '.')
				ret = hist_modifier(hp, e);
		}
	}
	if (!e)
		return -EINVAL;
done:
	hist_token_at(hp, &e->text, start);
	*out = e;
	return ret;
}

static int hist_sum(struct hist_parser *hp, struct hist_expr **out);

/* The column of the ')' closing the '(' just before @pos, or -1. */
static int hist_closing_paren(struct hist_parser *hp, int pos)
{
	int depth = 1;

	for (; pos < hp->end; pos++) {
		if (hp->p.text[pos] == '(')
			depth++;
		else if (hp->p.text[pos] == ')' && !--depth)
			return pos;
	}
	return -1;
}

/* An atom, or -(EXPR). */
static int hist_unary(struct hist_parser *hp, struct hist_expr **out)
{
	int start = hp->p.pos, close, ret;
	struct hist_expr *e;

	if (hist_cur(hp) != '-')
		return hist_atom(hp, out);
	hp->p.pos++;
	if (hist_cur(hp) != '(')
		return trace_parse_fail(hp->err, HIST_ERR_INCOMPLETE_EXPR, hp->p.pos);
	hp->p.pos++;
	/* -(EXPR) only as a whole expression, never inside one */
	close = hist_closing_paren(hp, hp->p.pos);
	if (start != hp->start || (close >= 0 && close != hp->end - 1))
		return trace_parse_fail(hp->err, HIST_ERR_UNARY_MINUS_SUBEXPR, hp->p.pos);
	e = hist_node(hp, HIST_EXPR_NEG, start);
	if (!e)
		return -EINVAL;
	ret = hist_sum(hp, &e->arg[0]);
	if (ret)
		return ret;
	if (hist_cur(hp) != ')')
		return trace_parse_fail(hp->err, HIST_ERR_NO_CLOSING_PAREN, hp->p.pos);
	hp->p.pos++;
	hist_token_at(hp, &e->text, start);
	*out = e;
	return 0;
}

/* Left-associative chain of @ops over operands parsed by @operand. */
static int hist_chain(struct hist_parser *hp, struct hist_expr **out,
		      const char *ops,
		      int (*operand)(struct hist_parser *, struct hist_expr **))
{
	static const enum hist_expr_kind kinds[128] = {
		['+'] = HIST_EXPR_ADD, ['-'] = HIST_EXPR_SUB,
		['*'] = HIST_EXPR_MUL, ['/'] = HIST_EXPR_DIV,
	};
	int start = hp->p.pos, ret;
	struct hist_expr *left, *e;

	ret = operand(hp, &left);
	while (!ret && hist_cur(hp) && strchr(ops, hist_cur(hp))) {
		char op = hist_cur(hp);

		hp->p.pos++;
		e = hist_node(hp, kinds[(int)op], start);
		if (!e)
			return -EINVAL;
		e->arg[0] = left;
		ret = operand(hp, &e->arg[1]);
		if (!ret && op == '/' && e->arg[1]->kind == HIST_EXPR_CONST &&
		    !e->arg[1]->value)
			ret = trace_parse_fail(hp->err,
					       HIST_ERR_DIVISION_BY_ZERO,
					       e->arg[1]->text.pos);
		hist_token_at(hp, &e->text, start);
		left = e;
	}
	*out = left;
	return ret;
}

static int hist_product(struct hist_parser *hp, struct hist_expr **out)
{
	return hist_chain(hp, out, "*/", hist_unary);
}

static int hist_sum(struct hist_parser *hp, struct hist_expr **out)
{
	return hist_chain(hp, out, "+-", hist_product);
}

/*
 * Where an expression has too many operators: counting them root first,
 * then the left operand's, then the right one's, at the left operand of
 * the first one over HIST_OPS_MAX, the column error_log has always shown
 * for it.  -1 when there are not too many.
 */
static int hist_ops_excess(const struct hist_expr *e, unsigned int *n)
{
	int pos;

	if (e->kind < HIST_EXPR_ADD)
		return -1;
	if (++*n > HIST_OPS_MAX)
		return e->arg[0]->text.pos;
	pos = hist_ops_excess(e->arg[0], n);
	if (pos < 0 && e->kind != HIST_EXPR_NEG)
		pos = hist_ops_excess(e->arg[1], n);
	return pos;
}

/* One expression filling exactly the span up to @end. */
static int hist_expr_span(struct hist_parser *hp, int end,
			  struct hist_expr **out)
{
	unsigned int n = 0;
	int ret, pos;

	hp->start = hp->p.pos;
	hp->end = end;
	ret = hist_sum(hp, out);
	if (!ret && hp->p.pos != end) {
		/* -(x) followed by more, or a stray character */
		if (hp->p.text[hp->p.pos] == ')')
			return trace_parse_fail(hp->err, HIST_ERR_UNARY_MINUS_SUBEXPR, hp->p.pos);
		return trace_parse_fail(hp->err, HIST_ERR_UNEXPECTED_CHAR, hp->p.pos);
	}
	pos = ret ? -1 : hist_ops_excess(*out, &n);
	if (pos >= 0)
		return trace_parse_fail(hp->err, HIST_ERR_TOO_MANY_SUBEXPR, pos);
	return ret;
}

int hist_parse_expr(struct hist_spec *spec, const char *cmd, int start,
		    int end, struct hist_expr **expr,
		    struct trace_parse_err *err)
{
	struct hist_parser hp = { .spec = spec, .err = err };

	trace_parse_init(&hp.p, cmd);
	hp.p.pos = start;
	return hist_expr_span(&hp, end, expr);
}

/* ---- attributes ---- */

/* Column of the next @c (or the end) in the attribute ending at @end. */
static int hist_next(struct hist_parser *hp, char c, int end)
{
	const char *s = memchr(hp->p.text + hp->p.pos, c, end - hp->p.pos);

	return s ? s - hp->p.text : end;
}

/* keys=, vals=: a comma-separated list of expressions. */
static int hist_field_list(struct hist_parser *hp, int end,
			   struct hist_spec_field *fields, unsigned int *n,
			   unsigned int max, enum hist_err too_many)
{
	struct hist_spec *spec = hp->spec;
	bool vals = fields == spec->vals;
	int ret;

	*n = 0;
	if (vals)
		spec->hitcount_val = false;
	while (hp->p.pos <= end) {
		int stop = hist_next(hp, ',', end), start = hp->p.pos;

		if (vals && stop - start == 8 &&
		    !strncmp(hp->p.text + start, "hitcount", 8)) {
			spec->hitcount_val = true;
			hp->p.pos = stop + 1;
			continue;
		}
		if (*n == max)
			return trace_parse_fail(hp->err, too_many, start);
		fields[*n].var.len = 0;
		ret = hist_expr_span(hp, stop, &fields[*n].expr);
		if (ret)
			return ret;
		(*n)++;
		hp->p.pos = stop + 1;
	}
	return 0;
}

/* sort=NAME[.ascending|.descending][,...] */
static int hist_sort_list(struct hist_parser *hp, int end)
{
	struct hist_spec *spec = hp->spec;
	/* an empty field and one too many: error_log points at "sort=" */
	int attr = hp->p.pos - (int)strlen("sort=");

	spec->n_sort = 0;
	while (hp->p.pos <= end) {
		int stop = hist_next(hp, ',', end), start = hp->p.pos;
		struct hist_spec_sort *s = &spec->sort[spec->n_sort];
		int dot = hist_next(hp, '.', stop);
		struct trace_token order = {
			.start = hp->p.text + dot + 1, .pos = dot + 1,
			.len = stop - dot - 1,
		};

		if (dot == start)
			return trace_parse_fail(hp->err, HIST_ERR_EMPTY_SORT_FIELD, attr);
		if (spec->n_sort == HIST_SORT_MAX)
			return trace_parse_fail(hp->err, HIST_ERR_TOO_MANY_SORT_FIELDS, attr);
		s->name.start = hp->p.text + start;
		s->name.pos = start;
		s->name.len = dot - start;
		s->descending = dot < stop && trace_token_is(&order, "descending");
		if (dot < stop && !s->descending &&
		    !trace_token_is(&order, "ascending"))
			return trace_parse_fail(hp->err, HIST_ERR_INVALID_SORT_MODIFIER,
						order.pos);
		spec->n_sort++;
		hp->p.pos = stop + 1;
	}
	return 0;
}

/* VAR=EXPR[,VAR=EXPR...], the cursor on the first VAR. */
static int hist_var_list(struct hist_parser *hp, int end)
{
	struct hist_spec *spec = hp->spec;
	int ret;

	while (hp->p.pos <= end) {
		int stop = hist_next(hp, ',', end), start = hp->p.pos;
		struct trace_token name;

		hp->end = end;
		if (!hist_ident(hp, &name) || hist_cur(hp) != '=')
			return trace_parse_fail(hp->err, HIST_ERR_MALFORMED_ASSIGNMENT, start);
		if (spec->n_vars == HIST_VARS_MAX)
			return trace_parse_fail(hp->err, HIST_ERR_TOO_MANY_VARS, start);
		if (hist_spec_var(spec, &name) >= 0)
			return trace_parse_fail(hp->err, HIST_ERR_DUPLICATE_VAR, start);
		spec->vars[spec->n_vars].var = name;
		if (++hp->p.pos == stop)
			return trace_parse_fail(hp->err, HIST_ERR_EMPTY_ASSIGNMENT, start);
		ret = hist_expr_span(hp, stop, &spec->vars[spec->n_vars].expr);
		if (ret)
			return ret;
		spec->n_vars++;
		hp->p.pos = stop + 1;
	}
	return 0;
}

/*
 * The parameters of an action up to its ')', comma-separated; for
 * trace() the first one names the synthetic event.
 */
static int hist_params(struct hist_parser *hp, struct hist_spec_action *a,
		       int close, bool synth_first)
{
	a->n_params = 0;
	if (hp->p.pos == close)
		return 0;
	while (hp->p.pos <= close) {
		int stop = hist_next(hp, ',', close), start, next = stop + 1;
		struct trace_token *t = &a->params[a->n_params];

		/* blanks around a parameter are allowed: "save( a , b )" */
		trace_parse_skip_space(&hp->p);
		start = min(hp->p.pos, stop);
		while (stop > start && isspace(hp->p.text[stop - 1]))
			stop--;
		if (stop == start)
			return trace_parse_fail(hp->err, HIST_ERR_INVALID_PARAM, start);
		if (synth_first)
			t = &a->synth;
		else if (a->n_params++ == HIST_PARAMS_MAX)
			return trace_parse_fail(hp->err, HIST_ERR_TOO_MANY_PARAMS, start);
		synth_first = false;
		t->start = hp->p.text + start;
		t->pos = start;
		t->len = stop - start;
		hp->p.pos = next;
	}
	return 0;
}

/* handler(target).action(params), the cursor after "handler(". */
static int hist_handler(struct hist_parser *hp, enum hist_handler handler,
			int start, int end)
{
	struct hist_spec *spec = hp->spec;
	struct hist_spec_action *a = &spec->actions[spec->n_actions];
	int close = hist_next(hp, ')', end), name, ret, dup;
	struct trace_token act;
	unsigned int i;

	if (spec->n_actions == HIST_ACTIONS_MAX)
		return trace_parse_fail(hp->err, HIST_ERR_TOO_MANY_ACTIONS, start);
	memset(a, 0, sizeof(*a));
	a->handler = handler;
	if (close == end)
		return trace_parse_fail(hp->err, HIST_ERR_NO_CLOSING_PAREN, hp->p.pos);
	hp->end = close;
	if (handler == HIST_ONMATCH) {
		if (!hist_ident(hp, &a->system) || hist_cur(hp) != '.')
			return trace_parse_fail(hp->err, HIST_ERR_SUBSYS_NOT_FOUND, a->system.pos);
		hp->p.pos++;
		if (!hist_ident(hp, &a->event) || hp->p.pos != close)
			return trace_parse_fail(hp->err, HIST_ERR_INVALID_SUBSYS_EVENT,
						a->event.pos);
	} else {
		if (hist_cur(hp) != '$')
			return trace_parse_fail(hp->err, HIST_ERR_ONX_NOT_VAR, hp->p.pos);
		hp->p.pos++;
		if (!hist_ident(hp, &a->var) || hp->p.pos != close)
			return trace_parse_fail(hp->err, HIST_ERR_ONX_NOT_VAR, a->var.pos - 1);
	}
	hp->p.pos = close + 1;
	hp->end = end;
	name = hp->p.pos + 1;
	if (hist_cur(hp) != '.')
		return trace_parse_fail(hp->err, HIST_ERR_ACTION_NOT_FOUND, hp->p.pos);
	hp->p.pos++;
	if (!hist_ident(hp, &act) || hist_cur(hp) != '(')
		return trace_parse_fail(hp->err, HIST_ERR_ACTION_NOT_FOUND, name);
	hp->p.pos++;
	close = hist_next(hp, ')', end);
	if (close == end)
		return trace_parse_fail(hp->err, HIST_ERR_NO_CLOSING_PAREN, name);
	if (close != end - 1)
		return trace_parse_fail(hp->err, HIST_ERR_ACTION_NOT_FOUND,
					close + 1);
	ret = hist_params(hp, a, close, trace_token_is(&act, "trace"));
	if (ret)
		return ret;

	if (trace_token_is(&act, "save") || trace_token_is(&act, "snapshot")) {
		a->action = act.len == 4 ? HIST_ACT_SAVE : HIST_ACT_SNAPSHOT;
		if (handler == HIST_ONMATCH)
			return trace_parse_fail(hp->err,
						HIST_ERR_ACTION_MISMATCH, name);
		if (a->action == HIST_ACT_SAVE && !a->n_params)
			return trace_parse_fail(hp->err,
						HIST_ERR_NO_SAVE_PARAMS, name);
		dup = a->action == HIST_ACT_SAVE ?
		      HIST_ERR_TOO_MANY_SAVE_ACTIONS :
		      HIST_ERR_TOO_MANY_SNAPSHOTS;
		for (i = 0; i < spec->n_actions; i++)
			if (spec->actions[i].action == a->action)
				return trace_parse_fail(hp->err, dup, name);
		/* snapshot() takes no parameter: any given are ignored */
		if (a->action == HIST_ACT_SNAPSHOT)
			a->n_params = 0;
	} else if (trace_token_is(&act, "trace")) {
		a->action = HIST_ACT_TRACE;
		if (!a->synth.len)
			return trace_parse_fail(hp->err, HIST_ERR_INVALID_PARAM, close);
	} else {
		a->action = HIST_ACT_TRACE;
		a->synth = act;
		a->legacy = true;
	}
	a->text.start = hp->p.text + start;
	a->text.pos = start;
	a->text.len = end - start;
	spec->n_actions++;
	return 0;
}

/* The handler whose name and '(' @s starts with, or -1. */
static int hist_handler_at(const char *s)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(hist_handler_names); i++) {
		size_t len = strlen(hist_handler_names[i]);

		if (!strncmp(s, hist_handler_names[i], len) && s[len] == '(')
			return i;
	}
	return -1;
}

/* The word of an attribute without a '=': a flag or a handler. */
static int hist_flag(struct hist_parser *hp, int end)
{
	static const struct {
		const char	*word;
		unsigned int	flag;
	} flags[] = {
		{ "pause", HIST_SPEC_PAUSE },	{ "cont", HIST_SPEC_CONT },
		{ "continue", HIST_SPEC_CONT },	{ "clear", HIST_SPEC_CLEAR },
		{ "nohitcount", HIST_SPEC_NOHITCOUNT },
		{ "NOHC", HIST_SPEC_NOHITCOUNT },
	};
	struct trace_token word = {
		.start = hp->p.text + hp->p.pos, .pos = hp->p.pos,
		.len = end - hp->p.pos,
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		if (trace_token_is(&word, flags[i].word)) {
			hp->spec->flags |= flags[i].flag;
			return 0;
		}
	}
	i = hist_handler_at(word.start);
	if (i < 0)
		return trace_parse_fail(hp->err, HIST_ERR_UNKNOWN_ATTR, word.pos);
	hp->p.pos += strlen(hist_handler_names[i]) + 1;
	return hist_handler(hp, i, word.pos, end);
}

/* NAME=... with NAME one of the attributes that take a value. */
static int hist_assignment(struct hist_parser *hp, int eq, int end)
{
	static const char * const names[] = {
		"key", "keys", "val", "vals", "values", "sort", "size", "name",
		"clock",
	};
	struct hist_spec *spec = hp->spec;
	struct trace_token word = {
		.start = hp->p.text + hp->p.pos, .pos = hp->p.pos,
		.len = eq - hp->p.pos,
	};
	struct trace_token value = {
		.start = hp->p.text + eq + 1, .pos = eq + 1, .len = end - eq - 1,
	};
	u64 size;
	int i;

	if (eq + 1 == end)
		return trace_parse_fail(hp->err, HIST_ERR_EMPTY_ASSIGNMENT, word.pos);
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (trace_token_is(&word, names[i]))
			break;
	if (i == ARRAY_SIZE(names))
		return hist_var_list(hp, end);
	hp->p.pos = eq + 1;
	hp->end = end;
	switch (i) {
	case 0: case 1:
		return hist_field_list(hp, end, spec->keys, &spec->n_keys,
				       HIST_KEYS_MAX, HIST_ERR_TOO_MANY_KEYS);
	case 2: case 3: case 4:
		return hist_field_list(hp, end, spec->vals, &spec->n_vals,
				       HIST_VALS_MAX, HIST_ERR_TOO_MANY_VALS);
	case 5:
		return hist_sort_list(hp, end);
	case 6:
		/* Rounded up to a power of two: the map has 2^bits slots. */
		if (trace_token_num(&value, 1, UINT_MAX, &size) ||
		    order_base_2(size) < TRACING_MAP_BITS_MIN ||
		    order_base_2(size) > TRACING_MAP_BITS_MAX)
			return trace_parse_fail(hp->err, HIST_ERR_BAD_SIZE, hp->p.pos);
		spec->map_bits = order_base_2(size);
		return 0;
	default:
		if (i == 7)
			spec->name = value;
		else
			spec->clock = value;
		return 0;
	}
}

/*
 * Where the attribute at the cursor ends: at the next ':' or blank that
 * is not inside parentheses, so "save(a, b)" is one attribute.
 */
static int hist_attr_end(struct hist_parser *hp)
{
	int pos = hp->p.pos, depth = 0;
	char c;

	for (; (c = hp->p.text[pos]); pos++) {
		if (c == '(')
			depth++;
		else if (c == ')' && depth)
			depth--;
		else if (!depth && (c == ':' || isspace(c)))
			break;
	}
	return pos;
}

int hist_parse(struct hist_spec *spec, const char *cmd, int start,
	       struct trace_parse_err *err)
{
	struct hist_parser hp = { .spec = spec, .err = err };
	int ret = 0;

	memset(spec, 0, offsetof(struct hist_spec, nodes));
	spec->map_bits = TRACING_MAP_BITS_DEFAULT;
	err->err = HIST_ERR_NONE;
	err->pos = 0;
	trace_parse_init(&hp.p, cmd);
	hp.p.pos = start;

	for (;;) {
		int begin, end, eq;

		/* blanks may follow a ':' ("keys=a: vals=b") */
		trace_parse_skip_space(&hp.p);
		begin = hp.p.pos;
		end = hist_attr_end(&hp);
		hp.end = end;
		eq = hist_next(&hp, '=', end);
		if (eq == begin && eq < end)
			ret = trace_parse_fail(hp.err, HIST_ERR_MALFORMED_ASSIGNMENT, begin);
		else if (eq < end && hist_handler_at(hp.p.text + begin) < 0)
			ret = hist_assignment(&hp, eq, end);
		else
			ret = hist_flag(&hp, end);
		if (ret)
			return ret;
		hp.p.pos = end;
		if (trace_parse_cur(&hp.p) != ':')
			break;
		hp.p.pos++;
	}
	spec->end = hp.p.pos;
	if (!spec->n_keys)
		return trace_parse_fail(hp.err, HIST_ERR_NO_KEYS, start);
	return 0;
}
