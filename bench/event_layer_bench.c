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
 * and the floor of each, a record of its size reserved, written and
 * committed straight on a ring buffer (layer_fixed_floor, ...), and
 * that of a 64-byte record (layer_64_floor, synth_bench's event's size).
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
	      bench_kmod_print(MOD, "dynarray_ns", "layer_dynarray") ||
	      bench_kmod_print(MOD, "floor_fixed_ns", "layer_fixed_floor") ||
	      bench_kmod_print(MOD, "floor_string_ns", "layer_string_floor") ||
	      bench_kmod_print(MOD, "floor_dynarray_ns", "layer_dynarray_floor") ||
	      bench_kmod_print(MOD, "floor_64_ns", "layer_64_floor");
	syscall(SYS_delete_module, MOD, O_NONBLOCK);
	return ret;
}
