/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_fuzz: the single-input grammars (fz_text.c) and their
 * application (fz_text_apply.c), shared with the program generator.
 */
#ifndef FZ_TEXT_H
#define FZ_TEXT_H

#include <setjmp.h>

#include "trace_fuzz.h"

/* The entries a single input can go to (OP_TEXT's arg[0]) */
enum text_target {
	TGT_FILTER,		/* events/<sys>/<event>/filter */
	TGT_SUBSYS_FILTER,	/* events/<sys>/filter */
	TGT_TRIGGER,		/* events/<sys>/<event>/trigger */
	TGT_EVENT_PID,		/* set_event_pid */
	TGT_DYNEVENT,		/* dynamic_events */
	TGT_SYNTH,		/* synthetic_events */
	TGT_UE_REG,		/* DIAG_IOCSREG on user_events_data */
	TGT_UE_DEL,		/* DIAG_IOCSDEL */
	TGT_UE_WRITE,		/* write()/writev() of user_events_data */
	TGT_UE_MMAP,		/* mmap() and reads of user_events_status */
	TGT_PERF,		/* perf_event_open() of a tracepoint */
	TGT_COUNT
};

extern const char *const text_target_name[TGT_COUNT];

void add_number(struct rng *r, struct text *t);
const char *field_of(struct rng *r, struct fz_event *e, int *is_string);
void gen_filter(struct rng *r, struct fz_event *e, struct text *t);

/* fz_text_apply.c */
bool fz_text_apply(struct fz_worker *w, const struct fz_op *op);
uint64_t fz_bad_pointer(struct rng *r, struct fz_worker *w, void *valid);
/* a fault of ours while the kernel's pointers are touched */
extern __thread sigjmp_buf fz_fault_jmp;
extern __thread int fz_fault_armed;

#endif /* FZ_TEXT_H */
