// SPDX-License-Identifier: GPL-2.0
/*
 * Cost of one hit of an enabled TRACE_EVENT(), recorded by each kernel's
 * event layer: loads kmod/event_layer_bench.ko of the running kernel,
 * which measures while it loads, and prints its figures.
 *
 * Prints, in guest nanoseconds per hit:
 *   BENCH layer_fixed        sched_switch's fields (two char[16], five ints)
 *   BENCH layer_string       a __string() and two fixed fields
 *   BENCH layer_dynarray     a __dynamic_array() of eight u32
 */
#include "bench.h"

#define MOD	"event_layer_bench"

int main(void)
{
	int ret = bench_kmod_load(MOD);

	if (ret)
		return ret;
	ret = bench_kmod_print(MOD, "fixed_ns", "layer_fixed") ||
	      bench_kmod_print(MOD, "string_ns", "layer_string") ||
	      bench_kmod_print(MOD, "dynarray_ns", "layer_dynarray");
	syscall(SYS_delete_module, MOD, O_NONBLOCK);
	return ret;
}
