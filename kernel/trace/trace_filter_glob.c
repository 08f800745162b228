// SPDX-License-Identifier: GPL-2.0
/*
 * trace_filter_glob - glob patterns compiled once, matched in
 * linear passes.
 *
 * A filter such as  comm ~ "f?l*[xyz]"  is tested on every event, so the
 * pattern is taken apart when the filter is written instead of being
 * re-read, character classes and all, for every record.  The stars cut
 * it into segments; every other element matches exactly one byte and is
 * stored as an atom:
 *
 *	"f?l*[xyz]"	segment 0: 'f' ANY 'l'	segment 1: CLASS#0
 *
 * A string then matches when the first segment matches at its start, the
 * last one at its end (when there is a star at all) and the ones in
 * between, in order, each as far left as it can in what is left.  Taking
 * the leftmost place is always right because a star can absorb anything,
 * so no backtracking is needed and no byte past the string is read.
 *
 * The syntax is the one glob_match() reads, with the same corner cases:
 * "[!...]" complements a class, "a-z" is a range ("-" first or last is a
 * plain '-'), "]" first in a class is a plain ']', "\" makes the next
 * character literal (a trailing "\" ends the pattern) and a "[" without
 * its "]" is a plain '['.
 *
 * Compiling runs in process context; matching takes no lock and
 * allocates nothing, so it is safe wherever an event can fire.
 *
 * filter_parse_regex(), at the end, sorts out the patterns that need no
 * glob at all (a whole string, a prefix, a suffix, a substring); the
 * filter parser and ftrace's function filters both ask it first.
 */
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace_filter.h"

/* Atom values below 256 are literal bytes. */
#define GLOB_ANY	0x100		/* '?': any byte */
#define GLOB_CLASS	0x200		/* GLOB_CLASS + n: class n */

/* One byte set, as a bitmap. */
struct glob_class {
	u8	bits[32];
};

struct filter_glob {
	u16			nr_segs;	/* stars + 1 */
	u16			nr_atoms;
	u16			nr_classes;
	u16			*seg_len;	/* atoms in each segment */
	u16			*atoms;		/* all segments, in order */
	struct glob_class	*classes;
};

/*
 * Read the class that starts after the '[' at @p.  Returns the text after
 * its ']' and fills @cls (when not NULL), or returns NULL when the class
 * is not closed and the '[' is a plain character.
 */
static const char *glob_class_parse(const char *p, struct glob_class *cls)
{
	bool invert = *p == '!';
	const char *s = p + invert;
	unsigned int c;

	if (cls)
		memset(cls, 0, sizeof(*cls));
	do {
		unsigned int lo = (u8)*s++, hi = lo;

		if (!lo)
			return NULL;
		if (s[0] == '-' && s[1] != ']') {
			hi = (u8)s[1];
			if (!hi)
				return NULL;
			s += 2;
		}
		for (c = lo; cls && c <= hi; c++)
			cls->bits[c / 8] |= 1 << (c % 8);
	} while (*s != ']');

	if (cls && invert) {
		for (c = 0; c < sizeof(cls->bits); c++)
			cls->bits[c] = ~cls->bits[c];
	}
	if (cls)
		cls->bits[0] &= ~1;	/* the end of the string is no byte */
	return s + 1;
}

/*
 * One pass over @pat.  With @g NULL it only counts into @count, which the
 * second pass (with @g allocated to those counts) then fills.
 */
static void glob_walk(const char *pat, struct filter_glob *g,
		      struct filter_glob *count)
{
	struct glob_class cls;
	const char *next;
	unsigned int atom;

	count->nr_segs = 1;
	count->nr_atoms = 0;
	count->nr_classes = 0;
	if (g)
		g->seg_len[0] = 0;
	while (*pat) {
		atom = (u8)*pat++;
		if (atom == '*') {
			if (g)
				g->seg_len[count->nr_segs] = 0;
			count->nr_segs++;
			continue;
		}
		if (atom == '?') {
			atom = GLOB_ANY;
		} else if (atom == '\\') {
			atom = (u8)*pat;
			if (!atom)
				break;
			pat++;
		} else if (atom == '[') {
			/* stored only once it is known to be a class */
			next = glob_class_parse(pat, g ? &cls : NULL);
			if (next) {
				if (g)
					g->classes[count->nr_classes] = cls;
				atom = GLOB_CLASS + count->nr_classes++;
				pat = next;
			}
		}
		if (g) {
			g->atoms[count->nr_atoms] = atom;
			g->seg_len[count->nr_segs - 1]++;
		}
		count->nr_atoms++;
	}
}

/**
 * filter_glob_compile - take a glob pattern apart for filter_glob_match()
 * @pat: the pattern, NUL-terminated
 *
 * Return: the compiled pattern, to be freed with kfree(), or NULL when
 * out of memory.
 */
struct filter_glob *filter_glob_compile(const char *pat)
{
	struct filter_glob n, *g;
	size_t size;

	glob_walk(pat, NULL, &n);
	size = sizeof(*g) + n.nr_classes * sizeof(struct glob_class) +
	       (n.nr_segs + n.nr_atoms) * sizeof(u16);
	g = kzalloc(size, GFP_KERNEL);
	if (!g)
		return NULL;
	g->classes = (struct glob_class *)(g + 1);
	g->seg_len = (u16 *)(g->classes + n.nr_classes);
	g->atoms = g->seg_len + n.nr_segs;
	glob_walk(pat, g, g);
	return g;
}

/* Does @len atoms from @atom match the @len bytes at @s? */
static bool glob_seg_match(const struct filter_glob *g, const u16 *atom,
			   unsigned int len, const u8 *s)
{
	const u8 *end = s + len;

	for (; s < end; s++, atom++) {
		unsigned int a = *atom;

		if (a < GLOB_ANY) {
			if (a != *s)
				return false;
		} else if (a != GLOB_ANY) {
			const u8 *bits = g->classes[a - GLOB_CLASS].bits;

			if (!(bits[*s / 8] & (1 << (*s % 8))))
				return false;
		}
	}
	return true;
}

/**
 * filter_glob_match - does a string match a compiled glob?
 * @g: from filter_glob_compile()
 * @str: the string, @len bytes without NUL (none of them is NUL)
 * @len: its length
 *
 * Return: true when the whole of @str matches the glob.
 */
bool filter_glob_match(const struct filter_glob *g, const char *str,
		       unsigned int len)
{
	const u8 *s = (const u8 *)str, *end = s + len;
	const u16 *atom = g->atoms;
	unsigned int i, n = g->seg_len[0];

	/* the first segment is anchored at the start */
	if (n > len || !glob_seg_match(g, atom, n, s))
		return false;
	if (g->nr_segs == 1)
		return n == len;
	s += n;
	atom += n;

	/* the last one at the end, without overlapping the first */
	n = g->seg_len[g->nr_segs - 1];
	if (n > end - s ||
	    !glob_seg_match(g, g->atoms + g->nr_atoms - n, n, end - n))
		return false;
	end -= n;

	/* and those between, leftmost first */
	for (i = 1; i < g->nr_segs - 1; atom += n, i++) {
		n = g->seg_len[i];
		for (;;) {
			if (n > end - s)
				return false;
			if (glob_seg_match(g, atom, n, s))
				break;
			s++;
		}
		s += n;
	}
	return true;
}

/**
 * filter_parse_regex - classify a simple pattern for fast matching
 * @buff: the pattern; a trailing '*' is cut off in place
 * @len: its length
 * @search: set to the text to compare against
 * @not: set to 1 when the pattern starts with '!' (then skipped)
 *
 * "abc" is a full match, "abc*" a prefix, "*abc" a suffix, "*abc*" a
 * substring; any other '*', or '?', '[' and '\' make it a glob.  A
 * pattern starting with a digit is an index (used by set_ftrace_filter).
 *
 * Return: the kind of match, MATCH_FULL to MATCH_GLOB, or MATCH_INDEX.
 */
enum regex_type filter_parse_regex(char *buff, int len, char **search, int *not)
{
	bool lead, trail;
	int k;

	*not = buff[0] == '!';
	buff += *not;
	len -= *not;
	*search = buff;
	if (isdigit(*buff))
		return MATCH_INDEX;

	lead = len > 0 && buff[0] == '*';
	trail = len > 1 && buff[len - 1] == '*';
	/* Any wildcard other than a leading or trailing star needs a glob. */
	for (k = lead; k < len - trail; k++) {
		if (buff[k] && strchr("*?[\\", buff[k]))
			return MATCH_GLOB;
	}
	if (trail)
		buff[len - 1] = '\0';
	if (lead)
		*search = buff + 1;
	if (lead)
		return trail ? MATCH_MIDDLE_ONLY : MATCH_END_ONLY;
	return trail ? MATCH_FRONT_ONLY : MATCH_FULL;
}
