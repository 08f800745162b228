// SPDX-License-Identifier: GPL-2.0
/*
 * event_layer_bench - what one hit of an enabled TRACE_EVENT() costs: a
 * fixed record (sched_switch's fields), a string and a dynamic array.
 * Built out of tree against each kernel (harness/build-kernel.sh), the
 * same source measures each kernel's event layer.  The figures are taken
 * while the module loads; bench/event_layer_bench.c prints them from the
 * parameters fixed_ns, string_ns and dynarray_ns.
 *
 * Beside each, its floor: what any event of the same size pays, a record
 * of as many bytes reserved on a ring buffer of the module's own, written
 * and committed (floor_fixed_ns, floor_string_ns, floor_dynarray_ns).
 * The event layer's own cost is the difference.  floor_64_ns is the same
 * for a 64-byte record, the size of bench/synth_bench.c's synthetic event
 * (a header and seven u64 fields).
 */
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/ring_buffer.h>
#include <linux/trace_events.h>

#define CREATE_TRACE_POINTS
#include "event_layer_bench.h"

#define LOOPS	20000

static char fixed_ns[32], string_ns[32], dynarray_ns[32];
module_param_string(fixed_ns, fixed_ns, sizeof(fixed_ns), 0444);
module_param_string(string_ns, string_ns, sizeof(string_ns), 0444);
module_param_string(dynarray_ns, dynarray_ns, sizeof(dynarray_ns), 0444);
static char floor_fixed_ns[32], floor_string_ns[32], floor_dynarray_ns[32];
static char floor_64_ns[32];
module_param_string(floor_64_ns, floor_64_ns, sizeof(floor_64_ns), 0444);
module_param_string(floor_fixed_ns, floor_fixed_ns, sizeof(floor_fixed_ns), 0444);
module_param_string(floor_string_ns, floor_string_ns, sizeof(floor_string_ns), 0444);
module_param_string(floor_dynarray_ns, floor_dynarray_ns, sizeof(floor_dynarray_ns), 0444);

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
static void print_ns(u64 t0, char *out)
{
	u64 t = div_u64((ktime_get_ns() - t0) * 10, LOOPS);

	snprintf(out, 32, "%llu.%llu", t / 10, t % 10);
}

static void measure(const char *event, void (*fire)(int), char *out)
{
	u64 t0;
	int i;

	if (trace_set_clr_event("layer_bench", event, 1))
		return;
	for (i = 0; i < LOOPS / 10; i++)
		fire(i);
	t0 = ktime_get_ns();
	for (i = 0; i < LOOPS; i++)
		fire(i);
	print_ns(t0, out);
	trace_set_clr_event("layer_bench", event, 0);
}

/* The record sizes of the three events as they fire above */
#define FIXED_LEN	sizeof(struct trace_event_raw_bench_fixed)
#define STRING_LEN	(sizeof(struct trace_event_raw_bench_string) + \
			 sizeof("a-task-name"))
#define DYNARRAY_LEN	(sizeof(struct trace_event_raw_bench_dynarray) + \
			 sizeof(vals))

static u8 record[128];

static void floor_write(struct trace_buffer *rb, unsigned int len)
{
	struct ring_buffer_event *ev = ring_buffer_lock_reserve(rb, len);

	if (ev) {
		memcpy(ring_buffer_event_data(ev), record, len);
		ring_buffer_unlock_commit(rb);
	}
}

static void measure_floor(struct trace_buffer *rb, unsigned int len, char *out)
{
	u64 t0;
	int i;

	for (i = 0; i < LOOPS / 10; i++)
		floor_write(rb, len);
	t0 = ktime_get_ns();
	for (i = 0; i < LOOPS; i++)
		floor_write(rb, len);
	print_ns(t0, out);
}

static int __init event_layer_bench_init(void)
{
	/* as large as the trace instance's buffer, overwriting as it does */
	struct trace_buffer *rb = ring_buffer_alloc(1408 << 10, RB_FL_OVERWRITE);

	static_assert(FIXED_LEN <= sizeof(record) && STRING_LEN <= sizeof(record) &&
		      DYNARRAY_LEN <= sizeof(record));
	measure("bench_fixed", fire_fixed, fixed_ns);
	measure("bench_string", fire_string, string_ns);
	measure("bench_dynarray", fire_dynarray, dynarray_ns);
	if (rb) {
		measure_floor(rb, FIXED_LEN, floor_fixed_ns);
		measure_floor(rb, STRING_LEN, floor_string_ns);
		measure_floor(rb, DYNARRAY_LEN, floor_dynarray_ns);
		measure_floor(rb, 64, floor_64_ns);
		ring_buffer_free(rb);
	}
	return 0;
}

static void __exit event_layer_bench_exit(void)
{
}

module_init(event_layer_bench_init);
module_exit(event_layer_bench_exit);
MODULE_DESCRIPTION("Cost of one hit of an enabled TRACE_EVENT()");
MODULE_LICENSE("GPL");
