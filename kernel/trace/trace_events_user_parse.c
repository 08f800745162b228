// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: command text -> struct user_event_desc.
 *
 *   name[:FLAG1[,FLAG2...]] [Field1[;Field2...]]
 *   Field: [__data_loc|__rel_loc] type name [size]
 *
 * The words are read with the shared tracefs tokenizer (trace_parse.h),
 * which gives each its column so that every error names the place it was
 * found.  Nothing here touches global state: the result is a
 * self-contained description the registry may adopt or drop.
 */
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_parse.h"
#include "trace_events_user.h"

/* Most words a field may have: loc, unsigned/struct, type, name, size */
#define USER_FIELD_TOKS	6

/* A scalar type the kernel and user space agree on */
struct user_scalar {
	const char	*name;		/* spelling in commands */
	u8		size;		/* bytes */
	bool		is_signed;	/* sign of the value */
	bool		is_char;	/* arrays of it are strings */
};

static const struct user_scalar user_scalars[] = {
	{ "u8", 1, false },	{ "s8", 1, true },
	{ "u16", 2, false },	{ "s16", 2, true },
	{ "u32", 4, false },	{ "s32", 4, true },
	{ "u64", 8, false },	{ "s64", 8, true },
	{ "char", 1, true, true }, { "unsigned char", 1, false, true },
	{ "short", 2, true },	{ "unsigned short", 2, false },
	{ "int", 4, true },	{ "unsigned int", 4, false },
};

static bool user_tok_ident(const struct trace_token *t, bool first_alpha)
{
	unsigned int i;

	if (!t->len)
		return false;
	if (first_alpha && isdigit(t->start[0]))
		return false;
	for (i = 0; i < t->len; i++)
		if (!isalnum(t->start[i]) && t->start[i] != '_')
			return false;
	return true;
}

/*
 * Read the words of one field, up to the next ';' or the end, into @toks
 * (at most @max of them) and move past the ';'.  Returns the number of
 * words, or -E2BIG when there are more.
 */
static int user_field_words(struct trace_parse *p, struct trace_token *toks,
			    int max)
{
	int n = 0;

	while (trace_parse_peek(p) && trace_parse_cur(p) != ';') {
		if (n == max)
			return -E2BIG;
		trace_parse_word(p, &toks[n++], ";");
	}
	trace_parse_literal(p, ";");
	return n;
}

static const struct user_scalar *user_scalar_find(const char *name,
						  unsigned int len)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(user_scalars); i++)
		if (strlen(user_scalars[i].name) == len &&
		    !strncmp(user_scalars[i].name, name, len))
			return &user_scalars[i];
	return NULL;
}

/*
 * Is "long" one of the words of a scalar type ("long", "unsigned long")?
 * Its size differs between user space and the kernel, so it is named in
 * the error.  Struct tags and field names may hold the letters freely.
 */
static bool user_type_has_long(const struct trace_token *type)
{
	const char *p = type->start, *end = type->start + type->len;
	size_t n;

	while (p < end) {
		n = strnchrnul(p, end - p, ' ') - p;
		if (n == 4 && !strncmp(p, "long", 4))
			return true;
		p += n + 1;
	}
	return false;
}

static int user_parse_uint(const struct trace_token *t, unsigned int *val)
{
	char buf[16];

	if (!t->len || !trace_token_cstr(t, buf, sizeof(buf)))
		return -EINVAL;
	return kstrtouint(buf, 0, val);
}

static int user_fail(struct user_event_parse_err *perr, enum user_event_err e,
		     unsigned int pos)
{
	perr->err = e;
	perr->pos = pos;
	return -EINVAL;
}

/*
 * Parse one field from its words into f.  Allocates f->type and f->name;
 * the caller frees them whatever the result.
 */
static int user_parse_field(struct trace_token *tok, int n,
			    struct user_event_field *f,
			    struct user_event_parse_err *perr)
{
	const struct user_scalar *sc;
	struct trace_token type, array = { };
	const char *loc = NULL, *br;
	unsigned int count = 0, pos;
	char tname[80];
	int len;
	int t = 0;

	if (trace_token_is(&tok[0], "__data_loc") ||
	    trace_token_is(&tok[0], "__rel_loc")) {
		loc = tok[0].start[2] == 'd' ? "__data_loc " : "__rel_loc ";
		t++;
	}
	if (t >= n)
		return user_fail(perr, USER_ERR_NO_TYPE, tok[n - 1].pos);

	/* Type words: "struct X", "unsigned T" or one word, spelled normalized */
	pos = tok[t].pos;
	if ((trace_token_is(&tok[t], "struct") ||
	     trace_token_is(&tok[t], "unsigned")) && t + 1 < n) {
		len = snprintf(tname, sizeof(tname), "%.*s %.*s", tok[t].len,
			       tok[t].start, tok[t + 1].len, tok[t + 1].start);
		t++;
	} else {
		len = snprintf(tname, sizeof(tname), "%.*s", tok[t].len,
			       tok[t].start);
	}
	if (len >= sizeof(tname))
		return user_fail(perr, USER_ERR_BAD_TYPE, pos);
	t++;
	type.start = tname;
	type.len = strlen(tname);
	type.pos = pos;

	br = strchr(tname, '[');
	if (br) {
		array.start = br;
		array.len = type.start + type.len - br;
		array.pos = pos;
		type.len = br - type.start;
	}

	if (t >= n)
		return user_fail(perr, USER_ERR_NO_FIELD_NAME, tok[n - 1].pos);
	if (!user_tok_ident(&tok[t], true) ||
	    (tok[t].len >= 7 && !strncmp(tok[t].start, "common_", 7)))
		return user_fail(perr, USER_ERR_BAD_FIELD_NAME, tok[t].pos);
	f->name = kstrndup(tok[t].start, tok[t].len, GFP_KERNEL);
	if (!f->name)
		return -ENOMEM;
	t++;

	if (type.len > 7 && !strncmp(type.start, "struct ", 7)) {
		struct trace_token sname = { type.start + 7, type.len - 7 };

		if (loc || array.len || !user_tok_ident(&sname, true))
			return user_fail(perr, USER_ERR_BAD_TYPE, type.pos);
		if (t >= n)
			return user_fail(perr, USER_ERR_SIZE_NEEDED,
					 tok[t - 1].pos);
		if (user_parse_uint(&tok[t], &count) || !count ||
		    count > USER_EVENT_FIELD_SIZE_MAX)
			return user_fail(perr, USER_ERR_BAD_SIZE, tok[t].pos);
		t++;
		f->kind = USER_FIELD_STRUCT;
		f->size = count;
		f->has_size = true;
		f->type = kstrndup(type.start, type.len, GFP_KERNEL);
		goto check_end;
	}

	sc = user_scalar_find(type.start, type.len);
	if (!sc)
		return user_fail(perr, user_type_has_long(&type) ?
				 USER_ERR_LONG : USER_ERR_BAD_TYPE, type.pos);
	if (t < n)
		return user_fail(perr, USER_ERR_SIZE_REFUSED, tok[t].pos);

	if (loc) {
		/* Loc fields describe a variable array: "T[]" */
		if (!trace_token_is(&array, "[]"))
			return user_fail(perr, USER_ERR_BAD_ARRAY,
					 array.len ? array.pos : type.pos);
		f->kind = loc[2] == 'd' ? USER_FIELD_DATA_LOC :
					  USER_FIELD_REL_LOC;
		f->size = sizeof(u32);
		f->is_string = sc->is_char;
		f->type = kasprintf(GFP_KERNEL, "%s%s[]", loc, sc->name);
	} else if (array.len) {
		struct trace_token num = { array.start + 1, array.len - 2 };

		if (!sc->is_char || array.start[array.len - 1] != ']' ||
		    num.len > USER_EVENT_ARRAY_DIGITS_MAX ||
		    user_parse_uint(&num, &count) || !count ||
		    count > USER_EVENT_FIELD_SIZE_MAX)
			return user_fail(perr, USER_ERR_BAD_ARRAY, array.pos);
		f->kind = USER_FIELD_CHARS;
		f->size = count;
		f->is_string = true;
		f->type = kasprintf(GFP_KERNEL, "%s[%u]", sc->name, count);
	} else {
		f->kind = USER_FIELD_INT;
		f->size = sc->size;
		f->is_signed = sc->is_signed;
		f->type = kstrdup(sc->name, GFP_KERNEL);
	}
check_end:
	if (!f->type)
		return -ENOMEM;
	if (t < n)
		return user_fail(perr, USER_ERR_TRAILING, tok[t].pos);
	return 0;
}

void user_event_desc_free(struct user_event_desc *desc)
{
	unsigned int i;

	for (i = 0; desc->fields && i < desc->nr_fields; i++) {
		kfree(desc->fields[i].type);
		kfree(desc->fields[i].name);
	}
	kfree(desc->fields);
	kfree(desc->name);
	desc->fields = NULL;
	desc->name = NULL;
	desc->nr_fields = 0;
}

/* Parse "Field1[;Field2...]" from the cursor to the end of the command. */
static int user_parse_fields(struct trace_parse *p,
			     struct user_event_desc *desc,
			     struct user_event_parse_err *perr)
{
	struct trace_token tok[USER_FIELD_TOKS];
	unsigned int i, off = sizeof(struct trace_entry);
	int n, ret;

	desc->fields = kcalloc(USER_EVENT_FIELDS_MAX, sizeof(*desc->fields),
			       GFP_KERNEL);
	if (!desc->fields)
		return -ENOMEM;

	while (trace_parse_cur(p)) {
		struct user_event_field *f;
		int pos = p->pos;

		n = user_field_words(p, tok, USER_FIELD_TOKS);
		if (n == -E2BIG)
			return user_fail(perr, USER_ERR_TRAILING,
					 tok[USER_FIELD_TOKS - 1].pos);
		if (!n)
			continue;	/* empty field or trailing ';' */
		if (desc->nr_fields == USER_EVENT_FIELDS_MAX)
			return user_fail(perr, USER_ERR_TOO_MANY, pos);

		f = &desc->fields[desc->nr_fields++];
		ret = user_parse_field(tok, n, f, perr);
		if (ret)
			return ret;
		for (i = 0; i + 1 < desc->nr_fields; i++)
			if (!strcmp(desc->fields[i].name, f->name))
				return user_fail(perr, USER_ERR_DUP_FIELD,
						 tok[n - 1].pos);
		f->offset = off;
		if (f->kind == USER_FIELD_DATA_LOC ||
		    f->kind == USER_FIELD_REL_LOC)
			desc->has_locs = true;
		off += f->size;
		if (off - sizeof(struct trace_entry) > USER_EVENT_FIXED_MAX)
			return user_fail(perr, USER_ERR_TOO_BIG, pos);
	}
	desc->fixed_size = off - sizeof(struct trace_entry);
	return 0;
}

int user_event_parse_fields(const char *text, struct user_event_desc *desc,
			    struct user_event_parse_err *perr)
{
	struct trace_parse p;
	int ret;

	memset(desc, 0, sizeof(*desc));
	perr->err = USER_ERR_NONE;
	trace_parse_init(&p, text);
	ret = user_parse_fields(&p, desc, perr);
	if (ret)
		user_event_desc_free(desc);
	return ret;
}

int user_event_parse(const char *cmd, struct user_event_desc *desc,
		     struct user_event_parse_err *perr)
{
	struct trace_token name;
	struct trace_parse p;
	int ret;

	memset(desc, 0, sizeof(*desc));
	perr->err = USER_ERR_NONE;
	trace_parse_init(&p, cmd);

	trace_parse_skip_space(&p);
	if (!trace_parse_word(&p, &name, ":"))
		return user_fail(perr, USER_ERR_NO_NAME, name.pos);
	if (!user_tok_ident(&name, false))
		return user_fail(perr, USER_ERR_BAD_NAME, name.pos);
	if (name.len > USER_EVENT_NAME_MAX)
		return user_fail(perr, USER_ERR_NAME_LONG, name.pos);

	/* No flag is defined yet: "name:" alone is fine, any flag is not */
	if (trace_parse_literal(&p, ":") && trace_parse_cur(&p) &&
	    !isspace(trace_parse_cur(&p)))
		return user_fail(perr, USER_ERR_BAD_FLAG, p.pos);

	desc->name = kstrndup(name.start, name.len, GFP_KERNEL);
	if (!desc->name)
		return -ENOMEM;
	ret = user_parse_fields(&p, desc, perr);
	if (ret)
		user_event_desc_free(desc);
	return ret;
}

bool user_event_desc_same_fields(const struct user_event_desc *a,
				 const struct user_event_desc *b)
{
	unsigned int i;

	if (a->nr_fields != b->nr_fields)
		return false;
	for (i = 0; i < a->nr_fields; i++) {
		const struct user_event_field *x = &a->fields[i];
		const struct user_event_field *y = &b->fields[i];

		if (x->size != y->size || strcmp(x->type, y->type) ||
		    strcmp(x->name, y->name))
			return false;
	}
	return true;
}
