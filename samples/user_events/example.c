// SPDX-License-Identifier: GPL-2.0-only
/*
 * Smallest complete user_events program: register an event, map the status
 * page, and emit only while something listens.
 *
 * Copyright (c) 2021, Microsoft Corporation.
 *
 * Authors:
 *   Beau Belgrave <beaub@linux.microsoft.com>
 *
 *   example [count]   emits up to count events (default 10), one per 100ms
 *
 * Enable it with: echo 1 > /sys/kernel/tracing/events/user_events/example/enable
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/user_events.h>

static const char data_file[] = "/sys/kernel/tracing/user_events_data";
static const char status_file[] = "/sys/kernel/tracing/user_events_status";

/* Packed like the command below: u32 count; __data_loc char[] msg */
#pragma pack(push, 1)
struct example_payload {
	__u32 count;
	__u32 msg_loc;
	char msg[16];
};

#pragma pack(pop)

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 10, data, status, i, emitted = 0;
	long page_size = sysconf(_SC_PAGESIZE);
	struct example_payload p;
	const __u8 *page;
	struct user_status_reg reg;
	struct iovec io[2];

	data = open(data_file, O_RDWR);
	status = open(status_file, O_RDONLY);
	if (data < 0 || status < 0) {
		perror("open tracefs user_events files");
		return 1;
	}

	memset(&reg, 0, sizeof(reg));
	reg.size = sizeof(reg);
	reg.name_args = (__u64)(uintptr_t)"example u32 count; __data_loc char[] msg";
	if (ioctl(data, DIAG_IOCSREG, &reg) < 0) {
		perror("DIAG_IOCSREG");
		return 1;
	}

	page = mmap(NULL, page_size, PROT_READ, MAP_SHARED, status, 0);
	if (page == MAP_FAILED) {
		perror("mmap status page");
		return 1;
	}
	printf("example: status bit %u, write index %u\n", reg.status_bit,
	       reg.write_index);

	/* The index goes first; the payload follows in its own vector */
	io[0].iov_base = &reg.write_index;
	io[0].iov_len = sizeof(reg.write_index);
	io[1].iov_base = &p;
	io[1].iov_len = sizeof(p);

	for (i = 0; i < n; i++) {
		/* Byte bit / 8, mask 1 << (bit % 8): set while enabled */
		if (__atomic_load_n(&page[reg.status_bit / 8], __ATOMIC_RELAXED) &
		    (1 << (reg.status_bit % 8))) {
			int len = snprintf(p.msg, sizeof(p.msg), "hello %d", i) + 1;

			p.count = i;
			/* Record offset: 8-byte common header + fixed fields */
			p.msg_loc = DYN_LOC(8 + 8, len);
			io[1].iov_len = offsetof(struct example_payload, msg) + len;
			if (writev(data, io, 2) < 0)
				perror("writev");
			else
				emitted++;
		}
		usleep(100000);
	}
	printf("example: emitted %d of %d\n", emitted, n);
	return 0;
}
