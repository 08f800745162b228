// SPDX-License-Identifier: GPL-2.0
/*
 * ue_persist DATA reg NAME [COUNT [transient]]: register COUNT events
 * (default 1) "NAME u32 n", or NAME0, NAME1, ... when COUNT is given,
 * through the remote-write ABI with USER_EVENT_REG_PERSIST (without it
 * with "transient"), and exit at once.
 * ue_persist DATA del NAME: delete the event NAME (DIAG_IOCSDEL).
 *
 * DATA is the path of a user_events_data file or "fd:N" for a descriptor
 * the caller inherited.  Prints one line: "ok N" (N registered), or the
 * name of the errno that stopped it after N, "EPERM 0".  Exit status 0
 * when everything asked for succeeded, 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/user_events.h>

static const char *errname(int err)
{
	static const struct { int err; const char *name; } names[] = {
		{ EPERM, "EPERM" }, { EACCES, "EACCES" }, { EBUSY, "EBUSY" },
		{ ENOENT, "ENOENT" }, { EMFILE, "EMFILE" }, { EINVAL, "EINVAL" },
		{ EADDRINUSE, "EADDRINUSE" }, { ENODEV, "ENODEV" },
	};
	static char buf[16];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].err == err)
			return names[i].name;
	snprintf(buf, sizeof(buf), "errno%d", err);
	return buf;
}

int main(int argc, char **argv)
{
	static uint32_t enabled[64];
	unsigned long i, count = 1;
	char def[128];
	int fd;

	if (argc < 4 || (strcmp(argv[2], "reg") && strcmp(argv[2], "del"))) {
		fprintf(stderr, "usage: ue_persist DATA reg|del NAME [COUNT [transient]]\n");
		return 2;
	}
	if (!strncmp(argv[1], "fd:", 3))
		fd = atoi(argv[1] + 3);
	else
		fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		printf("%s 0\n", errname(errno));
		return 1;
	}
	if (!strcmp(argv[2], "del")) {
		if (ioctl(fd, DIAG_IOCSDEL, argv[3]) < 0) {
			printf("%s 0\n", errname(errno));
			return 1;
		}
		printf("ok 0\n");
		return 0;
	}
	if (argc > 4)
		count = strtoul(argv[4], NULL, 0);
	if (count > sizeof(enabled) * 8)
		return 2;
	for (i = 0; i < count; i++) {
		struct user_reg reg = { .size = sizeof(reg) };

		if (argc > 4)
			snprintf(def, sizeof(def), "%s%lu u32 n", argv[3], i);
		else
			snprintf(def, sizeof(def), "%s u32 n", argv[3]);
		reg.flags = argc > 5 && !strcmp(argv[5], "transient") ?
			    0 : USER_EVENT_REG_PERSIST;
		reg.enable_bit = i % 32;
		reg.enable_size = sizeof(enabled[0]);
		reg.enable_addr = (uintptr_t)&enabled[i / 32];
		reg.name_args = (uintptr_t)def;
		if (ioctl(fd, DIAG_IOCSREG, &reg) < 0) {
			printf("%s %lu\n", errname(errno), i);
			return 1;
		}
	}
	printf("ok %lu\n", count);
	return 0;
}
