#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn a test VM's two serial logs into one line per test and a summary.

usage: report.py CONSOLE_LOG RESULT_LOG [TEST]

The result log (ttyS1) carries `TSRESULT name pass|fail|skip [detail]` lines
from the in-VM runner and `TS-DONE` at the end.  The console log (ttyS0)
carries the KUnit KTAP output printed at boot, the test output framed by
`TSBEGIN name` / `TSEND name`, and any kernel splat.  A splat fails the run
even when every test passed; it is charged to the test that was running.
Exit status: 0 when something ran and nothing failed, 1 otherwise.
"""
import re
import sys

STAMP = re.compile(r'^\[\s*\d+\.\d+\]\s?')
SPLAT = re.compile(r'(WARNING:|BUG:|kernel BUG at|Oops|general protection fault|'
                   r'Kernel panic|possible circular locking|possible recursive locking|'
                   r'inconsistent lock state|suspicious RCU usage|KASAN|UBSAN|'
                   r'unreferenced object 0x|kmemleak:.*new suspected)')
KTAP = re.compile(r'^( *)(not )?ok \d+ ([^#]*?)\s*(#.*)?$')


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


def splats(lines):
    current = 'boot'
    for raw in lines:
        line = raw.rstrip('\n')
        m = re.match(r'^TSBEGIN (\S+)', line)
        if m:
            current = m.group(1)
            continue
        if STAMP.match(line) and SPLAT.search(line):
            yield current, STAMP.sub('', line).strip()


def main():
    console_log, result_log = sys.argv[1], sys.argv[2]
    test = sys.argv[3] if len(sys.argv) > 3 else ''
    console = open(console_log, errors='replace').readlines()
    results = open(result_log, errors='replace').read().splitlines()

    rows = list(kunit_results(console))
    if test:
        rows = [r for r in rows if test in (r[0], r[0].split('/', 1)[1].split('.')[0])]
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
    for where, what in splats(console):
        if (where, what) not in seen:
            seen.add((where, what))
            problems.append('kernel splat during %s: %s' % (where, what))
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
