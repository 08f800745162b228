// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz: a worker's state, and its operations handed to the files
 * that run them.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fz_text.h"

int fz_worker_init(struct fz_worker *w, int id)
{
	unsigned char *m = mmap(NULL, 4 * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	if (m == MAP_FAILED)
		return -1;
	memset(w, 0, sizeof(*w));
	w->id = id;
	w->unpriv = id == FZ_UNPRIV;
	w->good = m;
	w->none = m + PAGE;
	w->gone = m + 2 * PAGE;
	w->enable_page = m + 3 * PAGE;
	mprotect(w->none, PAGE, PROT_NONE);
	munmap(w->gone, PAGE);
	for (i = 0; i < FZ_DATA_FDS; i++)
		w->data[i] = open(T "user_events_data", O_RDWR);
	w->status_fd = open(T "user_events_status", O_RDONLY);
	memset(w->perf, -1, sizeof(w->perf));
	memset(w->held, -1, sizeof(w->held));
	w->ofd = -1;
	w->opf = -1;
	if (!w->unpriv)
		fz_oracle_init(w);
	return 0;
}

/* The end of a program: nothing of the worker's pins anything any more */
void fz_worker_reset(struct fz_worker *w)
{
	int i;

	mprotect(w->enable_page, PAGE, PROT_READ | PROT_WRITE);
	w->enable_state = 0;
	fz_ue_unreg_all(w);
	memset(w->enable_page, 0, PAGE);
	memset(w->en, 0, sizeof(w->en));
	for (i = 0; i < FZ_DATA_FDS; i++) {
		if (w->data[i] >= 0)
			close(w->data[i]);
		w->data[i] = open(T "user_events_data", O_RDWR);
	}
	w->nregs = 0;
	w->ntindex = 0;
	if (w->status)
		munmap(w->status, PAGE);
	w->status = NULL;
	for (i = 0; i < FZ_PERF; i++) {
		if (w->perf[i] >= 0)
			close(w->perf[i]);
		w->perf[i] = -1;
	}
	for (i = 0; i < FZ_HELD; i++) {
		if (w->held[i] >= 0)
			close(w->held[i]);
		w->held[i] = -1;
	}
}

void fz_apply(struct fz_worker *w, const struct fz_op *op)
{
	w->cur = op;
	switch (op->kind) {
	case OP_WRITE:
	case OP_MKDIR:
	case OP_RMDIR:
	case OP_READ:
	case OP_PERF:
	case OP_EXEC:
		if (!w->unpriv)
			fz_exec_apply(w, op);
		break;
	case OP_UE_OPEN:
	case OP_UE_REG:
	case OP_UE_UNREG:
	case OP_UE_DEL:
	case OP_UE_WRITE:
	case OP_UE_STATUS:
	case OP_UE_MEM:
		fz_ue_apply(w, op);
		break;
	case OP_FORK:
		fz_fork_apply(w, op);
		break;
	case OP_TEXT:
		if (!w->unpriv && fz_text_apply(w, op))
			__atomic_add_fetch(&fz->kind_ok[OP_TEXT], 1, __ATOMIC_RELAXED);
		break;
	case OP_ORACLE:
		if (!w->unpriv)
			fz_oracle_apply(w, op);
		break;
	case OP_FAULT:
		if (!w->unpriv)
			fz_fault_apply(w, op);
		break;
	case OP_PRIV:
		if (w->unpriv)
			fz_priv_apply(w, op);
		break;
	case OP_RECREATE:
	case OP_READBACK:
	case OP_LOSS:
		if (!w->unpriv)
			fz_records_apply(w, op);
		break;
	}
	w->cur = NULL;
}
