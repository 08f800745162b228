// SPDX-License-Identifier: GPL-2.0
/*
 * user_events: BPF tracepoint programs, attached through perf as libbpf
 * and bpftrace attach them (PERF_EVENT_IOC_SET_BPF), run on every record
 * of a user event, small or larger than perf's own buffer, and of a
 * synthetic event, and read the fields at the offsets of the event's
 * format file.  What the program returns decides whether perf records.
 *
 * The program is a few instructions assembled here, so that the test
 * needs no compiler for BPF: it adds one to slot 0 of an array map and
 * the event's first field to slot 1, and returns the field's low bit.
 */
#include <linux/bpf.h>

#include "../kselftest_harness.h"
#include "ue_util.h"

#define SYNTH UE_TRACEFS "/synthetic_events"
#define TRIGGER UE_TRACEFS "/events/user_events/ue_bpf/trigger"
#define COPY "hist:keys=n:onmatch(user_events.ue_bpf).trace(ue_bpf_copy,n)"

/* Just what the program needs of the instruction set */
#define INSN(c, d, s, o, i) \
	((struct bpf_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			    .off = (o), .imm = (i) })
#define MOV64_REG(d, s)		INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOV64_IMM(d, i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define AND64_IMM(d, i)		INSN(BPF_ALU64 | BPF_AND | BPF_K, d, 0, 0, i)
#define ADD64_IMM(d, i)		INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define LDX_W(d, s, o)		INSN(BPF_LDX | BPF_W | BPF_MEM, d, s, o, 0)
#define ST_W(d, o, i)		INSN(BPF_ST | BPF_W | BPF_MEM, d, 0, o, i)
#define XADD_DW(d, s, o)	INSN(BPF_STX | BPF_DW | BPF_ATOMIC, d, s, o, BPF_ADD)
/* A map's fd into d takes two instructions, the second all zero */
#define LD_MAP_FD(d, fd)	INSN(BPF_LD | BPF_DW | BPF_IMM, d, \
				     BPF_PSEUDO_MAP_FD, 0, fd)
#define IMM64_HI()		INSN(0, 0, 0, 0, 0)
#define CALL(f)			INSN(BPF_JMP | BPF_CALL, 0, 0, 0, f)
#define JEQ_IMM(d, i, o)	INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define EXIT()			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

static long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* An array map of two u64 slots */
static int map_create(void)
{
	union bpf_attr attr = {
		.map_type = BPF_MAP_TYPE_ARRAY,
		.key_size = 4,
		.value_size = 8,
		.max_entries = 2,
	};

	return sys_bpf(BPF_MAP_CREATE, &attr);
}

static long long map_get(int map, uint32_t key)
{
	long long value = -1;
	union bpf_attr attr = {
		.map_fd = map,
		.key = (uintptr_t)&key,
		.value = (uintptr_t)&value,
	};

	return sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr) ? -1 : value;
}

/*
 * The program over map: slot 0 += 1, slot 1 += the u32 at offset off of
 * the record; returns that u32 & 1.
 */
static int prog_load(int map, int off, char *log, size_t log_size)
{
	struct bpf_insn insns[] = {
		MOV64_REG(6, 1),
		LDX_W(7, 6, off),
		ST_W(10, -4, 0),
		LD_MAP_FD(1, map),
		IMM64_HI(),
		MOV64_REG(2, 10),
		ADD64_IMM(2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(0, 0, 2),
		MOV64_IMM(1, 1),
		XADD_DW(0, 1, 0),
		ST_W(10, -4, 1),
		LD_MAP_FD(1, map),
		IMM64_HI(),
		MOV64_REG(2, 10),
		ADD64_IMM(2, -4),
		CALL(BPF_FUNC_map_lookup_elem),
		JEQ_IMM(0, 0, 1),
		XADD_DW(0, 7, 0),
		MOV64_REG(0, 7),
		AND64_IMM(0, 1),
		EXIT(),
	};
	union bpf_attr attr = {
		.prog_type = BPF_PROG_TYPE_TRACEPOINT,
		.insns = (uintptr_t)insns,
		.insn_cnt = ARRAY_SIZE(insns),
		.license = (uintptr_t)"GPL",
		.log_buf = (uintptr_t)log,
		.log_size = log_size,
		.log_level = 1,
	};

	return sys_bpf(BPF_PROG_LOAD, &attr);
}

/* A perf event of tracepoint id on this task (ue_perf_open()) with prog */
static int perf_with_prog(int id, int prog)
{
	int fd = ue_perf_open(id);

	if (fd < 0)
		return -1;
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog)) {
		close(fd);
		return -1;
	}
	return fd;
}

FIXTURE(bpf) {
	int fd, map, prog, perf;
	uint32_t idx;
	char log[4096];
};

FIXTURE_SETUP(bpf)
{
	struct UE_STATUS_REG r;

	self->perf = -1;
	self->prog = -1;
	self->fd = ue_open();
	ASSERT_GE(self->fd, 0);
	ASSERT_EQ(0, ue_reg(self->fd, "ue_bpf u32 n", &r));
	self->idx = r.write_index;
	self->map = map_create();
	ASSERT_GE(self->map, 0) TH_LOG("BPF_MAP_CREATE: %s", strerror(errno));
}

FIXTURE_TEARDOWN(bpf)
{
	if (self->perf >= 0)
		close(self->perf);
	ue_write_file(TRIGGER, "!" COPY, 0);
	ue_write_file(SYNTH, "!ue_bpf_copy u32 n", 1);
	close(self->prog);
	close(self->map);
	close(self->fd);
	ue_del("ue_bpf");
}

/* Write ue_bpf with n, in a payload of len bytes (n first) */
static ssize_t emit_n(int fd, uint32_t idx, uint32_t n, size_t len)
{
	static char payload[20000];

	memcpy(payload, &n, sizeof(n));
	return ue_emit(fd, idx, payload, len);
}

/* The first field of a user event follows the 8-byte common header */
TEST_F(bpf, runs_on_every_record)
{
	uint32_t n;

	self->prog = prog_load(self->map, 8, self->log, sizeof(self->log));
	ASSERT_GE(self->prog, 0) TH_LOG("BPF_PROG_LOAD: %s\n%s",
					strerror(errno), self->log);
	self->perf = perf_with_prog(ue_event_id("ue_bpf"), self->prog);
	ASSERT_GE(self->perf, 0) TH_LOG("SET_BPF: %s", strerror(errno));
	for (n = 1; n <= 10; n++)
		ASSERT_EQ(4 + 4, emit_n(self->fd, self->idx, n, 4));
	EXPECT_EQ(10, map_get(self->map, 0));
	EXPECT_EQ(55, map_get(self->map, 1));
	/* perf records what the program let through: the odd ones */
	EXPECT_EQ(5, ue_perf_count(self->perf));

	/* A record larger than perf's 8 KiB buffer takes the other path */
	ASSERT_EQ(4 + 20000, emit_n(self->fd, self->idx, 7, 20000));
	EXPECT_EQ(11, map_get(self->map, 0));
	EXPECT_EQ(62, map_get(self->map, 1));
	EXPECT_EQ(6, ue_perf_count(self->perf));

	/* Detached with its perf event: no longer runs */
	close(self->perf);
	self->perf = -1;
	ASSERT_EQ(4 + 4, emit_n(self->fd, self->idx, 3, 4));
	EXPECT_EQ(11, map_get(self->map, 0));
}

/* A program reads no further than the event's last field */
TEST_F(bpf, reads_within_the_fields)
{
	self->prog = prog_load(self->map, 12, self->log, sizeof(self->log));
	ASSERT_GE(self->prog, 0) TH_LOG("BPF_PROG_LOAD: %s\n%s",
					strerror(errno), self->log);
	self->perf = perf_with_prog(ue_event_id("ue_bpf"), self->prog);
	EXPECT_EQ(-1, self->perf);
	EXPECT_EQ(EACCES, errno);
}

/* A synthetic event fed by the user event's histogram */
TEST_F(bpf, runs_on_synthetic_event)
{
	int id, n;

	ASSERT_EQ(0, ue_write_file(SYNTH, "ue_bpf_copy u32 n", 1));
	ASSERT_EQ(0, ue_write_file(TRIGGER, COPY, 1));
	id = ue_dir_id(UE_TRACEFS "/events/synthetic/ue_bpf_copy");
	ASSERT_GT(id, 0);
	self->prog = prog_load(self->map, 8, self->log, sizeof(self->log));
	ASSERT_GE(self->prog, 0) TH_LOG("BPF_PROG_LOAD: %s\n%s",
					strerror(errno), self->log);
	self->perf = perf_with_prog(id, self->prog);
	ASSERT_GE(self->perf, 0) TH_LOG("SET_BPF: %s", strerror(errno));
	for (n = 1; n <= 6; n++)
		ASSERT_EQ(4 + 4, emit_n(self->fd, self->idx, n, 4));
	EXPECT_EQ(6, map_get(self->map, 0));
	EXPECT_EQ(21, map_get(self->map, 1));
	EXPECT_EQ(3, ue_perf_count(self->perf));
}

TEST_HARNESS_MAIN
