#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""wide-warnings.py SRC LOG - the compiler warnings of a kernel build log
that the event layer can be blamed for, one per line, as FILE: MESSAGE
[-Wflag], with line numbers and source paths left out so that the logs
of two trees compare.

A warning counts when its own location, a macro expansion it notes, or
the chain of includes it was reached through lies in include/trace/: the
event layer, and the event headers it reads with CREATE_TRACE_POINTS.
"""
import re
import sys

src, log = sys.argv[1].rstrip('/') + '/', sys.argv[2]
LOC = re.compile(r'^(\S+?):\d+:\d+: (warning|note): (.*)$')
CHAIN = re.compile(r'^(?:In file included from|\s+from) (\S+?):\d+[:,]')


def rel(path):
    path = path[len(src):] if path.startswith(src) else path
    return re.sub(r'^(\.\./)+', '', path)


found = set()
chain, current = [], None


def flush():
    if current and any(f.startswith('include/trace/') for f in current[1]):
        found.add(current[0])


with open(log, errors='replace') as f:
    for line in f:
        line = line.rstrip('\n')
        m = CHAIN.match(line)
        if m:
            chain.append(rel(m.group(1)))
            continue
        m = LOC.match(line)
        if not m:
            continue
        path, kind, text = rel(m.group(1)), m.group(2), m.group(3)
        if kind == 'warning':
            flush()
            text = re.sub(r'\d+', 'N', text)
            current = (f'{path}: {text}', [path] + chain)
            chain = []
        elif current:
            current[1].append(path)
flush()
for w in sorted(found):
    print(w)
