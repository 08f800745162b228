// SPDX-License-Identifier: GPL-2.0
/*
 * Baselines the other benchmarks are read against: the floor of a writev()
 * system call, and a write() into trace_marker with tracing on.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>
#include "bench.h"

#define ITERS 20000

int main(void)
{
	static const char msg[] = "bench marker line";
	int index = 1, value = 2;
	struct iovec io[2] = {
		{ .iov_base = &index, .iov_len = sizeof(index) },
		{ .iov_base = &value, .iov_len = sizeof(value) },
	};
	int null_fd = open("/dev/null", O_WRONLY);
	int marker_fd = open("/sys/kernel/tracing/trace_marker", O_WRONLY);

	if (null_fd < 0 || marker_fd < 0) {
		perror("open");
		return 1;
	}
	BENCH_RUN("writev_dev_null", ITERS, writev(null_fd, io, 2));
	BENCH_RUN("write_trace_marker", ITERS, write(marker_fd, msg, strlen(msg)));
	close(marker_fd);
	close(null_fd);
	return 0;
}
