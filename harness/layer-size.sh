#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# layer-size.sh - code the event layer generates in vmlinux, ours against
# the base: the sizes of the output functions (trace_raw_output_*), ftrace
# probes (trace_event_raw_event_*) and perf probes (perf_trace_*) of the
# events both kernels have, summed, as nm reports them.  The kernels are
# ours and base, or the two variants given (make bench's).
. "$(dirname "$0")/lib.sh"

python3 - "$(variant_obj "${1:-ours}")/vmlinux" "$(variant_obj "${2:-base}")/vmlinux" <<'PY'
import os, subprocess, sys

KINDS = ('trace_raw_output_', 'trace_event_raw_event_', 'perf_trace_')

def sizes(vmlinux):
    out = {}
    nm = subprocess.run(['nm', '-S', vmlinux], capture_output=True, text=True)
    for line in nm.stdout.splitlines():
        p = line.split()
        if len(p) == 4 and p[2] in 'tT' and p[3].startswith(KINDS):
            out[p[3]] = int(p[1], 16)
    return out

ours, base = sizes(sys.argv[1]), sizes(sys.argv[2])
common = set(ours) & set(base)
for k in KINDS + ('',):
    names = [n for n in common if n.startswith(k)]
    o = sum(ours[n] for n in names)
    b = sum(base[n] for n in names)
    what = 'text of %s* (%d)' % (k, len(names)) if k else 'text of the event layer'
    print('%-44s %12d %12d %8.3f' % (what + ', bytes', o, b, o / b if b else 0))
    # make bench records them beside its figures: size_<kind>, in bytes
    if os.environ.get('FIGURES'):
        with open(os.environ['FIGURES'], 'a') as f:
            f.write('size_%s %d %d\n' % (k.rstrip('_') or 'event_layer', o, b))
PY
