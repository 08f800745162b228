// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of one synth_event_trace_array() of the 7-field "schedtest" event
 * through the in-kernel API: loads kmod/synth_api_bench.ko of the running
 * kernel, which measures while it loads, and prints its figure.
 *
 * Prints, in guest nanoseconds per call:
 *   BENCH synth_trace_array_7     synth_event_trace_array(), event enabled
 */
#include "bench.h"

#define MOD	"synth_api_bench"

int main(void)
{
	int ret = bench_kmod_load(MOD);

	if (ret)
		return ret;
	ret = bench_kmod_print(MOD, "result_ns", "synth_trace_array_7");
	syscall(SYS_delete_module, MOD, O_NONBLOCK);
	return ret;
}
