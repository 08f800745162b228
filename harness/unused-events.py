#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""unused-events.py OUR_FILES OBJECT... - the tracepoints that the objects
(vmlinux.o and the modules of one build) define and never fire.

A tracepoint X is defined where its struct, __tracepoint_X, is an object
symbol.  It is fired where code calls it: trace_X() calls the static call
trampoline __SCT__tp_func_X (x86) or __traceiter_X (without static
calls), so a relocation against either in a text section is a use.  The
trampoline itself (.static_call.text) and the tracepoint struct refer
to them too, which does not count.  Taking a tracepoint's address, testing
trace_X_enabled() or registering a probe is not firing it.

Without static calls (arm64 without CFI), GCC inlines __traceiter_X
into the calls of trace_X() that share its file (the one that defines
the tracepoint), and reaches the tracepoint there through a section
anchor: what is left of such a call is the jump label of the
tracepoint's static key, a __jump_table entry against __tracepoint_X.
In an object with no static call trampoline, that entry counts as a use
too, so there trace_X_enabled() alone passes for firing (the x86 build
tells them apart).

Ours are the events declared in OUR_FILES (a file of paths): a line that
starts with TRACE_EVENT*, DECLARE_TRACE* or DEFINE_EVENT* (not *_NOP,
which declare nothing, nor TRACE_EVENT_PERF_PERM).

Prints one line per unused tracepoint (`X OBJECT`, ours marked), then a
summary; exits 1 when one of ours is unused.
"""
import re
import subprocess
import sys

TEXT = re.compile(r'\.rela?\.(\w+\.)*text(\.\w+)*$')
USE = re.compile(r'\s(?:__SCT__tp_func_|__traceiter_)(\w+)')
KEY = re.compile(r'\s__tracepoint_(\w+)\s*\+')
DECL = re.compile(r'^(TRACE_EVENT\w*|DECLARE_TRACE\w*|DEFINE_EVENT\w*)\(\s*(\w+)'
                  r'(?:\s*,\s*(\w+))?', re.M)


def declared(paths):
    names = set()
    for path in paths:
        for m in DECL.finditer(open(path, errors='replace').read()):
            macro, first, second = m.groups()
            if macro.endswith('_NOP') or macro.startswith('DECLARE_EVENT_CLASS') or \
                    macro == 'TRACE_EVENT_PERF_PERM':
                continue
            names.add(second if macro.startswith('DEFINE_EVENT') else first)
    return names


def readelf(opt, path):
    return subprocess.run(['readelf', opt, '-W', path], capture_output=True,
                          text=True, check=True).stdout.splitlines()


def main():
    ours = declared(open(sys.argv[1]).read().split())
    defined, used = {}, set()
    for path in sys.argv[2:]:
        static_calls, keyed = False, set()
        for line in readelf('-s', path):
            p = line.split()
            if len(p) < 8:
                continue
            if p[7].startswith('__SCT__tp_func_'):
                static_calls = True
            if (p[3] == 'OBJECT' and p[6] != 'UND' and
                    p[7].startswith('__tracepoint_')):
                defined.setdefault(p[7][len('__tracepoint_'):], path)
        text = jump = False
        for line in readelf('-r', path):
            m = re.match(r"Relocation section '([^']+)'", line)
            if m:
                text = (TEXT.match(m.group(1)) is not None and
                        'static_call' not in m.group(1))
                jump = m.group(1) == '.rela__jump_table'
                continue
            m = USE.search(line) if text else None
            if m:
                used.add(m.group(1))
            m = KEY.search(line) if jump else None
            if m:
                keyed.add(m.group(1))
        if not static_calls:
            used |= keyed
    unused = sorted(set(defined) - used)
    bad = [x for x in unused if x in ours]
    for x in unused:
        print('%-40s %s%s' % (x, defined[x], '   <- ours' if x in ours else ''))
    print('unused-events: %d of %d tracepoints never fired in this build; '
          'ours: %d declared, %d defined here, %d unused%s' %
          (len(unused), len(defined), len(ours), len(ours & set(defined)),
           len(bad), (': ' + ' '.join(bad)) if bad else ''))
    return 1 if bad else 0


sys.exit(main())
