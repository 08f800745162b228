// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: what users see of an event.
 *
 * Every user-visible string of user_events lives in the table below.  The
 * rest of the file turns an event's fields into the forms the trace core
 * and tools expect: field definitions for "format" and filters, the print
 * fmt libtraceevent evaluates, the text of the "trace" file (which follows
 * the print fmt exactly) and the dynamic_events listing.
 */
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_seq.h>
#include <linux/unaligned.h>

#include "trace.h"
#include "trace_loc.h"
#include "trace_user.h"

/* Parse errors, as error_log shows them (enum user_event_err order) */
const char *user_event_errs[] = {
	[USER_ERR_NONE]			= "No error",
	[USER_ERR_NO_NAME]		= "Event name is missing",
	[USER_ERR_BAD_NAME]		= "Event name must be [A-Za-z0-9_]",
	[USER_ERR_NAME_LONG]		= "Event name is too long",
	[USER_ERR_BAD_FLAG]		= "Unknown flag",
	[USER_ERR_NO_TYPE]		= "Field type is missing",
	[USER_ERR_BAD_TYPE]		= "Unknown field type",
	[USER_ERR_LONG]			= "long is not allowed, use s64/u64",
	[USER_ERR_BAD_ARRAY]		= "Bad array declaration",
	[USER_ERR_NO_FIELD_NAME]	= "Field name is missing",
	[USER_ERR_BAD_FIELD_NAME]	= "Bad field name",
	[USER_ERR_DUP_FIELD]		= "Duplicate field name",
	[USER_ERR_SIZE_NEEDED]		= "struct fields need a size",
	[USER_ERR_SIZE_REFUSED]		= "Only struct fields take a size",
	[USER_ERR_BAD_SIZE]		= "Bad size",
	[USER_ERR_TRAILING]		= "Unexpected text after field",
	[USER_ERR_TOO_MANY]		= "Too many fields",
	[USER_ERR_TOO_BIG]		= "Fixed fields are too large",
	[USER_ERR_GROUP_NO_NAME]	= "Group name is missing",
	[USER_ERR_GROUP_BAD_NAME]	= "Group name must be [A-Za-z0-9_]",
	[USER_ERR_GROUP_NAME_LONG]	= "Group name is too long",
	[USER_ERR_GROUP_RESERVED]	= "Group name is reserved",
	[USER_ERR_GROUP_EXISTS]		= "Group already exists",
	[USER_ERR_MAX]			= NULL,
};

/* Lines and words of user_events_status */
const struct user_event_status_text user_event_status_text = {
	.active		= "Active: %u\n",
	.busy		= "Busy: %u\n",
	.max		= "Max: %u\n",
	.used_by	= " # Used by",
	.ftrace		= "ftrace",
	.perf		= "perf",
	.lost		= " # Lost %llu (ring full %llu, perf full %llu, too big %llu)",
};

/* print fmt argument of a loc field that is not a string */
static const char user_hex_loc[] =
	", __print_hex(__get_%sdynamic_array(%s), __get_%sdynamic_array_len(%s))";

/* printf conversion of an integer field, by size and sign */
static const char *user_int_conv(const struct user_event_field *f)
{
	if (f->size == 8)
		return f->is_signed ? "%lld" : "%llu";
	return f->is_signed ? "%d" : "%u";
}

/* Append the print fmt of desc to buf (may be NULL to size it) */
static int user_print_fmt(const struct user_event_desc *desc, char *buf,
			  int len)
{
	const struct user_event_field *f;
	const char *rel;
	int pos = 0;
	unsigned int i;

#define USER_PUT(...) (pos += snprintf(buf ? buf + pos : NULL, \
				       buf ? len - pos : 0, __VA_ARGS__))
	USER_PUT("\"");
	for (i = 0; i < desc->nr_fields; i++) {
		f = &desc->fields[i];
		USER_PUT("%s%s=%s", i ? " " : "", f->name,
			 f->kind == USER_FIELD_INT ? user_int_conv(f) : "%s");
	}
	USER_PUT("\"");
	for (i = 0; i < desc->nr_fields; i++) {
		f = &desc->fields[i];
		switch (f->kind) {
		case USER_FIELD_INT:
		case USER_FIELD_CHARS:
			USER_PUT(", REC->%s", f->name);
			break;
		case USER_FIELD_STRUCT:
			USER_PUT(", __print_hex(REC->%s, %u)", f->name,
				 f->size);
			break;
		case USER_FIELD_DATA_LOC:
		case USER_FIELD_REL_LOC:
			rel = f->kind == USER_FIELD_REL_LOC ? "rel_" : "";
			if (f->is_string)
				USER_PUT(", __get_%sstr(%s)", rel, f->name);
			else
				USER_PUT(user_hex_loc, rel, f->name, rel,
					 f->name);
			break;
		}
	}
#undef USER_PUT
	return pos;
}

char *user_event_print_fmt(const struct user_event_desc *desc)
{
	int len = user_print_fmt(desc, NULL, 0) + 1;
	char *buf = kmalloc(len, GFP_KERNEL);

	if (buf)
		user_print_fmt(desc, buf, len);
	return buf;
}

/* fields_array callback: hand our fields to the trace core */
int user_event_define_fields(struct trace_event_call *call)
{
	struct user_event *ev = container_of(call, struct user_event, call);
	const struct user_event_field *f;
	unsigned int i;
	int ret;

	for (i = 0; i < ev->desc.nr_fields; i++) {
		f = &ev->desc.fields[i];
		ret = trace_define_field(call, f->type, f->name, f->offset,
					 f->size, f->is_signed, FILTER_OTHER);
		if (ret)
			return ret;
	}
	return 0;
}

static void user_print_hex(struct trace_seq *s, const u8 *p, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		trace_seq_printf(s, "%s%02x", i ? " " : "", p[i]);
}

static void user_print_int(struct trace_seq *s, const struct user_event_field *f,
			   const void *p)
{
	switch (f->size) {
	case 1:
		if (f->is_signed)
			trace_seq_printf(s, "%d", *(const s8 *)p);
		else
			trace_seq_printf(s, "%u", *(const u8 *)p);
		break;
	case 2:
		if (f->is_signed)
			trace_seq_printf(s, "%d", (s16)get_unaligned((const u16 *)p));
		else
			trace_seq_printf(s, "%u", get_unaligned((const u16 *)p));
		break;
	case 4:
		if (f->is_signed)
			trace_seq_printf(s, "%d", (s32)get_unaligned((const u32 *)p));
		else
			trace_seq_printf(s, "%u", get_unaligned((const u32 *)p));
		break;
	default:
		if (f->is_signed)
			trace_seq_printf(s, "%lld", (s64)get_unaligned((const u64 *)p));
		else
			trace_seq_printf(s, "%llu", get_unaligned((const u64 *)p));
		break;
	}
}

/*
 * The characters of a string field up to its first NUL, at most n.  Not
 * through "%.*s": printf precisions stop at 32,767 (vsprintf WARNs beyond)
 * while a loc string may be up to 65,535 bytes.  A string longer than the
 * trace_seq makes the line too big, which the trace core reports as such.
 */
static void user_print_str(struct trace_seq *s, const char *p, unsigned int n)
{
	trace_seq_putmem(s, p, strnlen(p, n));
}

/* Variable part of a loc field, or NULL when it lies outside the record */
static const void *user_loc_data(const struct user_event_field *f,
				 const void *rec, unsigned int rec_size,
				 unsigned int *len)
{
	u32 loc = get_unaligned((const u32 *)(rec + f->offset));
	unsigned int off = trace_loc_start(loc, f->offset,
					   f->kind == USER_FIELD_REL_LOC);

	*len = trace_loc_len(loc);
	if (!trace_loc_fits(off, *len, rec_size))
		return NULL;
	return rec + off;
}

/* The "trace" text of one record: "a=1 s=hello", as the print fmt says */
static enum print_line_t user_event_output(struct trace_iterator *iter,
					   int flags, struct trace_event *event)
{
	struct user_event *ev = container_of(event, struct user_event,
					     call.event);
	const struct user_event_field *f;
	struct trace_seq *s = &iter->seq;
	const void *rec = iter->ent, *p;
	unsigned int i, len;
	int ret;

	ret = trace_raw_output_prep(iter, event);
	if (ret != TRACE_TYPE_HANDLED)
		return ret;

	for (i = 0; i < ev->desc.nr_fields; i++) {
		f = &ev->desc.fields[i];
		trace_seq_printf(s, "%s%s=", i ? " " : "", f->name);
		if (f->offset + f->size > iter->ent_size) {
			trace_seq_puts(s, "<OVERFLOW>");
			continue;
		}
		p = rec + f->offset;
		switch (f->kind) {
		case USER_FIELD_INT:
			user_print_int(s, f, p);
			break;
		case USER_FIELD_CHARS:
			user_print_str(s, p, f->size);
			break;
		case USER_FIELD_STRUCT:
			user_print_hex(s, p, f->size);
			break;
		case USER_FIELD_DATA_LOC:
		case USER_FIELD_REL_LOC:
			p = user_loc_data(f, rec, iter->ent_size, &len);
			if (!p)
				trace_seq_puts(s, "<OVERFLOW>");
			else if (f->is_string)
				user_print_str(s, p, len);
			else
				user_print_hex(s, p, len);
			break;
		}
	}
	trace_seq_putc(s, '\n');
	return trace_handle_return(s);
}

struct trace_event_functions user_event_output_funcs = {
	.trace = user_event_output,
};

/*
 * dynamic_events line: "u:name type name; struct X name N", the name
 * preceded by "SYSTEM/" for an event of a group other than the default.
 */
void user_event_show_cmd(struct seq_file *m, const struct user_event *ev)
{
	const struct user_event_field *f;
	unsigned int i;

	seq_puts(m, USER_EVENTS_PREFIX);
	if (ev->group->name)
		seq_printf(m, "%s/", ev->class.system);
	seq_puts(m, ev->desc.name);
	for (i = 0; i < ev->desc.nr_fields; i++) {
		f = &ev->desc.fields[i];
		seq_printf(m, "%s%s %s", i ? "; " : " ", f->type, f->name);
		if (f->has_size)
			seq_printf(m, " %u", f->size);
	}
	seq_putc(m, '\n');
}
