// SPDX-License-Identifier: GPL-2.0
/*
 * user_events with ftrace: registration, reuse, delete, status bit,
 * exact trace lines for every field type, write errors, fault-in.
 */
#include <linux/memfd.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "ue_util.h"

static void ue_reset(const char *name)
{
	ue_enable(name, 0);
	ue_clear_trace();
	ue_del(name);
}

TEST(register_reuse_delete)
{
	struct user_status_reg r1, r2, r3;
	int fd = ue_open(), fd2 = ue_open();

	ASSERT_GE(fd, 0);
	ASSERT_GE(fd2, 0);
	ue_del("ue_reg_a");
	ue_del("ue_reg_b");

	ASSERT_EQ(0, ue_reg(fd, "ue_reg_a u32 x", &r1));
	EXPECT_NE(0, r1.status_bit);
	EXPECT_EQ(0, r1.write_index);
	/* Same event on the same fd: same bit, same index */
	ASSERT_EQ(0, ue_reg(fd, "ue_reg_a  u32   x;", &r2));
	EXPECT_EQ(r1.status_bit, r2.status_bit);
	EXPECT_EQ(0, r2.write_index);
	/* Another event: next index; another fd: its own index 0 */
	ASSERT_EQ(0, ue_reg(fd, "ue_reg_b", &r3));
	EXPECT_EQ(1, r3.write_index);
	EXPECT_NE(r1.status_bit, r3.status_bit);
	ASSERT_EQ(0, ue_reg(fd2, "ue_reg_b", &r2));
	EXPECT_EQ(0, r2.write_index);
	EXPECT_EQ(r3.status_bit, r2.status_bit);
	/* Same name, other fields */
	EXPECT_EQ(-EADDRINUSE, ue_reg(fd, "ue_reg_a u64 x", &r2));
	EXPECT_EQ(-EADDRINUSE, ue_reg(fd, "ue_reg_a", &r2));

	/* Referenced by fds: busy */
	EXPECT_EQ(-EBUSY, ue_del("ue_reg_a"));
	EXPECT_EQ(-EBUSY, ue_del("ue_reg_b"));
	close(fd);
	EXPECT_EQ(0, ue_del("ue_reg_a"));
	EXPECT_EQ(-ENOENT, ue_del("ue_reg_a"));
	EXPECT_EQ(-EBUSY, ue_del("ue_reg_b"));
	close(fd2);
	EXPECT_EQ(0, ue_del("ue_reg_b"));
	EXPECT_EQ(-1, access(UE_TRACEFS "/events/user_events/ue_reg_a", F_OK));
}

TEST(busy_while_enabled_or_triggered)
{
	struct user_status_reg r;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ue_reset("ue_busy");
	ASSERT_EQ(0, ue_reg(fd, "ue_busy u32 x", &r));
	close(fd);
	ASSERT_EQ(0, ue_enable("ue_busy", 1));
	EXPECT_EQ(-EBUSY, ue_del("ue_busy"));
	ASSERT_EQ(0, ue_enable("ue_busy", 0));
	ASSERT_EQ(0, ue_event_file("ue_busy", "trigger", "traceoff"));
	EXPECT_EQ(-EBUSY, ue_del("ue_busy"));
	ASSERT_EQ(0, ue_event_file("ue_busy", "trigger", "!traceoff"));
	EXPECT_EQ(0, ue_del("ue_busy"));
}

#pragma pack(push, 1)
/* struct user_status_reg and 4 more bytes */
struct ue_big_reg {
	struct user_status_reg r;
	uint32_t extra;
};

/* struct user_status_reg_flags and a byte more */
struct ue_flags_reg {
	struct user_status_reg_flags r;
	uint8_t extra;
};

/* A later status-page layout: user_status_reg_flags, then 16 bytes */
struct ue_status_later {
	struct user_status_reg_flags r;
	uint8_t tail[16];
};

#pragma pack(pop)

TEST(reg_struct_size)
{
	struct ue_big_reg big;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ue_del("ue_size");
	memset(&big, 0, sizeof(big));
	big.r.name_args = (uint64_t)(uintptr_t)"ue_size u32 x";
	big.r.size = sizeof(struct user_status_reg) - 1;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSREG, &big));
	EXPECT_EQ(EINVAL, errno);
	big.r.size = sizeof(big);
	/* The four bytes after it are the flags of user_status_reg_flags */
	big.extra = 1;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSREG, &big));
	EXPECT_EQ(EINVAL, errno);
	big.extra = 0;
	EXPECT_EQ(0, ioctl(fd, DIAG_IOCSREG, &big));
	EXPECT_NE(0, big.r.status_bit);
	EXPECT_EQ(0, big.r.write_index);
	EXPECT_EQ(20, sizeof(struct user_status_reg));
	/* name_args pointing nowhere */
	big.r.name_args = 8;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSREG, &big));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, ioctl(fd, _IO('*', 9)));
	EXPECT_EQ(ENOTTY, errno);
	close(fd);
	EXPECT_EQ(0, ue_del("ue_size"));
}

/* The status-page layout with flags takes REPORT_LOSS only */
TEST(reg_status_flags)
{
	struct ue_flags_reg f = {
		.r.size = sizeof(f.r),
		.r.name_args = (uintptr_t)"ue_size u32 x",
		.r.flags = USER_EVENT_REG_PERSIST,
	};
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ue_del("ue_size");
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSREG, &f));
	EXPECT_EQ(EINVAL, errno);
	f.r.flags = USER_EVENT_REG_MAX;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSREG, &f));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(0, ue_exists("ue_size"));
	f.r.flags = USER_EVENT_REG_REPORT_LOSS;
	EXPECT_EQ(0, ioctl(fd, DIAG_IOCSREG, &f));
	EXPECT_NE(0, f.r.status_bit);
	EXPECT_EQ(0, f.r.write_index);
	/* 25 bytes: a byte the kernel does not know, not 0 */
	f.r.size = sizeof(f);
	f.extra = 1;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSREG, &f));
	EXPECT_EQ(E2BIG, errno);
	close(fd);
	EXPECT_EQ(0, ue_del("ue_size"));
}

/*
 * DIAG_IOCSSTATUS takes the status-page layout at any size, where
 * DIAG_IOCSREG would read 28 bytes and more as remote write: bytes past
 * the flags must be 0, as for any extensible layout.
 */
TEST(reg_status_any_size)
{
	struct ue_status_later l;
	const uint8_t *page = ue_map_status();
	uint32_t bit;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ASSERT_NE(NULL, page);
	ue_del("ue_later");
	memset(&l, 0, sizeof(l));
	l.r.name_args = (uintptr_t)"ue_later u32 x";
	l.r.size = sizeof(struct user_status_reg) - 1;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSSTATUS, &l));
	EXPECT_EQ(EINVAL, errno);
	l.r.size = sysconf(_SC_PAGESIZE) + 1;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSSTATUS, &l));
	EXPECT_EQ(E2BIG, errno);
	EXPECT_EQ(0, ue_exists("ue_later"));

	l.r.size = sizeof(struct user_status_reg);
	ASSERT_EQ(0, ioctl(fd, DIAG_IOCSSTATUS, &l));
	/* one event on one fd: one index, whatever the layout */
	bit = l.r.status_bit;
	EXPECT_NE(0, bit);
	EXPECT_EQ(0, l.r.write_index);
	l.r.size = sizeof(struct user_status_reg_flags);
	l.r.flags = USER_EVENT_REG_REPORT_LOSS;
	ASSERT_EQ(0, ioctl(fd, DIAG_IOCSSTATUS, &l));
	EXPECT_EQ(bit, l.r.status_bit);
	EXPECT_EQ(0, l.r.write_index);
	/* 40 bytes: a status-page registration, not a remote-write one */
	l.r.size = sizeof(l);
	ASSERT_EQ(0, ioctl(fd, DIAG_IOCSSTATUS, &l));
	EXPECT_EQ(bit, l.r.status_bit);
	EXPECT_EQ(0, l.r.write_index);
	l.tail[15] = 1;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSSTATUS, &l));
	EXPECT_EQ(E2BIG, errno);
	l.tail[15] = 0;
	l.r.flags = USER_EVENT_REG_PERSIST;
	EXPECT_EQ(-1, ioctl(fd, DIAG_IOCSSTATUS, &l));
	EXPECT_EQ(EINVAL, errno);

	/* The bit it gave follows the event */
	EXPECT_EQ(0, ue_bit_set(page, bit));
	ASSERT_EQ(0, ue_enable("ue_later", 1));
	EXPECT_EQ(1, ue_bit_set(page, bit));
	ASSERT_EQ(0, ue_enable("ue_later", 0));
	EXPECT_EQ(0, ue_bit_set(page, bit));
	close(fd);
	EXPECT_EQ(0, ue_del("ue_later"));
}

TEST(bad_commands)
{
	static const char * const bad[] = {
		"", " ", "ue_bad-name u32 a", "ue_bad:FLAG u32 a",
		"ue_bad long a", "ue_bad unsigned long a", "ue_bad u32",
		"ue_bad u32 a 4", "ue_bad struct foo a", "ue_bad struct foo a 0",
		"ue_bad struct foo a 99999", "ue_bad char[0] a",
		"ue_bad char[5000] a", "ue_bad char[x] a", "ue_bad u32[4] a",
		"ue_bad char[] a", "ue_bad __data_loc char a",
		"ue_bad __data_loc char[4] a", "ue_bad float a", "ue_bad u32 a; u8 a",
		"ue_bad u32 1a", "ue_bad u32 a b c", "ue_bad u32 common_pid",
		"ue_bad __data_loc", "ue_bad unsigned char[3",
	};
	struct user_status_reg r;
	unsigned int i;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, ue_reg(fd, bad[i], &r)) {
			TH_LOG("command '%s'", bad[i]);
		}
	}
	EXPECT_EQ(-1, access(UE_TRACEFS "/events/user_events/ue_bad", F_OK));
	EXPECT_EQ(-ENOENT, ue_del("ue_bad"));
	close(fd);
}

TEST(good_commands)
{
	static const char * const good[] = {
		"ue_good1", "ue_good2:", "ue_good3 u8 a;", "ue_good4 ;u8 a;;u16 b",
		"ue_good5 unsigned char[0x10] a", "ue_good6 struct s a 0x20",
		"ue_good7 __rel_loc unsigned char[] a", "ue_good8 __data_loc s64[] a",
	};
	char name[16];
	struct user_status_reg r;
	unsigned int i;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		EXPECT_EQ(0, ue_reg(fd, good[i], &r)) {
			TH_LOG("'%s'", good[i]);
		}
	}
	close(fd);
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		snprintf(name, sizeof(name), "ue_good%u", i + 1);
		EXPECT_EQ(0, ue_del(name));
	}
}

#define UE_INST_ENABLE \
	UE_TRACEFS "/instances/ue_inst/events/user_events/ue_bit/enable"

TEST(status_bit_follows_ftrace)
{
	const uint8_t *page = ue_map_status();
	struct user_status_reg r;
	int fd = ue_open();

	ASSERT_NE(NULL, page);
	ASSERT_GE(fd, 0);
	ue_reset("ue_bit");
	ASSERT_EQ(0, ue_reg(fd, "ue_bit u32 x", &r));
	EXPECT_EQ(0, ue_bit_set(page, r.status_bit));
	EXPECT_EQ(0, ue_bit_set(page, 0));
	ASSERT_EQ(0, ue_enable("ue_bit", 1));
	EXPECT_EQ(1, ue_bit_set(page, r.status_bit));
	EXPECT_EQ(0, ue_bit_set(page, 0));
	ASSERT_EQ(0, ue_enable("ue_bit", 0));
	EXPECT_EQ(0, ue_bit_set(page, r.status_bit));
	/* Triggers put the event in soft mode: consumed too */
	ASSERT_EQ(0, ue_event_file("ue_bit", "trigger", "traceoff if x == 99"));
	EXPECT_EQ(1, ue_bit_set(page, r.status_bit));
	ASSERT_EQ(0, ue_event_file("ue_bit", "trigger", "!traceoff if x == 99"));
	EXPECT_EQ(0, ue_bit_set(page, r.status_bit));
	/* A histogram too */
	ASSERT_EQ(0, ue_event_file("ue_bit", "trigger", "hist:keys=x"));
	EXPECT_EQ(1, ue_bit_set(page, r.status_bit));
	ASSERT_EQ(0, ue_event_file("ue_bit", "trigger", "!hist:keys=x"));
	EXPECT_EQ(0, ue_bit_set(page, r.status_bit));
	/* An instance enabling it counts as well */
	ASSERT_EQ(0, mkdir(UE_TRACEFS "/instances/ue_inst", 0755));
	ASSERT_EQ(0, ue_write_file(UE_INST_ENABLE, "1", 0));
	ASSERT_EQ(0, ue_enable("ue_bit", 1));
	EXPECT_EQ(1, ue_bit_set(page, r.status_bit));
	ASSERT_EQ(0, ue_write_file(UE_INST_ENABLE, "0", 0));
	EXPECT_EQ(1, ue_bit_set(page, r.status_bit));
	ASSERT_EQ(0, ue_enable("ue_bit", 0));
	EXPECT_EQ(0, ue_bit_set(page, r.status_bit));
	ASSERT_EQ(0, rmdir(UE_TRACEFS "/instances/ue_inst"));
	close(fd);
	EXPECT_EQ(0, ue_del("ue_bit"));
}

#pragma pack(push, 1)
struct ue_types {
	uint8_t a; int8_t b; uint16_t c; int16_t d; uint32_t e; int32_t f;
	uint64_t g; int64_t h; char i; unsigned char j; short k;
	unsigned short l; int m; unsigned int n; char o[6];
	unsigned char p[4]; uint8_t q[3]; uint32_t r; uint32_t s; uint32_t t;
	char rdata[6]; char sdata[3]; uint8_t tdata[2];
};

#pragma pack(pop)

#define UE_TYPES_CMD "ue_types u8 a; s8 b; u16 c; s16 d; u32 e; s32 f; " \
	"u64 g; s64 h; char i; unsigned char j; short k; unsigned short l; " \
	"int m; unsigned int n; char[6] o; unsigned char[0x4] p; " \
	"struct foo q 3; __data_loc char[] r; __rel_loc char[] s; " \
	"__data_loc u8[] t"

#define UE_TYPES_LINE \
	"a=200 b=-5 c=60000 d=-300 e=4000000000 f=-70000 g=18446744073709551615 h=-9000000000 i=120 j=250 k=-2 l=65535 m=-1 n=7 o=hi p=abcd q=01 02 03 r=hello s=ab t=de ad"

/* Record offset (with the 8-byte common header) of payload member m */
#define UE_REC(m) (8 + __builtin_offsetof(struct ue_types, m))

static void ue_types_fill(struct ue_types *t)
{
	memset(t, 0, sizeof(*t));
	t->a = 200; t->b = -5; t->c = 60000; t->d = -300;
	t->e = 4000000000u; t->f = -70000; t->g = UINT64_MAX;
	t->h = -9000000000ll; t->i = 'x'; t->j = 250; t->k = -2;
	t->l = 65535; t->m = -1; t->n = 7;
	memcpy(t->o, "hi", 2);
	memcpy(t->p, "abcd", 4);
	t->q[0] = 1; t->q[1] = 2; t->q[2] = 3;
	memcpy(t->rdata, "hello", 6);
	memcpy(t->sdata, "ab", 3);
	t->tdata[0] = 0xde; t->tdata[1] = 0xad;
	t->r = DYN_LOC(UE_REC(rdata), 6);
	t->s = DYN_LOC(UE_REC(sdata) - (UE_REC(s) + 4), 3);
	t->t = DYN_LOC(UE_REC(tdata), 2);
}

TEST(trace_line_every_type)
{
	struct ue_types t;
	struct user_status_reg r;
	char *line;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ue_reset("ue_types");
	ASSERT_EQ(0, ue_reg(fd, UE_TYPES_CMD, &r));
	ASSERT_EQ(0, ue_enable("ue_types", 1));
	ue_types_fill(&t);
	EXPECT_EQ(4 + sizeof(t), ue_emit(fd, r.write_index, &t, sizeof(t)));
	line = ue_trace_line("ue_types", 0, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ(UE_TYPES_LINE, line);
	free(line);
	/* The filter sees the fields too */
	ASSERT_EQ(0, ue_event_file("ue_types", "filter", "r == \"bye\""));
	EXPECT_EQ(4 + sizeof(t), ue_emit(fd, r.write_index, &t, sizeof(t)));
	EXPECT_EQ(1, ue_trace_count("ue_types"));
	ASSERT_EQ(0, ue_event_file("ue_types", "filter", "r == \"hello\" && e == 4000000000"));
	EXPECT_EQ(4 + sizeof(t), ue_emit(fd, r.write_index, &t, sizeof(t)));
	EXPECT_EQ(2, ue_trace_count("ue_types"));
	ASSERT_EQ(0, ue_event_file("ue_types", "filter", "0"));
	close(fd);
	ue_reset("ue_types");
}

/*
 * Histograms key on a user event's strings: a __data_loc and a
 * __rel_loc string and a char[N], found through the loc words the
 * writer supplied; values sum a u32 of the payload.
 */
TEST(hist_string_keys)
{
	static const char *const rs[] = { "hello", "howdy", "hello", "hello" };
	static const char *const ss[] = { "ab", "ab", "cd", "ab" };
	static const char path[] = UE_TRACEFS "/events/user_events/ue_types/trigger";
	char want[1024], *hist;
	struct ue_types t;
	struct user_status_reg r;
	int fd = ue_open(), i;

	ASSERT_GE(fd, 0);
	ue_reset("ue_types");
	ASSERT_EQ(0, ue_reg(fd, UE_TYPES_CMD, &r));
	ASSERT_EQ(0, ue_write_file(path, "hist:keys=r,o:vals=e:sort=r", 1));
	ASSERT_EQ(0, ue_write_file(path, "hist:keys=s:vals=e:sort=s.descending", 1));
	for (i = 0; i < 4; i++) {
		ue_types_fill(&t);
		memcpy(t.rdata, rs[i], 6);
		memcpy(t.sdata, ss[i], 3);
		t.e = i + 1;
		EXPECT_EQ(4 + sizeof(t), ue_emit(fd, r.write_index, &t, sizeof(t)));
	}
	hist = ue_read_file(UE_TRACEFS "/events/user_events/ue_types/hist");
	ASSERT_NE(NULL, hist);
	snprintf(want, sizeof(want),
		 "{ r: %-50s, o: %-50s } hitcount: %10u  e: %10u\n"
		 "{ r: %-50s, o: %-50s } hitcount: %10u  e: %10u\n",
		 "hello", "hi", 3, 8, "howdy", "hi", 1, 2);
	EXPECT_NE(NULL, strstr(hist, want)) TH_LOG("%s", hist);
	snprintf(want, sizeof(want),
		 "{ s: %-50s } hitcount: %10u  e: %10u\n"
		 "{ s: %-50s } hitcount: %10u  e: %10u\n",
		 "cd", 1, 3, "ab", 3, 7);
	EXPECT_NE(NULL, strstr(hist, want)) TH_LOG("%s", hist);
	free(hist);
	ASSERT_EQ(0, ue_event_file("ue_types", "trigger", ""));
	close(fd);
	ue_reset("ue_types");
}

/* An address with nothing mapped */
static void *ue_unmapped(void)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(p, 4096);
	return p;
}

TEST(write_errors_record_nothing)
{
	void *bad_ptr = ue_unmapped();
	struct ue_types t;
	struct user_status_reg r;
	char *big;
	int fd = ue_open(), idx;

	ASSERT_GE(fd, 0);
	ue_reset("ue_types");
	ASSERT_EQ(0, ue_reg(fd, UE_TYPES_CMD, &r));
	ASSERT_EQ(0, ue_enable("ue_types", 1));

	/* No room for the index: write() and writev() */
	EXPECT_EQ(-1, write(fd, "ab", 2));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_EQ(-1, writev(fd, &(struct iovec){ "abc", 3 }, 1));
	EXPECT_EQ(EFAULT, errno);
	/* Unknown and negative index */
	ue_types_fill(&t);
	EXPECT_EQ(-ENOENT, ue_emit(fd, 7, &t, sizeof(t)));
	EXPECT_EQ(-EINVAL, ue_emit(fd, (uint32_t)-1, &t, sizeof(t)));
	/* Payload shorter than the fixed fields */
	EXPECT_EQ(-EINVAL, ue_emit(fd, r.write_index, &t, 76 - 8));
	/* data_loc beyond the payload */
	t.r = DYN_LOC(UE_REC(rdata), 60);
	EXPECT_EQ(-EFAULT, ue_emit(fd, r.write_index, &t, sizeof(t)));
	/* data_loc into the fixed fields */
	ue_types_fill(&t);
	t.r = DYN_LOC(8, 2);
	EXPECT_EQ(-EFAULT, ue_emit(fd, r.write_index, &t, sizeof(t)));
	/* string not NUL terminated */
	ue_types_fill(&t);
	t.rdata[5] = 'x';
	EXPECT_EQ(-EFAULT, ue_emit(fd, r.write_index, &t, sizeof(t)));
	/* empty loc string */
	ue_types_fill(&t);
	t.r = DYN_LOC(UE_REC(rdata), 0);
	EXPECT_EQ(-EFAULT, ue_emit(fd, r.write_index, &t, sizeof(t)));
	/* rel_loc beyond the payload */
	ue_types_fill(&t);
	t.s = DYN_LOC(UE_REC(sdata) - (UE_REC(s) + 4), 4);
	EXPECT_EQ(-EFAULT, ue_emit(fd, r.write_index, &t, sizeof(t)));
	/* Unmapped payload */
	EXPECT_EQ(-EFAULT, ue_emit(fd, r.write_index, bad_ptr, sizeof(t)));
	/* Index itself unreadable */
	EXPECT_EQ(-1, write(fd, bad_ptr, 8));
	EXPECT_EQ(EFAULT, errno);
	/* Too large */
	big = calloc(1, 8192);
	ASSERT_NE(NULL, big);
	memcpy(big, &t, sizeof(t));
	EXPECT_EQ(-E2BIG, ue_emit(fd, r.write_index, big, 8192));
	free(big);
	EXPECT_EQ(0, ue_trace_count("ue_types"));

	/* A fd that never registered knows no index */
	idx = ue_open();
	ASSERT_GE(idx, 0);
	EXPECT_EQ(-ENOENT, ue_emit(idx, 0, &t, sizeof(t)));
	close(idx);
	close(fd);
	ue_reset("ue_types");
}

TEST(disabled_write_records_nothing)
{
	uint32_t v = 5, two[2] = { 6, 7 }, buf[2] = { 0, 9 };
	struct user_status_reg r;
	char *line;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ue_reset("ue_off");
	ASSERT_EQ(0, ue_reg(fd, "ue_off u32 v", &r));
	EXPECT_EQ(8, ue_emit(fd, r.write_index, &v, 4));
	ASSERT_EQ(0, ue_enable("ue_off", 1));
	ASSERT_EQ(0, ue_enable("ue_off", 0));
	EXPECT_EQ(8, ue_emit(fd, r.write_index, &v, 4));
	EXPECT_EQ(0, ue_trace_count("ue_off"));
	/* Extra bytes past the fixed fields are accepted */
	ASSERT_EQ(0, ue_enable("ue_off", 1));
	EXPECT_EQ(12, ue_emit(fd, r.write_index, two, 8));
	line = ue_trace_line("ue_off", 0, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("v=6", line);
	free(line);
	/* Plain write(): index then payload in one buffer */
	buf[0] = r.write_index;
	EXPECT_EQ(8, write(fd, buf, 8));
	line = ue_trace_line("ue_off", 1, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("v=9", line);
	free(line);
	close(fd);
	ue_reset("ue_off");
}

TEST(event_without_fields)
{
	struct user_status_reg r;
	char *line;
	int fd = ue_open(), n;

	ASSERT_GE(fd, 0);
	ue_reset("ue_empty");
	ASSERT_EQ(0, ue_reg(fd, "ue_empty", &r));
	ASSERT_EQ(0, ue_enable("ue_empty", 1));
	/* Only the index: write() and a one-vector writev() */
	EXPECT_EQ(4, write(fd, &r.write_index, 4));
	EXPECT_EQ(4, ue_emit(fd, r.write_index, NULL, 0));
	/* Extra bytes are kept in the record but there is nothing to show */
	EXPECT_EQ(7, ue_emit(fd, r.write_index, "abc", 3));
	line = ue_trace_line("ue_empty", 2, &n);
	EXPECT_EQ(3, n);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("", line);
	free(line);
	close(fd);
	ue_reset("ue_empty");
}

/*
 * The data file has no position: pwrite() and pwritev() write the event
 * as write() does, their offset ignored, lseek() fails with ESPIPE, and
 * the position /proc shows stays 0.
 */
TEST(data_file_has_no_position)
{
	uint32_t buf[2] = { 0, 31 }, v = 32;
	struct user_status_reg r;
	struct iovec io[2];
	char path[64], *line, *info;
	int fd = ue_open(), i;

	ASSERT_GE(fd, 0);
	ue_reset("ue_pos");
	ASSERT_EQ(0, ue_reg(fd, "ue_pos u32 v", &r));
	ASSERT_EQ(0, ue_enable("ue_pos", 1));
	buf[0] = r.write_index;
	EXPECT_EQ(8, pwrite(fd, buf, 8, 12345));
	io[0].iov_base = &r.write_index;
	io[0].iov_len = 4;
	io[1].iov_base = &v;
	io[1].iov_len = 4;
	EXPECT_EQ(8, pwritev(fd, io, 2, 4096));
	EXPECT_EQ(8, write(fd, buf, 8));
	EXPECT_EQ(-1, lseek(fd, 0, SEEK_SET));
	EXPECT_EQ(ESPIPE, errno);
	for (i = 0; i < 3; i++) {
		line = ue_trace_line("ue_pos", i, NULL);
		ASSERT_NE(NULL, line);
		EXPECT_STREQ(i == 1 ? "v=32" : "v=31", line);
		free(line);
	}
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	info = ue_read_file(path);
	ASSERT_NE(NULL, info);
	EXPECT_EQ(0, strncmp(info, "pos:\t0\n", 7));
	free(info);
	close(fd);
	ue_reset("ue_pos");
}

/*
 * A shared page of a memfd holding len bytes of data, written through the
 * file: in the page cache but not yet mapped in our page table.  The
 * mapping keeps the file.  MAP_FAILED on error.
 */
static void *ue_memfd_page(long psz, const void *data, size_t len)
{
	int mfd = syscall(SYS_memfd_create, "ue", 0);
	void *p = MAP_FAILED;

	if (mfd < 0)
		return MAP_FAILED;
	if (!ftruncate(mfd, psz) && pwrite(mfd, data, len, 0) == (ssize_t)len)
		p = mmap(NULL, psz, PROT_READ, MAP_SHARED, mfd, 0);
	close(mfd);
	return p;
}

TEST(fault_in_payload)
{
	long psz = sysconf(_SC_PAGESIZE);
	struct user_status_reg r;
	char *line;
	uint32_t *p, v = 4242;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ue_reset("ue_fault");
	ASSERT_EQ(0, ue_reg(fd, "ue_fault u32 v", &r));
	ASSERT_EQ(0, ue_enable("ue_fault", 1));

	/* Shared memory filled through the file, not mapped yet */
	p = ue_memfd_page(psz, &v, 4);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(8, ue_emit(fd, r.write_index, p, 4));
	/* Dropped again (where madvise exists): content stays */
	madvise(p, psz, MADV_DONTNEED);
	EXPECT_EQ(8, ue_emit(fd, r.write_index, p, 4));

	/* Anonymous memory never touched: reads as zero */
	munmap(p, psz);
	p = mmap(NULL, psz, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(8, ue_emit(fd, r.write_index, p, 4));
	munmap(p, psz);
	/* And once gone: -EFAULT */
	EXPECT_EQ(-EFAULT, ue_emit(fd, r.write_index, p, 4));

	line = ue_trace_line("ue_fault", 0, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("v=4242", line);
	free(line);
	line = ue_trace_line("ue_fault", 1, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("v=4242", line);
	free(line);
	line = ue_trace_line("ue_fault", 2, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("v=0", line);
	free(line);
	EXPECT_EQ(3, ue_trace_count("ue_fault"));
	close(fd);
	ue_reset("ue_fault");
}

/*
 * The word-sized copy of short segments, through write() and writev():
 * a segment at a kernel address, one past the top of the user half, one
 * running into an unmapped page, each -EFAULT with nothing recorded;
 * write() of a buffer whose page is not mapped yet is faulted in.
 */
TEST(short_segments_fault_or_refuse)
{
	long psz = sysconf(_SC_PAGESIZE);
	uint64_t a = 1, b = 2;
	uint32_t c = 3;
	char rec[24];	/* index, a, b, c: no padding */
	void *kernel = (void *)0xffff888000000000ul;
	void *top = (void *)((1ul << 47) - 16);
	struct user_status_reg r;
	char *page, *line;
	uint32_t *p;
	int fd = ue_open();

	ASSERT_GE(fd, 0);
	ue_reset("ue_seg");
	/* 20 bytes: a word copy of 8 + 8 + 4 */
	ASSERT_EQ(0, ue_reg(fd, "ue_seg u64 a; u64 b; u32 c", &r));
	ASSERT_EQ(0, ue_enable("ue_seg", 1));

	EXPECT_EQ(-EFAULT, ue_emit(fd, r.write_index, kernel, 20));
	EXPECT_EQ(-EFAULT, ue_emit(fd, r.write_index, kernel, 22));
	EXPECT_EQ(-EFAULT, ue_emit(fd, r.write_index, top, 20));
	EXPECT_EQ(-1, write(fd, kernel, 24));
	EXPECT_EQ(EFAULT, errno);

	/* A payload that runs into a page that is gone */
	page = mmap(NULL, 2 * psz, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, page);
	ASSERT_EQ(0, munmap(page + psz, psz));
	p = (uint32_t *)(page + psz - 16);
	p[0] = r.write_index;
	EXPECT_EQ(-EFAULT, ue_emit(fd, r.write_index, p, 20));
	EXPECT_EQ(-1, write(fd, p, 24));
	EXPECT_EQ(EFAULT, errno);
	munmap(page, psz);
	EXPECT_EQ(0, ue_trace_count("ue_seg"));

	/* write() of a shared page filled behind the mapping's back */
	memcpy(rec, &r.write_index, 4);
	memcpy(rec + 4, &a, 8);
	memcpy(rec + 12, &b, 8);
	memcpy(rec + 20, &c, 4);
	p = ue_memfd_page(psz, rec, sizeof(rec));
	ASSERT_NE(MAP_FAILED, p);
	EXPECT_EQ(24, write(fd, p, 24));
	munmap(p, psz);

	line = ue_trace_line("ue_seg", 0, NULL);
	ASSERT_NE(NULL, line);
	EXPECT_STREQ("a=1 b=2 c=3", line);
	free(line);
	EXPECT_EQ(1, ue_trace_count("ue_seg"));
	close(fd);
	ue_reset("ue_seg");
}

TEST_HARNESS_MAIN
