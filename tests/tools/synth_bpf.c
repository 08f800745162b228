// SPDX-License-Identifier: GPL-2.0
/*
 * synth_bpf - BPF programs, assembled here, that fire a synthetic event
 * through the kfuncs bpf_synth_event_lookup(), bpf_synth_event_trace()
 * and bpf_synth_event_release().  Their BTF ids are read from
 * /sys/kernel/btf/vmlinux.  Every program fires NAME with four values,
 * for an event "NAME u64 a; s32 b; char s[8]; char d[]": a and b, the
 * string S (its address) and the string D.
 *
 * synth_bpf fire NAME A B S D [SIZE]
 *	Load a raw tracepoint program and run it once (BPF_PROG_TEST_RUN)
 *	with A and B as its arguments; SIZE is vals__sz (default 32).
 *	Prints "ret N": what the program returned, the return of
 *	bpf_synth_event_trace() or 1000 when the lookup found nothing.
 * synth_bpf switch NAME B S D COUNT
 *	Attach a program to the raw tracepoint sched_switch that fires
 *	NAME with a = the pid of a child, whenever that child is switched
 *	out; the child sleeps COUNT times.  Prints "switched".
 * synth_bpf loop NAME A B S D
 *	As fire, with a tracepoint program attached to NAME's own perf
 *	event (PERF_EVENT_IOC_SET_BPF) that fires NAME again, a = 99.
 * synth_bpf load TYPE NAME
 *	Load only, for program type TYPE: kprobe, tracepoint, raw_tp,
 *	perf_event.  Prints "loaded".
 * synth_bpf refuse CASE NAME
 *	Load a raw tracepoint program the verifier must refuse: CASE is
 *	unreleased (no release), unchecked (no NULL check) or writable
 *	(the name in a map the program may write).  Prints the errno name
 *	and the line of the verifier's log that says why.
 *
 * A step that fails prints "ERRNO step" (EPERM map, say) and exits 1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/perf_event.h>

static const char *errname(int err)
{
	static const struct { int err; const char *name; } names[] = {
		{ EPERM, "EPERM" }, { EACCES, "EACCES" }, { EINVAL, "EINVAL" },
		{ ENOENT, "ENOENT" }, { E2BIG, "E2BIG" }, { EBUSY, "EBUSY" },
		{ 524, "ENOTSUPP" },
	};
	static char other[16];
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].err == err)
			return names[i].name;
	snprintf(other, sizeof(other), "E%d", err);
	return other;
}

static void die(const char *step)
{
	printf("%s %s\n", errname(errno), step);
	exit(1);
}

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* ---- the kfuncs' BTF ids ---- */

/* Bytes after a btf_type of kind @kind with @vlen members. */
static size_t btf_extra(unsigned int kind, unsigned int vlen)
{
	switch (kind) {
	case BTF_KIND_INT: case BTF_KIND_VAR: case BTF_KIND_DECL_TAG:
		return 4;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT: case BTF_KIND_UNION: case BTF_KIND_DATASEC:
		return vlen * 12;
	case BTF_KIND_ENUM: case BTF_KIND_FUNC_PROTO:
		return vlen * 8;
	case BTF_KIND_ENUM64:
		return vlen * 12;
	default:
		return 0;
	}
}

static char *vmlinux_btf;
static size_t vmlinux_btf_len;

static void read_btf(void)
{
	size_t room = 1 << 24;
	ssize_t n;
	int fd = open("/sys/kernel/btf/vmlinux", O_RDONLY);

	if (fd < 0)
		die("btf");
	vmlinux_btf = malloc(room);
	while (vmlinux_btf &&
	       (n = read(fd, vmlinux_btf + vmlinux_btf_len,
			 room - vmlinux_btf_len)) > 0) {
		vmlinux_btf_len += n;
		if (vmlinux_btf_len == room)
			vmlinux_btf = realloc(vmlinux_btf, room *= 2);
	}
	if (!vmlinux_btf || vmlinux_btf_len < sizeof(struct btf_header))
		die("btf");
	close(fd);
}

/* The id of the BTF_KIND_FUNC @name in vmlinux's BTF. */
static int btf_func_id(const char *name)
{
	const struct btf_header *h = (void *)vmlinux_btf;
	const char *types = vmlinux_btf + h->hdr_len + h->type_off;
	const char *strs = vmlinux_btf + h->hdr_len + h->str_off;
	size_t off = 0;
	int id = 1;

	while (off + sizeof(struct btf_type) <= h->type_len) {
		const struct btf_type *t = (void *)(types + off);
		unsigned int kind = BTF_INFO_KIND(t->info);

		if (kind == BTF_KIND_FUNC && t->name_off < h->str_len &&
		    !strcmp(strs + t->name_off, name))
			return id;
		off += sizeof(*t) + btf_extra(kind, BTF_INFO_VLEN(t->info));
		id++;
	}
	errno = ENOENT;
	die(name);
	return -1;
}

/* ---- maps ---- */

#define NAME_OFF	0
#define S_OFF		64
#define D_OFF		128
#define CONST_SIZE	256

/* An array of one CONST_SIZE value holding the name and both strings. */
static int const_map(const char *name, const char *s, const char *d,
		     int readonly)
{
	union bpf_attr attr;
	char value[CONST_SIZE] = "";
	int key = 0, fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_ARRAY;
	attr.key_size = sizeof(key);
	attr.value_size = CONST_SIZE;
	attr.max_entries = 1;
	attr.map_flags = readonly ? BPF_F_RDONLY_PROG : 0;
	fd = sys_bpf(BPF_MAP_CREATE, &attr);
	if (fd < 0)
		die("map");
	strncpy(value + NAME_OFF, name, S_OFF - NAME_OFF - 1);
	strncpy(value + S_OFF, s, D_OFF - S_OFF - 1);
	strncpy(value + D_OFF, d, CONST_SIZE - D_OFF - 1);
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (uintptr_t)&key;
	attr.value = (uintptr_t)value;
	if (sys_bpf(BPF_MAP_UPDATE_ELEM, &attr))
		die("map update");
	if (readonly) {
		memset(&attr, 0, sizeof(attr));
		attr.map_fd = fd;
		if (sys_bpf(BPF_MAP_FREEZE, &attr))
			die("map freeze");
	}
	return fd;
}

/* ---- the programs ---- */

#define MAX_INSNS	64
static struct bpf_insn prog[MAX_INSNS];
static int n_insns;

static void emit(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	struct bpf_insn *i = &prog[n_insns++];

	i->code = code;
	i->dst_reg = dst;
	i->src_reg = src;
	i->off = off;
	i->imm = imm;
}

#define R(n)		(n)
#define FP		10
static void mov_imm(int dst, int32_t imm) { emit(BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm); }
static void mov_reg(int dst, int src) { emit(BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0); }
static void add_imm(int dst, int32_t imm) { emit(BPF_ALU64 | BPF_ADD | BPF_K, dst, 0, 0, imm); }
static void load64(int dst, int src, int16_t off) { emit(BPF_LDX | BPF_MEM | BPF_DW, dst, src, off, 0); }
static void store64(int dst, int16_t off, int src) { emit(BPF_STX | BPF_MEM | BPF_DW, dst, src, off, 0); }
static void kfunc(int id) { emit(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, id); }
static void helper(int nr) { emit(BPF_JMP | BPF_CALL, 0, 0, 0, nr); }
static void exit_insn(void) { emit(BPF_JMP | BPF_EXIT, 0, 0, 0, 0); }

/* dst = the address of byte @off of @map_fd's value */
static void map_value(int dst, int map_fd, int off)
{
	emit(BPF_LD | BPF_DW | BPF_IMM, dst, BPF_PSEUDO_MAP_VALUE, 0, map_fd);
	emit(0, 0, 0, 0, off);
}

/* Jump forward to a label set later by land(). */
static int jump(uint8_t op, int dst, int32_t imm)
{
	emit(BPF_JMP | op | BPF_K, dst, 0, 0, imm);
	return n_insns - 1;
}

static void land(int at)
{
	prog[at].off = n_insns - at - 1;
}

enum shape { FULL, UNRELEASED, UNCHECKED };

/*
 * r6 holds a (and r7's 4th slot, b, is set from r8 by the caller's
 * preamble); build vals at fp-40 (five slots, the last one spare), fire
 * and release.
 */
static void fire_body(int map_fd, int size, enum shape shape)
{
	int lookup = btf_func_id("bpf_synth_event_lookup");
	int trace = btf_func_id("bpf_synth_event_trace");
	int release = btf_func_id("bpf_synth_event_release");
	int found;

	map_value(R(1), map_fd, NAME_OFF);
	kfunc(lookup);
	found = -1;
	if (shape != UNCHECKED) {
		found = jump(BPF_JNE, R(0), 0);
		mov_imm(R(0), 1000);
		exit_insn();
		land(found);
	}
	mov_reg(R(9), R(0));
	mov_imm(R(1), 0);
	store64(FP, -8, R(1));			/* the spare slot, zero */
	store64(FP, -40, R(6));			/* a */
	store64(FP, -32, R(7));			/* b */
	map_value(R(1), map_fd, S_OFF);
	store64(FP, -24, R(1));			/* s */
	map_value(R(1), map_fd, D_OFF);
	store64(FP, -16, R(1));			/* d */
	mov_reg(R(1), R(9));
	mov_reg(R(2), FP);
	add_imm(R(2), -40);
	mov_imm(R(3), size);
	kfunc(trace);
	if (shape == UNRELEASED) {
		exit_insn();
		return;
	}
	mov_reg(R(8), R(0));
	mov_reg(R(1), R(9));
	kfunc(release);
	mov_reg(R(0), R(8));
	exit_insn();
}

static char verifier_log[1 << 16];

static int load(int type, int quiet)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = type;
	attr.insns = (uintptr_t)prog;
	attr.insn_cnt = n_insns;
	attr.license = (uintptr_t)"GPL";
	attr.log_buf = (uintptr_t)verifier_log;
	attr.log_size = sizeof(verifier_log);
	attr.log_level = 1;
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	if (fd < 0 && !quiet) {
		int err = errno;

		fputs(verifier_log, stderr);
		errno = err;
		die("load");
	}
	return fd;
}

/* a and b from the raw tracepoint's first two arguments */
static void args_preamble(void)
{
	load64(R(6), R(1), 0);
	load64(R(7), R(1), 8);
}

static int cmd_fire(char **argv, int argc)
{
	int map = const_map(argv[2], argv[5], argv[6], 1);
	uint64_t ctx[2] = { strtoull(argv[3], NULL, 0), strtoll(argv[4], NULL, 0) };
	union bpf_attr attr;
	int fd;

	args_preamble();
	fire_body(map, argc > 7 ? atoi(argv[7]) : 32, FULL);
	fd = load(BPF_PROG_TYPE_RAW_TRACEPOINT, 0);
	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = fd;
	attr.test.ctx_in = (uintptr_t)ctx;
	attr.test.ctx_size_in = sizeof(ctx);
	if (sys_bpf(BPF_PROG_TEST_RUN, &attr))
		die("run");
	printf("ret %d\n", (int)attr.test.retval);
	return 0;
}

static int cmd_switch(char **argv)
{
	int map = const_map(argv[2], argv[4], argv[5], 1);
	int count = atoi(argv[6]), go[2], skip, status;
	union bpf_attr attr;
	pid_t child;
	char c;
	int fd, tp;

	if (pipe(go))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	if (!child) {
		close(go[1]);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		while (count--)
			usleep(2000);
		_exit(0);
	}
	close(go[0]);
	/* only when the child is switched out: current is still the child */
	helper(BPF_FUNC_get_current_pid_tgid);
	emit(BPF_ALU64 | BPF_RSH | BPF_K, R(0), 0, 0, 32);
	skip = jump(BPF_JEQ, R(0), child);
	mov_imm(R(0), 0);
	exit_insn();
	land(skip);
	mov_reg(R(6), R(0));
	mov_imm(R(7), atoi(argv[3]));
	fire_body(map, 32, FULL);
	fd = load(BPF_PROG_TYPE_RAW_TRACEPOINT, 0);
	memset(&attr, 0, sizeof(attr));
	attr.raw_tracepoint.name = (uintptr_t)"sched_switch";
	attr.raw_tracepoint.prog_fd = fd;
	tp = sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &attr);
	if (tp < 0)
		die("attach");
	if (write(go[1], "g", 1) != 1 || waitpid(child, &status, 0) != child ||
	    !WIFEXITED(status) || WEXITSTATUS(status))
		die("child");
	close(tp);
	printf("switched %d\n", child);
	return 0;
}

static int cmd_load(char **argv)
{
	static const struct { const char *name; int type; } types[] = {
		{ "kprobe", BPF_PROG_TYPE_KPROBE },
		{ "tracepoint", BPF_PROG_TYPE_TRACEPOINT },
		{ "raw_tp", BPF_PROG_TYPE_RAW_TRACEPOINT },
		{ "perf_event", BPF_PROG_TYPE_PERF_EVENT },
	};
	int map = const_map(argv[3], "s", "d", 1);
	unsigned int i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(argv[2], types[i].name))
			break;
	if (i == sizeof(types) / sizeof(types[0])) {
		errno = EINVAL;
		die("type");
	}
	mov_imm(R(6), 1);
	mov_imm(R(7), 2);
	fire_body(map, 32, FULL);
	load(types[i].type, 0);
	printf("loaded\n");
	return 0;
}

/*
 * A tracepoint program on NAME's own perf event, which fires NAME with
 * a = 99, b = 0, then one run of the raw tracepoint program with A and B:
 * the first record's perf probe runs the program, whose record's perf
 * probe cannot run it again.
 */
static int cmd_loop(char **argv)
{
	int map = const_map(argv[2], "loop", "inner", 1);
	struct perf_event_attr pa;
	char path[256], id[32];
	int fd, tpfd, pe;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/synthetic/%s/id",
		 argv[2]);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, id, sizeof(id) - 1);
	if (n <= 0)
		die("id");
	id[n] = 0;
	close(fd);
	memset(&pa, 0, sizeof(pa));
	pa.type = PERF_TYPE_TRACEPOINT;
	pa.size = sizeof(pa);
	pa.config = strtoull(id, NULL, 10);
	pa.sample_period = 1;
	pa.sample_type = PERF_SAMPLE_RAW;
	pa.disabled = 1;
	pe = syscall(__NR_perf_event_open, &pa, 0, -1, -1, 0);
	if (pe < 0)
		die("perf_event_open");
	mov_imm(R(6), 99);
	mov_imm(R(7), 0);
	fire_body(map, 32, FULL);
	tpfd = load(BPF_PROG_TYPE_TRACEPOINT, 0);
	if (ioctl(pe, PERF_EVENT_IOC_SET_BPF, tpfd) || ioctl(pe, PERF_EVENT_IOC_ENABLE, 0))
		die("attach");
	n_insns = 0;
	return cmd_fire(argv, 7);
}

/* The first line of the verifier's log that holds one of @why. */
static const char *log_line(const char *const *why)
{
	static char line[256];
	char *p, *end;

	for (p = verifier_log; *p; p = end + 1) {
		end = strchrnul(p, '\n');
		for (const char *const *w = why; *w; w++)
			if (memmem(p, end - p, *w, strlen(*w))) {
				snprintf(line, sizeof(line), "%.*s", (int)(end - p), p);
				return line;
			}
		if (!*end)
			break;
	}
	return "(no reason in the log)";
}

static int cmd_refuse(char **argv)
{
	static const char *const why[] = {
		"Unreleased reference", "Possibly NULL pointer",
		"does not point to a readonly map", NULL,
	};
	enum shape shape = FULL;
	int writable = 0;

	if (!strcmp(argv[2], "unreleased"))
		shape = UNRELEASED;
	else if (!strcmp(argv[2], "unchecked"))
		shape = UNCHECKED;
	else if (!strcmp(argv[2], "writable"))
		writable = 1;
	else {
		errno = EINVAL;
		die("case");
	}
	args_preamble();
	fire_body(const_map(argv[3], "s", "d", !writable), 32, shape);
	if (load(BPF_PROG_TYPE_RAW_TRACEPOINT, 1) >= 0) {
		printf("loaded\n");
		return 1;
	}
	printf("%s %s\n", errname(errno), log_line(why));
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc >= 7 && !strcmp(argv[1], "fire"))
		return read_btf(), cmd_fire(argv, argc);
	if (argc == 7 && !strcmp(argv[1], "switch"))
		return read_btf(), cmd_switch(argv);
	if (argc == 4 && !strcmp(argv[1], "load"))
		return read_btf(), cmd_load(argv);
	if (argc == 7 && !strcmp(argv[1], "loop"))
		return read_btf(), cmd_loop(argv);
	if (argc == 4 && !strcmp(argv[1], "refuse"))
		return read_btf(), cmd_refuse(argv);
	fprintf(stderr, "usage: see the comment at the top of %s\n", __FILE__);
	return 2;
}
