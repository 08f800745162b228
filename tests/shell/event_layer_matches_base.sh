#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Our event layer (include/trace/trace_events.h) against the base's: every
# event's format file, and the trace text and perf script output of a fixed
# workload, as tests/compare/event_layer.sh prints them, must equal what
# the base kernel printed (harness/base-reference.sh).  Systems that only
# our kernel has are left to their own tests.  The debug kernel has more
# events than the base of the reference (lockdep's, for one), and so has
# the coverage kernel (the hung-task detector's sched_process_hang): there
# only the reference's events are compared.  With lockdep the GFP flag
# tables of the print formats also name __GFP_NOLOCKDEP (mmflags.h names it
# only then, on any kernel), which is taken out before the comparison.
. /tests/lib.sh
ref=/tests/reference/event_layer.txt
[ -f $ref ] || { echo "no base reference in the initramfs"; exit 1; }
tracing_reset
TS_OURS_ONLY="layer_sample user_events_registry" sh /tests/compare/event_layer.sh > /tmp/event_layer.txt
if grep -qE 'ts.variant=(debug|coverage)( |$)' /proc/cmdline; then
	grep '^== ' $ref > /tmp/event_layer.names
	awk 'NR == FNR { keep[$0] = 1; next }
	     /^## / { part = $0 }
	     /^== / { show = keep[$0] }
	     part != "## formats" || /^## / || show' \
		/tmp/event_layer.names /tmp/event_layer.txt > /tmp/event_layer.common
	sed 's/{( unsigned long)(( gfp_t)((((1UL))) << ([0-9]*))), "__GFP_NOLOCKDEP"}, //g' \
		/tmp/event_layer.common > /tmp/event_layer.txt
fi
expect_eq "formats" "$(grep -c '^== ' $ref)" "$(grep -c '^== ' /tmp/event_layer.txt)"
if diff -u $ref /tmp/event_layer.txt > /tmp/event_layer.diff; then
	echo "formats, trace and perf script as the base's"
else
	head -n 60 /tmp/event_layer.diff
	fail "differs from the base kernel"
fi
tracing_reset
