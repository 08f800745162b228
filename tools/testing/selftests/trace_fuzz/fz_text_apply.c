// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz: applying a single input (OP_TEXT) to its entry.
 *
 * Pointers handed to the kernel are NULL, a kernel address, an unmapped
 * page, a PROT_NONE page, or objects that end where such a page begins
 * (the worker's good/none/gone pages).  A fault of our own when touching
 * them is caught with a thread-local sigsetjmp().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <linux/user_events.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "fz_text.h"

__thread sigjmp_buf fz_fault_jmp;
__thread int fz_fault_armed;
/* whether the kernel took the input being applied */
static __thread bool text_ok;

static void fz_text_ok(void)
{
	text_ok = true;
}

uint64_t fz_bad_pointer(struct rng *r, struct fz_worker *w, void *valid)
{
	switch (below(r, 6)) {
	case 0:
		return 0;
	case 1:
		return 0xffffffff81000000ULL;
	case 2:
		return (uintptr_t)w->gone + below(r, PAGE);
	case 3:
		return (uintptr_t)w->none + below(r, 64);
	default:
		return (uintptr_t)valid;
	}
}

static void apply_reg(struct fz_worker *w, const struct fz_op *in)
{
	struct rng r = { in->arg[2] };
	/* The struct, sometimes ending where the PROT_NONE page begins */
	unsigned char *p = chance(&r, 4) ? w->none - 64 + below(&r, 64) : w->good;
	static const uint32_t sizes[] = { 0, 4, 8, 12, 16, 20, 24, 28, 32, 64, 4096 };
	char *name = (char *)w->good + 2048;
	uint32_t idx, size;
	uint64_t v;
	int j;

	/* the command, NUL-terminated in the good page or running into none */
	memcpy(name, in->text, in->len < 1024 ? in->len : 1024);
	name[in->len < 1024 ? in->len : 1024] = '\0';
	if (chance(&r, 6)) {
		size_t l = strnlen(name, 64);

		name = (char *)w->none - l;
		memmove(name, (char *)w->good + 2048, l);
	}
	fz_fault_armed = 1;
	if (!sigsetjmp(fz_fault_jmp, 1)) {
		for (j = 0; j < 64 && p + j < w->none; j++)
			p[j] = rnd(&r);
		v = chance(&r, 3) ? rnd(&r) : sizes[below(&r, ARRAY_SIZE(sizes))];
		memcpy(p, &v, 4);
		/* both layouts: the name at 4 or 16, an enable address at 8 */
		v = fz_bad_pointer(&r, w, name);
		if (p + 12 <= w->none)
			memcpy(p + 4, &v, 8);
		if (p + 24 <= w->none && chance(&r, 2)) {
			memcpy(p + 16, &v, 8);
			v = fz_bad_pointer(&r, w, w->good + 8 * below(&r, 64));
			memcpy(p + 8, &v, 8);
			p[4] = below(&r, 70);
			p[5] = chance(&r, 2) ? 4 : (chance(&r, 2) ? 8 : below(&r, 16));
		}
	}
	fz_fault_armed = 0;
	if (ioctl(w->data[0], chance(&r, 20) ? (unsigned long)rnd(&r) : DIAG_IOCSREG, p))
		return;
	fz_text_ok();
	if (p + 28 > w->none)
		return;
	/* both layouts keep the write index in the last four bytes */
	memcpy(&size, p, 4);
	memcpy(&idx, p + (size < 28 ? 16 : 24), 4);
	w->tindex[w->ntindex++ % 8] = idx;
	if (size >= 28 && w->ntaddr < FZ_ENABLERS) {
		/* a word the kernel now updates: unregistered at the epoch's end */
		memcpy(&w->taddr[w->ntaddr], p + 8, 8);
		w->tbit[w->ntaddr++] = p[4];
	}
}

static void apply_write(struct fz_worker *w, const struct fz_op *in)
{
	static struct iovec iov[1100];
	struct rng r = { in->arg[3] };
	unsigned char *buf = w->good + 1024;
	uint32_t idx = w->ntindex && !chance(&r, 5) ? w->tindex[below(&r, 8) % 8] :
		       (uint32_t)rnd(&r) % 64;
	uint32_t loc, len = in->len < 2048 ? in->len : 2048;
	int n, i;

	memcpy(buf, &idx, 4);
	memcpy(buf + 4, in->text, len);
	/* loc words of fz_ue at 28 and 32: sometimes plausible, often not */
	loc = (below(&r, 64) << 16) | below(&r, 80);
	memcpy(buf + 4 + 28, &loc, 4);
	loc = (below(&r, 64) << 16) | below(&r, 16);
	memcpy(buf + 4 + 32, &loc, 4);
	if (chance(&r, 3)) {
		if (write(w->data[0], buf, 4 + below(&r, len + 1)) >= 0)
			fz_text_ok();
		return;
	}
	n = chance(&r, 10) ? 1 + below(&r, 1025) : 1 + below(&r, 8);
	for (i = 0; i < n; i++) {
		size_t off = below(&r, len + 4);

		iov[i].iov_base = buf + off;
		iov[i].iov_len = below(&r, len + 4 - off + 1);
		if (chance(&r, 30))
			iov[i].iov_base = (void *)(uintptr_t)fz_bad_pointer(&r, w, buf);
		if (chance(&r, 50))
			iov[i].iov_len = (size_t)rnd(&r) >> below(&r, 64);
	}
	iov[0].iov_base = buf;
	iov[0].iov_len = 4;
	if (writev(w->data[0], iov, n) >= 0)
		fz_text_ok();
}

static void apply_mmap(struct fz_worker *w, const struct fz_op *in)
{
	struct rng r = { in->arg[4] };
	static const size_t lens[] = { 0, 1, PAGE - 1, PAGE, PAGE + 1, 2 * PAGE, 1 << 20 };
	static const int prots[] = { PROT_READ, PROT_WRITE, PROT_READ | PROT_WRITE,
				     PROT_EXEC, PROT_NONE, PROT_READ | PROT_EXEC };
	size_t len = chance(&r, 4) ? below(&r, 5 * PAGE) : lens[below(&r, ARRAY_SIZE(lens))];
	off_t off = chance(&r, 3) ? (off_t)below(&r, 3) * PAGE :
		    (chance(&r, 2) ? 0 : below(&r, 9000));
	int prot = prots[below(&r, ARRAY_SIZE(prots))];
	int flags = chance(&r, 3) ? MAP_PRIVATE : MAP_SHARED;
	unsigned char *m;
	unsigned char b;
	int i;

	if (pread(w->status_fd, &b, 1, below(&r, 3 * PAGE)) < 0)
		b = 0;
	m = mmap(NULL, len, prot, flags, w->status_fd, off);
	if (m == MAP_FAILED)
		return;
	fz_fault_armed = 1;
	if (!sigsetjmp(fz_fault_jmp, 1)) {
		/* reads the compiler may not drop: they are the test */
		for (i = 0; i < 16; i++)
			b ^= __atomic_load_n(&m[below(&r, len + 64)], __ATOMIC_RELAXED);
		if (chance(&r, 4))
			mprotect(m, len, PROT_READ | PROT_WRITE);
		if (chance(&r, 8))
			__atomic_store_n(&m[below(&r, len)], b, __ATOMIC_RELAXED);
	}
	fz_fault_armed = 0;
	munmap(m, len);
}

static void apply_perf(const struct fz_op *in)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(a),
		.config = fz_event_id(&fz_events[in->arg[1] % fz_nevents]),
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_RAW,
	};
	struct rng r = { in->arg[5] };
	int fd;

	if (chance(&r, 4))
		a.config = rnd(&r) % 4096;
	fd = syscall(SYS_perf_event_open, &a, chance(&r, 2) ? 0 : -1,
		     chance(&r, 2) ? -1 : (int)below(&r, 2), -1, 0);
	if (fd < 0)
		return;
	if (chance(&r, 2)) {
		char f[600];

		memcpy(f, in->text, in->len < 599 ? in->len : 599);
		f[in->len < 599 ? in->len : 599] = '\0';
		ioctl(fd, PERF_EVENT_IOC_SET_FILTER, f);
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	fz_text_ok();
	usleep(below(&r, 2000));
	close(fd);
}

static void event_path(char *buf, size_t n, const struct fz_event *e,
		       const char *file)
{
	snprintf(buf, n, T "events/%s/%s/%s", e->sys, e->name, file);
}

/* Returns whether the kernel took the input */
bool fz_text_apply(struct fz_worker *w, const struct fz_op *op)
{
	const struct fz_event *e = &fz_events[op->arg[1] % fz_nevents];
	char path[300], *name;

	text_ok = false;
	switch (op->arg[0]) {
	case TGT_FILTER:
		event_path(path, sizeof(path), e, "filter");
		text_ok = fz_write_file(path, op->text, op->len, O_TRUNC) >= 0;
		break;
	case TGT_SUBSYS_FILTER:
		snprintf(path, sizeof(path), T "events/%s/filter", e->sys);
		text_ok = fz_write_file(path, op->text, op->len, O_TRUNC) >= 0;
		break;
	case TGT_TRIGGER:
		/*
		 * Now and then truncating: every trigger of the event goes,
		 * histograms with their variables and actions included.
		 */
		event_path(path, sizeof(path), e, "trigger");
		text_ok = fz_write_file(path, op->text, op->len,
					op->arg[2] % 8 ? O_APPEND : O_TRUNC) >= 0;
		break;
	case TGT_EVENT_PID:
		text_ok = fz_write_file(T "set_event_pid", op->text, op->len,
					op->arg[2] & 1 ? O_APPEND : O_TRUNC) >= 0;
		break;
	case TGT_DYNEVENT:
		text_ok = fz_write_file(T "dynamic_events", op->text, op->len,
					O_APPEND) >= 0;
		break;
	case TGT_SYNTH:
		text_ok = fz_write_file(T "synthetic_events", op->text, op->len,
					O_APPEND) >= 0;
		break;
	case TGT_UE_REG:
		apply_reg(w, op);
		break;
	case TGT_UE_DEL:
		name = (char *)w->good + 3072;
		memcpy(name, op->text, op->len < 900 ? op->len : 900);
		name[op->len < 900 ? op->len : 900] = '\0';
		text_ok = !ioctl(w->data[0], DIAG_IOCSDEL, op->arg[2] % 5 ? name :
				 (char *)(uintptr_t)fz_bad_pointer(&(struct rng){ op->arg[2] },
								   w, name));
		break;
	case TGT_UE_WRITE:
		apply_write(w, op);
		break;
	case TGT_UE_MMAP:
		apply_mmap(w, op);
		break;
	case TGT_PERF:
		apply_perf(op);
		break;
	}
	return text_ok;
}
