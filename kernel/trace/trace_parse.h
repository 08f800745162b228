/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_parse - a tiny position-aware tokenizer for tracefs commands.
 *
 * Filters, triggers, histogram keys and user_events definitions are all
 * text typed by a person.  They are read through this one cursor so that
 * every parser can say exactly which column is wrong, in the same way.
 *
 * The cursor never copies or modifies the text: tokens point into it and
 * carry the column where they start.  Nothing here allocates or sleeps
 * but trace_token_dup().
 */
#ifndef _TRACE_PARSE_H
#define _TRACE_PARSE_H

#include <linux/types.h>

/* A read cursor over one NUL-terminated command. */
struct trace_parse {
	const char	*text;	/* the whole command; columns count from here */
	int		pos;	/* column of the next character to read */
};

/* A piece of the command, pointing into trace_parse.text. */
struct trace_token {
	const char	*start;	/* first byte of the value (after any quote) */
	int		len;	/* number of bytes in the value */
	int		pos;	/* column where the token starts (quote included) */
};

/*
 * Where a command went wrong, for error_log: the parser's own error code
 * (an index into its table of messages, 0 for none) and the column of
 * the caret.
 */
struct trace_parse_err {
	int		err;
	int		pos;
};

/* Record an error at column @pos; returns -EINVAL for the caller to pass up */
static inline int trace_parse_fail(struct trace_parse_err *e, int err, int pos)
{
	e->err = err;
	e->pos = pos;
	return -EINVAL;
}

static inline void trace_parse_init(struct trace_parse *p, const char *text)
{
	p->text = text;
	p->pos = 0;
}

/* The next unread character, or '\0' at the end of the command. */
static inline char trace_parse_cur(const struct trace_parse *p)
{
	return p->text[p->pos];
}

void trace_parse_skip_space(struct trace_parse *p);
char trace_parse_peek(struct trace_parse *p);
bool trace_parse_literal(struct trace_parse *p, const char *lit);
int trace_parse_one_of(struct trace_parse *p, const char * const *table,
		       int nr);
bool trace_parse_ident(struct trace_parse *p, struct trace_token *tok);
bool trace_parse_word(struct trace_parse *p, struct trace_token *tok,
		      const char *stop);
int trace_parse_quoted(struct trace_parse *p, struct trace_token *tok);
int trace_parse_until(struct trace_parse *p, struct trace_token *tok,
		      char close);
bool trace_parse_upto(struct trace_parse *p, struct trace_token *tok,
		      const char *stop);
void trace_parse_span(struct trace_parse *p, struct trace_token *tok,
		      const char *stop);
bool trace_token_cstr(const struct trace_token *tok, char *buf, size_t size);
char *trace_token_dup(const struct trace_token *tok);
bool trace_token_is(const struct trace_token *tok, const char *str);
bool trace_token_eq(const struct trace_token *a, const struct trace_token *b);
bool trace_token_ident(const struct trace_token *tok, bool digit_first);
int trace_token_num(const struct trace_token *tok, u64 min, u64 max, u64 *val);

#endif /* _TRACE_PARSE_H */
