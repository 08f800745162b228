// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz: records that outlive their event, records whose loc words
 * point outside them, and the loss counts of writes a consumer leaves
 * out: operations whose outcome is known exactly, like the oracle's.
 *
 * OP_READBACK and OP_RECREATE: a root worker registers fz_d<w>a (its
 * fields begin "u32 off; u32 len", fz_rec_old_defs), enables it in an
 * instance of its own (fz_d<w>, which nothing else touches) and in the
 * top level or a shared instance, and writes a few records whose numbers
 * read as loc words that point far outside a record (0x200000,
 * 0xffff0010, ...), now and then with a loc word of its own that does
 * (-EFAULT, and nothing recorded), while a perf event of its own thread
 * samples them into a mapped ring.  OP_RECREATE then deletes the event
 * (DIAG_IOCSDEL, "!u:" in dynamic_events, or the last fd of a transient
 * registration closed) and makes fz_d<w>b, a user event whose loc words
 * lie where fz_d<w>a's numbers were, and fz_d<w>c, a synthetic event with
 * a "char s[]".  The kernel keeps a deleted event's type while records of
 * it remain, so:
 *
 * - the new events' ids differ from the deleted one's, whose records are
 *   in fz_d<w>'s buffer;
 * - no line of any trace or trace_pipe read is fz_d<w>b's or fz_d<w>c's:
 *   nothing ever writes them, so such a line is a record of another
 *   event printed with their layout, which reads its numbers as offsets;
 * - fz_d<w>'s trace holds exactly the records taken, printed as
 *   fz_d<w>a's (none after a delete through dynamic_events, which
 *   clears it; no other delete does, then or at another worker's
 *   delete), and the perf ring exactly their samples, byte for byte
 *   (read before the delete: a mapped ring holds its perf event, which
 *   keeps the event busy); rings mapped on the new events stay empty.
 *
 * The shared scope's trace and trace_pipe (non-blocking, a bounded read)
 * are read last: their lines are checked as far as they were read, and
 * KASAN watches the output paths read what other workers left there.
 *
 * OP_LOSS: a registration with USER_EVENT_REG_REPORT_LOSS, in a
 * user_events group of the worker's own (no enable of another operation
 * reaches its system), writes into an instance of its own with overwrite
 * off and a tiny buffer, through a filter that keeps n == 1.  Kept
 * records fill the buffer; then records the filter rejects, alone,
 * beside a histogram that reads common_timestamp, or with the event
 * disabled and only the histogram consuming it, must be written (the
 * write returns its length) and must leave the counts as they were.  A
 * single input's perf event on a random id may drop a write of ours
 * (perf full, which only a perf event counts): then the counts are not
 * judged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <linux/user_events.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "trace_fuzz.h"

/* Records of one operation at most, and the most bytes of a payload */
#define REC_MAX 6
#define REC_PAYLOAD 96
/* Data pages of the perf ring: far more than REC_MAX samples need */
#define RING_PAGES 8
/* Most bytes read of a file of the shared scope, and of our instance */
#define SHARED_READ (256 * 1024)
#define OWN_READ (64 * 1024)

/* Numbers that, read as loc words, point far outside any record */
static const uint32_t hostile[] = {
	0x00200000, 0xffff0010, 0x7fff0008, 0x0040fff0, 0xffffffff,
	0x00010000, 0x10000018, 0x0008ffff,
};

static void set(const char *path, const char *text)
{
	fz_write_file(path, text, strlen(text), O_TRUNC);
}

/* Lines of text that hold needle (" name: ", say) */
static int count(const char *text, const char *needle)
{
	const char *p;
	int n = 0;

	for (p = strstr(text, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/*
 * trace_pipe, without waiting: what it hands out now, at most n - 1
 * bytes.  It consumes what it reads, so it comes after every check that
 * needs the records.
 */
static void read_pipe(const char *path, char *buf, size_t n)
{
	fz_read_file_flags(path, buf, n, O_NONBLOCK);
}

/* ---- OP_READBACK, OP_RECREATE ---- */

/* What one operation wrote and the kernel took, in order */
struct rec_log {
	int n;
	unsigned int len[REC_MAX];
	unsigned char p[REC_MAX][REC_PAYLOAD];
};

/* A perf event of this thread on one event, sampling into a mapped ring */
struct rec_ring {
	int fd;
	unsigned char *map;
	size_t len;
};

static void ring_open(struct rec_ring *g, int id)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(a),
		.config = id,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_RAW,
	};
	void *m;

	g->map = NULL;
	g->len = (1 + RING_PAGES) * PAGE;
	g->fd = id > 0 ? syscall(SYS_perf_event_open, &a, 0, -1, -1, 0) : -1;
	if (g->fd < 0)
		return;
	m = mmap(NULL, g->len, PROT_READ | PROT_WRITE, MAP_SHARED, g->fd, 0);
	if (m == MAP_FAILED) {
		close(g->fd);
		g->fd = -1;
		return;
	}
	g->map = m;
}

/*
 * The samples in the ring of event what against what was taken: as
 * many, each a record of type id whose payload is the next one written,
 * byte for byte.
 */
static void ring_check(const struct rec_ring *g, int id, const struct rec_log *log,
		       const char *what)
{
	const struct perf_event_mmap_page *pg = (const void *)g->map;
	const unsigned char *data;
	uint64_t head, off = 0, dsize;
	int n = 0;

	if (!g->map)
		return;
	head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
	dsize = pg->data_size ? pg->data_size : RING_PAGES * PAGE;
	data = g->map + (pg->data_offset ? pg->data_offset : PAGE);
	/* REC_MAX small samples cannot wrap: a ring that did is not ours */
	if (head > dsize)
		return;
	while (off + sizeof(struct perf_event_header) <= head) {
		const struct perf_event_header *h = (const void *)(data + off);
		const unsigned char *raw = data + off + sizeof(*h) + 4;
		uint32_t size;
		uint16_t type;

		if (h->size < sizeof(*h) || off + h->size > head)
			break;
		if (h->type == PERF_RECORD_SAMPLE && n < REC_MAX) {
			memcpy(&size, data + off + sizeof(*h), 4);
			memcpy(&type, raw, 2);
			if (n >= log->n || sizeof(*h) + 4 + size > h->size ||
			    size < 8 + log->len[n] || type != id ||
			    memcmp(raw + 8, log->p[n], log->len[n]))
				fz_report("records",
					  "perf sample %d of %d of %s is not the record written (type %u, id %d, %u raw bytes)",
					  n, log->n, what, type, id, size);
			n++;
		}
		off += h->size;
	}
	if (n != log->n)
		fz_report("records", "%d perf samples of %s, %d records of it taken", n,
			  what, log->n);
}

static void ring_close(struct rec_ring *g)
{
	if (g->map)
		munmap(g->map, g->len);
	if (g->fd >= 0)
		close(g->fd);
	g->map = NULL;
	g->fd = -1;
}

/* Byte offset of field i of kinds in a payload */
static unsigned int field_off(const char *kinds, int i)
{
	unsigned int off = 0;
	int k;

	for (k = 0; k < i; k++)
		off += kinds[k] == 'x' ? 8 : 4;
	return off;
}

/*
 * A payload of old definition def in p: hostile numbers in its u32
 * fields, strings after the fixed part, and one loc word in three where
 * the kernel must refuse it (a hostile word, or a string without its
 * NUL).  Returns its length; *taken: whether the kernel takes it, judged
 * as user_event_locs_ok() does, on the record (an 8-byte header, then
 * the payload).
 */
static unsigned int rec_payload(struct rng *r, int def, unsigned char *p,
				bool *taken)
{
	const char *k = fz_rec_old_defs[def].kinds;
	unsigned int fixed = field_off(k, strlen(k)), dyn = fixed, at, len;
	unsigned int off, i;
	uint32_t v;

	for (i = 0; k[i]; i++) {
		at = field_off(k, i);
		if (k[i] == 'u') {
			v = hostile[below(r, ARRAY_SIZE(hostile))];
			memcpy(p + at, &v, 4);
			continue;
		}
		len = 1 + below(r, 12);
		memset(p + dyn, 'a' + below(r, 26), len - 1);
		p[dyn + len - 1] = '\0';
		if (k[i] == 'r')
			v = len << 16 | (dyn - at - 4);
		else
			v = len << 16 | (8 + dyn);
		if (chance(r, 3)) {
			if (chance(r, 2))
				v = hostile[below(r, ARRAY_SIZE(hostile))];
			else
				p[dyn + len - 1] = 'z';
		}
		memcpy(p + at, &v, 4);
		dyn += len;
	}
	*taken = true;
	for (i = 0; k[i]; i++) {
		if (k[i] != 'd' && k[i] != 'r')
			continue;
		at = field_off(k, i);
		memcpy(&v, p + at, 4);
		off = (v & 0xffff) + (k[i] == 'r' ? 8 + at + 4 : 0);
		len = v >> 16;
		if (!len || off < 8 + fixed || off + len > 8 + dyn ||
		    p[off + len - 1 - 8] != '\0')
			*taken = false;
	}
	return dyn;
}

/* The line fz_d<w>a's record prints as: its name, then off= and len= */
static void rec_line(const char *name, const unsigned char *p, char *buf,
		     size_t n)
{
	uint32_t off, len;

	memcpy(&off, p, 4);
	memcpy(&len, p + 4, 4);
	snprintf(buf, n, " %s: off=%u len=%u", name, off, len);
}

/*
 * Lines of names that nothing writes (b and c): a record printed under
 * their name is another event's, read with their layout.
 */
static void rec_never_written(const char *text, const char *b, const char *c,
			      const char *what)
{
	char nb[32], nc[32];
	int k;

	snprintf(nb, sizeof(nb), " %s: ", b);
	snprintf(nc, sizeof(nc), " %s: ", c);
	k = count(text, nb);
	if (k)
		fz_report("records", "%d lines of %s in %s, an event never written",
			  k, b, what);
	k = count(text, nc);
	if (k)
		fz_report("records", "%d lines of %s in %s, an event never written",
			  k, c, what);
}

/* The evidence of a report: the lines of TEXT that hold NEEDLE, a few */
static void rec_show_lines(const char *text, const char *needle)
{
	const char *p, *start, *end;
	int shown = 0;

	for (p = strstr(text, needle); p && shown < 12; p = strstr(end, needle)) {
		for (start = p; start > text && start[-1] != '\n'; start--)
			;
		end = strchrnul(p, '\n');
		printf("fuzz:   line: %.*s\n", (int)(end - start), start);
		shown++;
	}
}

/* fz_d<w>'s trace: exactly the records taken, each printed as a's */
static void rec_own_trace(const char *text, const char *a,
			  const struct rec_log *log, const char *when)
{
	char line[96], na[32];
	const char *p;
	int i, k;

	snprintf(na, sizeof(na), " %s: ", a);
	k = count(text, na);
	if (k != log->n) {
		fz_report("records",
			  "%d lines of %s in its instance's trace, %d records taken (%s)",
			  k, a, log->n, when);
		rec_show_lines(text, na);
		for (i = 0; i < log->n; i++) {
			rec_line(a, log->p[i], line, sizeof(line));
			printf("fuzz:   taken:%s\n", line);
		}
	}
	for (i = 0; i < log->n; i++) {
		rec_line(a, log->p[i], line, sizeof(line));
		for (p = strstr(text, line); p; p = strstr(p + 1, line))
			if (p[strlen(line)] == ' ' || p[strlen(line)] == '\n')
				break;
		if (!p)
			fz_report("records",
				  "record %d of %s (\"%s\") is not in its instance's trace (%s)",
				  i, a, line + 1, when);
	}
}

/* Is events/SYS/NAME there? */
static bool rec_exists(const char *sys, const char *name)
{
	char path[200];
	struct stat st;

	snprintf(path, sizeof(path), T "events/%s/%s", sys, name);
	return !stat(path, &st);
}

static int rec_del(const char *name)
{
	int fd = open(T "user_events_data", O_RDWR), ret;

	if (fd < 0)
		return -1;
	ret = ioctl(fd, DIAG_IOCSDEL, name);
	close(fd);
	return ret;
}

/* Unregister the word of a remote-write registration, if it was one */
static void rec_unreg(struct fz_worker *w, int fd, int bit)
{
	struct user_unreg u = {
		.size = sizeof(u),
		.disable_bit = bit,
		.disable_addr = (uintptr_t)&w->rec_word,
	};

	if (bit >= 0)
		ioctl(fd, DIAG_IOCSUNREG, &u);
}

/* Register cmd on fd for a status-page bit; the write index, or -1 */
static int rec_reg_status(int fd, const char *cmd, int flags)
{
	struct user_status_reg_flags r = {
		.size = sizeof(r),
		.name_args = (uintptr_t)cmd,
		.flags = flags,
	};

	if (ioctl(fd, DIAG_IOCSREG, &r))
		return -1;
	return r.write_index;
}

/*
 * Register cmd on fd in either layout, with flags; the write index, or
 * -1.  *bit: the remote-write word's bit, -1 for the status page.
 */
static int rec_reg(struct fz_worker *w, int fd, const char *cmd, bool remote,
		   int flags, int *bit)
{
	struct user_reg r = {
		.size = sizeof(r),
		.enable_size = 4,
		.enable_bit = (w->id * 3) % 32,
		.flags = flags,
		.enable_addr = (uintptr_t)&w->rec_word,
		.name_args = (uintptr_t)cmd,
	};

	*bit = -1;
	if (!remote)
		return rec_reg_status(fd, cmd, flags);
	if (ioctl(fd, DIAG_IOCSREG, &r))
		return -1;
	*bit = r.enable_bit;
	return r.write_index;
}

/*
 * Write payload p of len bytes at idx, in one piece or in three (cut
 * where the loc checks must see across pieces); the result or -errno
 */
static ssize_t rec_emit(int fd, uint32_t idx, const unsigned char *p,
			unsigned int len, unsigned int cut)
{
	unsigned int k = (cut >> 1) % (len + 1);
	unsigned char buf[4 + REC_PAYLOAD];
	struct iovec io[3] = {
		{ &idx, 4 },
		{ (void *)p, k },
		{ (void *)(p + k), len - k },
	};
	ssize_t ret;

	if (cut & 1) {
		ret = writev(fd, io, 3);
	} else {
		memcpy(buf, &idx, 4);
		memcpy(buf + 4, p, len);
		ret = write(fd, buf, 4 + len);
	}
	return ret < 0 ? -errno : ret;
}

struct rec_names {
	char a[16], b[16], c[16];
	char own[64], scope[64];	/* T "instances/fz_d<w>/", the shared */
};

/* Nothing left of the worker's last operation but its records */
static void rec_clean(const struct rec_names *nm)
{
	char path[128], cmd[32];

	rec_del(nm->a);
	rec_del(nm->b);
	snprintf(cmd, sizeof(cmd), "!%s", nm->c);
	fz_write_file(T "synthetic_events", cmd, strlen(cmd), O_APPEND);
	/* made once an epoch, emptied every time: a's records alone */
	mkdir(nm->own, 0755);
	snprintf(path, sizeof(path), "%strace", nm->own);
	fz_write_file(path, "", 0, O_TRUNC);
}

/* Whether the enable file took it */
static bool rec_enable(const char *pre, const char *name, const char *on)
{
	char path[200];

	snprintf(path, sizeof(path), "%sevents/user_events/%s/enable", pre, name);
	return fz_write_file(path, on, 1, O_TRUNC) == 1;
}

/*
 * Make b and c, the events after a's delete; their ids.  b is a user
 * event (made through dynamic_events, or registered on bfd, whose close
 * deletes it), c a synthetic event.
 */
static void rec_make_new(struct fz_worker *w, const struct rec_names *nm,
			 const struct fz_op *op, int bfd, int *id_b, int *id_c)
{
	const char *bbody = fz_rec_new_defs[op->arg[3] % fz_n_rec_new_defs].body;
	const char *cbody = fz_rec_synth_defs[(op->arg[4] >> 3) & 1];
	struct fz_event eb = { .sys = "user_events", .name = nm->b };
	struct fz_event ec = { .sys = "synthetic", .name = nm->c };
	char cmd[160];
	int bit;

	if (op->arg[4] & 2) {
		snprintf(cmd, sizeof(cmd), "u:%s %s", nm->b, bbody);
		fz_write_file(T "dynamic_events", cmd, strlen(cmd), O_APPEND);
	} else {
		snprintf(cmd, sizeof(cmd), "%s %s", nm->b, bbody);
		rec_reg(w, bfd, cmd, false, 0, &bit);
	}
	if (op->arg[4] & 4) {
		snprintf(cmd, sizeof(cmd), "s:%s %s", nm->c, cbody);
		fz_write_file(T "dynamic_events", cmd, strlen(cmd), O_APPEND);
	} else {
		snprintf(cmd, sizeof(cmd), "%s %s", nm->c, cbody);
		fz_write_file(T "synthetic_events", cmd, strlen(cmd), O_APPEND);
	}
	*id_b = fz_event_id(&eb);
	*id_c = fz_event_id(&ec);
}

/*
 * a deleted, by arg1's way; whether it is gone.  A transient event goes
 * with the last pin of its last fd (the remote-write word first); the
 * delete is refused (EBUSY) while another worker has it enabled through
 * its system's enable file, and then nothing is judged.
 */
static bool rec_delete(struct fz_worker *w, const struct rec_names *nm,
		       const struct fz_op *op, int *fd, int bit)
{
	char cmd[64];
	int k;

	rec_unreg(w, *fd, bit);
	close(*fd);
	*fd = -1;
	switch (op->arg[1] % 3) {
	case 0:
		rec_del(nm->a);
		break;
	case 1:
		snprintf(cmd, sizeof(cmd), "!u:%s", nm->a);
		fz_write_file(T "dynamic_events", cmd, strlen(cmd), O_APPEND);
		break;
	}
	/* the reaper takes a transient event in use as soon as it is not */
	for (k = 0; k < 20 && rec_exists("user_events", nm->a); k++)
		usleep(10000);
	return !rec_exists("user_events", nm->a);
}

static void rec_apply(struct fz_worker *w, const struct fz_op *op)
{
	const struct fz_rec_def *def = &fz_rec_old_defs[op->arg[0] % fz_n_rec_old_defs];
	bool remote = op->arg[4] & 1, transient = op->arg[1] % 3 == 2, taken;
	struct fz_event ea = { .sys = "user_events" };
	struct rng r = { op->arg[2] };
	struct rec_log log = { 0 };
	struct rec_names nm;
	struct rec_ring ring, ring_b = { .fd = -1 };
	struct rec_ring ring_c = { .fd = -1 };
	char cmd[160], path[200], *text;
	int fd, bfd = -1, idx, bit = -1, id_a, id_b = 0, id_c = 0, i, n;
	unsigned char p[REC_PAYLOAD];
	unsigned int len;
	ssize_t ret;
	bool gone = false, own_on;

	text = malloc(SHARED_READ);
	if (!text)
		return;
	snprintf(nm.a, sizeof(nm.a), "fz_d%da", w->id);
	snprintf(nm.b, sizeof(nm.b), "fz_d%db", w->id);
	snprintf(nm.c, sizeof(nm.c), "fz_d%dc", w->id);
	snprintf(nm.own, sizeof(nm.own), T "instances/fz_d%d/", w->id);
	if (op->arg[5])
		snprintf(nm.scope, sizeof(nm.scope), T "instances/fz_i%u/",
			 (unsigned int)(op->arg[5] - 1) % FZ_INSTANCES);
	else
		snprintf(nm.scope, sizeof(nm.scope), T);
	ea.name = nm.a;
	rec_clean(&nm);

	/* a: persistent (made by dynamic_events) unless closing deletes it */
	snprintf(cmd, sizeof(cmd), "%s %s", nm.a, def->body);
	if (!transient) {
		snprintf(path, sizeof(path), "u:%s", cmd);
		fz_write_file(T "dynamic_events", path, strlen(path), O_APPEND);
	}
	fd = open(T "user_events_data", O_RDWR);
	idx = fd < 0 ? -1 : rec_reg(w, fd, cmd, remote, 0, &bit);
	if (idx < 0) {
		if (fd >= 0)
			close(fd);
		free(text);
		return;
	}
	id_a = fz_event_id(&ea);
	ring_open(&ring, id_a);
	/* a's records are in our instance only if it took the enable */
	own_on = rec_enable(nm.own, nm.a, "1");
	rec_enable(nm.scope, nm.a, "1");

	/*
	 * The records: taken or refused (-EFAULT) exactly as the ABI says,
	 * when a consumer of ours is there (a write nothing consumes is not
	 * looked at)
	 */
	n = 1 + below(&r, REC_MAX);
	for (i = 0; i < n; i++) {
		len = rec_payload(&r, op->arg[0] % fz_n_rec_old_defs, p, &taken);
		ret = rec_emit(fd, idx, p, len, below(&r, 256));
		if (!own_on && ring.fd < 0)
			continue;
		if (ret != (taken ? (ssize_t)len + 4 : -EFAULT)) {
			fz_report("records", "a write of %s was %zd, the ABI says %d", nm.a,
				  ret, taken ? (int)len + 4 : -EFAULT);
			continue;
		}
		if (!taken)
			continue;
		memcpy(log.p[log.n], p, len);
		log.len[log.n++] = len;
	}
	rec_enable(nm.own, nm.a, "0");
	rec_enable(nm.scope, nm.a, "0");
	/* read, then unmapped: the mapping holds the perf event, a's user */
	ring_check(&ring, id_a, &log, nm.a);
	ring_close(&ring);

	if (op->kind == OP_RECREATE) {
		gone = rec_delete(w, &nm, op, &fd, bit);
		/* a delete through dynamic_events clears, and only that one */
		if (gone && op->arg[1] % 3 == 1)
			log.n = 0;
		if (gone) {
			bfd = open(T "user_events_data", O_RDWR);
			rec_make_new(w, &nm, op, bfd, &id_b, &id_c);
			/* a's records are in fz_d<w>'s buffer: its type is a's */
			if (own_on && log.n && id_b > 0 && id_b == id_a)
				fz_report("records",
					  "%s has the id of %s (%d), deleted with %d records left",
					  nm.b, nm.a, id_a, log.n);
			if (own_on && log.n && id_c > 0 && id_c == id_a)
				fz_report("records",
					  "%s has the id of %s (%d), deleted with %d records left",
					  nm.c, nm.a, id_a, log.n);
			/* nothing writes them: their rings stay empty */
			ring_open(&ring_b, id_b);
			ring_open(&ring_c, id_c);
		}
	}

	/* our instance: exactly a's records, as a's, then the ring */
	snprintf(path, sizeof(path), "%strace", nm.own);
	fz_read_file(path, text, OWN_READ);
	if (own_on)
		rec_own_trace(text, nm.a, &log, gone ? "after its delete" :
			      "before any delete");
	rec_never_written(text, nm.b, nm.c, "its instance's trace");

	/* then what consumes or is shared: read as far as a bound allows */
	snprintf(path, sizeof(path), "%strace", nm.scope);
	fz_read_file(path, text, SHARED_READ);
	rec_never_written(text, nm.b, nm.c, path + strlen(T));
	snprintf(path, sizeof(path), "%strace_pipe", nm.scope);
	read_pipe(path, text, SHARED_READ);
	rec_never_written(text, nm.b, nm.c, path + strlen(T));
	snprintf(path, sizeof(path), "%strace_pipe", nm.own);
	read_pipe(path, text, OWN_READ);
	rec_never_written(text, nm.b, nm.c, path + strlen(T));
	log.n = 0;
	ring_check(&ring_b, id_b, &log, nm.b);
	ring_check(&ring_c, id_c, &log, nm.c);
	ring_close(&ring_b);
	ring_close(&ring_c);

	if (fd >= 0) {
		rec_unreg(w, fd, bit);
		close(fd);
	}
	/* b, registered on bfd, goes: a delete beside records of a */
	if (bfd >= 0)
		close(bfd);
	__atomic_add_fetch(&fz->kind_ok[op->kind], op->kind == OP_READBACK || gone,
			   __ATOMIC_RELAXED);
	free(text);
}

/* ---- OP_LOSS ---- */

static int loss_get(int fd, int idx, struct user_loss *l)
{
	memset(l, 0, sizeof(*l));
	l->size = sizeof(*l);
	l->write_index = idx;
	return ioctl(fd, DIAG_IOCGLOSS, l);
}

/* A payload of len bytes (96, or 5000 with 8 KiB sub-buffers) with n */
static ssize_t loss_emit(int fd, int idx, uint32_t n, size_t len)
{
	static __thread unsigned char buf[4 + 5000];

	memcpy(buf, &idx, 4);
	memcpy(buf + 4, &n, 4);
	return write(fd, buf, 4 + len) < 0 ? -errno : (ssize_t)(4 + len);
}

static void loss_apply(struct fz_worker *w, const struct fz_op *op)
{
	static const char hist[] = "hist:keys=n:t0=common_timestamp";
	int variant = op->arg[0] % 3, fd, idx, bit = -1, i, n, fill_ok = 0, bad = 0;
	bool big = op->arg[1] & 1, remote = op->arg[3] & 1, pinned;
	char name[16], inst[64], ev[160], path[240], cmd[64], *text;
	struct user_loss l0, l1;
	struct rng r = { op->arg[2] };
	cpu_set_t old, one;
	ssize_t ret, first = 0;
	size_t len;

	snprintf(name, sizeof(name), "fz_l%d", w->id);
	snprintf(inst, sizeof(inst), T "instances/%s", name);
	snprintf(ev, sizeof(ev), "%s/events/user_events_%s/%s", inst, name, name);
	snprintf(path, sizeof(path), T "user_events_groups/%s", name);
	if (mkdir(path, 0755) && errno != EEXIST)
		return;
	rmdir(inst);
	if (mkdir(inst, 0755))
		goto out_group;
	snprintf(path, sizeof(path), "%s/buffer_subbuf_size_kb", inst);
	if (big && fz_write_file(path, "8", 1, O_TRUNC) != 1)
		big = false;
	snprintf(path, sizeof(path), "%s/buffer_size_kb", inst);
	set(path, big ? "16" : "8");
	snprintf(path, sizeof(path), "%s/options/overwrite", inst);
	set(path, "0");

	snprintf(path, sizeof(path), T "user_events_groups/%s/user_events_data", name);
	fd = open(path, O_RDWR);
	snprintf(cmd, sizeof(cmd), "%s u32 n; char[92] pad", name);
	idx = fd < 0 ? -1 : rec_reg(w, fd, cmd, remote, USER_EVENT_REG_REPORT_LOSS, &bit);
	if (idx < 0)
		goto out_fd;
	snprintf(path, sizeof(path), "%s/filter", ev);
	set(path, "n == 1");
	snprintf(path, sizeof(path), "%s/enable", ev);
	set(path, "1");

	/* on one CPU, kept records fill its buffer: then ENOSPC, counted */
	CPU_ZERO(&one);
	CPU_SET(op->arg[4] % 2, &one);
	pinned = !sched_getaffinity(0, sizeof(old), &old) &&
		 !sched_setaffinity(0, sizeof(one), &one);
	for (i = 0; i < (big ? 64 : 400); i++) {
		ret = loss_emit(fd, idx, 1, big ? 5000 : REC_PAYLOAD);
		if (ret < 0)
			break;
		fill_ok++;
	}
	if (loss_get(fd, idx, &l0)) {
		fz_report("loss", "DIAG_IOCGLOSS of %s failed: %s", name, strerror(errno));
		goto out_cpu;
	}

	if (variant) {
		snprintf(path, sizeof(path), "%s/trigger", ev);
		fz_write_file(path, hist, strlen(hist), O_APPEND);
	}
	if (variant == 2) {
		/* only the histogram consumes it: soft disabled, no filter */
		snprintf(path, sizeof(path), "%s/enable", ev);
		set(path, "0");
		snprintf(path, sizeof(path), "%s/filter", ev);
		set(path, "0");
	}
	n = 1 + below(&r, 8);
	for (i = 0; i < n; i++) {
		len = big && chance(&r, 2) ? 5000 : REC_PAYLOAD;
		ret = loss_emit(fd, idx, variant == 2 ? 1 : 2, len);
		if (ret != (ssize_t)(4 + len) && !bad++)
			first = ret;
	}
	if (loss_get(fd, idx, &l1)) {
		fz_report("loss", "DIAG_IOCGLOSS of %s failed: %s", name, strerror(errno));
		goto out_cpu;
	}
	if (l1.perf_full == l0.perf_full &&
	    (bad || l1.lost != l0.lost || l1.ring_full != l0.ring_full ||
	     l1.too_big != l0.too_big))
		fz_report("loss",
			  "%d writes %s (%s%s): %d failed (the first %zd), lost %llu -> %llu, ring full %llu -> %llu, too big %llu -> %llu",
			  n, variant == 2 ? "only a histogram consumes" :
			  "the filter rejects", big ? "8 KiB sub-buffers" : "4 KiB",
			  variant == 1 ? ", a histogram beside" : "", bad, first,
			  (unsigned long long)l0.lost, (unsigned long long)l1.lost,
			  (unsigned long long)l0.ring_full, (unsigned long long)l1.ring_full,
			  (unsigned long long)l0.too_big, (unsigned long long)l1.too_big);
	else
		__atomic_add_fetch(&fz->kind_ok[OP_LOSS], 1, __ATOMIC_RELAXED);

	/*
	 * The buffer holds no more records than kept writes succeeded (all of
	 * them, unless a single input's perf event took one it dropped), and
	 * none the filter rejected or only the histogram saw
	 */
	text = malloc(OWN_READ);
	if (text) {
		char kept[32], rejected[32];

		snprintf(kept, sizeof(kept), " %s: n=1 ", name);
		snprintf(rejected, sizeof(rejected), " %s: n=2 ", name);
		snprintf(path, sizeof(path), "%s/trace", inst);
		if (fz_read_file(path, text, OWN_READ) < OWN_READ - 1 &&
		    (count(text, kept) > fill_ok || count(text, rejected)))
			fz_report("loss",
				  "%s's trace holds %d kept and %d rejected records, %d kept writes succeeded",
				  name, count(text, kept), count(text, rejected), fill_ok);
		snprintf(path, sizeof(path), "%s/trace_pipe", inst);
		read_pipe(path, text, OWN_READ);
		free(text);
	}

out_cpu:
	if (pinned)
		sched_setaffinity(0, sizeof(old), &old);
	if (variant) {
		snprintf(path, sizeof(path), "%s/trigger", ev);
		snprintf(cmd, sizeof(cmd), "!%s", hist);
		fz_write_file(path, cmd, strlen(cmd), O_APPEND);
	}
	snprintf(path, sizeof(path), "%s/enable", ev);
	set(path, "0");
out_fd:
	if (fd >= 0) {
		if (idx >= 0)
			rec_unreg(w, fd, bit);
		close(fd);
	}
	rmdir(inst);
out_group:
	snprintf(path, sizeof(path), T "user_events_groups/%s", name);
	rmdir(path);
}

void fz_records_apply(struct fz_worker *w, const struct fz_op *op)
{
	if (op->kind == OP_LOSS)
		loss_apply(w, op);
	else
		rec_apply(w, op);
}
