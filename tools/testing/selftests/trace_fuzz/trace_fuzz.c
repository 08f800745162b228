// SPDX-License-Identifier: GPL-2.0
/*
 * trace_fuzz: the ground every other file stands on.  The state shared
 * by all the layers (the region of struct fz_shared, the epoch running,
 * the options that lower layers read), the clock, and the two helpers
 * that read and write a whole file.  It calls nothing of the fuzzer's:
 * see trace_fuzz.h for the layers above it.
 */
#include <fcntl.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "trace_fuzz.h"

struct fz_shared *fz;
struct fz_epoch fz_cur;
int fz_n_workers = 4;
int fz_stop_at_report;
int fz_contention;
unsigned int fz_bound_s = 30;
const char *fz_self;
const char *fz_out_dir = "/tmp";
bool fz_is_root = true;
pid_t fz_unpriv_pid;
int fz_kmemleak_every = 25;

uint64_t fz_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

/*
 * Write data to path (O_APPEND, O_TRUNC or 0 in flags); returns what
 * write() did, or -1 when the file would not open.  Nothing is written
 * when len is 0: opening with O_TRUNC is what clears a trigger file.
 */
/*
 * Is path the filter file of a system or of all events, which replaces
 * the filter of every event below it?
 */
static bool wide_filter(const char *path)
{
	const char *rest = strstr(path, "/events/"), *slash;

	if (!rest)
		return false;
	rest += strlen("/events/");
	slash = strchr(rest, '/');
	return !strcmp(rest, "filter") || (slash && !strcmp(slash, "/filter"));
}

int fz_write_file(const char *path, const void *data, size_t len, int flags)
{
	int fd = open(path, O_WRONLY | flags), ret = 0;

	if (fd < 0)
		return -1;
	/* counted before it can take effect: see fz_fault_apply() */
	if (fz && wide_filter(path))
		__atomic_add_fetch(&fz->wide_filter_writes, 1, __ATOMIC_SEQ_CST);
	if (len)
		ret = write(fd, data, len);
	close(fd);
	return ret;
}

/*
 * Read up to n - 1 bytes of path, opened with O_RDONLY | flags, into
 * buf, NUL-terminated.  With O_NONBLOCK a file that waits for data
 * (trace_pipe) gives what it has now: the first read that finds nothing
 * ends it.
 */
int fz_read_file_flags(const char *path, char *buf, size_t n, int flags)
{
	int fd = open(path, O_RDONLY | flags);
	ssize_t got, total = 0;

	buf[0] = '\0';
	if (fd < 0)
		return -1;
	while (total < (ssize_t)n - 1 &&
	       (got = read(fd, buf + total, n - 1 - total)) > 0)
		total += got;
	buf[total] = '\0';
	close(fd);
	return total;
}

int fz_read_file(const char *path, char *buf, size_t n)
{
	return fz_read_file_flags(path, buf, n, 0);
}
