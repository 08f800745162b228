// SPDX-License-Identifier: GPL-2.0
/*
 * The event layer's sample: the events of trace_layer_sample.h, fired on
 * demand.  Writing a number n to
 *
 *	/sys/module/trace_layer_sample/parameters/fire
 *
 * fires every event once with values made from n, so a test knows each
 * trace line it must read.  users shows how many of the events with
 * registration callbacks (DEFINE_EVENT_FN, TRACE_EVENT_FN, _COND) are
 * enabled.
 */
#include <linux/in.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/printk.h>
#include <linux/stdarg.h>

#define CREATE_TRACE_POINTS
#include "trace_layer_sample.h"

unsigned int layer_sample_last;
static int layer_sample_users;
module_param_named(users, layer_sample_users, int, 0444);

int layer_sample_reg(void)
{
	layer_sample_users++;
	return 0;
}

void layer_sample_unreg(void)
{
	layer_sample_users--;
}

static void layer_sample_dynamic(unsigned int n, const char *name,
				 const unsigned long *mask,
				 const struct cpumask *cpus,
				 const struct sockaddr *addr,
				 const char *fmt, ...)
{
	u32 vals[3] = { n, n + 1, n + 2 };
	struct va_format vaf = { .fmt = fmt };
	va_list va;

	va_start(va, fmt);
	vaf.va = &va;
	trace_layer_dynamic(n, vals, name, "text-and-more", 4, mask, cpus,
			    addr, sizeof(struct sockaddr_in), &vaf);
	va_end(va);
}

static void layer_sample_fire(unsigned int n)
{
	struct layer_sample_pair pair = { .lo = n, .hi = n + 1 };
	struct sockaddr_in sin = {
		.sin_family = AF_INET,
		.sin_port = htons(1000 + n),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	unsigned long mask = 0x8001UL | n;

	layer_sample_last = n;
	trace_layer_fixed(n, &pair);
	layer_sample_dynamic(n, n & 1 ? NULL : "even", &mask, cpumask_of(0),
			     (struct sockaddr *)&sin, "vs %u-%s", n, "x");
	trace_layer_relative(n, "rel", &mask, cpumask_of(0),
			     (struct sockaddr *)&sin, sizeof(sin));
	trace_layer_member(n);
	trace_layer_member_print(n);
	trace_layer_member_even(n);
	trace_layer_member_fn(n);
	trace_layer_cond(n);
	trace_layer_fn(n);
	trace_layer_fn_cond(n);
	trace_layer_perf(n, n + 1, NULL);
	trace_layer_nop(n);
	trace_layer_member_nop(n);
}

static int layer_sample_set_fire(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	layer_sample_fire(n);
	return 0;
}

static const struct kernel_param_ops layer_sample_fire_ops = {
	.set = layer_sample_set_fire,
	.get = param_get_uint,
};
module_param_cb(fire, &layer_sample_fire_ops, &layer_sample_last, 0644);

MODULE_DESCRIPTION("Sample of the TRACE_EVENT() layer: every macro, on demand");
MODULE_LICENSE("GPL");
