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
#include "trace_user.h"

/* Most words a field may have: loc, unsigned/struct, type, name, size */
#define USER_FIELD_TOKS	6

/*
 * A desc is one allocation: its fields, then the text of its name and of
 * the fields' types and names (struct user_text).  A field's text is its
 * command text rewritten, longer only by the NULs of its two strings and
 * an array size spelled in decimal (four digits at most, where the
 * command wrote one or more): a few bytes a field on top of the command.
 */
#define USER_FIELD_TEXT_EXTRA	8

/* Where the strings of a desc go, in its allocation */
struct user_text {
	char	*next;		/* free space */
	char	*end;		/* end of the allocation */
};

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

/*
 * A type may be two words ("unsigned int", "struct foo"); the text holds
 * them joined by one space, with any "[N]" glued to the last one.  Longer
 * types exist in no ABI: they are refused.
 */
#define USER_TYPE_TEXT_MAX	80

/* The type of a field, as written: "T" and, apart, its "[...]" if any */
struct user_type_words {
	char			text[USER_TYPE_TEXT_MAX];
	struct trace_token	type;	/* into text, without the brackets */
	struct trace_token	array;	/* "[...]" into text, or empty */
};

/*
 * printf into the desc's text: the string, or NULL if it does not fit,
 * which the bound above rules out (the caller takes it for -ENOMEM).
 */
static __printf(2, 3) char *user_text_add(struct user_text *t,
					  const char *fmt, ...)
{
	size_t room = t->end - t->next;
	char *str = t->next;
	va_list args;
	int len;

	va_start(args, fmt);
	len = vsnprintf(str, room, fmt, args);
	va_end(args);
	if (len >= room)
		return NULL;
	t->next += len + 1;
	return str;
}

/* Read the type's one or two words from tok[*t] on, moving *t past them */
static int user_parse_type(const struct trace_token *tok, int n, int *t,
			   struct user_type_words *w,
			   struct trace_parse_err *perr)
{
	const struct trace_token *a = &tok[*t];
	unsigned int pos = a->pos;
	const char *br;
	int len;

	if ((trace_token_is(a, "struct") || trace_token_is(a, "unsigned")) &&
	    *t + 1 < n) {
		len = snprintf(w->text, sizeof(w->text), "%.*s %.*s", a->len,
			       a->start, a[1].len, a[1].start);
		(*t)++;
	} else {
		len = snprintf(w->text, sizeof(w->text), "%.*s", a->len,
			       a->start);
	}
	if (len >= sizeof(w->text))
		return trace_parse_fail(perr, USER_ERR_BAD_TYPE, pos);
	(*t)++;
	w->type = (struct trace_token){ .start = w->text, .len = len,
					.pos = pos };
	w->array = (struct trace_token){ };
	br = strchr(w->text, '[');
	if (br) {
		w->array = (struct trace_token){ .start = br,
						 .len = w->text + len - br,
						 .pos = pos };
		w->type.len = br - w->text;
	}
	return 0;
}

/* "struct NAME name SIZE": SIZE bytes the kernel does not look into */
static int user_parse_struct(const struct user_type_words *w, bool loc,
			     const struct trace_token *tok, int n, int *t,
			     struct user_event_field *f, struct user_text *text,
			     struct trace_parse_err *perr)
{
	struct trace_token sname = { .start = w->type.start + 7,
				     .len = w->type.len - 7 };
	u64 count;

	if (loc || w->array.len || !trace_token_ident(&sname, false))
		return trace_parse_fail(perr, USER_ERR_BAD_TYPE, w->type.pos);
	if (*t >= n)
		return trace_parse_fail(perr, USER_ERR_SIZE_NEEDED, tok[*t - 1].pos);
	if (trace_token_num(&tok[*t], 1, USER_EVENT_FIELD_SIZE_MAX, &count))
		return trace_parse_fail(perr, USER_ERR_BAD_SIZE, tok[*t].pos);
	(*t)++;
	f->kind = USER_FIELD_STRUCT;
	f->size = count;
	f->has_size = true;
	f->type = user_text_add(text, "%.*s", w->type.len, w->type.start);
	return f->type ? 0 : -ENOMEM;
}

/*
 * A scalar type: a number, a char[N] string, or with @loc ("__data_loc "
 * or "__rel_loc ") a variable array "T[]" stored elsewhere in the record.
 * @size is the word after the name, if any: only a struct has a size.
 */
static int user_parse_scalar(const struct user_type_words *w,
			     const char *loc, const struct trace_token *size,
			     struct user_event_field *f, struct user_text *text,
			     struct trace_parse_err *perr)
{
	const struct user_scalar *sc = user_scalar_find(w->type.start,
							w->type.len);
	const struct trace_token *array = &w->array;
	u64 count;

	if (!sc && user_type_has_long(&w->type))
		return trace_parse_fail(perr, USER_ERR_LONG, w->type.pos);
	if (!sc)
		return trace_parse_fail(perr, USER_ERR_BAD_TYPE, w->type.pos);
	if (size)
		return trace_parse_fail(perr, USER_ERR_SIZE_REFUSED, size->pos);
	if (loc) {
		if (!trace_token_is(array, "[]"))
			return trace_parse_fail(perr, USER_ERR_BAD_ARRAY,
						array->len ? array->pos :
							     w->type.pos);
		f->kind = loc[2] == 'd' ? USER_FIELD_DATA_LOC :
					  USER_FIELD_REL_LOC;
		f->size = sizeof(u32);
		f->is_string = sc->is_char;
		f->type = user_text_add(text, "%s%s[]", loc, sc->name);
	} else if (array->len) {
		struct trace_token num = { .start = array->start + 1,
					   .len = array->len - 2 };

		if (!sc->is_char || array->start[array->len - 1] != ']' ||
		    num.len > USER_EVENT_ARRAY_DIGITS_MAX ||
		    trace_token_num(&num, 1, USER_EVENT_FIELD_SIZE_MAX, &count))
			return trace_parse_fail(perr, USER_ERR_BAD_ARRAY, array->pos);
		f->kind = USER_FIELD_CHARS;
		f->size = count;
		f->is_string = true;
		f->type = user_text_add(text, "%s[%llu]", sc->name, count);
	} else {
		f->kind = USER_FIELD_INT;
		f->size = sc->size;
		f->is_signed = sc->is_signed;
		f->type = user_text_add(text, "%s", sc->name);
	}
	return f->type ? 0 : -ENOMEM;
}

/*
 * Parse one field from its words into f: [loc] type name [size], its
 * strings into text.
 */
static int user_parse_field(struct trace_token *tok, int n,
			    struct user_event_field *f, struct user_text *text,
			    struct trace_parse_err *perr)
{
	struct user_type_words w;
	const char *loc = NULL;
	int t = 0, ret;

	if (trace_token_is(&tok[0], "__data_loc") ||
	    trace_token_is(&tok[0], "__rel_loc")) {
		loc = tok[0].start[2] == 'd' ? "__data_loc " : "__rel_loc ";
		t++;
	}
	if (t >= n)
		return trace_parse_fail(perr, USER_ERR_NO_TYPE, tok[n - 1].pos);
	ret = user_parse_type(tok, n, &t, &w, perr);
	if (ret)
		return ret;

	if (t >= n)
		return trace_parse_fail(perr, USER_ERR_NO_FIELD_NAME, tok[n - 1].pos);
	if (!trace_token_ident(&tok[t], false) ||
	    (tok[t].len >= 7 && !strncmp(tok[t].start, "common_", 7)))
		return trace_parse_fail(perr, USER_ERR_BAD_FIELD_NAME, tok[t].pos);
	f->name = user_text_add(text, "%.*s", tok[t].len, tok[t].start);
	if (!f->name)
		return -ENOMEM;
	t++;

	if (w.type.len > 7 && !strncmp(w.type.start, "struct ", 7))
		ret = user_parse_struct(&w, loc, tok, n, &t, f, text, perr);
	else
		ret = user_parse_scalar(&w, loc, t < n ? &tok[t] : NULL, f,
					text, perr);
	if (ret)
		return ret;
	if (t < n)
		return trace_parse_fail(perr, USER_ERR_TRAILING, tok[t].pos);
	return 0;
}

/* Its one allocation holds the fields and every string */
void user_event_desc_free(struct user_event_desc *desc)
{
	kfree(desc->fields);
	desc->fields = NULL;
	desc->name = NULL;
	desc->nr_fields = 0;
}

/*
 * Allocate desc's fields and text for the rest of the command from p on,
 * and put name (if any) into the text.
 */
static int user_desc_alloc(struct user_event_desc *desc,
			   const struct trace_parse *p,
			   const struct trace_token *name,
			   struct user_text *text)
{
	const char *rest = p->text + p->pos;
	unsigned int nr = 1;
	size_t size;
	const char *c;

	for (c = strchr(rest, ';'); c && nr < USER_EVENT_FIELDS_MAX;
	     c = strchr(c + 1, ';'))
		nr++;
	size = nr * (sizeof(*desc->fields) + USER_FIELD_TEXT_EXTRA) +
	       strlen(rest) + (name ? name->len + 1 : 0);
	desc->fields = kzalloc(size, GFP_KERNEL);
	if (!desc->fields)
		return -ENOMEM;
	text->next = (char *)&desc->fields[nr];
	text->end = (char *)desc->fields + size;
	if (name)
		desc->name = user_text_add(text, "%.*s", name->len,
					   name->start);
	return 0;
}

/*
 * Parse "Field1[;Field2...]" from the cursor to the end of the command,
 * into the fields and text user_desc_alloc() made.
 */
static int user_parse_fields(struct trace_parse *p,
			     struct user_event_desc *desc,
			     struct user_text *text,
			     struct trace_parse_err *perr)
{
	struct trace_token tok[USER_FIELD_TOKS];
	unsigned int i, off = sizeof(struct trace_entry);
	int n, ret;

	while (trace_parse_cur(p)) {
		struct user_event_field *f;
		int pos = p->pos;

		n = user_field_words(p, tok, USER_FIELD_TOKS);
		if (n == -E2BIG)
			return trace_parse_fail(perr, USER_ERR_TRAILING,
						tok[USER_FIELD_TOKS - 1].pos);
		if (!n)
			continue;	/* empty field or trailing ';' */
		if (desc->nr_fields == USER_EVENT_FIELDS_MAX)
			return trace_parse_fail(perr, USER_ERR_TOO_MANY, pos);

		f = &desc->fields[desc->nr_fields++];
		ret = user_parse_field(tok, n, f, text, perr);
		if (ret)
			return ret;
		for (i = 0; i + 1 < desc->nr_fields; i++)
			if (!strcmp(desc->fields[i].name, f->name))
				return trace_parse_fail(perr, USER_ERR_DUP_FIELD,
							tok[n - 1].pos);
		f->offset = off;
		if (f->kind == USER_FIELD_DATA_LOC ||
		    f->kind == USER_FIELD_REL_LOC)
			desc->has_locs = true;
		off += f->size;
		if (off - sizeof(struct trace_entry) > USER_EVENT_FIXED_MAX)
			return trace_parse_fail(perr, USER_ERR_TOO_BIG, pos);
	}
	desc->fixed_size = off - sizeof(struct trace_entry);
	return 0;
}

int user_event_parse_fields(const char *text, struct user_event_desc *desc,
			    struct trace_parse_err *perr)
{
	struct user_text strings;
	struct trace_parse p;
	int ret;

	memset(desc, 0, sizeof(*desc));
	perr->err = USER_ERR_NONE;
	trace_parse_init(&p, text);
	ret = user_desc_alloc(desc, &p, NULL, &strings);
	if (!ret)
		ret = user_parse_fields(&p, desc, &strings, perr);
	if (ret)
		user_event_desc_free(desc);
	return ret;
}

int user_event_parse(const char *cmd, struct user_event_desc *desc,
		     struct trace_parse_err *perr)
{
	struct user_text strings;
	struct trace_token name;
	struct trace_parse p;
	int ret;

	memset(desc, 0, sizeof(*desc));
	perr->err = USER_ERR_NONE;
	trace_parse_init(&p, cmd);

	trace_parse_skip_space(&p);
	if (!trace_parse_word(&p, &name, ":"))
		return trace_parse_fail(perr, USER_ERR_NO_NAME, name.pos);
	if (!trace_token_ident(&name, true))
		return trace_parse_fail(perr, USER_ERR_BAD_NAME, name.pos);
	if (name.len > USER_EVENT_NAME_MAX)
		return trace_parse_fail(perr, USER_ERR_NAME_LONG, name.pos);

	/* No flag is defined yet: "name:" alone is fine, any flag is not */
	if (trace_parse_literal(&p, ":") && trace_parse_cur(&p) &&
	    !isspace(trace_parse_cur(&p)))
		return trace_parse_fail(perr, USER_ERR_BAD_FLAG, p.pos);

	ret = user_desc_alloc(desc, &p, &name, &strings);
	if (!ret)
		ret = user_parse_fields(&p, desc, &strings, perr);
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

/*
 * Names whose system would be one that exists for other reasons: the
 * default group's multi-format events and the registry's tracepoints.
 */
static const char * const user_event_group_reserved[] = {
	"multi",
	"registry",
};

/*
 * Can name be a group?  It becomes part of a system name, which tools
 * (perf's "system:event") read as an identifier.  On refusal perr says
 * why and where; -ENAMETOOLONG for a long name, -EINVAL otherwise.
 */
int user_event_group_name_check(const char *name,
				struct trace_parse_err *perr)
{
	size_t i, len = strlen(name);

	if (!len)
		return trace_parse_fail(perr, USER_ERR_GROUP_NO_NAME, 0);
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && name[i] != '_')
			return trace_parse_fail(perr, USER_ERR_GROUP_BAD_NAME,
						i);
	if (len > USER_EVENT_GROUP_NAME_MAX) {
		trace_parse_fail(perr, USER_ERR_GROUP_NAME_LONG,
				 USER_EVENT_GROUP_NAME_MAX);
		return -ENAMETOOLONG;
	}
	for (i = 0; i < ARRAY_SIZE(user_event_group_reserved); i++)
		if (!strcmp(name, user_event_group_reserved[i]))
			return trace_parse_fail(perr, USER_ERR_GROUP_RESERVED,
						0);
	perr->err = USER_ERR_NONE;
	return 0;
}
