// SPDX-License-Identifier: GPL-2.0
/*
 * A module that creates a synthetic event and forgets to delete it when
 * it unloads, for tests/shell/synth_module_gone.sh: the event must go
 * with the module, or, while a histogram's action uses it, stay cut
 * loose from the module it can no longer pin.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/trace_events.h>

static struct synth_field_desc leftover_fields[] = {
	{ .type = "u64", .name = "v" },
};

static int __init synth_leftover_init(void)
{
	return synth_event_create("leftover", leftover_fields,
				  ARRAY_SIZE(leftover_fields), THIS_MODULE);
}

static void __exit synth_leftover_exit(void)
{
}

module_init(synth_leftover_init);
module_exit(synth_leftover_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("A synthetic event left behind at unload");
