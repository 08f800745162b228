// SPDX-License-Identifier: GPL-2.0
/*
 * user_events remote-write costs: registering and unregistering a word, an
 * enable/disable flip that updates the words of N processes (forks of the
 * registering one), and the enabled writev() of a remote-write program,
 * beside a status-page program's where the kernel offers both.
 *
 * Built against our <linux/user_events.h>, which names both layouts; the
 * numbers and layouts are the ABI, so the program runs on the base too.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/types.h>
#include <linux/user_events.h>
#include "bench.h"

#define TRACEFS "/sys/kernel/tracing"
#define ENABLE TRACEFS "/events/user_events/bench_rw/enable"
#define NPROC 16

#pragma pack(push, 1)
struct payload {
	__u32 a;
	__u64 b;
	__u32 c;
};
#pragma pack(pop)

static const char cmd[] = "bench_rw u32 a; u64 b; u32 c";
static __u32 words[2];

static int reg_word(int fd, int bit, __u32 *index)
{
	struct user_reg r = {
		.size = sizeof(r),
		.enable_bit = bit,
		.enable_size = sizeof(__u32),
		.enable_addr = (uintptr_t)&words[0],
		.name_args = (uintptr_t)cmd,
	};

	if (ioctl(fd, DIAG_IOCSREG, &r))
		return -1;
	*index = r.write_index;
	return 0;
}

static int unreg_word(int fd, int bit)
{
	struct user_unreg u = {
		.size = sizeof(u),
		.disable_bit = bit,
		.disable_addr = (uintptr_t)&words[0],
	};

	return ioctl(fd, DIAG_IOCSUNREG, &u);
}

static int set_enable(int efd, const char *val)
{
	return pwrite(efd, val, 1, 0) == 1 ? 0 : -1;
}

static void flip(int efd)
{
	set_enable(efd, "1");
	set_enable(efd, "0");
}

int main(int argc, char **argv)
{
	int fd = open(TRACEFS "/user_events_data", O_RDWR);
	struct payload p = { 1, 2, 3 };
	struct user_status_reg s = { .size = sizeof(s), .name_args = (uintptr_t)cmd };
	pid_t kids[NPROC];
	struct iovec io[2];
	__u32 index, tmp;
	int efd, i, pipefd[2];

	if (fd < 0 || reg_word(fd, 0, &index)) {
		perror("register");
		return 1;
	}
	efd = open(ENABLE, O_WRONLY);
	if (efd < 0) {
		perror("enable");
		return 1;
	}

	/*
	 * For make profile: registrations and unregistrations for ever.  The
	 * profile stops at the second ioctl: "reg" starts with an
	 * unregistration (which fails), so that it is a registration,
	 * "unreg" with a registration (tests/profile/ue_rw_*.sh).
	 */
	if (argc > 1 && !strcmp(argv[1], "profile")) {
		int reg_first = argc > 2 && !strcmp(argv[2], "unreg");

		printf("PROF-READY\n");
		fflush(stdout);
		for (;;) {
			if (reg_first) {
				reg_word(fd, 1, &tmp);
				unreg_word(fd, 1);
			} else {
				unreg_word(fd, 1);
				reg_word(fd, 1, &tmp);
			}
		}
	}

	BENCH_RUN("ue_rw_register_unregister", 2000,
		  (reg_word(fd, 1, &tmp), unreg_word(fd, 1)));

	/* One word in this process, then one in each of NPROC forks */
	BENCH_RUN("ue_rw_flip_1_process", 500, flip(efd));
	if (pipe(pipefd))
		return 1;
	for (i = 0; i < NPROC; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			char c;

			close(pipefd[1]);
			read(pipefd[0], &c, 1);
			_exit(0);
		}
	}
	BENCH_RUN("ue_rw_flip_17_processes", 500, flip(efd));
	close(pipefd[1]);
	for (i = 0; i < NPROC; i++)
		waitpid(kids[i], NULL, 0);

	io[0].iov_base = &index;
	io[0].iov_len = sizeof(index);
	io[1].iov_base = &p;
	io[1].iov_len = sizeof(p);
	set_enable(efd, "1");
	if (!(__atomic_load_n(&words[0], __ATOMIC_RELAXED) & 1)) {
		fprintf(stderr, "enabled bit not set\n");
		return 1;
	}
	BENCH_RUN("ue_rw_enabled_writev", 20000, writev(fd, io, 2));
	/* Same event, same fd, through the status-page layout (ours only) */
	if (!ioctl(fd, DIAG_IOCSREG, &s)) {
		index = s.write_index;
		BENCH_RUN("ue_sp_enabled_writev", 20000, writev(fd, io, 2));
	}
	set_enable(efd, "0");
	close(efd);
	unreg_word(fd, 0);
	close(fd);
	return 0;
}
