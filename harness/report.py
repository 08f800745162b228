#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn a test VM's two serial logs into one line per test and a summary.

usage: report.py CONSOLE_LOG RESULT_LOG [TEST[,TEST...]]

The result log (ttyS1) carries `TSRESULT name pass|fail|skip [detail]` lines
from the in-VM runner and `TS-DONE` at the end.  The console log (ttyS0)
carries the KUnit KTAP output printed at boot, the test output framed by
`TSBEGIN name` / `TSEND name`, and any kernel splat.  A splat fails the run
even when every test passed; it is charged to the test that was running.
Exit status: 0 when something ran and nothing failed, 1 otherwise.
A few lines of the base's own diagnostics (BASE_NOISE, each with its
reason) are listed as NOTE lines instead.

With TS_OURS_SYMS=FILE (the names of our kernel functions, one a line:
make fuzz KCSAN=1), a KCSAN report is a splat only when one of its
stacks passes through one of them; the others are listed as the base's
(NOTE lines) and fail nothing.
"""
import collections
import fnmatch
import os
import re
import sys

STAMP = re.compile(r'^\[\s*\d+\.\d+\]\s?')
SPLAT = re.compile(r'(WARNING:|BUG:|kernel BUG at|Oops|general protection fault|'
                   r'Kernel panic|possible circular locking|possible recursive locking|'
                   r'inconsistent lock state|suspicious RCU usage|KASAN|UBSAN|'
                   r'unreferenced object 0x|kmemleak:.*new suspected)')
FRAME = re.compile(r'^\s*([A-Za-z_][\w.]*)\+0x')
KTAP = re.compile(r'^( *)(not )?ok \d+ ([^#]*?)\s*(#.*)?$')
# Lines that SPLAT matches but that are the base kernel's diagnostics, not
# faults: each is a NOTE, with its reason, and fails nothing.
BASE_NOISE = [
    # The ORC unwinder's own printk (printk_deferred_once() in
    # arch/x86/kernel/unwind_orc.c, not a WARN()): once a boot, when an
    # unwind starts from an interrupt taken in the last instructions of
    # the function graph tracer's return trampoline (ftrace_64.S: the
    # address is the return address of its `call .Ldo_rop`), the stack
    # pointer it computes for the frame above goes down.  Seen once under
    # upstream's ftrace/fgraph-multi.tc on the debug kernel, where KASAN
    # saves a stack on every allocation, interrupts included.  Base
    # assembly and base unwinder; nothing of ours runs in that window.
    (re.compile(r'^WARNING: stack going in the wrong direction\? at return_to_handler\+'),
     'the ORC unwinder inside the graph tracer\'s return trampoline (base code)'),
]


def kunit_results(lines):
    suite = None
    for raw in lines:
        line = STAMP.sub('', raw.rstrip('\n'))
        m = re.match(r'^( *)# Subtest: (\S+)', line)
        if m and len(m.group(1)) == 4:
            suite = m.group(2)
            continue
        m = KTAP.match(line)
        if not m or suite is None:
            continue
        depth = len(m.group(1)) // 4
        directive = (m.group(4) or '').upper()
        status = 'skip' if 'SKIP' in directive else ('fail' if m.group(2) else 'pass')
        if depth == 1:
            yield 'kunit/%s.%s' % (suite, m.group(3)), status, ''
        elif depth == 0:
            if status == 'fail':
                yield 'kunit/%s' % suite, 'fail', 'suite failed'
            suite = None


def splats(lines, ours=None, noise=None):
    """(test, line) of every splat; with OURS (a set of function names),
    KCSAN reports through none of them go to NOISE instead."""
    current = 'boot'
    kcsan = None
    for raw in lines:
        line = raw.rstrip('\n')
        m = re.match(r'^TSBEGIN (\S+)', line)
        if m:
            current = m.group(1)
            continue
        if not STAMP.match(line):
            continue
        text = STAMP.sub('', line).strip()
        if kcsan is not None:
            title, found = kcsan
            if text.startswith('====='):
                kcsan = None
                if found:
                    yield current, '%s (our functions in its stacks: %s)' % (
                        title, ' '.join(found))
                else:
                    noise.append(title)
                continue
            m = FRAME.match(text)
            name = m.group(1).split('.')[0] if m else ''
            if name in ours and name not in found:
                found.append(name)
            continue
        if ours is not None and text.startswith('BUG: KCSAN:'):
            kcsan = (text, [])
            continue
        if SPLAT.search(line):
            why = next((r for p, r in BASE_NOISE if p.search(text)), None)
            if why is None:
                yield current, text
            elif noise is not None:
                noise.append('%s: %s' % (why, text))
    if kcsan is not None:
        yield current, kcsan[0] + ' (the report is cut short)'


def our_functions():
    path = os.environ.get('TS_OURS_SYMS')
    if not path:
        return None
    with open(path) as f:
        return set(f.read().split())


def main():
    console_log, result_log = sys.argv[1], sys.argv[2]
    test = sys.argv[3] if len(sys.argv) > 3 else ''
    console = open(console_log, errors='replace').readlines()
    results = open(result_log, errors='replace').read().splitlines()

    rows = list(kunit_results(console))
    if test:
        pats = test.split(',')
        rows = [r for r in rows
                if any(n == t or fnmatch.fnmatchcase(n, t) for t in pats
                       for n in (r[0], r[0].split('/', 1)[1].split('.')[0]))]
    for line in results:
        parts = line.split(None, 3)
        if len(parts) >= 3 and parts[0] == 'TSRESULT':
            rows.append((parts[1], parts[2], parts[3] if len(parts) > 3 else ''))

    counts = {'pass': 0, 'fail': 0, 'skip': 0}
    for name, status, detail in rows:
        counts[status] = counts.get(status, 0) + 1
        print('%-4s %s%s' % (status.upper(), name, ': ' + detail if detail else ''))

    problems = []
    seen = set()
    noise = []
    for where, what in splats(console, our_functions(), noise):
        if (where, what) not in seen:
            seen.add((where, what))
            problems.append('kernel splat during %s: %s' % (where, what))
    if noise:
        print('NOTE %d reports of the base\'s, which fail nothing (KCSAN reports '
              'with none of our functions in their stacks, BASE_NOISE lines):' % len(noise))
        for title, count in collections.Counter(noise).most_common():
            print('NOTE   %dx %s' % (count, title))
    if 'TS-DONE' not in results:
        problems.append('the VM did not finish its run (crash, panic or timeout): see %s'
                        % console_log)
    if not rows:
        problems.append('no test ran' + (' named %s' % test if test else ''))
    for p in problems:
        print('FAIL ' + p)
    failed = counts['fail'] + len(problems)
    summary = '%d passed, %d failed' % (counts['pass'], failed)
    if counts['skip']:
        summary += ', %d skipped' % counts['skip']
    print(summary)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
