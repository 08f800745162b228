// SPDX-License-Identifier: GPL-2.0
/*
 * For make harness-selftest: two events, one fired and one whose
 * _enabled() test is all that uses it.  make unused-events must name the
 * second and only it.
 */
#include <linux/module.h>
#define CREATE_TRACE_POINTS
#include "ut_sample.h"

static int __init ut_sample_init(void)
{
	trace_ut_fired(1);
	if (trace_ut_never_enabled())
		pr_info("ut_sample: enabled\n");
	return 0;
}

static void __exit ut_sample_exit(void)
{
}

module_init(ut_sample_init);
module_exit(ut_sample_exit);
MODULE_DESCRIPTION("make harness-selftest: an event declared and never fired");
MODULE_LICENSE("GPL");
