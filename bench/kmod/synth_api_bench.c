// SPDX-License-Identifier: GPL-2.0
/*
 * synth_api_bench - what one synth_event_trace_array() of a 7-field event
 * costs a kernel caller, with the event enabled.  The fields are those of
 * the "schedtest" example of the in-kernel API's documentation.
 *
 * The measurement runs while the module loads; bench/synth_api_bench.c
 * loads it and prints the figure from the parameter result_ns.  Built out
 * of tree against each kernel (harness/build-kernel.sh), it calls only the
 * exported API, so the same source measures the base and ours.
 */
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/trace_events.h>

#define LOOPS	20000

static struct synth_field_desc fields[] = {
	{ .type = "pid_t",		.name = "next_pid_field" },
	{ .type = "char[16]",		.name = "next_comm_field" },
	{ .type = "u64",		.name = "ts_ns" },
	{ .type = "u64",		.name = "ts_ms" },
	{ .type = "unsigned int",	.name = "cpu" },
	{ .type = "char[64]",		.name = "my_string_field" },
	{ .type = "int",		.name = "my_int_field" },
};

static char result_ns[32];
module_param_string(result_ns, result_ns, sizeof(result_ns), 0444);

static int measure(struct trace_event_file *file)
{
	u64 vals[ARRAY_SIZE(fields)] = {
		777, (u64)(long)"bench_comm", 1000000, 1, 1,
		(u64)(long)"a string of the benchmark", 42,
	};
	u64 t0, t;
	int i, ret;

	for (i = 0; i < LOOPS / 10; i++) {
		ret = synth_event_trace_array(file, vals, ARRAY_SIZE(vals));
		if (ret)
			return ret;
	}
	t0 = ktime_get_ns();
	for (i = 0; i < LOOPS; i++)
		synth_event_trace_array(file, vals, ARRAY_SIZE(vals));
	t = ktime_get_ns() - t0;
	/* Tenths of a nanosecond, printed as "N.D" like the other benchmarks */
	t = div_u64(t * 10, LOOPS);
	snprintf(result_ns, sizeof(result_ns), "%llu.%llu", t / 10, t % 10);
	return 0;
}

static int __init synth_api_bench_init(void)
{
	struct trace_event_file *file;
	int ret;

	ret = synth_event_create("schedbench_api", fields, ARRAY_SIZE(fields),
				 THIS_MODULE);
	if (ret)
		return ret;
	file = trace_get_event_file(NULL, "synthetic", "schedbench_api");
	if (IS_ERR(file)) {
		ret = PTR_ERR(file);
		goto out_delete;
	}
	ret = trace_array_set_clr_event(file->tr, "synthetic", "schedbench_api",
					true);
	if (!ret)
		ret = measure(file);
	trace_array_set_clr_event(file->tr, "synthetic", "schedbench_api", false);
	trace_put_event_file(file);
out_delete:
	synth_event_delete("schedbench_api");
	return ret;
}

static void __exit synth_api_bench_exit(void)
{
}

module_init(synth_api_bench_init);
module_exit(synth_api_bench_exit);
MODULE_DESCRIPTION("Cost of synth_event_trace_array() of a 7-field event");
MODULE_LICENSE("GPL");
