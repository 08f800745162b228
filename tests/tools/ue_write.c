// SPDX-License-Identifier: GPL-2.0
/*
 * ue_write NAME LEN [COUNT]: register the user event "NAME __rel_loc
 * char[] s" and write it COUNT times (default 1) with a payload of LEN
 * bytes: the field, then a string of LEN - 5 letters a..z repeated and
 * its NUL.  Each write must return LEN + 4; otherwise the errno is
 * printed and the exit status is 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/user_events.h>

int main(int argc, char **argv)
{
	struct user_reg reg = { .size = sizeof(reg) };
	size_t len, i, count = argc > 3 ? strtoul(argv[3], NULL, 0) : 1;
	uint32_t enabled = 0, loc;
	struct iovec io[2];
	char def[256], *p;
	int fd;

	if (argc < 3) {
		fprintf(stderr, "usage: ue_write NAME LEN [COUNT]\n");
		return 2;
	}
	len = strtoul(argv[2], NULL, 0);
	if (len < 5 || len >= 1 << 20)
		return 2;
	snprintf(def, sizeof(def), "%s __rel_loc char[] s", argv[1]);
	fd = open("/sys/kernel/tracing/user_events_data", O_RDWR);
	if (fd < 0) {
		perror("user_events_data");
		return 1;
	}
	reg.enable_bit = 0;
	reg.enable_size = sizeof(enabled);
	reg.enable_addr = (uintptr_t)&enabled;
	reg.name_args = (uintptr_t)def;
	if (ioctl(fd, DIAG_IOCSREG, &reg) < 0) {
		perror("DIAG_IOCSREG");
		return 1;
	}
	p = malloc(len);
	if (!p)
		return 1;
	/* __rel_loc: the string starts right after the field */
	loc = (uint32_t)(len - 4) << 16;
	memcpy(p, &loc, 4);
	for (i = 4; i < len - 1; i++)
		p[i] = 'a' + (i - 4) % 26;
	p[len - 1] = '\0';
	io[0].iov_base = &reg.write_index;
	io[0].iov_len = sizeof(reg.write_index);
	io[1].iov_base = p;
	io[1].iov_len = len;
	for (i = 0; i < count; i++) {
		ssize_t ret = writev(fd, io, 2);

		if (ret != (ssize_t)(len + 4)) {
			printf("write: %s\n", ret < 0 ? strerror(errno) : "short");
			return 1;
		}
	}
	return 0;
}
