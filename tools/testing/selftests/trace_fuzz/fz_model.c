// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz: what the programs aim at.
 *
 * Programs are generated without a kernel (a failing epoch is generated
 * again on the host from its seed), so the events they trigger, filter
 * and feed are described here rather than read from their format files:
 * events of the base kernel that fire on their own or on demand
 * (sched_switch, exec, fork, exit, trace_marker's print), and the user
 * events, synthetic events and eprobes the programs themselves define,
 * a few names each so that programs meet on the same objects.
 */
#include <string.h>

#include "trace_fuzz.h"

#define F(n, t, s, str, sig) { n, t, s, str, sig }
#define COMM(n) F(n, "char[16]", 16, true, false)
#define PID(n) F(n, "pid_t", 4, false, true)
#define INT(n) F(n, "int", 4, false, true)
#define U32(n) F(n, "u32", 4, false, false)
#define U64(n) F(n, "u64", 8, false, false)

struct fz_event fz_events[] = {
	{ "sched", "sched_switch", FZ_EV_BASE, 0, 7,
	  { COMM("prev_comm"), PID("prev_pid"), INT("prev_prio"),
	    F("prev_state", "long", 8, false, true), COMM("next_comm"),
	    PID("next_pid"), INT("next_prio") } },
	{ "sched", "sched_waking", FZ_EV_BASE, 0, 4,
	  { COMM("comm"), PID("pid"), INT("prio"), INT("target_cpu") } },
	{ "sched", "sched_process_exec", FZ_EV_BASE, 0, 3,
	  { F("filename", "__data_loc char[]", 0, true, false), PID("pid"),
	    PID("old_pid") } },
	{ "sched", "sched_process_fork", FZ_EV_BASE, 0, 4,
	  { COMM("parent_comm"), PID("parent_pid"), COMM("child_comm"),
	    PID("child_pid") } },
	{ "sched", "sched_process_exit", FZ_EV_BASE, 0, 3,
	  { COMM("comm"), PID("pid"), INT("prio") } },
	{ "ftrace", "print", FZ_EV_BASE, 0, 2,
	  { F("ip", "unsigned long", 8, false, false),
	    F("buf", "char[]", 0, true, false) } },
	/* user events, synthetic events, eprobes: fields from their defs */
	{ "user_events", "fz_u0", FZ_EV_USER, 0 },
	{ "user_events", "fz_u1", FZ_EV_USER, 1 },
	{ "user_events", "fz_u2", FZ_EV_USER, 2 },
	{ "user_events", "fz_u3", FZ_EV_USER, 3 },
	{ "user_events", "fz_p0", FZ_EV_USER, 4 },
	{ "user_events", "fz_p1", FZ_EV_USER, 5 },
	{ "synthetic", "fz_s0", FZ_EV_SYNTH, 0 },
	{ "synthetic", "fz_s1", FZ_EV_SYNTH, 1 },
	{ "synthetic", "fz_s2", FZ_EV_SYNTH, 2 },
	{ "synthetic", "fz_s3", FZ_EV_SYNTH, 3 },
	{ "eprobes", "fz_e0", FZ_EV_EPROBE, 0 },
	{ "eprobes", "fz_e1", FZ_EV_EPROBE, 1 },
	{ "eprobes", "fz_e2", FZ_EV_EPROBE, 2 },
};

const int fz_nevents = ARRAY_SIZE(fz_events);

/*
 * What user_events, synthetic_events and dynamic_events are given.  A
 * name may come with a second definition (other fields): registered
 * while the first exists, it must be refused; after a delete, it takes.
 * fz_p* are root's persistent events, never registered otherwise.
 */
const struct fz_def fz_ue_defs[] = {
	{ "fz_u0", "u32 a; u64 b; char[16] s; __data_loc char[] d" },
	{ "fz_u1", "u64 x; u64 y" },
	{ "fz_u2", "u8 c; s16 y; struct fz z 12; __rel_loc char[] r" },
	{ "fz_u3", "char[8] t; u32 n" },
	{ "fz_p0", "u32 a; char[16] s" },
	{ "fz_p1", "u64 x" },
	{ "fz_u1", "u32 x" },
	{ "fz_u3", "u64 t; __rel_loc char[] n" },
};

const int fz_n_ue_defs = ARRAY_SIZE(fz_ue_defs);

const struct fz_def fz_synth_defs[] = {
	{ "fz_s0", "u64 a" },
	{ "fz_s1", "u64 a; u64 b" },
	{ "fz_s2", "pid_t pid; char comm[16]; u64 lat" },
	{ "fz_s3", "char name[]; u64 v" },
	{ "fz_s0", "s32 a; u64 extra" },
	{ "fz_s1", "unsigned long[] st" },
};

const int fz_n_synth_defs = ARRAY_SIZE(fz_synth_defs);

const struct fz_def fz_eprobe_defs[] = {
	{ "fz_e0", "sched/sched_switch prev=$prev_pid:u32 nxt=$next_pid:u32" },
	{ "fz_e1", "user_events/fz_u1 x=$x:u64" },
	{ "fz_e2", "synthetic/fz_s0 a=$a:u64" },
};

const int fz_n_eprobe_defs = ARRAY_SIZE(fz_eprobe_defs);

/*
 * What OP_RECREATE and OP_READBACK register (fz_records.c): an event
 * whose first fields are numbers, written with values that read as loc
 * words point far outside a record, and, once it is deleted, a user
 * event and a synthetic event whose loc words lie where those numbers
 * were, which a kernel giving them the deleted event's type would read
 * its records with.  kinds: a letter a field, 'u' u32, 'x' u64, 'd'
 * __data_loc char[], 'r' __rel_loc char[].
 */
const struct fz_rec_def fz_rec_old_defs[] = {
	{ "u32 off; u32 len", "uu" },
	{ "u32 off; u32 len; __data_loc char[] d", "uud" },
	{ "u32 off; u32 len; __rel_loc char[] r", "uur" },
	{ "u32 off; u32 len; __data_loc char[] d; __rel_loc char[] r", "uudr" },
};

const int fz_n_rec_old_defs = ARRAY_SIZE(fz_rec_old_defs);

const struct fz_rec_def fz_rec_new_defs[] = {
	{ "__data_loc char[] s; __rel_loc char[] t", "dr" },
	{ "__rel_loc char[] t; u32 n", "ru" },
	{ "u64 x; __data_loc char[] s", "xd" },
};

const int fz_n_rec_new_defs = ARRAY_SIZE(fz_rec_new_defs);

/* Synthetic: a "char s[]" is a __data_loc word in the record's first bytes */
const char *const fz_rec_synth_defs[] = { "char s[]", "char s[]; u64 v" };

/* The fields of the canonical definitions, in the same order */
static const struct fz_field ue_fields[][FZ_MAX_FIELDS] = {
	{ U32("a"), U64("b"), COMM("s"),
	  F("d", "__data_loc char[]", 0, true, false) },
	{ U64("x"), U64("y") },
	{ F("c", "u8", 1, false, false), F("y", "s16", 2, false, true),
	  F("z", "struct fz", 12, false, false),
	  F("r", "__rel_loc char[]", 0, true, false) },
	{ F("t", "char[8]", 8, true, false), U32("n") },
	{ U32("a"), COMM("s") },
	{ U64("x") },
	{ U32("x") },
	{ U64("t"), F("n", "__rel_loc char[]", 0, true, false) },
};

static const int ue_nf[] = { 4, 2, 4, 2, 2, 1, 1, 2 };

static const struct fz_field synth_fields[][FZ_MAX_FIELDS] = {
	{ U64("a") },
	{ U64("a"), U64("b") },
	{ PID("pid"), COMM("comm"), U64("lat") },
	{ F("name", "char[]", 0, true, false), U64("v") },
	{ F("a", "s32", 4, false, true), U64("extra") },
	{ F("st", "unsigned long[]", 0, false, false) },
};

static const int synth_nf[] = { 1, 2, 3, 2, 2, 1 };

static const struct fz_field eprobe_fields[][FZ_MAX_FIELDS] = {
	{ U32("prev"), U32("nxt") },
	{ U64("x") },
	{ U64("a") },
};

static const int eprobe_nf[] = { 2, 1, 1 };

const struct fz_field *fz_ue_fields(int def, int *nf)
{
	*nf = ue_nf[def];
	return ue_fields[def];
}

const struct fz_field *fz_synth_fields(int def, int *nf)
{
	*nf = synth_nf[def];
	return synth_fields[def];
}

bool fz_persistent_name(const char *name)
{
	return !strncmp(name, "fz_p", 4);
}

int fz_event_by_name(const char *sys, const char *name)
{
	int i;

	for (i = 0; i < fz_nevents; i++)
		if ((!sys || !strcmp(sys, fz_events[i].sys)) &&
		    !strcmp(name, fz_events[i].name))
			return i;
	return -1;
}

/* Fill the fields of the events the programs define */
void fz_model_init(void)
{
	struct fz_event *e;
	int i;

	for (i = 0; i < fz_nevents; i++) {
		e = &fz_events[i];
		switch (e->kind) {
		case FZ_EV_USER:
			e->nf = ue_nf[e->def];
			memcpy(e->f, ue_fields[e->def], sizeof(e->f));
			break;
		case FZ_EV_SYNTH:
			e->nf = synth_nf[e->def];
			memcpy(e->f, synth_fields[e->def], sizeof(e->f));
			break;
		case FZ_EV_EPROBE:
			e->nf = eprobe_nf[e->def];
			memcpy(e->f, eprobe_fields[e->def], sizeof(e->f));
			break;
		}
	}
}
