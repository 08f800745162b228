// SPDX-License-Identifier: GPL-2.0
/*
 * user_events costs: the disabled check a program makes before writing, a
 * writev() of an event nobody consumes, and an enabled writev() of a
 * 3-field event recorded by ftrace; with trace_marker and a writev() to
 * /dev/null as reference points.
 *
 * Runs on either ABI: the status-page one (our kernel) and the
 * remote-write one (the base kernel and ours), tried in that order at
 * registration; our <linux/user_events.h> defines both layouts.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/types.h>
#include <linux/user_events.h>
#include "bench.h"

#define ITERS 20000
#define TRACEFS "/sys/kernel/tracing"

static const char ue_cmd[] = "bench_ev u32 a; u64 b; u32 c";

#pragma pack(push, 1)
struct bench_payload {
	__u32 a;
	__u64 b;
	__u32 c;
};

#pragma pack(pop)

/* Where the enabled flag lives and how to test it, whichever the ABI */
static const __u8 *ue_flag_byte;
static __u8 ue_flag_mask;
static __u32 ue_remote_word;

static int ue_register(int fd, __u32 *index, const char **abi)
{
	struct user_reg s = { .size = sizeof(s) };
	struct user_enabler_reg r = { .size = sizeof(r) };

	s.name_args = (__u64)(uintptr_t)ue_cmd;
	if (!ioctl(fd, DIAG_IOCSREG, &s)) {
		int sfd = open(TRACEFS "/user_events_status", O_RDONLY);
		void *page;

		if (sfd < 0)
			return -1;
		page = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
			    sfd, 0);
		close(sfd);
		if (page == MAP_FAILED)
			return -1;
		ue_flag_byte = (__u8 *)page + s.status_bit / 8;
		ue_flag_mask = 1 << (s.status_bit % 8);
		*index = s.write_index;
		*abi = "status-page";
		return 0;
	}
	r.enable_bit = 0;
	r.enable_size = sizeof(ue_remote_word);
	r.enable_addr = (__u64)(uintptr_t)&ue_remote_word;
	r.name_args = (__u64)(uintptr_t)ue_cmd;
	if (!ioctl(fd, DIAG_IOCSREG, &r)) {
		ue_flag_byte = (const __u8 *)&ue_remote_word;
		ue_flag_mask = 1;
		*index = r.write_index;
		*abi = "remote-write";
		return 0;
	}
	return -1;
}

static int ue_set_enable(const char *val)
{
	int fd = open(TRACEFS "/events/user_events/bench_ev/enable", O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, val, 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

/* What an instrumented program does at each event site */
static inline int ue_enabled(void)
{
	return __atomic_load_n(ue_flag_byte, __ATOMIC_RELAXED) & ue_flag_mask;
}

static inline void ue_site(int fd, struct iovec *io)
{
	if (ue_enabled())
		writev(fd, io, 2);
}

int main(void)
{
	static const char msg[] = "bench marker line";
	struct bench_payload p = { 1, 2, 3 };
	int fd = open(TRACEFS "/user_events_data", O_RDWR);
	int null_fd = open("/dev/null", O_WRONLY);
	int marker = open(TRACEFS "/trace_marker", O_WRONLY);
	const char *abi = "none";
	struct iovec io[2];
	__u32 index;

	if (fd < 0 || null_fd < 0 || marker < 0) {
		perror("open");
		return 1;
	}
	if (ue_register(fd, &index, &abi)) {
		perror("register");
		return 1;
	}
	fprintf(stderr, "user_events ABI: %s\n", abi);
	io[0].iov_base = &index;
	io[0].iov_len = sizeof(index);
	io[1].iov_base = &p;
	io[1].iov_len = sizeof(p);

	/* References */
	BENCH_RUN("ue_ref_writev_dev_null", ITERS, writev(null_fd, io, 2));
	BENCH_RUN("ue_ref_trace_marker", ITERS,
		  write(marker, msg, sizeof(msg) - 1));

	/* Nobody listens */
	ue_set_enable("0");
	BENCH_RUN("ue_disabled_check", ITERS * 10, ue_site(fd, io));
	BENCH_RUN("ue_disabled_writev", ITERS, writev(fd, io, 2));

	/* ftrace records the event */
	if (ue_set_enable("1")) {
		perror("enable");
		return 1;
	}
	if (!ue_enabled()) {
		fprintf(stderr, "enabled flag not set\n");
		return 1;
	}
	BENCH_RUN("ue_enabled_writev", ITERS, ue_site(fd, io));
	ue_set_enable("0");
	close(marker);
	close(null_fd);
	close(fd);
	return 0;
}
