// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz: user_events as programs use them.
 *
 * A worker registers the definitions of fz_model.c on one of its two
 * data fds, with the status-page layout (a bit of the shared page it
 * maps) or the remote-write one (a word of its enabler page, one slot of
 * eight bytes each); writes payloads built from the fields it declared,
 * to events that the root workers enable, attach perf to and hang
 * histograms on; unregisters its words (DIAG_IOCSUNREG), deletes events,
 * closes fds with events pinned; takes its enabler page away under the
 * kernel (madvise(MADV_DONTNEED), mprotect), and forks children that
 * hold all of it: they read the status page, write through the fds they
 * inherit, unregister or unmap their copies of the words, register new
 * ones, exec, and exit.  A child killed by a signal, or that does not
 * end, is a report; so is an enabler the kernel forgot, and a persistent
 * registration it granted the unprivileged worker.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/user_events.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#include "trace_fuzz.h"

#define PERSIST_FLAG 1		/* USER_EVENT_REG_PERSIST */

static unsigned char *enabler_addr(struct fz_worker *w, int slot)
{
	return w->enable_page + 8 * (slot % FZ_ENABLERS);
}

/*
 * A payload of definition def (the write index not included): numbers,
 * char[N] strings (NUL-terminated within N, or now and then not), loc
 * words pointing at strings after the fixed part.  The loc offsets are
 * of the record, whose 8-byte header comes before the payload.  With
 * valid false, one loc word points where it must not.
 */
int fz_ue_payload(struct rng *r, int def, unsigned char *buf, size_t cap,
		  bool valid)
{
	const struct fz_field *f;
	unsigned int fixed = 0, dyn, off, len, i, j;
	int nf, bad = valid ? -1 : (int)below(r, FZ_MAX_FIELDS);
	uint32_t loc;
	uint64_t v;

	f = fz_ue_fields(def, &nf);
	for (i = 0; i < (unsigned int)nf; i++)
		fixed += f[i].size ? f[i].size : 4;
	dyn = fixed;
	if (dyn + 64 * nf > cap)
		return 0;
	for (i = 0, off = 0; i < (unsigned int)nf; off += f[i].size ? f[i].size : 4, i++) {
		if (!f[i].size) {
			/* a loc word and its string, after the fixed part */
			len = 1 + below(r, 40);
			for (j = 0; j + 1 < len; j++)
				buf[dyn + j] = 'a' + below(r, 26);
			buf[dyn + len - 1] = '\0';
			if (!strncmp(f[i].type, "__rel_loc", 9))
				loc = (len << 16) | (dyn - off - 4);
			else
				loc = (len << 16) | (8 + dyn);
			if ((int)i == bad)
				loc = (below(r, 64) << 16) | below(r, 80);
			memcpy(buf + off, &loc, 4);
			dyn += len;
		} else if (f[i].str) {
			for (j = 0; j < f[i].size; j++)
				buf[off + j] = 'a' + below(r, 26);
			if (!chance(r, 8))
				buf[off + below(r, f[i].size)] = '\0';
		} else {
			v = chance(r, 4) ? below(r, 4) : rnd(r);
			memcpy(buf + off, &v, f[i].size);
		}
	}
	return dyn;
}

static void ue_open(struct fz_worker *w, const struct fz_op *op)
{
	int slot = op->arg[0] % FZ_DATA_FDS, i;
	char path[128];

	if (w->data[slot] >= 0)
		close(w->data[slot]);
	w->data[slot] = -1;
	/* One open in four is of a group's file, when the group exists */
	if (op->arg[2] < 4) {
		snprintf(path, sizeof(path),
			 T "user_events_groups/fz_g%u/user_events_data",
			 (unsigned int)(op->arg[2] % FZ_UE_GROUPS));
		w->data[slot] = open(path, O_RDWR);
	}
	if (w->data[slot] < 0)
		w->data[slot] = open(T "user_events_data", O_RDWR);
	/* the registrations on the old fd went with it */
	for (i = 0; i < w->nregs; i++)
		if (w->regs[i].fd == slot)
			w->regs[i--] = w->regs[--w->nregs];
}

static void ue_note(struct fz_worker *w, struct fz_reg *reg)
{
	int k = w->nregs < FZ_REGS ? w->nregs++ : (int)(reg->index % FZ_REGS);

	w->regs[k] = *reg;
}

static bool ue_reg(struct fz_worker *w, const struct fz_op *op)
{
	int def = op->arg[0] % fz_n_ue_defs, slot = op->arg[4] % FZ_ENABLERS;
	int fd = w->data[op->arg[1] % FZ_DATA_FDS];
	struct fz_reg reg = { .def = def, .fd = op->arg[1] % FZ_DATA_FDS,
			      .loss = !!(op->arg[3] & USER_EVENT_REG_REPORT_LOSS) };
	char cmd[300];
	int ret;

	snprintf(cmd, sizeof(cmd), "%s %s", fz_ue_defs[def].name,
		 fz_ue_defs[def].body);
	if (!op->arg[2]) {
		struct user_status_reg_flags r = {
			.size = sizeof(r),
			.name_args = (uintptr_t)cmd,
			.flags = op->arg[3] & USER_EVENT_REG_REPORT_LOSS,
		};

		if (ioctl(fd, DIAG_IOCSREG, &r))
			return false;
		reg.index = r.write_index;
		reg.bit = r.status_bit;
		reg.enabler = -1;
	} else {
		struct user_reg r = {
			.size = sizeof(r),
			.enable_size = (op->arg[5] >> 8) & 1 ? 8 : 4,
			.flags = op->arg[3],
			.enable_addr = (uintptr_t)enabler_addr(w, slot),
			.name_args = (uintptr_t)cmd,
		};

		r.enable_bit = op->arg[5] % (r.enable_size * 8);
		ret = ioctl(fd, DIAG_IOCSREG, &r);
		if (w->unpriv && !ret && (op->arg[3] & PERSIST_FLAG))
			fz_report("privilege",
				  "the unprivileged worker registered %s with %s",
				  fz_ue_defs[def].name, "USER_EVENT_REG_PERSIST");
		if (ret)
			return false;
		reg.index = r.write_index;
		reg.enabler = slot;
		w->en[slot].mask |= 1ULL << r.enable_bit;
		w->en[slot].bit = r.enable_bit;
		w->en[slot].def = def;
	}
	ue_note(w, &reg);
	return true;
}

/*
 * DIAG_IOCSUNREG of a word through any file that can take it: the
 * kernel removes a word only through a user_events_data of its event's
 * group, and the worker's fds may since be of other groups (OP_UE_OPEN).
 * Its fds first but tried (an fd that already refused it, or -1), then
 * the default group's file and every group's.  Whether one took it.
 */
static bool ue_unreg_word(struct fz_worker *w, uint64_t addr, int bit,
			  int tried)
{
	struct user_unreg u = {
		.size = sizeof(u),
		.disable_bit = bit,
		.disable_addr = addr,
	};
	char path[128];
	int i, fd, ret;

	for (i = 0; i < FZ_DATA_FDS; i++)
		if (w->data[i] >= 0 && w->data[i] != tried &&
		    !ioctl(w->data[i], DIAG_IOCSUNREG, &u))
			return true;
	for (i = -1; i < FZ_UE_GROUPS; i++) {
		if (i < 0)
			snprintf(path, sizeof(path), T "user_events_data");
		else
			snprintf(path, sizeof(path),
				 T "user_events_groups/fz_g%d/user_events_data", i);
		fd = open(path, O_RDWR);
		if (fd < 0)
			continue;
		ret = ioctl(fd, DIAG_IOCSUNREG, &u);
		close(fd);
		if (!ret)
			return true;
	}
	return false;
}

/*
 * DIAG_IOCSUNREG of a word of slot arg0: one of the bits registered
 * there, or (variants 1-3) with a wrong bit, a reserved byte set, a short
 * size, which must be refused.  A word the kernel was given and that it
 * no longer knows is a report.
 */
static bool ue_unreg(struct fz_worker *w, const struct fz_op *op)
{
	int slot = op->arg[0] % FZ_ENABLERS, variant = op->arg[2] % 8, i;
	struct fz_enabler *e = &w->en[slot];
	struct user_unreg u = {
		.size = sizeof(u),
		.disable_addr = (uintptr_t)enabler_addr(w, slot),
	};
	int fd = w->data[0] >= 0 ? w->data[0] : w->data[1];

	for (i = 0; i < 64 && !(e->mask & (1ULL << i)); i++)
		;
	u.disable_bit = i < 64 ? i : e->bit;
	if (variant == 1)
		u.disable_bit ^= 1;
	else if (variant == 2)
		u.__reserved = 1;
	else if (variant == 3)
		u.size = 8;
	if (ioctl(fd, DIAG_IOCSUNREG, &u)) {
		/* ENOENT: a word of another group's event, or a lost one */
		if (variant <= 3 || i == 64 || fd < 0 || errno != ENOENT)
			return false;
		if (!ue_unreg_word(w, u.disable_addr, i, fd)) {
			fz_report("enabler",
				  "DIAG_IOCSUNREG did not find its word (%s, bit %d)",
				  fz_ue_defs[e->def].name, i);
			return false;
		}
	}
	if (variant <= 3 && variant)
		fz_report("enabler", "DIAG_IOCSUNREG took a malformed request (variant %d)",
			  variant);
	if (i < 64)
		e->mask &= ~(1ULL << i);
	if (!e->mask) {
		for (i = 0; i < w->nregs; i++)
			if (w->regs[i].enabler == slot)
				w->regs[i].enabler = -1;
	}
	return true;
}

/* Every word the worker registered, unregistered (the epoch's end) */
void fz_ue_unreg_all(struct fz_worker *w)
{
	int slot, i;

	for (slot = 0; slot < FZ_ENABLERS; slot++) {
		for (i = 0; i < 64 && w->en[slot].mask; i++) {
			if (!(w->en[slot].mask & (1ULL << i)))
				continue;
			ue_unreg_word(w, (uintptr_t)enabler_addr(w, slot), i, -1);
			w->en[slot].mask &= ~(1ULL << i);
		}
	}
	for (i = 0; i < w->ntaddr; i++)
		ue_unreg_word(w, w->taddr[i], w->tbit[i], -1);
	w->ntaddr = 0;
}

/*
 * The loss counts of a registration that asked for them: a write lost
 * for two causes counts once in all and under each cause.
 */
static void ue_loss_check(struct fz_worker *w, const struct fz_reg *reg)
{
	struct user_loss l = { .size = sizeof(l), .write_index = reg->index };
	uint64_t most;

	if (ioctl(w->data[reg->fd], DIAG_IOCGLOSS, &l)) {
		fz_report("loss", "DIAG_IOCGLOSS failed: %s", strerror(errno));
		return;
	}
	most = l.ring_full > l.perf_full ? l.ring_full : l.perf_full;
	most = most > l.too_big ? most : l.too_big;
	if (l.lost < most || l.lost > l.ring_full + l.perf_full + l.too_big)
		fz_report("loss", "counts that do not add up: %llu lost, %llu %llu %llu",
			  (unsigned long long)l.lost,
			  (unsigned long long)l.ring_full,
			  (unsigned long long)l.perf_full,
			  (unsigned long long)l.too_big);
}

static bool ue_write(struct fz_worker *w, const struct fz_op *op)
{
	struct rng r = { op->arg[1] };
	unsigned char buf[1024];
	struct iovec iov[8];
	struct fz_reg *reg;
	int mode = op->arg[2] % 16, len, n, i, fd, k, pos;
	uint32_t idx;

	if (!w->nregs) {
		idx = below(&r, 8);
		fd = w->data[0];
		len = fz_ue_payload(&r, 0, buf + 4, sizeof(buf) - 4, true);
	} else {
		reg = &w->regs[op->arg[0] % w->nregs];
		idx = reg->index;
		fd = w->data[reg->fd];
		len = fz_ue_payload(&r, reg->def, buf + 4, sizeof(buf) - 4,
				    mode != 15);
		if (reg->loss && mode == 13)
			ue_loss_check(w, reg);
	}
	memcpy(buf, &idx, 4);
	if (mode < 10)
		return write(fd, buf, 4 + len) >= 0;
	/* in pieces, now and then one that points nowhere */
	n = 2 + below(&r, 6);
	iov[0] = (struct iovec){ buf, 4 };
	for (i = 1, pos = 0; i < n; i++) {
		k = i + 1 < n ? below(&r, len - pos + 1) : len - pos;
		iov[i] = (struct iovec){ buf + 4 + pos, k };
		pos += k;
	}
	if (mode == 14)
		iov[n - 1].iov_base = w->none;
	return writev(fd, iov, n) >= 0;
}

static bool ue_status(struct fz_worker *w, const struct fz_op *op)
{
	unsigned char b = 0;
	int i;

	switch (op->arg[0] % 4) {
	case 0:
		if (!w->status) {
			void *m = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, w->status_fd, 0);

			w->status = m == MAP_FAILED ? NULL : m;
		}
		return w->status;
	case 1:
		if (w->status)
			munmap(w->status, PAGE);
		w->status = NULL;
		return true;
	default:
		if (!w->status)
			return false;
		for (i = 0; i < w->nregs; i++)
			b ^= __atomic_load_n(&w->status[(w->regs[i].bit / 8) % PAGE],
					     __ATOMIC_RELAXED);
		return true;
	}
}

/*
 * The enabler page under the kernel: its pages dropped (the next
 * update finds a zero page, or faults one in), made read-only or
 * inaccessible (updates go pending, then give up), and made writable
 * again.  munmap only in children (fz_child_mem()): in this process
 * another mapping could take the hole and get the kernel's bits.
 */
static bool ue_mem(struct fz_worker *w, const struct fz_op *op)
{
	switch (op->arg[0] % 4) {
	case 0:
		return !madvise(w->enable_page, PAGE, MADV_DONTNEED);
	case 1:
		w->enable_state = 1;
		return !mprotect(w->enable_page, PAGE, PROT_READ);
	case 2:
		w->enable_state = 2;
		return !mprotect(w->enable_page, PAGE, PROT_NONE);
	default:
		w->enable_state = 0;
		return !mprotect(w->enable_page, PAGE, PROT_READ | PROT_WRITE);
	}
}

/* ---- forked children ---- */

static void child_mem(struct fz_worker *w, struct rng *r)
{
	switch (below(r, 4)) {
	case 0:
		munmap(w->enable_page, PAGE);
		break;
	case 1:
		madvise(w->enable_page, PAGE, MADV_DONTNEED);
		break;
	case 2:
		mprotect(w->enable_page, PAGE, PROT_NONE);
		break;
	}
}

/*
 * The child's program: async-signal-safe calls only (it was forked from
 * a threaded process), stack buffers, _exit().  The status page it maps
 * (its parent's, copied) must be readable: reading it is the first thing
 * it does.
 */
static void child_run(struct fz_worker *w, const struct fz_op *op)
{
	struct rng r = { op->arg[1] };
	unsigned int plan = op->arg[0];
	unsigned char b = 0;
	unsigned char buf[1024];
	int i, n, len;

	if (w->status) {
		for (i = 0; i < w->nregs; i++)
			b ^= __atomic_load_n(&w->status[(w->regs[i].bit / 8) % PAGE],
					     __ATOMIC_RELAXED);
		b ^= __atomic_load_n(&w->status[below(&r, PAGE)],
				     __ATOMIC_RELAXED);
	}
	for (n = below(&r, 4); n && w->nregs; n--) {
		struct fz_reg *reg = &w->regs[below(&r, w->nregs)];

		memcpy(buf, &reg->index, 4);
		len = fz_ue_payload(&r, reg->def, buf + 4, sizeof(buf) - 4, true);
		if (write(w->data[reg->fd], buf, 4 + len) < 0)
			b ^= 1;
	}
	if (plan & 1) {
		for (i = 0; i < FZ_ENABLERS; i++) {
			struct user_unreg u = {
				.size = sizeof(u),
				.disable_bit = w->en[i].bit,
				.disable_addr = (uintptr_t)enabler_addr(w, i),
			};

			if (w->en[i].mask & (1ULL << w->en[i].bit) && chance(&r, 2))
				ioctl(w->data[0], DIAG_IOCSUNREG, &u);
		}
	}
	if (plan & 2)
		child_mem(w, &r);
	if (plan & 4) {
		/* a word of the child's own, left for exit to take down */
		struct user_reg reg = {
			.size = sizeof(reg),
			.enable_size = 4,
			.enable_bit = below(&r, 32),
			.enable_addr = (uintptr_t)enabler_addr(w, below(&r, FZ_ENABLERS)),
			.name_args = (uintptr_t)"fz_u1 u64 x; u64 y",
		};

		if (!(plan & 2))
			ioctl(w->data[0], DIAG_IOCSREG, &reg);
	}
	if (plan & 8) {
		char fd[16], idx[16];

		if (!w->nregs)
			_exit(0);
		snprintf(fd, sizeof(fd), "%d", w->data[w->regs[0].fd]);
		snprintf(idx, sizeof(idx), "%u", w->regs[0].index);
		execl(fz_self, "fz_exec", "-E", fd, idx, "0", "1", (char *)NULL);
		_exit(127);
	}
	_exit(b == 0xff ? 1 : 0);
}

void fz_fork_apply(struct fz_worker *w, const struct fz_op *op)
{
	char what[64];
	pid_t pid;

	snprintf(what, sizeof(what), "fork%s%s%s",
		 w->status ? ", status page mapped" : "",
		 w->nregs ? ", registrations" : "",
		 op->arg[0] & 8 ? ", exec" : "");
	pid = fork();
	if (pid < 0)
		return;
	if (!pid)
		child_run(w, op);
	if (!fz_wait_child(pid, what))
		__atomic_add_fetch(&fz->kind_ok[OP_FORK], 1, __ATOMIC_RELAXED);
}

/*
 * -E FD INDEX DEF SEED: the exec'ed program.  It writes one payload of
 * definition DEF (-1: none) through the fd it inherited and exits.
 */
void fz_child_main(int argc, char **argv)
{
	unsigned char buf[1024];
	struct rng r;
	uint32_t idx;
	int fd, def, len;

	if (argc < 6)
		_exit(0);
	fd = atoi(argv[2]);
	idx = strtoul(argv[3], NULL, 0);
	def = atoi(argv[4]);
	r.s = strtoull(argv[5], NULL, 0);
	if (fd < 0 || def < 0 || def >= fz_n_ue_defs)
		_exit(0);
	memcpy(buf, &idx, 4);
	len = fz_ue_payload(&r, def, buf + 4, sizeof(buf) - 4, true);
	if (write(fd, buf, 4 + len) < 0)
		_exit(0);
	_exit(0);
}

void fz_ue_apply(struct fz_worker *w, const struct fz_op *op)
{
	bool ok = false;

	switch (op->kind) {
	case OP_UE_OPEN:
		ue_open(w, op);
		ok = true;
		break;
	case OP_UE_REG:
		ok = ue_reg(w, op);
		break;
	case OP_UE_UNREG:
		ok = ue_unreg(w, op);
		break;
	case OP_UE_DEL:
		ok = !ioctl(w->data[0], DIAG_IOCSDEL, op->text);
		break;
	case OP_UE_WRITE:
		ok = ue_write(w, op);
		break;
	case OP_UE_STATUS:
		ok = ue_status(w, op);
		break;
	case OP_UE_MEM:
		ok = ue_mem(w, op);
		break;
	}
	__atomic_add_fetch(&fz->kind_ok[op->kind], ok, __ATOMIC_RELAXED);
}
