// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz: an oracle for user_events writes and string filters.
 *
 * Each root worker registers fz_oracle ("char[8] s; __data_loc char[] d;
 * __rel_loc char[] r") once on an fd of its own, and only this entry
 * writes it and counts it, with perf events of its own thread.  So the
 * outcome of a write is known exactly: -EFAULT when a loc word points
 * outside the record, into its fixed part or at a string without its
 * NUL, else recorded; counted when the filter matches.  A kernel that
 * accepts a loc word it must refuse or filters a string wrongly is a
 * report, even when no memory is harmed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <linux/user_events.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "trace_fuzz.h"

/* The event's id, read once (nothing else may delete it) */
int fz_oracle_id;

/* A counting perf event on fz_oracle for this thread, with filter */
static int oracle_perf(const char *filter)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = fz_oracle_id,
	};
	int fd;

	if (!fz_oracle_id)
		return -1;
	fd = syscall(__NR_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd >= 0 && filter && ioctl(fd, PERF_EVENT_IOC_SET_FILTER, filter)) {
		close(fd);
		return -2;
	}
	return fd;
}

static long long oracle_count(int fd)
{
	long long n = -1;

	return read(fd, &n, sizeof(n)) == sizeof(n) ? n : -1;
}

/*
 * A string field as the filter sees it: the bytes up to the first NUL,
 * at most bound of them, copied into out (33 bytes).
 */
static void oracle_str(const unsigned char *p, unsigned int bound, char *out)
{
	unsigned int n = 0;

	while (n < bound && n < 32 && p[n])
		n++;
	memcpy(out, p, n);
	out[n] = '\0';
}

/* Is the loc word (record offset off, length len) one the kernel takes? */
static int oracle_loc_ok(const unsigned char *rec, unsigned int size,
			 unsigned int off, unsigned int len)
{
	return len && off >= 24 && off + len <= size && !rec[off + len - 1];
}

/*
 * A string in the record's dynamic part (record bytes 24 on) for a loc
 * word: three times in four one the kernel must take (its last byte made
 * NUL in payload p), else any record offset from min on (a __rel_loc
 * cannot point before its own end) and any length.
 */
static void oracle_loc(struct rng *r, unsigned char *p, unsigned int size,
		       unsigned int min, unsigned int *off, unsigned int *len)
{
	unsigned int room = size - 24;

	if (chance(r, 4)) {
		*off = min + below(r, size + 4 - min);
		*len = below(r, 10);
		return;
	}
	*len = 1 + below(r, room < 8 ? room : 8);
	*off = 24 + below(r, room - *len + 1);
	p[*off + *len - 1 - 8] = 0;
}

/* form: 0 "t" (==), 1 "t*", 2 "*t", 3 "*t*" */
static int oracle_match(const char *str, const char *t, int form)
{
	size_t n = strlen(str), k = strlen(t);

	switch (form) {
	case 0:
		return !strcmp(str, t);
	case 1:
		return !strncmp(str, t, k);
	case 2:
		return n >= k && !strcmp(str + n - k, t);
	default:
		return !!strstr(str, t);
	}
}

static void oracle_report(const char *what, long long got, long long want)
{
	fz_report("oracle", "%s was %lld, the ABI says %lld", what, got, want);
}

/*
 * fz_oracle is "char[8] s; __data_loc char[] d; __rel_loc char[] r":
 * payload bytes 0-7, 8-11 and 12-15, record bytes 8-15, 16-19 and 20-23.
 * Nothing but this entry writes it and only this thread's perf events
 * count it, so the outcome of a write is known: -EFAULT when a loc word
 * points outside the record, into its fixed part or at a string without
 * its NUL, else recorded; counted when the filter matches.
 */
void fz_oracle_apply(struct fz_worker *w, const struct fz_op *in)
{
	static const char *const ops[] = { "==", "!=", "~" };
	static const char *const forms[] = { "%s", "%s*", "*%s", "*%s*" };
	static const char *const names[] = { "s", "d", "r" };
	struct rng r = { in->arg[2] };
	/* rec: the record as the kernel builds it; buf: what is written */
	unsigned char rec[8 + 40], *p = rec + 8, buf[4 + 40];
	unsigned int len = 17 + below(&r, 24), size = 8 + len, i, k;
	unsigned int doff, dlen, roff, rlen, loc;
	char filter[64], text[4], form_text[8], str[33];
	int field, op, form = 0, nofilter, valid, match, pf, nonul;
	long long want, got;
	ssize_t ret;

	if (w->opf < 0)
		return;
	/* half of the time s fills its 8 bytes with no NUL */
	nonul = chance(&r, 2);
	for (i = 0; i < len; i++) {
		k = below(&r, 5);
		p[i] = k < 2 ? 'a' : k < 4 ? 'b' : i < 8 && nonul ? 'a' : 0;
	}
	/* Three times in four a loc word the kernel must take */
	oracle_loc(&r, p, size, 0, &doff, &dlen);
	loc = dlen << 16 | doff;
	memcpy(p + 8, &loc, 4);
	oracle_loc(&r, p, size, 24, &roff, &rlen);
	loc = rlen << 16 | (roff - 24);
	memcpy(p + 12, &loc, 4);
	memcpy(buf, &w->oidx, 4);
	memcpy(buf + 4, p, len);

	k = 1 + below(&r, 3);
	for (i = 0; i < k; i++)
		text[i] = below(&r, 2) ? 'a' : 'b';
	text[k] = '\0';
	field = below(&r, 3);
	op = below(&r, 3);
	if (op == 2)
		form = below(&r, 4);
	/*
	 * s with no NUL ends at its 8th byte: half of the time ask what it
	 * ends with ("*t"), which a filter reading past the field gets
	 * wrong (the d loc word follows, its first byte no letter).
	 */
	if (nonul && chance(&r, 2)) {
		field = 0;
		op = 2;
		form = 2;
	}
	nofilter = chance(&r, 4);
	snprintf(form_text, sizeof(form_text), forms[form], text);
	snprintf(filter, sizeof(filter), "%s %s \"%s\"", names[field], ops[op],
		 form_text);

	valid = oracle_loc_ok(rec, size, doff, dlen) &&
		oracle_loc_ok(rec, size, roff, rlen);
	if (field == 0)
		oracle_str(p, 8, str);
	else if (field == 1)
		oracle_str(valid ? rec + doff : p, valid ? dlen : 0, str);
	else
		oracle_str(valid ? rec + roff : p, valid ? rlen : 0, str);
	match = oracle_match(str, text, form);
	if (op == 1)
		match = !match;

	pf = oracle_perf(nofilter ? NULL : filter);
	if (pf == -2) {
		oracle_report("a valid perf filter's ioctl", -1, 0);
		return;
	}
	if (pf < 0)
		return;
	if (chance(&r, 2)) {
		ret = write(w->ofd, buf, 4 + len);
	} else {
		struct iovec io[3];

		k = below(&r, len + 1);
		io[0] = (struct iovec){ buf, 4 };
		io[1] = (struct iovec){ buf + 4, k };
		io[2] = (struct iovec){ buf + 4 + k, len - k };
		ret = writev(w->ofd, io, 3);
	}
	got = ret < 0 ? -errno : ret;
	want = valid ? (long long)len + 4 : -EFAULT;
	if (got != want)
		oracle_report("the write's result", got, want);
	else
		__atomic_add_fetch(&fz->kind_ok[OP_ORACLE], 1, __ATOMIC_RELAXED);
	got = oracle_count(pf);
	want = valid && (nofilter || match);
	if (got != want)
		oracle_report(nofilter ? "the event count" :
			      "the event count with a filter", got, want);
	close(pf);
}

void fz_oracle_init(struct fz_worker *w)
{
	struct user_status_reg reg = {
		.size = sizeof(reg),
		.name_args = (uintptr_t)"fz_oracle char[8] s; "
			     "__data_loc char[] d; __rel_loc char[] r",
	};

	w->opf = -1;
	w->ofd = open(T "user_events_data", O_RDWR);
	if (w->ofd < 0 || ioctl(w->ofd, DIAG_IOCSREG, &reg))
		return;
	w->oidx = reg.write_index;
	if (!fz_oracle_id) {
		struct fz_event e = { .sys = "user_events", .name = "fz_oracle" };

		fz_oracle_id = fz_event_id(&e);
	}
	w->opf = oracle_perf(NULL);
}
