#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""declared-path.py DIR PKG... - fill DIR with links to every program that
the installed packages PKG..., their dependencies (Depends, Pre-Depends,
through virtual packages and alternatives) and Debian's Priority: required
packages provide.  The harness runs with PATH=DIR, so a program it or kbuild
calls without declaring its package is "not found" on every machine."""
import os
import re
import subprocess
import sys

out, wanted = sys.argv[1], sys.argv[2:]

fields = '${Package}\t${Status}\t${Priority}\t${Provides}\t${Depends}, ${Pre-Depends}\n'
rows = subprocess.run(['dpkg-query', '-W', '-f', fields], check=True,
                      capture_output=True, text=True).stdout.splitlines()
installed, provider, depends = set(), {}, {}
for row in rows:
    name, status, prio, provides, deps = row.split('\t')
    if not status.endswith(' installed'):
        continue
    installed.add(name)
    depends[name] = deps
    provider.setdefault(name, []).append(name)
    for v in provides.split(','):
        v = v.split('(')[0].strip()
        if v:
            provider.setdefault(v, []).append(name)
    if prio == 'required':
        wanted.append(name)


def names(dep):
    """The installed packages one dependency ("a (>= 1) | b:any") names."""
    for alt in dep.split('|'):
        alt = re.sub(r'\(.*?\)|\[.*?\]|<.*?>', '', alt).strip().split(':')[0]
        yield from provider.get(alt, [])


missing = [p for p in sys.argv[2:] if p not in installed]
if missing:
    sys.exit('declared-path: not installed: ' + ' '.join(missing))
allowed, todo = set(), list(wanted)
while todo:
    p = todo.pop()
    if p in allowed:
        continue
    allowed.add(p)
    for dep in depends.get(p, '').split(','):
        todo.extend(names(dep))

programs = set()
for p in allowed:
    for arch in ('', ':amd64'):
        lst = '/var/lib/dpkg/info/%s%s.list' % (p, arch)
        if os.path.exists(lst):
            for f in open(lst):
                f = f.strip()
                if '/bin/' in f or '/sbin/' in f:
                    programs.add(os.path.realpath(f))

os.makedirs(out, exist_ok=True)
count = 0
for d in os.environ['PATH'].split(':'):
    if not os.path.isdir(d):
        continue
    for name in sorted(os.listdir(d)):
        link, target = os.path.join(out, name), os.path.realpath(os.path.join(d, name))
        if target in programs and not os.path.lexists(link) and os.access(target, os.X_OK):
            os.symlink(target, link)
            count += 1
print('declared-path: %d programs of %d packages in %s' % (count, len(allowed), out))
