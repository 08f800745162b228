#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench-lttng.py LOG DAT FIGURES HEADER - the tables of make bench-lttng,
from the lines bench/lttng/run.sh printed in the VM (LOG), as
reStructuredText simple tables; the figures of the plot go to DAT for
harness/bench-lttng.gp, and every figure to FIGURES (headed by HEADER, a
comment), where the user_events cover letter takes them from."""
import sys

log, dat, figures, header = sys.argv[1:5]
cost, loss, notes, burst = {}, [], [], {}
for line in open(log, errors='replace'):
    p = line.split()
    if len(p) == 5 and p[0] == 'H2H':
        cost[(p[1], p[2])] = (float(p[3]), float(p[4]))
    elif len(p) == 6 and p[0] == 'H2H-LOSS':
        loss.append((p[1], p[2], int(p[3]), p[4], p[5]))
    elif len(p) == 6 and p[0] == 'H2H-BURST':
        burst[(p[1].split('-')[0], p[2])] = (float(p[4]), float(p[5]))
    elif p and p[0] == 'H2H-NOTE':
        notes.append(line.split(None, 1)[1].rstrip())

# writer, consumer, row prefix, state of the enabled figure
WRITERS = [
    ('LTTng-UST tracepoint', 'LTTng session', 'lttng', 'lttng'),
    ('user_events, status page', 'ftrace', 'ue_sp', 'ftrace'),
    ('user_events, status page', 'perf', 'ue_sp', 'perf'),
    ('user_events, status page, write()', 'ftrace', 'ue_spw', 'ftrace'),
    ('user_events, status page, write()', 'perf', 'ue_spw', 'perf'),
    ('user_events, remote write', 'ftrace', 'ue_rw', 'ftrace'),
    ('user_events, remote write', 'perf', 'ue_rw', 'perf'),
    ('trace_marker', 'ftrace', 'marker', 'ftrace'),
    ('writev() to /dev/null', '(none)', 'null', None),
    ('write() to /dev/null', '(none)', 'nullw', None),
]


def table(head, rows):
    """An RST simple table: HEAD and ROWS are lists of cells."""
    w = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    rule = ' '.join('=' * n for n in w)
    fmt = lambda r: ' '.join((c.ljust(n) if i < 2 else c.rjust(n))
                             for i, (c, n) in enumerate(zip(r, w))).rstrip()
    return '\n'.join([rule, fmt(head), rule] + [fmt(r) for r in rows] + [rule])


def ns(state, row, clock=0):
    v = cost.get((state, row))
    return '%.0f' % v[clock] if v else '-'


rows, plot = [], []
for writer, consumer, pre, on in WRITERS:
    cells = [writer, consumer]
    for size in ('ev', '1k'):
        row = pre + '_' + size
        cells += [ns('off', row)]
        cells += [ns(on, row), ns(on, row, 1)] if on else ['-', '-']
    rows.append(cells)
    if on:
        plot.append('"%s\\n%s" %s %s %s %s' % (
            writer.replace('status page, write()', 'write()')
                  .replace('user_events, ', 'user_events\\n')
                  .replace(' tracepoint', ''),
            consumer,
            ns('off', pre + '_ev'), ns(on, pre + '_ev'),
            ns('off', pre + '_1k'), ns(on, pre + '_1k')))
print('Guest ns per event (QEMU -icount: one ns per guest instruction), '
      'counted in the\nwriting thread (CLOCK_THREAD_CPUTIME_ID); "vCPU" '
      'counts the whole vCPU over the\nsame loop (CLOCK_MONOTONIC), the '
      'consumers that ran meanwhile included.\nA user event is written '
      'with writev() of its index and fields (four vectors;\nthe string: '
      'three), or with write() of one buffer holding the same bytes.\n')
print(table(['writer', 'consumer', '28 B off', '28 B on', '28 B vCPU',
             '1 KiB off', '1 KiB on', '1 KiB vCPU'], rows))

rows = []
for tracer, row, written, kept, lost in loss:
    pct = '%.1f' % (100.0 * int(lost) / written) if lost.isdigit() else '?'
    size = '28 B' if row.endswith('_ev') else '1 KiB'
    writer = {'ue_sp': 'user_events', 'marker': 'trace_marker',
              'lttng': 'LTTng-UST'}[row.rsplit('_', 1)[0]]
    b = burst.get((tracer, row))
    rows.append([writer + ', ' + size, tracer, str(written), kept, lost, pct] +
                (['%.0f' % b[0], '%.0f' % b[1]] if b else ['-', '-']))
print('\nOverload: events written back to back into a 1 MiB buffer, the '
      "consumer\nsaving to tmpfs on the same vCPU; what was kept and what "
      "the tracer counted\nas lost; ns per event over the burst, in the writing thread and on the vCPU.\n")
print(table(['writer', 'consumer', 'written', 'kept', 'lost', '% lost',
             'writer ns', 'vCPU ns'], rows))
if notes:
    print('\nNotes from the VM:')
    for n in notes:
        print('  ' + n)
with open(dat, 'w') as f:
    f.write('# label off_ev on_ev off_1k on_1k (guest ns in the writing thread)\n')
    f.write('\n'.join(plot) + '\n')
with open(figures, 'w') as f:
    f.write(header.rstrip('\n') + '\n')
    for (state, row), (thread, mono) in sorted(cost.items()):
        f.write('cost %s %s %.0f %.0f\n' % (state, row, thread, mono))
    for tracer, row, written, kept, lost in loss:
        f.write('loss %s %s %d %s %s\n' % (tracer, row, written, kept, lost))
