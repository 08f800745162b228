// SPDX-License-Identifier: GPL-2.0
/*
 * user_events costs: the disabled check a program makes before writing, a
 * writev() of an event nobody consumes, and the enabled writes a program
 * makes: a u32 + u64 + char[16] event as four iovecs and as one write(), a
 * 1 KiB string event, and the first event with perf attached beside ftrace.
 * trace_marker and a writev() to /dev/null are the reference points.
 *
 * Runs on either ABI: the status-page one (our kernel) and the
 * remote-write one (the base kernel and ours), tried in that order at
 * registration; our <linux/user_events.h> defines both layouts.
 *
 * "user_events_bench profile" sets the event up, enables it, prints
 * PROF-READY and writes it for ever (tests/profile/ue_writev.sh).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <linux/user_events.h>
#include "bench.h"

#define ITERS 20000
#define TRACEFS "/sys/kernel/tracing"
#define STR_LEN 1024

/* A registered event: where its enabled flag lives, whichever the ABI */
struct ue {
	const char *name;
	const char *cmd;
	const __u8 *flag_byte;
	__u8 flag_mask;
	__u32 remote_word;
	__u32 index;
};

static struct ue ev = {
	.name = "bench_ev", .cmd = "bench_ev u32 a; u64 b; char[16] c"
};
static struct ue str_ev = {
	.name = "bench_str", .cmd = "bench_str __data_loc char[] s"
};

static int data_fd, null_fd, marker_fd;

/* bench_ev as four iovecs (index, a, b, c) and as one packed write() */
static __u32 ev_a = 1;
static __u64 ev_b = 2;
static char ev_c[16] = "sixteen chars..";
static struct iovec ev_io[4];
#pragma pack(push, 1)
static struct {
	__u32 index;
	__u32 a;
	__u64 b;
	char c[16];
} ev_flat = { 0, 1, 2, "sixteen chars.." };
#pragma pack(pop)

/*
 * bench_str: index, __data_loc word, 1 KiB string with its NUL.  The loc's
 * offset counts from the start of the record: the 8-byte common header and
 * the loc word come first.
 */
static __u32 str_loc = (STR_LEN << 16) | 12;
static char str_buf[STR_LEN];
static struct iovec str_io[3];

static int ue_register(struct ue *e, const char **abi)
{
	struct user_status_reg s = { .size = sizeof(s) };
	struct user_reg r = { .size = sizeof(r) };

	s.name_args = (__u64)(uintptr_t)e->cmd;
	if (!ioctl(data_fd, DIAG_IOCSREG, &s)) {
		int sfd = open(TRACEFS "/user_events_status", O_RDONLY);
		void *page;

		if (sfd < 0)
			return -1;
		page = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
			    sfd, 0);
		close(sfd);
		if (page == MAP_FAILED)
			return -1;
		e->flag_byte = (__u8 *)page + s.status_bit / 8;
		e->flag_mask = 1 << (s.status_bit % 8);
		e->index = s.write_index;
		*abi = "status-page";
		return 0;
	}
	r.enable_bit = 0;
	r.enable_size = sizeof(e->remote_word);
	r.enable_addr = (__u64)(uintptr_t)&e->remote_word;
	r.name_args = (__u64)(uintptr_t)e->cmd;
	if (!ioctl(data_fd, DIAG_IOCSREG, &r)) {
		e->flag_byte = (const __u8 *)&e->remote_word;
		e->flag_mask = 1;
		e->index = r.write_index;
		*abi = "remote-write";
		return 0;
	}
	return -1;
}

static int ue_event_file(const struct ue *e, const char *file, char *path,
			 size_t size)
{
	return snprintf(path, size, TRACEFS "/events/user_events/%s/%s",
			e->name, file) < (int)size ? 0 : -1;
}

static int ue_set_enable(const struct ue *e, const char *val)
{
	char path[128];

	if (ue_event_file(e, "enable", path, sizeof(path)))
		return -1;
	return bench_put(path, val, O_TRUNC);
}

/* What an instrumented program does at each event site */
static inline int ue_enabled(const struct ue *e)
{
	return __atomic_load_n(e->flag_byte, __ATOMIC_RELAXED) & e->flag_mask;
}

static void fire_null(long i)
{
	(void)i;
	writev(null_fd, ev_io, 4);
}

/*
 * trace_marker takes text: as many bytes as the user event's payload
 * (u32, u64, char[16]), so that the two copy and record the same size.
 */
static void fire_marker(long i)
{
	static const char msg[] = "a=1 b=2 c=[sixteen chars...]";

	_Static_assert(sizeof(msg) - 1 == sizeof(ev_flat) - sizeof(ev_flat.index),
		       "the marker text is as long as the payload");
	(void)i;
	write(marker_fd, msg, sizeof(msg) - 1);
}

static void fire_check(long i)
{
	(void)i;
	if (ue_enabled(&ev))
		writev(data_fd, ev_io, 4);
}

static void fire_writev(long i)
{
	(void)i;
	writev(data_fd, ev_io, 4);
}

static void fire_null_write(long i)
{
	(void)i;
	write(null_fd, &ev_flat, sizeof(ev_flat));
}

/* Index and payload as two iovecs: a program that packs its fields */
static void fire_writev_2(long i)
{
	struct iovec io[2] = {
		{ &ev_flat.index, sizeof(ev_flat.index) },
		{ &ev_flat.a, sizeof(ev_flat) - sizeof(ev_flat.index) },
	};

	(void)i;
	writev(data_fd, io, 2);
}

static void fire_write(long i)
{
	(void)i;
	write(data_fd, &ev_flat, sizeof(ev_flat));
}

static void fire_string(long i)
{
	(void)i;
	writev(data_fd, str_io, 3);
}

static double run(const char *name, void (*fire)(long), long iters)
{
	double ns = bench_loop_ns(fire, iters);

	printf("BENCH %s %.1f ns\n", name, ns);
	fflush(stdout);
	return ns;
}

/*
 * Attach perf to e on this task; its buffer is mapped read-only, so it
 * overwrites and every write costs the same.  Returns the fd or -1.
 */
static int perf_attach(const struct ue *e)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.sample_period = 1,
		.sample_type = PERF_SAMPLE_RAW,
	};
	char path[128], id[32];
	ssize_t n;
	int fd;

	if (ue_event_file(e, "id", path, sizeof(path)))
		return -1;
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, id, sizeof(id) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	id[n] = '\0';
	sscanf(id, "%llu", &attr.config);
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
	if (fd < 0)
		return -1;
	if (mmap(NULL, 9 * sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd,
		 0) == MAP_FAILED) {
		close(fd);
		return -1;
	}
	return fd;
}

static int setup(void)
{
	const char *abi = "none";

	data_fd = open(TRACEFS "/user_events_data", O_RDWR);
	null_fd = open("/dev/null", O_WRONLY);
	marker_fd = open(TRACEFS "/trace_marker", O_WRONLY);
	if (data_fd < 0 || null_fd < 0 || marker_fd < 0) {
		perror("open");
		return -1;
	}
	if (ue_register(&ev, &abi) || ue_register(&str_ev, &abi)) {
		perror("register");
		return -1;
	}
	fprintf(stderr, "user_events ABI: %s\n", abi);
	ev_io[0] = (struct iovec){ &ev.index, sizeof(ev.index) };
	ev_io[1] = (struct iovec){ &ev_a, sizeof(ev_a) };
	ev_io[2] = (struct iovec){ &ev_b, sizeof(ev_b) };
	ev_io[3] = (struct iovec){ ev_c, sizeof(ev_c) };
	ev_flat.index = ev.index;
	memset(str_buf, 'x', sizeof(str_buf) - 1);
	str_io[0] = (struct iovec){ &str_ev.index, sizeof(str_ev.index) };
	str_io[1] = (struct iovec){ &str_loc, sizeof(str_loc) };
	str_io[2] = (struct iovec){ str_buf, sizeof(str_buf) };
	return 0;
}

/* Every enabled write must be taken whole, or the figures mean nothing */
static int writes_ok(void)
{
	return writev(data_fd, ev_io, 4) == (ssize_t)sizeof(ev_flat) &&
	       write(data_fd, &ev_flat, sizeof(ev_flat)) ==
		       (ssize_t)sizeof(ev_flat) &&
	       writev(data_fd, str_io, 3) == 4 + 4 + STR_LEN;
}

int main(int argc, char **argv)
{
	double ftrace_ns, both_ns;
	int perf_fd;

	if (setup())
		return 1;

	/* For make profile: one kind of write, for ever (tests/profile/) */
	if (argc > 1 && !strcmp(argv[1], "profile")) {
		void (*fire)(long) = fire_writev;

		if (argc > 2 && !strcmp(argv[2], "write"))
			fire = fire_write;
		else if (argc > 2 && !strcmp(argv[2], "marker"))
			fire = fire_marker;
		if (ue_set_enable(&ev, "1") || ue_set_enable(&str_ev, "1") ||
		    !writes_ok())
			return 1;
		puts("PROF-READY");
		fflush(stdout);
		for (;;)
			fire(0);
	}

	/* References */
	run("ue_ref_writev_dev_null", fire_null, ITERS);
	run("ue_ref_write_dev_null", fire_null_write, ITERS);
	run("ue_ref_trace_marker", fire_marker, ITERS);

	/* Nobody listens */
	ue_set_enable(&ev, "0");
	run("ue_disabled_check", fire_check, ITERS * 10);
	run("ue_disabled_writev", fire_writev, ITERS);

	/* ftrace records the events */
	if (ue_set_enable(&ev, "1") || ue_set_enable(&str_ev, "1") ||
	    !ue_enabled(&ev) || !writes_ok()) {
		fprintf(stderr, "enabling the events failed\n");
		return 1;
	}
	ftrace_ns = run("ue_enabled_writev", fire_check, ITERS);
	run("ue_enabled_writev_2iov", fire_writev_2, ITERS);
	run("ue_enabled_write", fire_write, ITERS);
	run("ue_enabled_string_1k", fire_string, ITERS);

	/* perf beside ftrace, then perf alone */
	perf_fd = perf_attach(&ev);
	if (perf_fd < 0 || !writes_ok()) {
		perror("perf");
		return 1;
	}
	both_ns = run("ue_enabled_writev_ftrace_perf", fire_writev, ITERS);
	printf("BENCH ue_second_consumer_perf %.1f ns\n", both_ns - ftrace_ns);
	ue_set_enable(&ev, "0");
	ue_set_enable(&str_ev, "0");
	run("ue_enabled_writev_perf", fire_check, ITERS);
	close(perf_fd);
	close(marker_fd);
	close(null_fd);
	close(data_fd);
	return 0;
}
