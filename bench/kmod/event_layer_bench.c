// SPDX-License-Identifier: GPL-2.0
/*
 * event_layer_bench - what one hit of an enabled TRACE_EVENT() costs: a
 * fixed record (sched_switch's fields), a string and a dynamic array.
 * Built out of tree against each kernel (harness/build-kernel.sh), the
 * same source measures each kernel's event layer.  The figures are taken
 * while the module loads; bench/event_layer_bench.c prints them from the
 * parameters fixed_ns, string_ns and dynarray_ns.
 */
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/trace_events.h>

#define CREATE_TRACE_POINTS
#include "event_layer_bench.h"

#define LOOPS	20000

static char fixed_ns[32], string_ns[32], dynarray_ns[32];
module_param_string(fixed_ns, fixed_ns, sizeof(fixed_ns), 0444);
module_param_string(string_ns, string_ns, sizeof(string_ns), 0444);
module_param_string(dynarray_ns, dynarray_ns, sizeof(dynarray_ns), 0444);

static const char prev[16] = "bench-prev", next[16] = "bench-next";
static const u32 vals[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

static void fire_fixed(int i)
{
	trace_bench_fixed(prev, i, 1, next, i + 1);
}

static void fire_string(int i)
{
	trace_bench_string("a-task-name", i, 42);
}

static void fire_dynarray(int i)
{
	trace_bench_dynarray(vals, 8);
}

/* Tenths of a nanosecond per hit, as "N.D" like the other benchmarks */
static void measure(const char *event, void (*fire)(int), char *out)
{
	u64 t0, t;
	int i;

	if (trace_set_clr_event("layer_bench", event, 1))
		return;
	for (i = 0; i < LOOPS / 10; i++)
		fire(i);
	t0 = ktime_get_ns();
	for (i = 0; i < LOOPS; i++)
		fire(i);
	t = div_u64((ktime_get_ns() - t0) * 10, LOOPS);
	trace_set_clr_event("layer_bench", event, 0);
	snprintf(out, 32, "%llu.%llu", t / 10, t % 10);
}

static int __init event_layer_bench_init(void)
{
	measure("bench_fixed", fire_fixed, fixed_ns);
	measure("bench_string", fire_string, string_ns);
	measure("bench_dynarray", fire_dynarray, dynarray_ns);
	return 0;
}

static void __exit event_layer_bench_exit(void)
{
}

module_init(event_layer_bench_init);
module_exit(event_layer_bench_exit);
MODULE_DESCRIPTION("Cost of one hit of an enabled TRACE_EVENT()");
MODULE_LICENSE("GPL");
