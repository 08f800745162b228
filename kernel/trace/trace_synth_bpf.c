// SPDX-License-Identifier: GPL-2.0
/*
 * trace_synth_bpf.c - kfuncs with which BPF tracing programs fire
 * synthetic events.
 *
 * A program finds an event by a constant name and holds it (the event
 * cannot be deleted meanwhile) until it lets go, which the verifier makes
 * sure it does before it returns.  It fires the event with one u64 per
 * field, as synth_event_trace_array() takes them: a number, or the
 * address of a string or of a stack ([count, address...]), which is read
 * without faulting and kept only up to the field's size.  The event goes
 * to the probes on its tracepoint as a histogram's trace() action sends
 * it, so every instance that enables it, with its filter and triggers,
 * and perf receive the same record.  Nothing is allocated and no lock is
 * taken, so any tracing program may fire, in any context; an event fired
 * inside its own write is dropped (see synth_nest).
 */
#include <linux/bpf.h>
#include <linux/btf.h>
#include <linux/btf_ids.h>
#include <linux/init.h>

#include "trace.h"
#include "trace_synth.h"

__bpf_kfunc_start_defs();

/**
 * bpf_synth_event_lookup - find a synthetic event by name and hold it
 * @name__str: the event's name, without "synthetic/"; a constant string
 *
 * Context: any.
 * Return: the event, to be given back with bpf_synth_event_release(), or
 * NULL when no synthetic event has that name.
 */
__bpf_kfunc struct synth_event *bpf_synth_event_lookup(const char *name__str)
{
	return synth_event_get(name__str);
}

/**
 * bpf_synth_event_release - let go of an event of bpf_synth_event_lookup()
 * @event: the event
 *
 * Context: any.
 */
__bpf_kfunc void bpf_synth_event_release(struct synth_event *event)
{
	synth_event_put(event);
}

/**
 * bpf_synth_event_trace - fire a synthetic event
 * @event: the event, held
 * @vals: the value of each field in the order of the definition; for a
 *	string or a stack, its address
 * @vals__sz: the size of @vals in bytes, 8 for each field of the event
 *
 * Context: any.
 * Return: 0, whether or not anything records the event, or -EINVAL when
 * @vals__sz is not 8 times the event's number of fields.
 */
__bpf_kfunc int bpf_synth_event_trace(struct synth_event *event,
				      const u64 *vals, u32 vals__sz)
{
	if (vals__sz != event->n_fields * sizeof(u64))
		return -EINVAL;
	guard(preempt_notrace)();
	/* the probes read @vals and never write to it */
	synth_event_fire(event, (u64 *)vals, NULL);
	return 0;
}

__bpf_kfunc_end_defs();

BTF_KFUNCS_START(synth_kfunc_ids)
BTF_ID_FLAGS(func, bpf_synth_event_lookup, KF_ACQUIRE | KF_RET_NULL)
BTF_ID_FLAGS(func, bpf_synth_event_release, KF_RELEASE)
BTF_ID_FLAGS(func, bpf_synth_event_trace)
BTF_KFUNCS_END(synth_kfunc_ids)

/* The tracing hook is shared with LSM programs, which trace nothing. */
static int synth_kfunc_filter(const struct bpf_prog *prog, u32 kfunc_id)
{
	if (!btf_id_set8_contains(&synth_kfunc_ids, kfunc_id))
		return 0;
	return prog->type == BPF_PROG_TYPE_LSM ? -EACCES : 0;
}

static const struct btf_kfunc_id_set synth_kfunc_set = {
	.owner	= THIS_MODULE,
	.set	= &synth_kfunc_ids,
	.filter	= synth_kfunc_filter,
};

/*
 * fentry, tp_btf, raw tracepoint, tracepoint and perf_event programs
 * share the tracing hook; kprobe and uprobe programs have their own.
 */
static int __init synth_kfuncs_init(void)
{
	return register_btf_kfunc_id_set(BPF_PROG_TYPE_TRACING,
					 &synth_kfunc_set) ?:
	       register_btf_kfunc_id_set(BPF_PROG_TYPE_KPROBE,
					 &synth_kfunc_set);
}
late_initcall(synth_kfuncs_init);
