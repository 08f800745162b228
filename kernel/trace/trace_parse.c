// SPDX-License-Identifier: GPL-2.0
/*
 * trace_parse - the shared tokenizer of tracefs commands.
 *
 * See trace_parse.h.  Every helper either consumes a token and moves the
 * cursor past it, or leaves the cursor where it was and reports failure,
 * so a caller can try alternatives and point errors at p->pos.
 */
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_parse.h"

/* Move the cursor over blanks (spaces, tabs and newlines). */
void trace_parse_skip_space(struct trace_parse *p)
{
	while (isspace(trace_parse_cur(p)))
		p->pos++;
}

/* Skip blanks and return the next character without consuming it. */
char trace_parse_peek(struct trace_parse *p)
{
	trace_parse_skip_space(p);
	return trace_parse_cur(p);
}

/* The length of @lit when @text begins with it, else 0; one pass over both */
static size_t trace_prefix_len(const char *text, const char *lit)
{
	size_t i;

	for (i = 0; lit[i]; i++) {
		if (text[i] != lit[i])
			return 0;
	}
	return i;
}

/* Consume @lit if the text continues with exactly it. */
bool trace_parse_literal(struct trace_parse *p, const char *lit)
{
	size_t len = trace_prefix_len(p->text + p->pos, lit);

	p->pos += len;
	return len || !*lit;
}

/*
 * Consume the longest entry of @table that the text continues with and
 * return its index, or -ENOENT when none matches.
 */
int trace_parse_one_of(struct trace_parse *p, const char * const *table,
		       int nr)
{
	size_t best_len = 0;
	int best = -ENOENT;
	int i;

	for (i = 0; i < nr; i++) {
		size_t len = trace_prefix_len(p->text + p->pos, table[i]);

		if (len > best_len) {
			best = i;
			best_len = len;
		}
	}
	p->pos += best_len;
	return best;
}

/* Consume a name made of letters, digits and underscores. */
bool trace_parse_ident(struct trace_parse *p, struct trace_token *tok)
{
	int start = p->pos;

	while (isalnum(trace_parse_cur(p)) || trace_parse_cur(p) == '_')
		p->pos++;
	tok->start = p->text + start;
	tok->len = p->pos - start;
	tok->pos = start;
	return tok->len > 0;
}

/* Consume a run of characters up to a blank, the end or one of @stop. */
bool trace_parse_word(struct trace_parse *p, struct trace_token *tok,
		      const char *stop)
{
	int start = p->pos;
	char c;

	while ((c = trace_parse_cur(p)) && !isspace(c) && !strchr(stop, c))
		p->pos++;
	tok->start = p->text + start;
	tok->len = p->pos - start;
	tok->pos = start;
	return tok->len > 0;
}

/*
 * Consume a string between single or double quotes.  Returns 0 with the
 * value (quotes excluded) in @tok, -ENOENT when the text does not start
 * with a quote, or -EINVAL with tok->pos on the opening quote when the
 * closing one is missing (the cursor does not move on failure).
 */
int trace_parse_quoted(struct trace_parse *p, struct trace_token *tok)
{
	char quote = trace_parse_cur(p);
	const char *end;

	if (quote != '"' && quote != '\'')
		return -ENOENT;
	tok->pos = p->pos;
	tok->start = p->text + p->pos + 1;
	end = strchr(tok->start, quote);
	if (!end)
		return -EINVAL;
	tok->len = end - tok->start;
	p->pos += tok->len + 2;
	return 0;
}

/*
 * Consume everything up to the character @close and @close itself; the
 * value in @tok excludes it.  Returns -EINVAL (cursor unmoved) when the
 * command ends first.
 */
int trace_parse_until(struct trace_parse *p, struct trace_token *tok,
		      char close)
{
	const char *end = strchr(p->text + p->pos, close);

	if (!end)
		return -EINVAL;
	tok->pos = p->pos;
	tok->start = p->text + p->pos;
	tok->len = end - tok->start;
	p->pos += tok->len + 1;
	return 0;
}

/*
 * Consume everything up to one of @stop or the end, blanks included
 * unless @stop names them.  Returns whether @tok holds anything.
 */
bool trace_parse_upto(struct trace_parse *p, struct trace_token *tok,
		      const char *stop)
{
	tok->pos = p->pos;
	tok->start = p->text + p->pos;
	while (trace_parse_cur(p) && !strchr(stop, trace_parse_cur(p)))
		p->pos++;
	tok->len = p->pos - tok->pos;
	return tok->len > 0;
}

/*
 * Consume everything up to one of @stop or the end, blanks included; the
 * value in @tok has its trailing blanks trimmed.
 */
void trace_parse_span(struct trace_parse *p, struct trace_token *tok,
		      const char *stop)
{
	trace_parse_upto(p, tok, stop);
	while (tok->len && isspace(tok->start[tok->len - 1]))
		tok->len--;
}

/*
 * Copy the value of @tok into @buf as a C string, for the kernel's
 * functions that take one (kstrto*(), lookups by name).  Returns false,
 * leaving @buf alone, when it does not fit in @size bytes with its NUL.
 */
bool trace_token_cstr(const struct trace_token *tok, char *buf, size_t size)
{
	if (tok->len < 0 || tok->len >= size)
		return false;
	memcpy(buf, tok->start, tok->len);
	buf[tok->len] = '\0';
	return true;
}

/*
 * The value of @tok as a C string of its own, however long (kfree() it),
 * for a lookup by a name that no fixed buffer may cut; NULL when out of
 * memory.
 */
char *trace_token_dup(const struct trace_token *tok)
{
	return kmemdup_nul(tok->start, max(tok->len, 0), GFP_KERNEL);
}

/* Whether @tok holds exactly the characters of @str. */
bool trace_token_is(const struct trace_token *tok, const char *str)
{
	return tok->len == strlen(str) && !memcmp(tok->start, str, tok->len);
}

/* Whether @a and @b hold the same characters. */
bool trace_token_eq(const struct trace_token *a, const struct trace_token *b)
{
	return a->len == b->len && !memcmp(a->start, b->start, a->len);
}

/*
 * Whether @tok is a name: letters, digits and underscores, not starting
 * with a digit unless @digit_first.
 */
bool trace_token_ident(const struct trace_token *tok, bool digit_first)
{
	int i;

	if (tok->len <= 0 || (!digit_first && isdigit(tok->start[0])))
		return false;
	for (i = 0; i < tok->len; i++)
		if (!isalnum(tok->start[i]) && tok->start[i] != '_')
			return false;
	return true;
}

/*
 * The value of @tok as an unsigned number in any spelling kstrtoull()
 * reads (42, 0x2a, 052), from @min to @max.  Returns 0 with *@val set,
 * or -EINVAL when it is no such number (@val untouched).
 */
int trace_token_num(const struct trace_token *tok, u64 min, u64 max, u64 *val)
{
	char buf[32];	/* longer than any spelling of a u64 */
	u64 v;

	if (!trace_token_cstr(tok, buf, sizeof(buf)) || kstrtoull(buf, 0, &v) ||
	    v < min || v > max)
		return -EINVAL;
	*val = v;
	return 0;
}
