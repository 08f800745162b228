#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The share of lines and branches of our kernel files that runs reached.

usage: coverage.py OBJ SRC OUT OWNED RUN...

OBJ is the coverage kernel's object folder (the .gcno notes files), SRC
the tree it was built from, OUT the folder for the results, OWNED a file
naming our kernel files (paths under SRC, one a line), and each RUN a
folder holding what one VM's /sys/kernel/debug/gcov held (the .gcda
counters at the path of each object, under OBJ's absolute path).

gcov (of gcc, the compiler that built the kernel) reads every object's
notes with each run's counters (--json-format); the counts of all runs
are added up.  A line is reached when its count is not 0; a branch when
gcov counts it taken at least once.  A header's lines are met in every
object that includes it: a line is reached when any object reached it,
and every object's copy of its branches counts.

Prints one row per owned file and the total, ending with
`coverage: L% lines, B% branches of our kernel files`; writes the same to
OUT/coverage.txt, and OUT/lines/FILE.txt, the source of each file with
each line's count (`#####` for a line never reached, `-` for no code).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile


def gcov_json(notes, counters, tmp):
    """gcov's JSON for one object: its notes with one run's counters, or
    with none (every count 0)."""
    stem = os.path.join(tmp, 'o')
    for ext in ('.gcda', '.gcno'):
        if os.path.exists(stem + ext):
            os.unlink(stem + ext)
    shutil.copyfile(notes, stem + '.gcno')
    if counters:
        shutil.copyfile(counters, stem + '.gcda')
    out = subprocess.run(['gcov', '--json-format', '--stdout', '--branch-probabilities',
                          '-o', tmp, stem + '.gcda'], cwd=tmp, check=False,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    docs = [json.loads(line) for line in out.splitlines() if line.startswith('{')]
    if not docs:
        sys.exit('coverage: gcov read nothing from %s' % notes)
    return docs[0]


def main():
    obj, src, outdir, owned_list = (os.path.realpath(a) for a in sys.argv[1:5])
    runs = sys.argv[5:]
    owned = [l.strip() for l in open(owned_list) if l.strip()]
    ownset = set(owned)
    objkey = obj.lstrip('/')

    # lines[file][line] = count; branches[file][(object, entry, index)] = count
    lines = {f: {} for f in owned}
    branches = {f: {} for f in owned}
    built = set()
    tmp = tempfile.mkdtemp(prefix='ts-coverage.')
    try:
        for f in owned:
            if not f.endswith('.c'):
                continue
            rel = f[:-2]
            notes = os.path.join(obj, rel + '.gcno')
            if not os.path.exists(notes):
                continue
            built.add(f)
            counters = [os.path.join(r, objkey, rel + '.gcda') for r in runs]
            counters = [c for c in counters if os.path.exists(c)] or [None]
            for c in counters:
                doc = gcov_json(notes, c, tmp)
                cwd = doc.get('current_working_directory', obj)
                for entry in doc['files']:
                    path = os.path.realpath(os.path.join(cwd, entry['file']))
                    name = os.path.relpath(path, src)
                    if name not in ownset:
                        continue
                    if name.endswith('.h'):
                        built.add(name)
                    for i, l in enumerate(entry['lines']):
                        n = l['line_number']
                        lines[name][n] = lines[name].get(n, 0) + l['count']
                        for j, b in enumerate(l['branches']):
                            key = (rel, i, j)
                            branches[name][key] = branches[name].get(key, 0) + b['count']
    finally:
        shutil.rmtree(tmp)

    def pct(hit, total):
        return 100.0 * hit / total if total else 100.0

    rows = []
    tl = tlh = tb = tbh = 0
    for f in sorted(owned):
        if f not in built:
            if f.endswith('.c'):
                rows.append('%-40s %s' % (f, 'not built in this configuration'))
            continue
        nl = len(lines[f])
        if nl == 0:
            continue
        lh = sum(1 for c in lines[f].values() if c)
        nb = len(branches[f])
        bh = sum(1 for c in branches[f].values() if c)
        tl, tlh, tb, tbh = tl + nl, tlh + lh, tb + nb, tbh + bh
        rows.append('%-40s %6.1f%% %5d/%-5d %6.1f%% %5d/%-5d' %
                    (f, pct(lh, nl), lh, nl, pct(bh, nb), bh, nb))
    head = [('%-40s %7s %-11s %7s %-11s' % ('file', 'lines', ' reached', 'branch', ' taken')).rstrip()]
    total = '%-40s %6.1f%% %5d/%-5d %6.1f%% %5d/%-5d' % (
        'all', pct(tlh, tl), tlh, tl, pct(tbh, tb), tbh, tb)
    last = 'coverage: %.1f%% lines, %.1f%% branches of our kernel files' % (
        pct(tlh, tl), pct(tbh, tb))
    text = '\n'.join(r.rstrip() for r in head + rows + [total, last]) + '\n'
    os.makedirs(os.path.join(outdir, 'lines'), exist_ok=True)
    with open(os.path.join(outdir, 'coverage.txt'), 'w') as fh:
        fh.write(text)
    for f in sorted(built):
        dst = os.path.join(outdir, 'lines', f.replace('/', '_') + '.txt')
        with open(os.path.join(src, f), errors='replace') as fh, open(dst, 'w') as out:
            for n, code in enumerate(fh, 1):
                c = lines[f].get(n)
                mark = '-' if c is None else ('#####' if c == 0 else str(c))
                out.write('%9s:%5d:%s' % (mark, n, code))
    sys.stdout.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
