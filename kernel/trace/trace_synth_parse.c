// SPDX-License-Identifier: GPL-2.0
/*
 * trace_synth_parse - read a synthetic event definition.
 *
 * A definition is "name type field[; type field ...]" (or, through
 * dynamic_events, "s:[synthetic/]name ...").  A type is one word, or
 * "unsigned" and a word; a field name may carry "[N]" or "[]", which then
 * belongs to the type.  For compatibility a ';' between fields is
 * optional.  The parser only reads the text: every token points into it,
 * and a refused definition comes back with an error and the column of the
 * word that is wrong.
 */
#include <linux/ctype.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "trace.h"
#include "trace_synth.h"

const char *synth_err_text[] = {
	[SYNTH_ERR_BAD_NAME]		= "Illegal name",
	[SYNTH_ERR_INVALID_CMD]		= "Command must be of the form: <name> field[;field] ...",
	[SYNTH_ERR_INVALID_DYN_CMD]	=
		"Command must be of the form: s or -:[synthetic/]<name> field[;field] ...",
	[SYNTH_ERR_EVENT_EXISTS]	= "Event already exists",
	[SYNTH_ERR_TOO_MANY_FIELDS]	= "Too many fields",
	[SYNTH_ERR_INCOMPLETE_TYPE]	= "Incomplete type",
	[SYNTH_ERR_INVALID_TYPE]	= "Invalid type",
	[SYNTH_ERR_INVALID_FIELD]	= "Invalid field",
	[SYNTH_ERR_INVALID_ARRAY_SPEC]	= "Invalid array specification",
	[SYNTH_ERR_DUP_FIELD]		= "Duplicate field name",
};

/* The numeric types: size, signedness and how a value is printed. */
static const struct {
	const char	*name;
	u8		size;
	bool		is_signed;
	const char	*fmt;
} synth_types[] = {
	{ "s64",		8, true,  "%lld" },
	{ "u64",		8, false, "%llu" },
	{ "s32",		4, true,  "%d" },
	{ "u32",		4, false, "%u" },
	{ "s16",		2, true,  "%d" },
	{ "u16",		2, false, "%u" },
	{ "s8",			1, true,  "%d" },
	{ "u8",			1, false, "%u" },
	{ "char",		1, true,  "%d" },
	{ "unsigned char",	1, false, "%u" },
	{ "int",		4, true,  "%d" },
	{ "unsigned int",	4, false, "%u" },
	{ "long",		8, true,  "%ld" },
	{ "unsigned long",	8, false, "%lu" },
	{ "bool",		1, true,  "%d" },
	{ "pid_t",		4, true,  "%d" },
	{ "gfp_t",		4, false, "%x" },
};

/* Look up a numeric type; -EINVAL when @type is not one. */
int synth_type_lookup(const char *type, u16 *size, bool *is_signed,
		      const char **fmt)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(synth_types); i++) {
		if (strcmp(type, synth_types[i].name))
			continue;
		*size = synth_types[i].size;
		*is_signed = synth_types[i].is_signed;
		*fmt = synth_types[i].fmt;
		return 0;
	}
	return -EINVAL;
}

/* The next word of the current field list, not crossing a ';'. */
static bool synth_next_word(struct trace_parse *p, struct trace_token *t)
{
	if (trace_parse_peek(p) == ';')
		return false;
	return trace_parse_word(p, t, ";");
}

/* Words from the cursor to the first ';': "name type field" needs 3. */
static int synth_count_words(const char *s)
{
	int n = 0;

	while (*s && *s != ';') {
		while (isspace(*s))
			s++;
		if (!*s || *s == ';')
			break;
		n++;
		while (*s && *s != ';' && !isspace(*s))
			s++;
	}
	return n;
}

/*
 * Size a char[...] type from the text after "char[": N of 1 to 3 digits
 * (any base kstrtouint reads) up to STR_VAR_LEN_MAX, or nothing (or 0)
 * for a dynamic string.  The ']' must end the type.
 */
static int synth_string_size(const char *dim, u16 *size)
{
	const char *end = strchr(dim, ']');
	struct trace_token tok = { .start = dim };
	u64 n = 0;

	if (!end || end[1] || end - dim > 3)
		return -EINVAL;
	tok.len = end - dim;
	if (tok.len && trace_token_num(&tok, 0, STR_VAR_LEN_MAX, &n))
		return -EINVAL;
	*size = n;
	return 0;
}

/* Decide kind and size of @f from its full type. */
static int synth_classify(struct synth_spec *spec, struct synth_spec_field *f)
{
	const char *t = f->full_type;
	const char *fmt;
	bool is_signed;

	if (!synth_type_lookup(t, &f->size, &is_signed, &fmt)) {
		f->kind = SYNTH_NUM;
		return 0;
	}
	if (str_has_prefix(t, "unsigned "))
		t += strlen("unsigned ");
	if (str_has_prefix(t, "char[")) {
		if (synth_string_size(t + strlen("char["), &f->size)) {
			if (f->array.len)
				return trace_parse_fail(&spec->err, SYNTH_ERR_INVALID_ARRAY_SPEC,
							f->name.pos);
			return trace_parse_fail(&spec->err, SYNTH_ERR_INVALID_TYPE, f->type.pos);
		}
		f->kind = f->size ? SYNTH_STR : SYNTH_DYN_STR;
		return 0;
	}
	if (str_has_prefix(t, "long[")) {
		f->kind = SYNTH_STACK;
		f->size = 0;
		return 0;
	}
	return trace_parse_fail(&spec->err, SYNTH_ERR_INVALID_TYPE, f->type.pos);
}

/* One "[unsigned] type name[N]" at the cursor. */
static int synth_parse_field(struct synth_spec *spec, struct trace_parse *p)
{
	struct synth_spec_field *f;
	struct trace_token first, word;
	const char *bracket;
	unsigned int i;
	int len;

	/* Before fields[n_fields] is touched: it is past the array when full */
	if (spec->n_fields == SYNTH_FIELDS_MAX)
		return trace_parse_fail(&spec->err, SYNTH_ERR_TOO_MANY_FIELDS, 0);
	f = &spec->fields[spec->n_fields];
	memset(f, 0, sizeof(*f));
	synth_next_word(p, &first);
	f->type = first;
	if (trace_token_is(&first, "unsigned")) {
		f->is_unsigned = true;
		if (!synth_next_word(p, &f->type) || !synth_next_word(p, &word))
			return trace_parse_fail(&spec->err, SYNTH_ERR_INCOMPLETE_TYPE, first.pos);
	} else if (!synth_next_word(p, &word)) {
		return trace_parse_fail(&spec->err, SYNTH_ERR_INVALID_FIELD, first.pos);
	}

	f->name = word;
	bracket = strnchr(word.start, word.len, '[');
	if (bracket) {
		f->name.len = bracket - word.start;
		f->array.start = bracket;
		f->array.len = word.len - f->name.len;
		f->array.pos = word.pos + f->name.len;
	}
	if (!trace_token_ident(&f->name, false))
		return trace_parse_fail(&spec->err, SYNTH_ERR_BAD_NAME, word.pos);

	len = snprintf(f->full_type, sizeof(f->full_type), "%s%.*s%.*s",
		       f->is_unsigned ? "unsigned " : "",
		       f->type.len, f->type.start, f->array.len, f->array.start);
	if (len >= (int)sizeof(f->full_type))
		return trace_parse_fail(&spec->err, SYNTH_ERR_INVALID_TYPE, f->type.pos);
	if (synth_classify(spec, f))
		return -EINVAL;

	for (i = 0; i < spec->n_fields; i++) {
		const struct trace_token *n = &spec->fields[i].name;

		if (trace_token_eq(n, &f->name))
			return trace_parse_fail(&spec->err, SYNTH_ERR_DUP_FIELD, word.pos);
	}
	spec->n_fields++;
	return 0;
}

/*
 * Read a definition in two steps, the name and then the fields, so the
 * caller can refuse an existing name before any field is looked at.
 * With @dynevent the text is a dynamic_events line starting with "s:".
 * Each returns 0, or -EINVAL with spec->err set.
 */
int synth_spec_parse_name(struct synth_spec *spec, struct trace_parse *p,
			  bool dynevent)
{
	memset(spec, 0, offsetof(struct synth_spec, fields));
	trace_parse_skip_space(p);
	if (dynevent) {
		if (!trace_parse_literal(p, "s:"))
			return trace_parse_fail(&spec->err, SYNTH_ERR_INVALID_DYN_CMD, 0);
		/* "s:name" with nothing after the name cannot define fields */
		if (!strpbrk(p->text + p->pos, " \t"))
			return trace_parse_fail(&spec->err, SYNTH_ERR_INVALID_CMD, 0);
		trace_parse_word(p, &spec->name, "");
		if (strnchr(spec->name.start, spec->name.len, '/')) {
			if (!str_has_prefix(spec->name.start, SYNTH_SYSTEM "/"))
				return trace_parse_fail(&spec->err, SYNTH_ERR_INVALID_DYN_CMD, 0);
			p->pos = spec->name.pos + strlen(SYNTH_SYSTEM "/");
		} else {
			p->pos = spec->name.pos;
		}
	}
	if (synth_count_words(p->text + p->pos) < 3)
		return trace_parse_fail(&spec->err, SYNTH_ERR_INVALID_CMD, 0);
	trace_parse_word(p, &spec->name, "");
	if (!trace_token_ident(&spec->name, false))
		return trace_parse_fail(&spec->err, SYNTH_ERR_BAD_NAME, spec->name.pos);
	return 0;
}

int synth_spec_parse_fields(struct synth_spec *spec, struct trace_parse *p)
{
	char c;

	while ((c = trace_parse_peek(p))) {
		if (c == ';') {
			p->pos++;
			continue;
		}
		if (synth_parse_field(spec, p))
			return -EINVAL;
	}
	if (!spec->n_fields)
		return trace_parse_fail(&spec->err, SYNTH_ERR_INVALID_CMD, 0);
	return 0;
}
