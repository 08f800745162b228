#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""header-sections.py - lay our headers part by part, as the series grows.

A header of ours may group what it declares by the file that defines it,
under a comment line that names that file alone:

    /* trace_hist_vars.c */
    /* trace_filter_parse.c: what the compiler builds, it frees */

Such a section runs to the next one or to the header's closing #endif.
A section of what one file defines for another alone,

    /* trace_events_user.c, for trace_user_groups.c */

is laid once both files are.
When a component is laid (lay_component in lib.sh), each header laid so
far gets the sections whose file is laid too; so a declaration enters the series in the patch
that defines it.  A name is relative to the header's folder, or to the
tree when it holds a '/'.

    header-sections.py ROOT DIR LAID OWNED [--check]

LAID and OWNED are files listing our files (paths from ROOT): those
laid so far, and all of them.  The laid headers with sections are
written into DIR, and their paths printed, one per line.  With --check,
a prototype that a laid header keeps of a function defined in a file of
ours not laid yet is an error (it belongs under a section of that file),
and so is one under the section of a file that does not define it.
"""
import os
import re
import sys

SECTION = re.compile(r'^/\* ([A-Za-z0-9_./-]+\.c)'
                     r'(?:, for ([A-Za-z0-9_./-]+\.c)|[:,] .*)? \*/$')
PROTO = re.compile(r'^(?!static\b|extern\b|#|typedef\b|struct \w+ \{|\s)'
                   r'[^\n;(){}=]*?\b(\w+)\([^;{}]*?\);', re.M)
DEF = re.compile(r'^(?!static\b|#|\s)[A-Za-z_][^\n;(){}=]*?\b(\w+)\('
                 r'[^;{}]*?\)\s*\{', re.M)


def sections(path, text):
    """(file or None, the file it is for or None, lines) parts of a header,
    the closing #endif apart."""
    lines = text.splitlines(keepends=True)
    end = len(lines)
    for i in range(len(lines) - 1, -1, -1):
        if lines[i].startswith('#endif'):
            end = i
            break
    def rel(name):
        if name is None or '/' in name:
            return name
        return os.path.normpath(os.path.join(os.path.dirname(path), name))

    parts, cur, name, user = [], [], None, None
    for line in lines[:end]:
        m = SECTION.match(line.rstrip('\n'))
        if m:
            parts.append((name, user, cur))
            cur, name, user = [], rel(m.group(1)), rel(m.group(2))
        cur.append(line)
    parts.append((name, user, cur))
    parts.append((None, None, lines[end:]))
    return parts


def section_laid(name, user, owned, laid):
    """Is a section with these files laid (a file not ours always is)?"""
    return all(f is None or f not in owned or f in laid for f in (name, user))


def base_part(out, name, user, ls):
    """What a section not laid yet keeps: while the base's own version of
    its file is in the tree (a file we replace, not laid yet), the
    prototypes of what that version defines too, which the base's callers
    need; nothing otherwise.  Returns the text and the names kept."""
    path = os.path.join(out, name)
    if user is not None or not os.path.isfile(path):
        return '', set()
    defined = {m.group(1) for m in DEF.finditer(open(path).read())}
    keep = [m for m in PROTO.finditer(''.join(ls)) if m.group(1) in defined]
    if not keep:
        return '', set()
    text = ''.join([ls[0]] + [m.group(0) + '\n' for m in keep] + ['\n'])
    return text, {m.group(1) for m in keep}


def main():
    root, out, laid_list, owned_list = sys.argv[1:5]
    check = '--check' in sys.argv[5:]
    laid = open(laid_list).read().split()
    owned = set(open(owned_list).read().split())
    laid_set = set(laid)
    bad = []
    where = {}
    for c in sorted(owned) if check else []:
        if c.endswith('.c'):
            src = open(os.path.join(root, c)).read()
            for m in DEF.finditer(src):
                where.setdefault(m.group(1), c)
    late = {n: c for n, c in where.items() if c not in laid_set}
    for h in laid:
        if not h.endswith('.h'):
            continue
        text = open(os.path.join(root, h)).read()
        parts = sections(h, text)
        base_kept = set()
        if len(parts) > 2:
            for name, _, ls in parts if check else []:
                if name not in owned:
                    continue
                for m in PROTO.finditer(''.join(ls)):
                    c = where.get(m.group(1))
                    if c and c != name:
                        bad.append(f'{h} declares {m.group(1)}() under '
                                   f'{os.path.basename(name)}, which '
                                   f'{c} defines')
            kept = ''
            for name, user, ls in parts:
                if section_laid(name, user, owned, laid_set):
                    kept += ''.join(ls)
                else:
                    t, names = base_part(out, name, user, ls)
                    kept += t
                    base_kept |= names
            with open(os.path.join(out, h), 'w') as f:
                f.write(kept)
            print(h)
            text = kept
        for m in PROTO.finditer(text):
            if m.group(1) in late and m.group(1) not in base_kept:
                bad.append(f'{h} declares {m.group(1)}(), which '
                           f'{late[m.group(1)]} defines later in the series: '
                           f'put it under "/* {os.path.basename(late[m.group(1)])} */"')
    for b in bad:
        print('error: ' + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
