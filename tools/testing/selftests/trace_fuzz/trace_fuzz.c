// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz - feed every user-space entry of the tracing series with
 * generated and mutated input, and report what the kernel says about it.
 *
 *   trace_fuzz [-s SEED] [-n INPUTS] [-j THREADS] [-r FILE] [-o DIR] [-x]
 *
 * Input number i of a run is made from (SEED, i) alone: a generator for
 * one entry (a filter, a trigger, a dynamic_events or synthetic_events
 * command, set_event_pid, a DIAG_IOCSREG/DIAG_IOCSDEL ioctl, a write or
 * writev of the user_events data file, an mmap of the status page, an
 * enable, a perf attach, a read of an event's hist, hist_debug, trigger
 * or other file) builds a valid input from the grammar of that
 * entry and then, half of the time, mutates it: bit flips, truncation,
 * splicing of another valid piece, huge numbers, deep nesting, long
 * names, non-UTF-8 bytes and embedded NULs.  Pointers handed to the
 * kernel are drawn from NULL, kernel addresses, an unmapped page, a
 * PROT_NONE page and objects that end where such a page begins.
 *
 * THREADS threads (default 2, on both CPUs) take the inputs i = t, t + N,
 * ... at once, so registration, writes, enables, triggers, deletes and
 * closes race each other.  After every input the thread reads the new
 * records of /dev/kmsg; a report (BUG, WARNING, KASAN, lockdep, RCU, hung
 * task) is printed with the inputs then in flight, each also written to
 * DIR/fuzz-<i>.bin, which -r replays alone.  The last line is
 * "fuzz: N inputs, M reports"; the exit status is 1 when M > 0; -x stops
 * at the first report.
 *
 * Beside what the kernel logs, one entry is an oracle: writes of an event
 * (fz_oracle) that only it touches, counted by its own perf events with a
 * filter, whose outcome the ABI predicts exactly (recorded or -EFAULT,
 * counted or not).  A kernel that accepts a loc word it must refuse or
 * filters a string wrongly is reported like a KASAN splat.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <linux/user_events.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#define T "/sys/kernel/tracing/"
#define MAX_DATA 8192
#define MAX_FIELDS 32
#define PAGE 4096

/* The entries an input can go to */
enum target {
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
	TGT_ENABLE,		/* events/<sys>/<event>/enable */
	TGT_PERF,		/* perf_event_open() of a tracepoint */
	TGT_REOPEN,		/* close and reopen the thread's data fd */
	TGT_UE_ORACLE,		/* a write whose outcome the ABI predicts */
	TGT_READ,		/* reads of hist, hist_debug, trigger, ... */
	TGT_COUNT
};

static const char *const target_name[TGT_COUNT] = {
	"filter", "subsystem-filter", "trigger", "set_event_pid",
	"dynamic_events", "synthetic_events", "ue-reg", "ue-del",
	"ue-write", "ue-mmap", "enable", "perf", "reopen", "ue-oracle",
	"read",
};

/*
 * How often each entry is drawn, out of the sum.  Replacing a filter,
 * trigger or pid list waits for an RCU grace period and an enable or a
 * perf open for a tracepoint update: tens of milliseconds each on the
 * debug kernel.  user_events registrations and writes, the entry meant
 * for unprivileged writers, take well under one, so they are drawn most
 * often and a run gets through several times more inputs in its time.
 */
static const unsigned int target_weight[TGT_COUNT] = {
	[TGT_FILTER] = 2, [TGT_SUBSYS_FILTER] = 1, [TGT_TRIGGER] = 2,
	[TGT_EVENT_PID] = 1, [TGT_DYNEVENT] = 2, [TGT_SYNTH] = 2,
	[TGT_UE_REG] = 16, [TGT_UE_DEL] = 2, [TGT_UE_WRITE] = 24,
	[TGT_UE_MMAP] = 2, [TGT_ENABLE] = 1, [TGT_PERF] = 1, [TGT_REOPEN] = 4,
	[TGT_UE_ORACLE] = 4, [TGT_READ] = 3,
};

/* One input, as written out for replay: everything apply() needs */
struct input {
	uint64_t seed, index;
	int32_t target;
	int32_t event;		/* index into events[] */
	uint64_t arg[8];	/* target-specific numbers */
	uint32_t len;
	unsigned char data[MAX_DATA];
};

/* An event the generators aim at, with its fields read from format */
struct event {
	const char *sys, *name;
	int nfields;
	char field[MAX_FIELDS][64];
	int is_string[MAX_FIELDS];
	int id;
};

static struct event events[] = {
	{ "sched", "sched_switch" }, { "sched", "sched_process_exec" },
	{ "sched", "sched_waking" }, { "user_events", "fz_ue" },
	{ "user_events", "fz_ue2" }, { "synthetic", "fz_syn" },
	{ "ftrace", "print" }, { "syscalls", "sys_enter_write" },
	{ "kmem", "kmalloc" },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NEVENTS ((int)ARRAY_SIZE(events))

static const char *const fixture[] = {
	T "dynamic_events",
	"u:fz_ue u32 a; u64 b; char[16] s; __data_loc char[] d; __rel_loc char[] r",
	T "dynamic_events", "u:fz_ue2 u8 x; s16 y; struct fz z 12",
	T "synthetic_events", "fz_syn u64 lat; pid_t pid; char comm[16]; char name[]",
	T "dynamic_events", "u:fz_oracle char[8] s; __data_loc char[] d; __rel_loc char[] r",
};

static int status_fd = -1;
/*
 * Per target: inputs applied, guest nanoseconds spent on them, and how
 * many of the text ones the kernel took (a grammar that is always
 * refused reaches little behind its parser).
 */
static unsigned long target_count[TGT_COUNT], target_ns[TGT_COUNT];
static unsigned long target_taken[TGT_COUNT];
static __thread int text_taken;
static unsigned long n_inputs, n_reports;
/* -x: stop at the first report (make fuzz-planted) */
static int stop_at_report;
static const char *out_dir = "/tmp";
static int kmsg_fd = -1;
static pthread_mutex_t report_lock = PTHREAD_MUTEX_INITIALIZER;

/* The inputs in flight, one slot per thread, for reports */
#define MAX_THREADS 8
static struct input *in_flight[MAX_THREADS];
static int n_threads = 2;

/* ---- random numbers: splitmix64, one stream per input ---- */

struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned int below(struct rng *r, unsigned int n)
{
	return n ? rnd(r) % n : 0;
}

static int chance(struct rng *r, unsigned int one_in)
{
	return below(r, one_in) == 0;
}

/* One of the N strings of A */
/* An entry, drawn by target_weight[] */
static int pick_target(struct rng *r)
{
	unsigned int sum = 0, x;
	int t;

	for (t = 0; t < TGT_COUNT; t++)
		sum += target_weight[t];
	x = below(r, sum);
	for (t = 0; x >= target_weight[t]; t++)
		x -= target_weight[t];
	return t;
}

static const char *pick(struct rng *r, const char *const *a, size_t n)
{
	return a[below(r, n)];
}

/* ---- text building ---- */

struct text {
	char *buf;
	size_t len, cap;
};

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->len >= t->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len = t->len + n < t->cap ? t->len + n : t->cap - 1;
}

static const char *const huge[] = {
	"18446744073709551615", "18446744073709551616", "-9223372036854775809",
	"0xffffffffffffffffff", "99999999999999999999999999", "-1", "0x", "1e9",
	"4294967296", "-2147483649",
};

static void add_number(struct rng *r, struct text *t)
{
	switch (below(r, 5)) {
	case 0:
		add(t, "%s", pick(r, huge, ARRAY_SIZE(huge)));
		break;
	case 1:
		add(t, "0x%llx", (unsigned long long)rnd(r));
		break;
	case 2:
		add(t, "-%u", below(r, 1000));
		break;
	default:
		add(t, "%u", below(r, 100));
	}
}

static void add_name(struct rng *r, struct text *t)
{
	static const char *const names[] = {
		"a", "lat", "pid", "x_1", "common_pid", "$ts0", "comm", "Z",
	};
	int i;

	if (chance(r, 12)) {
		for (i = 0; i < 300; i++)
			add(t, "%c", 'a' + i % 26);
		return;
	}
	add(t, "%s", pick(r, names, ARRAY_SIZE(names)));
}

static const char *field_of(struct rng *r, struct event *e, int *is_string)
{
	static const char *const common[] = {
		"common_pid", "common_cpu", "CPU", "COMM", "common_timestamp",
		".function", "nosuchfield",
	};
	int i;

	if (!e->nfields || chance(r, 6)) {
		*is_string = 0;
		return pick(r, common, ARRAY_SIZE(common));
	}
	i = below(r, e->nfields);
	*is_string = e->is_string[i];
	return e->field[i];
}

/* ---- generators, one per entry ---- */

static void gen_pred(struct rng *r, struct event *e, struct text *t, int depth)
{
	static const char *const num_ops[] = { "==", "!=", "<", "<=", ">", ">=", "&" };
	static const char *const str_ops[] = { "==", "!=", "~" };
	static const char *const globs[] = {
		"\"*\"", "\"ab*\"", "\"*x\"", "\"*mid*\"", "\"a?c\"", "\"[a-z]*\"",
		"\"[!0-9]\"", "\"\"", "bare", "\"\\\"\"", "\"[\"", "\"*[*\"",
	};
	int s;
	const char *f;

	if (depth < 6 && chance(r, 4)) {
		add(t, "%s(", chance(r, 3) ? "!" : "");
		gen_pred(r, e, t, depth + 1);
		add(t, " %s ", chance(r, 2) ? "&&" : "||");
		gen_pred(r, e, t, depth + 1);
		add(t, ")");
		return;
	}
	f = field_of(r, e, &s);
	if (chance(r, 10)) {
		add(t, "CPUS{%u-%u,%u}", below(r, 4), below(r, 8), below(r, 300));
		return;
	}
	if (s)
		add(t, "%s %s ", f, pick(r, str_ops, ARRAY_SIZE(str_ops)));
	else
		add(t, "%s %s ", f, pick(r, num_ops, ARRAY_SIZE(num_ops)));
	if (s || chance(r, 8))
		add(t, "%s", pick(r, globs, ARRAY_SIZE(globs)));
	else
		add_number(r, t);
}

static void gen_filter(struct rng *r, struct event *e, struct text *t)
{
	int n = 1 + below(r, 4);

	while (n--) {
		gen_pred(r, e, t, 0);
		if (n)
			add(t, " %s ", chance(r, 2) ? "&&" : "||");
	}
}

static const char *const hist_mods[] = {
	"", "", "", ".hex", ".sym", ".sym-offset", ".execname", ".syscall",
	".log2", ".buckets=10", ".buckets=0", ".buckets=18446744073709551615",
	".usecs", ".percent", ".graph", ".stacktrace", ".nosuch", ".",
};

/* The histogram variables the generators define and refer to */
static const char *const hist_vars[] = { "ts0", "lat", "a", "b" };

/*
 * An operand of a histogram expression: a field with a modifier, a
 * number, a variable of this or another event (sched_waking holds $ts0
 * when an earlier input put it there), or a field named with its event.
 */
static void gen_hist_atom(struct rng *r, struct event *e, struct text *t)
{
	struct event *o = &events[below(r, NEVENTS)];
	int s;

	switch (below(r, 8)) {
	case 0:
		add_number(r, t);
		break;
	case 1:
		add(t, "$%s", pick(r, hist_vars, ARRAY_SIZE(hist_vars)));
		break;
	case 2:
		add(t, "%s.%s.$%s", o->sys, o->name,
		    pick(r, hist_vars, ARRAY_SIZE(hist_vars)));
		break;
	case 3:
		add(t, "%s.%s.%s", e->sys, e->name, field_of(r, e, &s));
		break;
	case 4:
		add(t, "common_timestamp%s", chance(r, 2) ? ".usecs" : "");
		break;
	default:
		add(t, "%s%s", field_of(r, e, &s),
		    pick(r, hist_mods, ARRAY_SIZE(hist_mods)));
	}
}

/* An expression: + - * / of operands, parentheses and unary minus. */
static void gen_hist_expr(struct rng *r, struct event *e, struct text *t,
			  int depth)
{
	static const char ops[] = "+-*/";

	if (depth < 5 && chance(r, 4)) {
		add(t, "%s(", chance(r, 3) ? "-" : "");
		gen_hist_expr(r, e, t, depth + 1);
		add(t, ")");
	} else {
		gen_hist_atom(r, e, t);
	}
	if (depth < 5 && chance(r, 3)) {
		add(t, "%c", ops[below(r, 4)]);
		gen_hist_expr(r, e, t, depth + 1);
	}
}

/* The parameters of an action: fields, variables, whole expressions. */
static void gen_hist_params(struct rng *r, struct event *e, struct text *t)
{
	int n = chance(r, 10) ? 1 + below(r, 40) : below(r, 5), i, s;

	for (i = 0; i < n; i++) {
		if (i)
			add(t, chance(r, 8) ? " , " : ",");
		switch (below(r, 4)) {
		case 0:
			add(t, "$%s", pick(r, hist_vars, ARRAY_SIZE(hist_vars)));
			break;
		case 1:
			gen_hist_atom(r, e, t);
			break;
		default:
			add(t, "%s", field_of(r, e, &s));
		}
	}
}

/* A handler with one or more actions, as a trigger may hold several. */
static void gen_hist_handler(struct rng *r, struct event *e, struct text *t)
{
	static const char *const handlers[] = { "onmatch", "onmax", "onchange" };
	const char *h = pick(r, handlers, ARRAY_SIZE(handlers));
	struct event *o = &events[below(r, NEVENTS)];

	if (!strcmp(h, "onmatch"))
		add(t, ":onmatch(%s.%s)", chance(r, 2) ? "sched" : o->sys,
		    chance(r, 2) ? "sched_waking" : o->name);
	else
		add(t, ":%s($%s)", h, pick(r, hist_vars, ARRAY_SIZE(hist_vars)));
	switch (below(r, 5)) {
	case 0:
		/* the legacy form: the synthetic event as the action */
		add(t, ".fz_syn(");
		break;
	case 1:
		add(t, ".save(");
		break;
	case 2:
		add(t, ".snapshot(");
		break;
	default:
		add(t, ".trace(%s%s", chance(r, 8) ? "nosuch" : "fz_syn",
		    chance(r, 6) ? "" : ",");
	}
	gen_hist_params(r, e, t);
	add(t, "%s", chance(r, 12) ? "" : ")");
}

static void gen_hist(struct rng *r, struct event *e, struct text *t)
{
	int s, n;

	/* a new key per event now and then: small maps fill up */
	add(t, "hist:%s=", chance(r, 4) ? "key" : "keys");
	switch (below(r, 8)) {
	case 0:
		add(t, "common_timestamp");
		break;
	case 1:
		add(t, "%s", chance(r, 2) ? "common_stacktrace" : "stacktrace");
		break;
	case 2:
		gen_hist_expr(r, e, t, 3);
		break;
	default:
		add(t, "%s%s", field_of(r, e, &s),
		    pick(r, hist_mods, ARRAY_SIZE(hist_mods)));
	}
	for (n = chance(r, 2) ? below(r, 5) : 0; n; n--)
		add(t, ",%s%s", field_of(r, e, &s),
		    pick(r, hist_mods, ARRAY_SIZE(hist_mods)));
	if (chance(r, 2)) {
		add(t, ":%s=hitcount", chance(r, 3) ? "values" : "vals");
		for (n = 1 + below(r, 4); n; n--) {
			add(t, ",");
			gen_hist_expr(r, e, t, 4);
		}
	}
	if (chance(r, 3))
		add(t, ":ts0=common_timestamp.usecs");
	if (chance(r, 4))
		add(t, ":lat=common_timestamp.usecs-$ts0");
	for (n = chance(r, 3) ? 1 + below(r, 3) : 0; n; n--) {
		add(t, ":%s=", pick(r, hist_vars, ARRAY_SIZE(hist_vars)));
		gen_hist_expr(r, e, t, 0);
	}
	if (chance(r, 3))
		add(t, ":sort=%s%s", chance(r, 2) ? "hitcount" : field_of(r, e, &s),
		    chance(r, 2) ? ".descending" : "");
	if (chance(r, 3)) {
		add(t, ":size=");
		if (chance(r, 2))
			add(t, "%u", 128u << below(r, 3));
		else
			add_number(r, t);
	}
	if (chance(r, 4))
		add(t, ":name=fz_h%u", below(r, 3));
	if (chance(r, 5))
		add(t, ":%s", chance(r, 2) ? "pause" : (chance(r, 2) ? "cont" : "clear"));
	if (chance(r, 8))
		add(t, ":nohitcount");
	for (n = chance(r, 2) ? 1 + below(r, chance(r, 8) ? 10 : 2) : 0; n; n--)
		gen_hist_handler(r, e, t);
	if (chance(r, 8))
		add(t, ":clock=%s", chance(r, 2) ? "global" : "nosuch");
}

static void gen_trigger(struct rng *r, struct event *e, struct text *t)
{
	static const char *const simple[] = {
		"traceon", "traceoff", "snapshot", "stacktrace",
	};
	static const char *const targets[] = {
		"enable_event", "disable_event", "enable_hist", "disable_hist",
	};
	struct event *o = &events[below(r, NEVENTS)];

	if (chance(r, 4))
		add(t, "!");
	switch (below(r, 3)) {
	case 0:
		add(t, "%s", pick(r, simple, ARRAY_SIZE(simple)));
		break;
	case 1:
		add(t, "%s:%s:%s", pick(r, targets, ARRAY_SIZE(targets)), o->sys, o->name);
		break;
	default:
		gen_hist(r, e, t);
	}
	if (chance(r, 3)) {
		add(t, ":");
		add_number(r, t);
	}
	if (chance(r, 3)) {
		add(t, " if ");
		gen_filter(r, e, t);
	}
}

static void gen_pids(struct rng *r, struct text *t)
{
	int n = below(r, 6);

	while (n--) {
		add_number(r, t);
		add(t, " ");
	}
}

static const char *const ue_types[] = {
	"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "int",
	"unsigned int", "char", "unsigned char", "short", "char[16]",
	"char[0x10]", "unsigned char[3]", "__data_loc char[]",
	"__rel_loc char[]", "struct fz 8", "long", "bool", "char[9999]",
	"__data_loc u8[]", "char[]",
};

static void gen_ue_fields(struct rng *r, struct text *t)
{
	int n = below(r, 6), i;

	for (i = 0; i < n; i++) {
		const char *ty = pick(r, ue_types, ARRAY_SIZE(ue_types));

		if (!strncmp(ty, "struct", 6)) {
			add(t, "struct fz ");
			add_name(r, t);
			add(t, " %u", below(r, 40));
		} else {
			add(t, "%s ", ty);
			add_name(r, t);
		}
		add(t, "%s", i + 1 < n ? (chance(r, 5) ? ";" : "; ") : "");
	}
}

static const char *const synth_types[] = {
	"u64", "s32", "int", "unsigned int", "long", "unsigned long", "pid_t",
	"gfp_t", "bool", "char[16]", "char[]", "long[]", "unsigned long[]",
	"stacktrace", "u8", "s16", "char[0]", "char[4096]", "float",
};

/*
 * A few fields, or now and then as many as the limit of 64 and a few more
 * (distinct names, so the count is what is refused).
 */
static void gen_synth_fields(struct rng *r, struct text *t)
{
	int many = chance(r, 16), n = many ? 60 + below(r, 10) : below(r, 5), i;

	for (i = 0; i < n; i++) {
		add(t, "%s ", pick(r, synth_types, ARRAY_SIZE(synth_types)));
		if (many)
			add(t, "f%d", i);
		else
			add_name(r, t);
		if (i + 1 < n)
			add(t, "; ");
	}
}

static void gen_dynevent(struct rng *r, struct text *t)
{
	unsigned int k = below(r, 3);

	switch (below(r, 7)) {
	case 0:
		add(t, "u:fz_d%u ", k);
		gen_ue_fields(r, t);
		break;
	case 1:
		add(t, "!u:fz_d%u ", k);
		gen_ue_fields(r, t);
		break;
	case 2:
		add(t, "s:%sfz_s%u ", chance(r, 2) ? "synthetic/" : "", k);
		gen_synth_fields(r, t);
		break;
	case 3:
		add(t, "-:%sfz_%c%u", chance(r, 2) ? "synthetic/" : "",
		    chance(r, 2) ? 's' : 'd', k);
		break;
	case 4:
		add(t, "!s:fz_s%u", k);
		break;
	case 5:
		add(t, "e:fz_e%u sched.sched_switch prev_pid=$prev_pid:u32 %s",
		    k, chance(r, 2) ? "next_comm=$next_comm:string" : "");
		break;
	default:
		add(t, "-:fz_e%u", k);
	}
}

static void gen_synth(struct rng *r, struct text *t)
{
	unsigned int k = below(r, 3);

	if (chance(r, 3)) {
		add(t, "!fz_s%u", k);
		return;
	}
	add(t, "fz_s%u ", k);
	gen_synth_fields(r, t);
}

/* ---- mutations of a text ---- */

static void mutate(struct rng *r, struct input *in)
{
	static const char *const pieces[] = {
		"((((((((((((((((((((", "))))", " && ", "||", "\"", "$", ":", ";",
		"!", "[", "]", "\xff\xfe", "\xc0\x80", "\xe2\x82", "=", "\\",
		"18446744073709551616", " if ", ".", ",",
	};
	int n = 1 + below(r, 4);

	while (n--) {
		uint32_t pos = in->len ? below(r, in->len + 1) : 0;

		switch (below(r, 6)) {
		case 0:		/* bit flips */
			if (in->len)
				in->data[below(r, in->len)] ^= 1 << below(r, 8);
			break;
		case 1:		/* truncation */
			in->len = pos;
			break;
		case 2:		/* an embedded NUL */
			if (in->len)
				in->data[below(r, in->len)] = 0;
			break;
		case 3: {	/* deep nesting */
			uint32_t d = below(r, 2000);

			if (in->len + 2 * d < MAX_DATA) {
				memmove(in->data + d, in->data, in->len);
				memset(in->data, '(', d);
				memset(in->data + d + in->len, ')', d);
				in->len += 2 * d;
			}
			break;
		}
		default: {	/* splice a piece in */
			const char *p = pick(r, pieces, ARRAY_SIZE(pieces));
			size_t l = strlen(p);

			if (in->len + l < MAX_DATA) {
				memmove(in->data + pos + l, in->data + pos, in->len - pos);
				memcpy(in->data + pos, p, l);
				in->len += l;
			}
		}
		}
	}
}

/* ---- making an input from (seed, index) ---- */

/*
 * A thread's own pages: a writable one, then a PROT_NONE one, then one
 * that is unmapped, so an object can end where access stops.
 */
struct worker {
	int fd;			/* its user_events_data fd */
	uint32_t index[8];	/* write indexes it registered */
	int nindex;
	unsigned char *good, *none, *gone;
	int ofd;		/* fd that registered fz_oracle */
	uint32_t oidx;		/* its write index */
	int opf;		/* perf on fz_oracle, keeps its probe in place */
	int held[4];		/* event files kept open across inputs */
};

static uint64_t bad_pointer(struct rng *r, struct worker *w, void *valid)
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

static void make_input(struct input *in, uint64_t seed, uint64_t index)
{
	struct rng r = { seed ^ (index * 0x2545f4914f6cdd1dULL) };
	struct text t;
	struct event *e;
	int i;

	memset(in, 0, sizeof(*in));
	in->seed = seed;
	in->index = index;
	rnd(&r);
	in->target = pick_target(&r);
	in->event = below(&r, NEVENTS);
	for (i = 0; i < 8; i++)
		in->arg[i] = rnd(&r);
	e = &events[in->event];
	t.buf = (char *)in->data;
	t.len = 0;
	t.cap = MAX_DATA;
	switch (in->target) {
	case TGT_FILTER:
	case TGT_SUBSYS_FILTER:
		gen_filter(&r, e, &t);
		break;
	case TGT_TRIGGER:
		gen_trigger(&r, e, &t);
		break;
	case TGT_EVENT_PID:
		gen_pids(&r, &t);
		break;
	case TGT_DYNEVENT:
		gen_dynevent(&r, &t);
		break;
	case TGT_SYNTH:
		gen_synth(&r, &t);
		break;
	case TGT_UE_REG:
		add(&t, "fz_r%u ", below(&r, 4));
		gen_ue_fields(&r, &t);
		break;
	case TGT_UE_DEL:
		add(&t, "fz_r%u", below(&r, 5));
		break;
	case TGT_UE_WRITE:
		/* a payload of fz_ue: u32, u64, char[16], two loc words, text */
		for (i = 0; i < 40; i++)
			add(&t, "%c", (char)rnd(&r));
		add(&t, "hello, world");
		break;
	default:
		break;
	}
	in->len = t.len;
	if (in->target <= TGT_UE_DEL && chance(&r, 2))
		mutate(&r, in);
}

/* ---- applying an input ---- */

static __thread sigjmp_buf fault_jmp;
static __thread int fault_armed;

static void on_fault(int sig)
{
	if (fault_armed)
		siglongjmp(fault_jmp, 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void write_file(const char *path, const void *data, size_t len, int append)
{
	int fd = open(path, O_WRONLY | (append ? O_APPEND : O_TRUNC));

	if (fd < 0)
		return;
	if (write(fd, data, len) >= 0)
		text_taken = 1;
	else if (errno == EFAULT)
		fprintf(stderr, "fuzz: EFAULT from %s\n", path);
	close(fd);
}

static void event_path(char *buf, size_t n, struct event *e, const char *file)
{
	snprintf(buf, n, T "events/%s/%s/%s", e->sys, e->name, file);
}

static void apply_reg(struct worker *w, struct input *in)
{
	struct rng r = { in->arg[0] };
	/* The struct, sometimes ending where the PROT_NONE page begins */
	unsigned char *p = chance(&r, 4) ? w->none - 64 + below(&r, 64) : w->good;
	static const uint32_t sizes[] = { 0, 4, 8, 12, 16, 20, 24, 28, 32, 64, 4096 };
	char *name = (char *)w->good + 2048;
	uint64_t v;
	int j;

	/* the command, NUL-terminated in the good page or running into none */
	memcpy(name, in->data, in->len < 1024 ? in->len : 1024);
	name[in->len < 1024 ? in->len : 1024] = '\0';
	if (chance(&r, 6)) {
		size_t l = strnlen(name, 64);

		name = (char *)w->none - l;
		memmove(name, (char *)w->good + 2048, l);
	}
	fault_armed = 1;
	if (!sigsetjmp(fault_jmp, 1)) {
		for (j = 0; j < 64 && p + j < w->none; j++)
			p[j] = rnd(&r);
		v = chance(&r, 3) ? rnd(&r) : sizes[below(&r, ARRAY_SIZE(sizes))];
		memcpy(p, &v, 4);
		/* both layouts: the name at 4 or 16, an enable address at 8 */
		v = bad_pointer(&r, w, name);
		if (p + 12 <= w->none)
			memcpy(p + 4, &v, 8);
		if (p + 24 <= w->none && chance(&r, 2)) {
			memcpy(p + 16, &v, 8);
			v = bad_pointer(&r, w, w->good + 8 * below(&r, 64));
			memcpy(p + 8, &v, 8);
			p[4] = below(&r, 70);
			p[5] = chance(&r, 2) ? 4 : (chance(&r, 2) ? 8 : below(&r, 16));
		}
	}
	fault_armed = 0;
	if (ioctl(w->fd, chance(&r, 20) ? (unsigned long)rnd(&r) : DIAG_IOCSREG, p) == 0 &&
	    p + 28 <= w->none) {
		uint32_t idx;

		/* both layouts keep the write index in the last four bytes */
		memcpy(&idx, p + (chance(&r, 2) ? 16 : 24), 4);
		w->index[w->nindex++ % 8] = idx;
	}
}

static void apply_write(struct worker *w, struct input *in)
{
	static struct iovec iov[1100];
	struct rng r = { in->arg[1] };
	unsigned char *buf = w->good + 1024;
	uint32_t idx = w->nindex && !chance(&r, 5) ? w->index[below(&r, 8) % 8] :
		       (uint32_t)rnd(&r) % 64;
	uint32_t loc, len = in->len < 2048 ? in->len : 2048;
	int n, i;

	memcpy(buf, &idx, 4);
	memcpy(buf + 4, in->data, len);
	/* loc words of fz_ue at 28 and 32: sometimes plausible, often not */
	loc = (below(&r, 64) << 16) | below(&r, 80);
	memcpy(buf + 4 + 28, &loc, 4);
	loc = (below(&r, 64) << 16) | below(&r, 16);
	memcpy(buf + 4 + 32, &loc, 4);
	if (chance(&r, 3)) {
		if (write(w->fd, buf, 4 + below(&r, len + 1)) < 0)
			return;
		return;
	}
	n = chance(&r, 10) ? 1 + below(&r, 1025) : 1 + below(&r, 8);
	for (i = 0; i < n; i++) {
		size_t off = below(&r, len + 4);

		iov[i].iov_base = buf + off;
		iov[i].iov_len = below(&r, len + 4 - off + 1);
		if (chance(&r, 30))
			iov[i].iov_base = (void *)(uintptr_t)bad_pointer(&r, w, buf);
		if (chance(&r, 50))
			iov[i].iov_len = (size_t)rnd(&r) >> below(&r, 64);
	}
	iov[0].iov_base = buf;
	iov[0].iov_len = 4;
	if (writev(w->fd, iov, n) < 0)
		return;
}

static void apply_mmap(struct input *in)
{
	struct rng r = { in->arg[2] };
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

	if (pread(status_fd, &b, 1, below(&r, 3 * PAGE)) < 0)
		b = 0;
	m = mmap(NULL, len, prot, flags, status_fd, off);
	if (m == MAP_FAILED)
		return;
	fault_armed = 1;
	if (!sigsetjmp(fault_jmp, 1)) {
		/* reads the compiler may not drop: they are the test */
		for (i = 0; i < 16; i++)
			b ^= __atomic_load_n(&m[below(&r, len + 64)], __ATOMIC_RELAXED);
		if (chance(&r, 4))
			mprotect(m, len, PROT_READ | PROT_WRITE);
		if (chance(&r, 8))
			__atomic_store_n(&m[below(&r, len)], b, __ATOMIC_RELAXED);
	}
	fault_armed = 0;
	munmap(m, len);
}

static void apply_perf(struct input *in, struct event *e)
{
	struct perf_event_attr a = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(a),
		.config = e->id,
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_RAW,
	};
	struct rng r = { in->arg[3] };
	int fd;

	if (chance(&r, 4))
		a.config = rnd(&r) % 4096;
	fd = syscall(SYS_perf_event_open, &a, chance(&r, 2) ? 0 : -1,
		     chance(&r, 2) ? -1 : (int)below(&r, 2), -1, 0);
	if (fd < 0)
		return;
	if (chance(&r, 2)) {
		char f[600];

		memcpy(f, in->data, in->len < 599 ? in->len : 599);
		f[in->len < 599 ? in->len : 599] = '\0';
		ioctl(fd, PERF_EVENT_IOC_SET_FILTER, f);
	}
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	usleep(below(&r, 2000));
	close(fd);
}

/* ---- the oracle: a write whose outcome the ABI predicts ---- */

static void save_input(const struct input *in);
static void read_fields(struct event *e);
/* Not in events[]: no other entry may enable, filter or attach to it */
static struct event oracle_event = { .sys = "user_events", .name = "fz_oracle" };

/* A counting perf event on fz_oracle for this thread, with filter */
static int oracle_perf(const char *filter)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = oracle_event.id,
	};
	int fd;

	if (!oracle_event.id)
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

static void oracle_report(const struct input *in, const char *what,
			  long long got, long long want)
{
	pthread_mutex_lock(&report_lock);
	n_reports++;
	printf("fuzz: REPORT oracle: %s was %lld, the ABI says %lld\n", what,
	       got, want);
	save_input(in);
	pthread_mutex_unlock(&report_lock);
}

/*
 * fz_oracle is "char[8] s; __data_loc char[] d; __rel_loc char[] r":
 * payload bytes 0-7, 8-11 and 12-15, record bytes 8-15, 16-19 and 20-23.
 * Nothing but this entry writes it and only this thread's perf events
 * count it, so the outcome of a write is known: -EFAULT when a loc word
 * points outside the record, into its fixed part or at a string without
 * its NUL, else recorded; counted when the filter matches.
 */
static void apply_oracle(struct worker *w, struct input *in)
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
		oracle_report(in, "a valid perf filter's ioctl", -1, 0);
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
		oracle_report(in, "the write's result", got, want);
	got = oracle_count(pf);
	want = valid && (nofilter || match);
	if (got != want)
		oracle_report(in, nofilter ? "the event count" :
			      "the event count with a filter", got, want);
	close(pf);
}

/*
 * A read of an event's file, at an odd offset and in odd sizes: now, or
 * through an fd that an earlier input opened and kept while other
 * inputs, of any thread, changed the event's triggers, removed its
 * histograms or deleted the event (the events made and deleted by the
 * dynamic_events and synthetic_events entries are read too).  A file
 * whose event is gone must fail the read, not touch freed memory.
 */
static void apply_read(struct worker *w, struct input *in, struct event *e)
{
	static const char *const files[] = {
		"hist", "hist_debug", "trigger", "filter", "format", "enable", "id",
	};
	static const char *const made[] = {
		"synthetic/fz_s", "user_events/fz_d", "eprobes/fz_e",
	};
	const char *file = files[in->arg[0] % ARRAY_SIZE(files)];
	unsigned int slot = in->arg[1] % ARRAY_SIZE(w->held), n = 0;
	size_t size = 1 + in->arg[5] % 4096;
	char path[300], buf[4096];
	struct pollfd pfd;
	int fd;

	if (in->arg[2] % 3)
		event_path(path, sizeof(path), e, file);
	else
		snprintf(path, sizeof(path), T "events/%s%u/%s",
			 made[in->arg[3] % ARRAY_SIZE(made)],
			 (unsigned int)(in->arg[3] >> 8) % 3, file);
	switch (in->arg[4] % 4) {
	case 0:		/* open and keep */
		if (w->held[slot] >= 0)
			close(w->held[slot]);
		w->held[slot] = open(path, O_RDONLY);
		return;
	case 1:		/* read what was kept, then close it */
		fd = w->held[slot];
		w->held[slot] = -1;
		break;
	default:
		fd = open(path, O_RDONLY);
	}
	if (fd < 0)
		return;
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN | POLLPRI };
	poll(&pfd, 1, 0);
	if (in->arg[6] & 1)
		lseek(fd, in->arg[6] % 8192, SEEK_SET);
	while (n++ < 64 && read(fd, buf, size) > 0)
		;
	close(fd);
}

static void apply(struct worker *w, struct input *in)
{
	struct event *e = &events[in->event % NEVENTS];
	char path[300];

	switch (in->target) {
	case TGT_FILTER:
		event_path(path, sizeof(path), e, "filter");
		write_file(path, in->data, in->len, 0);
		break;
	case TGT_SUBSYS_FILTER:
		snprintf(path, sizeof(path), T "events/%s/filter", e->sys);
		write_file(path, in->data, in->len, 0);
		break;
	case TGT_TRIGGER:
		/*
		 * Now and then truncating: every trigger of the event goes,
		 * histograms with their variables and actions included.
		 */
		event_path(path, sizeof(path), e, "trigger");
		write_file(path, in->data, in->len, in->arg[4] % 8 != 0);
		break;
	case TGT_EVENT_PID:
		write_file(T "set_event_pid", in->data, in->len, in->arg[4] & 1);
		break;
	case TGT_DYNEVENT:
		write_file(T "dynamic_events", in->data, in->len, 1);
		break;
	case TGT_SYNTH:
		write_file(T "synthetic_events", in->data, in->len, 1);
		break;
	case TGT_UE_REG:
		apply_reg(w, in);
		break;
	case TGT_UE_DEL: {
		char *name = (char *)w->good + 3072;

		memcpy(name, in->data, in->len < 900 ? in->len : 900);
		name[in->len < 900 ? in->len : 900] = '\0';
		ioctl(w->fd, DIAG_IOCSDEL, in->arg[5] % 5 ? name :
		      (char *)(uintptr_t)bad_pointer(&(struct rng){ in->arg[5] }, w, name));
		break;
	}
	case TGT_UE_WRITE:
		apply_write(w, in);
		break;
	case TGT_UE_MMAP:
		apply_mmap(in);
		break;
	case TGT_ENABLE:
		event_path(path, sizeof(path), e, "enable");
		write_file(path, in->arg[6] & 1 ? "1" : "0", 1, 0);
		break;
	case TGT_PERF:
		apply_perf(in, e);
		break;
	case TGT_REOPEN:
		close(w->fd);
		w->fd = open(T "user_events_data", O_RDWR);
		w->nindex = 0;
		break;
	case TGT_UE_ORACLE:
		apply_oracle(w, in);
		break;
	case TGT_READ:
		apply_read(w, in, e);
		break;
	}
}

/* ---- reports ---- */

static const char *const report_words[] = {
	"BUG:", "WARNING:", "KASAN", "UBSAN", "Oops", "general protection",
	"possible circular locking", "possible recursive locking",
	"inconsistent lock state", "suspicious RCU usage", "detected stall",
	"INFO: task", "kernel BUG", "list_add corruption", "list_del corruption",
	"DEBUG_LOCKS_WARN_ON", "unreferenced object",
};

/* Inputs saved at most: a bug that fires on every input needs a few */
#define MAX_SAVED 32

static void save_input(const struct input *in)
{
	static unsigned int n_saved;
	char path[300];
	FILE *f;

	snprintf(path, sizeof(path), "saved as %s/fuzz-%llu.bin", out_dir,
		 (unsigned long long)in->index);
	f = n_saved++ < MAX_SAVED ? fopen(path + strlen("saved as "), "w") : NULL;
	if (f) {
		fwrite(in, sizeof(*in), 1, f);
		fclose(f);
	} else {
		snprintf(path, sizeof(path), "not saved");
	}
	printf("fuzz: input %llu (seed %llu, %s on %s/%s), %s\n",
	       (unsigned long long)in->index, (unsigned long long)in->seed,
	       target_name[in->target % TGT_COUNT],
	       in->target == TGT_UE_ORACLE ? "user_events" : events[in->event % NEVENTS].sys,
	       in->target == TGT_UE_ORACLE ? "fz_oracle" : events[in->event % NEVENTS].name,
	       path);
	printf("fuzz:   text: %.*s\n", (int)(in->len < 300 ? in->len : 300), in->data);
}

/* Read what the kernel logged since the last call; count reports */
static void check_kmsg(void)
{
	char rec[2048];
	ssize_t n;
	int i, t;

	if (kmsg_fd < 0)
		return;
	pthread_mutex_lock(&report_lock);
	while ((n = read(kmsg_fd, rec, sizeof(rec) - 1)) > 0 || (n < 0 && errno == EPIPE)) {
		if (n <= 0)
			continue;
		rec[n] = '\0';
		for (i = 0; i < (int)ARRAY_SIZE(report_words); i++) {
			if (!strstr(rec, report_words[i]))
				continue;
			n_reports++;
			printf("fuzz: REPORT %s", strchr(rec, ';') ? strchr(rec, ';') + 1 : rec);
			for (t = 0; t < n_threads; t++)
				if (in_flight[t])
					save_input(in_flight[t]);
			break;
		}
	}
	pthread_mutex_unlock(&report_lock);
}

/* ---- setup ---- */

static void read_fields(struct event *e)
{
	char path[300], line[512];
	FILE *f;

	event_path(path, sizeof(path), e, "format");
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "field:"), *semi, *name;

		if (!strncmp(line, "ID: ", 4))
			e->id = atoi(line + 4);
		if (!p || e->nfields == MAX_FIELDS)
			continue;
		semi = strchr(p, ';');
		if (!semi)
			continue;
		*semi = '\0';
		name = strrchr(p, ' ');
		if (!name)
			continue;
		if (strchr(name, '['))
			*strchr(name, '[') = '\0';
		snprintf(e->field[e->nfields], 64, "%s", name + 1);
		e->is_string[e->nfields] = !!strstr(p, "char");
		e->nfields++;
	}
	fclose(f);
}

static void setup(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fixture); i += 2)
		write_file(fixture[i], fixture[i + 1], strlen(fixture[i + 1]), 1);
	for (i = 0; i < (size_t)NEVENTS; i++)
		read_fields(&events[i]);
	read_fields(&oracle_event);
	status_fd = open(T "user_events_status", O_RDONLY);
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
	signal(SIGSEGV, on_fault);
	signal(SIGBUS, on_fault);
	signal(SIGPIPE, SIG_IGN);
}

/* Put everything back as it was, so the next run starts alike */
static void teardown(void)
{
	char path[300];
	int i;

	write_file(T "events/enable", "0", 1, 0);
	write_file(T "set_event_pid", "", 0, 0);
	for (i = 0; i < NEVENTS; i++) {
		event_path(path, sizeof(path), &events[i], "filter");
		write_file(path, "0", 1, 0);
	}
	write_file(T "tracing_on", "1", 1, 0);
}

static int worker_init(struct worker *w)
{
	unsigned char *m = mmap(NULL, 3 * PAGE, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED)
		return -1;
	w->good = m;
	w->none = m + PAGE;
	w->gone = m + 2 * PAGE;
	mprotect(w->none, PAGE, PROT_NONE);
	munmap(w->gone, PAGE);
	w->nindex = 0;
	memset(w->held, -1, sizeof(w->held));
	w->fd = open(T "user_events_data", O_RDWR);
	w->ofd = open(T "user_events_data", O_RDWR);
	w->opf = -1;
	if (w->ofd >= 0) {
		struct user_reg reg = {
			.size = sizeof(reg),
			.name_args = (uintptr_t)"fz_oracle char[8] s; "
				     "__data_loc char[] d; __rel_loc char[] r",
		};

		if (!ioctl(w->ofd, DIAG_IOCSREG, &reg)) {
			w->oidx = reg.write_index;
			w->opf = oracle_perf(NULL);
		}
	}
	return 0;
}

struct thread_arg {
	int t;
	uint64_t seed, count;
};

static void *worker_main(void *p)
{
	struct thread_arg *a = p;
	struct input *in = malloc(sizeof(*in));
	struct worker w;
	cpu_set_t cpus;
	uint64_t i;

	if (!in || worker_init(&w))
		return NULL;
	CPU_ZERO(&cpus);
	CPU_SET(a->t % 2, &cpus);
	sched_setaffinity(0, sizeof(cpus), &cpus);
	for (i = a->t; i < a->count; i += n_threads) {
		struct timespec t0, t1;

		if (stop_at_report && __atomic_load_n(&n_reports, __ATOMIC_RELAXED))
			break;
		make_input(in, a->seed, i);
		in_flight[a->t] = in;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		text_taken = 0;
		apply(&w, in);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		__atomic_add_fetch(&target_ns[in->target], (t1.tv_sec - t0.tv_sec) * 1000000000UL +
				   t1.tv_nsec - t0.tv_nsec, __ATOMIC_RELAXED);
		__atomic_add_fetch(&target_count[in->target], 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&target_taken[in->target], text_taken, __ATOMIC_RELAXED);
		__atomic_add_fetch(&n_inputs, 1, __ATOMIC_RELAXED);
		check_kmsg();
	}
	in_flight[a->t] = NULL;
	close(w.fd);
	free(in);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[MAX_THREADS];
	struct thread_arg args[MAX_THREADS];
	uint64_t seed = 1, count = 10000;
	const char *replay = NULL;
	int opt, t;

	while ((opt = getopt(argc, argv, "s:n:j:r:o:x")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			count = strtoull(optarg, NULL, 0);
			break;
		case 'j':
			n_threads = atoi(optarg);
			if (n_threads < 1 || n_threads > MAX_THREADS)
				n_threads = 2;
			break;
		case 'r':
			replay = optarg;
			break;
		case 'o':
			out_dir = optarg;
			break;
		case 'x':
			stop_at_report = 1;
			break;
		default:
			fprintf(stderr, "usage: %s %s\n", argv[0],
				"[-s SEED] [-n INPUTS] [-j THREADS] [-r FILE] [-o DIR] [-x]");
			return 2;
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	setup();
	if (replay) {
		static struct input in;
		struct worker w;
		FILE *f = fopen(replay, "r");

		if (worker_init(&w) || !f || fread(&in, sizeof(in), 1, f) != 1) {
			fprintf(stderr, "fuzz: cannot read %s\n", replay);
			return 2;
		}
		fclose(f);
		printf("fuzz: replaying input %llu of seed %llu (%s)\n",
		       (unsigned long long)in.index, (unsigned long long)in.seed,
		       target_name[in.target % TGT_COUNT]);
		in_flight[0] = &in;
		apply(&w, &in);
		n_inputs = 1;
		sleep(1);
		check_kmsg();
	} else {
		printf("fuzz: seed %llu, %llu inputs, %d threads\n",
		       (unsigned long long)seed, (unsigned long long)count, n_threads);
		for (t = 0; t < n_threads; t++) {
			args[t] = (struct thread_arg){ t, seed, count };
			pthread_create(&th[t], NULL, worker_main, &args[t]);
		}
		for (t = 0; t < n_threads; t++)
			pthread_join(th[t], NULL);
	}
	teardown();
	sleep(1);
	check_kmsg();
	for (t = 0; t < TGT_COUNT; t++) {
		if (!target_count[t])
			continue;
		printf("fuzz: %-17s %7lu inputs, %6lu us each", target_name[t],
		       target_count[t], target_ns[t] / target_count[t] / 1000);
		if (target_taken[t])
			printf(", %lu taken", target_taken[t]);
		printf("\n");
	}
	printf("fuzz: %lu inputs, %lu reports\n", n_inputs, n_reports);
	return n_reports ? 1 : 0;
}
