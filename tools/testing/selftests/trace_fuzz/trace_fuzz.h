/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace_fuzz: internal interfaces.
 *
 * A run is a series of epochs.  In each, every worker (root threads of
 * this process, and one unprivileged process) runs a program: a list of
 * operations on the shared tracing state, generated from (seed, epoch)
 * alone.  At the end of an epoch the workers meet, the coordinator
 * takes down everything the programs made and checks that nothing is
 * left; the next epoch starts from a clean tracefs.
 *
 * Files, by role, in layers from the top down.  A file calls only into
 * layers below its own: nothing calls up (main hands the watchdog its
 * summary as a function pointer), so each layer can be read, and
 * changed, knowing only those under it.
 *
 *   7  fz_main.c        options, setup, epochs and workers, summary, main()
 *   6  fz_worker.c      a worker's state; each operation to the file for it
 *   5  fz_ue.c          user_events: registrations, writes, enablers, fork
 *      fz_oracle.c      writes whose outcome the ABI predicts exactly
 *      fz_records.c     records of deleted events, hostile records read
 *                       back, loss counts: exact outcomes too
 *      fz_text_apply.c  single inputs, applied to their entries
 *   4  fz_exec.c        operations on tracefs files, perf, exec; also
 *                       fz_event_id() and fz_wait_child() for layer 5
 *      fz_priv.c        the unprivileged worker and what it must not reach
 *      fz_fault.c       fault injection on creation paths, and its checks
 *      fz_world.c       an epoch's world: made, taken down, checked empty
 *   3  fz_report.c      the kernel log, reports, the watchdog
 *      fz_gen.c         programs: operations generated from (seed, epoch)
 *   2  fz_seq.c         programs as data: described, saved, loaded, kept
 *      fz_text.c        single-input grammars and their mutations (fz_text.h)
 *      fz_model.c       what the programs aim at: events, fields, definitions
 *   1  trace_fuzz.c     the shared state and options, the clock, whole-file
 *                       reads and writes: with this header, which every
 *                       file includes, the ground
 *
 * Concurrency: root workers are threads; the unprivileged worker is a
 * forked process.  What they share (counters, the epoch barrier, the
 * watchdog's view of each worker) lives in one MAP_SHARED region,
 * struct fz_shared, updated with atomics.  Each worker's own state
 * (struct fz_worker) is touched only by the thread or process that
 * runs it, except in a serial replay, where one thread runs every
 * root worker's operations in turn.
 */
#ifndef TRACE_FUZZ_H
#define TRACE_FUZZ_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "../kselftest.h"

#ifndef fallthrough
#define fallthrough __attribute__((__fallthrough__))
#endif

#define T "/sys/kernel/tracing/"
#define PAGE 4096

/* Most bytes of an operation's text (single inputs nest deep) */
#define FZ_TEXT_MAX 8192
/* Most bytes of the path an operation names, from the tracefs root */
#define FZ_PATH_MAX 128
/* Root worker threads at most; the unprivileged worker comes after */
#define FZ_MAX_WORKERS 8
/* Operations of one worker in one epoch, at most */
#define FZ_MAX_STEPS 256
/* Kept fds, perf events, registrations and enablers of a worker */
#define FZ_HELD 6
#define FZ_PERF 4
#define FZ_REGS 16
#define FZ_ENABLERS 32
#define FZ_DATA_FDS 2

/* ---- random numbers: splitmix64 ---- */

struct rng {
	uint64_t s;
};

static inline uint64_t rnd(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline unsigned int below(struct rng *r, unsigned int n)
{
	return n ? rnd(r) % n : 0;
}

static inline int chance(struct rng *r, unsigned int one_in)
{
	return below(r, one_in) == 0;
}

static inline const char *pick(struct rng *r, const char *const *a, size_t n)
{
	return a[below(r, n)];
}

/* ---- building text (fz_text.c) ---- */

struct text {
	char *buf;
	size_t len, cap;
};

void add(struct text *t, const char *fmt, ...)
	__printf(2, 3);

/* ---- what programs aim at (fz_model.c) ---- */

/* A field of an event, as the generators know it without a kernel */
struct fz_field {
	const char *name;
	const char *type;	/* as a hist trace() parameter must fit */
	uint8_t size;		/* bytes, 0 for a dynamic string */
	bool str;		/* a string: char[N] or a loc of char */
	bool sig;		/* a signed integer */
};

#define FZ_MAX_FIELDS 8

/* An event the programs trigger, filter, enable, read and feed */
struct fz_event {
	const char *sys, *name;
	int kind;		/* enum fz_event_kind */
	int def;		/* index in its kind's definition table */
	int nf;
	struct fz_field f[FZ_MAX_FIELDS];
};

enum fz_event_kind {
	FZ_EV_BASE,		/* an event of the base kernel */
	FZ_EV_USER,		/* a user event a program registers */
	FZ_EV_SYNTH,		/* a synthetic event a program defines */
	FZ_EV_EPROBE,		/* an eprobe a program defines */
};

/* A definition a program may write (user, synthetic, eprobe) */
struct fz_def {
	const char *name;	/* event name */
	const char *body;	/* fields, as the command takes them */
};

extern struct fz_event fz_events[];
extern const int fz_nevents;
extern const struct fz_def fz_ue_defs[], fz_synth_defs[], fz_eprobe_defs[];
extern const int fz_n_ue_defs, fz_n_synth_defs, fz_n_eprobe_defs;
/* user event names only root creates, always persistent */
bool fz_persistent_name(const char *name);
const struct fz_field *fz_ue_fields(int def, int *nf);
const struct fz_field *fz_synth_fields(int def, int *nf);
int fz_event_by_name(const char *sys, const char *name);
void fz_model_init(void);

/* An event of fz_records.c: its fields, and their kinds, a letter each */
struct fz_rec_def {
	const char *body;
	const char *kinds;
};

extern const struct fz_rec_def fz_rec_old_defs[], fz_rec_new_defs[];
extern const int fz_n_rec_old_defs, fz_n_rec_new_defs;
extern const char *const fz_rec_synth_defs[];

/* Instances the programs make ("instances/fz_i<n>") */
#define FZ_INSTANCES 2
/* user_events groups they make ("user_events_groups/fz_g<n>") */
#define FZ_UE_GROUPS 2

/* ---- operations ---- */

enum fz_kind {
	OP_NOP,
	OP_WRITE,	/* text to path; arg0: 1 truncates; arg1: role */
	OP_MKDIR,	/* path */
	OP_RMDIR,	/* path */
	OP_READ,	/* path; arg0: how (now, keep in slot, read slot) */
	OP_PERF,	/* path of the event folder; arg0: open/close slot */
	OP_EXEC,	/* fork and exec a program; arg0: how */
	OP_UE_OPEN,	/* reopen data fd arg0 */
	OP_UE_REG,	/* register definition arg0 on fd arg1; arg2: layout */
	OP_UE_UNREG,	/* DIAG_IOCSUNREG of enabler arg0 */
	OP_UE_DEL,	/* DIAG_IOCSDEL of text (a name) */
	OP_UE_WRITE,	/* a payload for registration arg0 */
	OP_UE_STATUS,	/* map, read or unmap the status page */
	OP_UE_MEM,	/* munmap, madvise or mprotect the enabler page */
	OP_FORK,	/* fork a child holding fds, mappings, enablers */
	OP_TEXT,	/* a single input of the old grammars (fz_text.c) */
	OP_ORACLE,	/* a write whose outcome the ABI predicts */
	OP_FAULT,	/* a creation with fail-nth arg0, then checked */
	OP_PRIV,	/* something the unprivileged worker must not do */
	OP_RECREATE,	/* an event deleted with records left, others made */
	OP_READBACK,	/* hostile records read back by trace, pipe, perf */
	OP_LOSS,	/* writes a filter rejects, with loss counts */
	OP_KINDS
};

/* Roles of OP_WRITE, for the summary */
enum fz_role {
	ROLE_HIST, ROLE_TRIGGER, ROLE_FILTER, ROLE_ENABLE, ROLE_SYNTH,
	ROLE_DYNEVENT, ROLE_MARKER, ROLE_MISC, ROLE_COUNT
};

/* One operation of a program, as generated, saved and replayed */
struct fz_op {
	uint16_t kind;		/* enum fz_kind */
	uint8_t worker;		/* runs it: root worker, or FZ_UNPRIV */
	uint8_t step;		/* its place in the worker's program */
	uint32_t len;		/* bytes of text, NUL not counted */
	uint64_t arg[6];	/* numbers, by kind */
	char path[FZ_PATH_MAX];	/* from the tracefs root, by kind */
	char text[FZ_TEXT_MAX];
};

/* The worker number of the unprivileged process in an op */
#define FZ_UNPRIV 0xff

/* A program of every worker for one epoch */
struct fz_epoch {
	uint64_t seed;
	uint32_t epoch;
	int n_workers;		/* root workers; the unprivileged comes on top */
	int steps;		/* per worker */
	int n_ops;		/* in ops, step-major: step 0 of each, ... */
	struct fz_op *ops;
};

/* fz_gen.c */
int fz_gen_epoch(struct fz_epoch *ep, uint64_t seed, uint32_t epoch,
		 int n_workers, int steps);

/* fz_text.c: a single input of the grammars, for entry arg0 */
void fz_text_gen(struct rng *r, struct fz_op *op);

/* ---- workers ---- */

/* A registration a worker made */
struct fz_reg {
	int def;		/* fz_ue_defs index */
	int fd;			/* data fd slot */
	uint32_t index;		/* write index on that fd */
	uint32_t bit;		/* status bit (status layout), else 0 */
	int enabler;		/* enabler slot, or -1 */
	int loss;		/* registered with USER_EVENT_REG_REPORT_LOSS */
};

/* A remote-write word a worker handed to the kernel */
struct fz_enabler {
	uint64_t mask;		/* bits registered and not unregistered */
	uint8_t bit;		/* the last one registered */
	int def;
};

struct fz_worker {
	int id;			/* 0..n-1, or FZ_UNPRIV */
	bool unpriv;
	int data[FZ_DATA_FDS];	/* user_events_data fds */
	struct fz_reg regs[FZ_REGS];
	int nregs;
	unsigned char *enable_page;	/* the words, one page */
	int enable_state;	/* 0 mapped rw, 1 read-only, 2 none, 3 unmapped */
	struct fz_enabler en[FZ_ENABLERS];
	unsigned char *status;	/* the status page, or NULL */
	int perf[FZ_PERF];
	int held[FZ_HELD];	/* event files kept open across operations */
	/* pages for bad pointers: writable, then PROT_NONE, then unmapped */
	unsigned char *good, *none, *gone;
	int status_fd;		/* user_events_status, for mmap */
	/* single inputs: write indexes they got, words they registered */
	uint32_t tindex[8];
	int ntindex;
	uint64_t taddr[FZ_ENABLERS];
	uint8_t tbit[FZ_ENABLERS];
	int ntaddr;
	int ofd, opf;		/* the oracle's fd and perf event */
	/* the word of fz_records.c's remote-write registrations */
	uint64_t rec_word;
	uint32_t oidx;		/* its write index */
	int dyn_fd;		/* unprivileged: dynamic_events, opened as root */
	int root_data;		/* unprivileged: user_events_data, opened as root */
	const struct fz_op *cur;	/* the operation it runs */
};

/* fz_worker.c */
int fz_worker_init(struct fz_worker *w, int id);
void fz_worker_reset(struct fz_worker *w);
void fz_apply(struct fz_worker *w, const struct fz_op *op);

/* ---- shared state ---- */

/* What the watchdog sees of a worker */
struct fz_slot {
	uint64_t start_ns;	/* CLOCK_MONOTONIC at the op's start, 0 idle */
	int32_t tid;		/* thread or process running it */
	uint32_t epoch;
	uint16_t kind;
	uint8_t step;
	char what[120];		/* description of the op */
};

#define FZ_SLOTS (FZ_MAX_WORKERS + 2)
#define FZ_SLOT_UNPRIV FZ_MAX_WORKERS
#define FZ_SLOT_COORD (FZ_MAX_WORKERS + 1)

struct fz_shared {
	pthread_barrier_t start, done;	/* process-shared epoch barriers */
	pthread_mutex_t lock;		/* reports (process-shared) */
	pthread_mutex_t kmsg_lock;	/* /dev/kmsg reads */
	uint32_t epoch;			/* the one running */
	int quit;			/* stop: at once in programs, then the run */
	int finished;			/* no more epochs: workers end */
	int want_save;			/* the unprivileged worker reported */
	unsigned long n_ops, n_reports;
	unsigned long kind_count[OP_KINDS], kind_ns[OP_KINDS];
	unsigned long kind_ok[OP_KINDS];
	unsigned long role_count[ROLE_COUNT], role_ok[ROLE_COUNT];
	unsigned long faults_injected, children, privs_refused;
	/* writes begun to a filter file of a system or of all events */
	unsigned long wide_filter_writes;
	unsigned int saved_epoch;	/* last epoch saved + 1 */
	struct fz_slot slot[FZ_SLOTS];
	/* serial replay: ops handed to the unprivileged process */
	int mbox_state;			/* 0 empty, 1 posted, 2 done */
	struct fz_op mbox;
};

/* trace_fuzz.c */
extern struct fz_shared *fz;
extern struct fz_epoch fz_cur;		/* the epoch running (root side) */
extern int fz_n_workers;
extern int fz_stop_at_report;
/* every epoch starts with the set piece of two CPUs on one map (-c) */
extern int fz_contention;
extern unsigned int fz_bound_s;		/* watchdog bound per operation */
extern const char *fz_self;		/* our executable, for exec */
extern const char *fz_out_dir;
extern bool fz_is_root;			/* this process holds fz_cur */
extern pid_t fz_unpriv_pid;
extern int fz_kmemleak_every;		/* -m: a scan every that many epochs */

uint64_t fz_now_ns(void);
int fz_write_file(const char *path, const void *data, size_t len, int flags);
int fz_read_file(const char *path, char *buf, size_t n);
int fz_read_file_flags(const char *path, char *buf, size_t n, int flags);

/* fz_ue.c */
void fz_ue_apply(struct fz_worker *w, const struct fz_op *op);
void fz_fork_apply(struct fz_worker *w, const struct fz_op *op);
void fz_ue_unreg_all(struct fz_worker *w);
int fz_ue_payload(struct rng *r, int def, unsigned char *buf, size_t cap,
		  bool valid);
void fz_child_main(int argc, char **argv);

/* fz_oracle.c */
void fz_oracle_apply(struct fz_worker *w, const struct fz_op *op);
void fz_oracle_init(struct fz_worker *w);
extern int fz_oracle_id;

/* fz_records.c */
void fz_records_apply(struct fz_worker *w, const struct fz_op *op);

/* fz_exec.c */
void fz_exec_apply(struct fz_worker *w, const struct fz_op *op);
int fz_event_id(const struct fz_event *e);
int fz_wait_child(pid_t pid, const char *what);

/* fz_priv.c */
void fz_priv_setup(void);
void fz_priv_apply(struct fz_worker *w, const struct fz_op *op);
int fz_priv_drop(int *dyn_fd, int *root_data);

/* fz_fault.c */
void fz_fault_setup(void);
void fz_fault_apply(struct fz_worker *w, const struct fz_op *op);

/* fz_report.c */
void fz_report(const char *cls, const char *fmt, ...)
	__printf(2, 3);
void fz_check_kmsg(void);
void fz_kmsg_open(void);
void fz_kmemleak(bool final);
void *fz_watchdog(void *arg);
void fz_op_begin(int slot, const struct fz_op *op);
void fz_op_end(int slot);
void fz_load_symbols(const char *path);
unsigned long fz_kcsan_ignored(void);
/* main's summary, for the watchdog to print when it ends the run */
void fz_watchdog_summary(void (*print)(void));

/* fz_seq.c */
extern const char *const fz_kind_name[OP_KINDS];
extern const char *const fz_role_name[ROLE_COUNT];
void fz_op_describe(const struct fz_op *op, char *buf, size_t n);
void fz_epoch_free(struct fz_epoch *ep);
int fz_seq_save(const struct fz_epoch *ep, const char *path);
int fz_seq_load(struct fz_epoch *ep, const char *path);
void fz_seq_emit(const struct fz_epoch *ep, const char *name);
int fz_keep_parse(const char *list, struct fz_epoch *ep);

/* fz_world.c */
void fz_world_setup(void);
void fz_cleanup(bool final);

#endif /* TRACE_FUZZ_H */
