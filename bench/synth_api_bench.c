// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of one synth_event_trace_array() of the 7-field "schedtest" event
 * through the in-kernel API: loads kmod/synth_api_bench.ko of the running
 * kernel (built out of tree against each, packed under /modules/VARIANT),
 * which measures while it loads, and prints its figure.
 *
 * Prints, in guest nanoseconds per call:
 *   BENCH synth_trace_array_7     synth_event_trace_array(), event enabled
 */
#include <stdio.h>
#include <string.h>
#include "bench.h"

#define MOD	"synth_api_bench"

int main(void)
{
	char variant[64] = "ours", path[128], result[32] = "";
	char *arg, cmdline[1024] = "";
	FILE *f = fopen("/proc/cmdline", "r");
	int fd;

	if (f) {
		if (!fgets(cmdline, sizeof(cmdline), f))
			cmdline[0] = '\0';
		fclose(f);
	}
	arg = strstr(cmdline, "ts.variant=");
	if (arg)
		sscanf(arg, "ts.variant=%63s", variant);
	snprintf(path, sizeof(path), "/modules/%s/" MOD ".ko", variant);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "synth_api_bench: no %s\n", path);
		return 4;
	}
	if (syscall(SYS_finit_module, fd, "", 0)) {
		perror("synth_api_bench: finit_module");
		return 1;
	}
	close(fd);
	fd = open("/sys/module/" MOD "/parameters/result_ns", O_RDONLY);
	if (fd < 0 || read(fd, result, sizeof(result) - 1) <= 0) {
		fprintf(stderr, "synth_api_bench: no result\n");
		return 1;
	}
	close(fd);
	result[strcspn(result, "\n")] = '\0';
	syscall(SYS_delete_module, MOD, O_NONBLOCK);
	printf("BENCH synth_trace_array_7 %s ns\n", result);
	return 0;
}
