#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""doc-examples.py OUT RST... - extract the worked examples of our
documentation for tests/shell/doc_examples.sh, which runs them in the VM
and compares what they print with what the documentation shows.
doc-examples.py --update LOG RST... - put what a run printed into them.

An example is a literal block that shows commands typed at a root shell
(lines "# COMMAND") and what they print (the lines under each command).
It is preceded by a comment naming it, which Sphinx does not render:

    .. example: NAME
       mask: REGEX

    Some text ending in a colon::

      # cd /sys/kernel/tracing
      # echo 'hist:keys=common_pid' >> events/sched/sched_process_exec/trigger
      # cat events/sched/sched_process_exec/trigger
      hist:keys=common_pid:vals=hitcount:sort=hitcount:size=2048 [active]

The examples of one file run in order in one shell, started in
/sys/kernel/tracing, so an example may build on the ones before it.  A
line "# WORD ..." is a command when WORD is a command or a variable
assignment, a path or a variable (see is_command()); "# event
histogram" is output.  A command ending in a backslash continues on the
next line, and so do lines shown with the shell's second prompt "> "
(a here-document).  In the output shown, a line "..." stands for any
number of lines.  Before comparing, both sides
lose trailing blanks and trailing empty lines, and what always varies is
masked (doc_examples.sh: trace line prefixes, time stamps, pids,
addresses); an example's own "mask:" lines give extended regular
expressions whose matches are masked too, "arch: ARCH" keeps an
example that only holds on one architecture from being compared on
another, and "needs: PROGRAM" one that runs a client the VM may lack
(perf, trace-cmd) from being compared where it lacks it.

With --update LOG, puts what a run of doc_examples.sh printed (its
FAIL reports in the console log LOG) under the commands of the examples
that differ, in the RST files given, for a person to review.

Writes OUT/NAME.sh (the commands, between "@@" marker lines) and
OUT/NAME.expected (the markers, the masks and the output shown) for every
RST that has examples.  A literal block that starts with a command but
has no "example:" comment is an error: every example runs.  Errors are
printed and written to OUT/errors, which fails doc_examples.sh.
"""
import os
import re
import sys

COMMANDS = set('''cd echo cat grep ls mkdir rmdir sleep for while printf
    wc head tail sed tr awk sort uniq cut mount umount chmod chown kill wait
    true false test ln rm touch perf trace-cmd sh exec dd taskset seq
    modprobe rmmod insmod env nice timeout unshare xargs stat readlink
    dmesg uname id hexdump od diff cmp find basename'''.split())
MARKER = re.compile(r'^\s*\.\. example:\s*(\S+)\s*$')
OPTION = re.compile(r'^\s+(mask|arch|needs):\s*(.*?)\s*$')


def is_command(line):
    """A shown line "# WORD ..." that is a command, not output."""
    m = re.match(r'^# (\S+)', line)
    if not m:
        return False
    word = m.group(1)
    return (word in COMMANDS or word[0] in '/$' or word.startswith('./')
            or re.match(r'^[A-Za-z_][A-Za-z0-9_]*=', word) is not None)


def indent(line):
    return len(line) - len(line.lstrip())


def continued(line):
    """A line that goes on with the command above it, as typed."""
    return line[2:] if line.startswith('> ') else line


def command_end(body, k):
    """The index after the command that starts at body[k]: a line ending
    in a backslash continues on the next line, and lines shown with the
    shell's second prompt "> " (a here-document, an open quote) belong
    to the command too."""
    k += 1
    while k < len(body) and (body[k - 1].endswith('\\') or
                             body[k].startswith('> ') or body[k] == '>'):
        k += 1
    return k


def literal_block(lines, i, para=0):
    """The literal block whose '::' paragraph, indented by para, ends
    before line i: (first line, dedented lines, index after it), or None.
    The block is what follows indented deeper than that paragraph."""
    n = len(lines)
    while i < n and lines[i].strip() == '':
        i += 1
    if i >= n or indent(lines[i]) <= para:
        return None
    start, body = i, []
    while i < n and (lines[i].strip() == '' or indent(lines[i]) > para):
        body.append(lines[i].rstrip())
        i += 1
    while body and body[-1] == '':
        body.pop()
    ind = min(indent(b) for b in body if b)
    return start, [b[ind:] for b in body], i


def blocks(lines):
    """Every literal block of the file: (line of '::', first line, body)."""
    i = 0
    while i < len(lines):
        if lines[i].rstrip().endswith('::') and not lines[i].startswith('.. '):
            b = literal_block(lines, i + 1, indent(lines[i]))
            if b:
                yield i, b[0], b[1]
                i = b[2]
                continue
        i += 1


def examples(path):
    """The examples of one file, in order, as dicts."""
    lines = open(path, encoding='utf-8').read().split('\n')
    marks, errors = {}, []
    for i, line in enumerate(lines):
        m = MARKER.match(line)
        if not m:
            continue
        opts, j = {'mask': [], 'arch': [], 'needs': []}, i + 1
        while j < len(lines) and OPTION.match(lines[j]):
            o = OPTION.match(lines[j])
            opts[o.group(1)].append(o.group(2))
            j += 1
        marks[i] = (m.group(1), opts)
    out, names, pending = [], set(), sorted(marks)
    for colons, first, body in blocks(lines):
        before = [k for k in pending if k < colons]
        where = '%s:%d' % (path, first + 1)
        if not any(is_command(b) for b in body):
            if before:
                errors.append('%s: the example "%s" above this block shows no command'
                              % (where, marks[before[-1]][0]))
                pending = [k for k in pending if k >= colons]
            continue
        if not before:
            errors.append('%s: commands without an ".. example: NAME" comment before them'
                          % where)
            continue
        if not is_command(body[0]):
            errors.append('%s: an example starts with its command' % where)
            pending = [k for k in pending if k >= colons]
            continue
        if len(before) > 1:
            errors.append('%s: two example comments before one block' % where)
        name, opts = marks[before[-1]]
        pending = [k for k in pending if k >= colons]
        if name in names:
            errors.append('%s: a second example named %s' % (where, name))
        names.add(name)
        cmds, k = [], 0
        while k < len(body):
            end = command_end(body, k)
            cmd = [body[k][2:]] + [continued(t) for t in body[k + 1:end]]
            k = end
            shown = []
            while k < len(body) and not is_command(body[k]):
                shown.append(body[k])
                k += 1
            cmds.append(('\n'.join(cmd), shown))
        out.append({'name': name, 'where': where, 'cmds': cmds, **opts})
    for k in pending:
        errors.append('%s:%d: the example "%s" has no literal block after it'
                      % (path, k + 1, marks[k][0]))
    return out, errors


def update(log, paths):
    """Put what the VM printed (the FAIL reports of doc_examples.sh in a
    console log) under the commands of the examples that differ, for a
    person to review with git diff."""
    fixes, cur = {}, None
    for line in open(log, encoding='utf-8', errors='replace'):
        line = line.rstrip('\r\n')
        m = re.match(r'^FAIL: (\S+):(\d+) example \S+, command (\d+): ', line)
        if m:
            cur = fixes.setdefault((os.path.basename(m.group(1)), int(m.group(2))), {})
            cur = cur.setdefault(int(m.group(3)), [])
            continue
        if cur is not None and line.startswith('  printed: '):
            cur.append(line[len('  printed: '):].rstrip())
        elif cur is not None and not line.startswith('  shown:'):
            cur = None
    for path in paths:
        lines = open(path, encoding='utf-8').read().split('\n')
        todo = sorted((k[1], v) for k, v in fixes.items() if k[0] == os.path.basename(path))
        for first, cmds in reversed(todo):
            i, ind = first - 1, indent(lines[first - 1])
            b = literal_block(lines, i, ind - 1)
            body = lines[i:b[2]]
            while body and body[-1].strip() == '':
                body.pop()
            old = len(body)
            starts = [k for k, t in enumerate(body) if is_command(t[ind:])]
            ends = starts[1:] + [len(body)]
            for n in sorted(cmds, reverse=True):
                s = starts[n - 1]
                s, e = s + command_end([t[ind:] for t in body[s:]], 0), ends[n - 1]
                out = cmds[n]
                while out and out[-1] == '':
                    out.pop()
                # A blank line between an output and the next command
                if out and n < len(starts):
                    out.append('')
                body[s:e] = [(' ' * ind + t) if t else '' for t in out]
            lines[i:i + old] = body
        open(path, 'w', encoding='utf-8').write('\n'.join(lines))


def main():
    if sys.argv[1] == '--update':
        update(sys.argv[2], sys.argv[3:])
        return
    outdir, paths = sys.argv[1], sys.argv[2:]
    os.makedirs(outdir, exist_ok=True)
    total, errors = 0, []
    for path in paths:
        exs, errs = examples(path)
        errors += errs
        if not exs:
            continue
        stem = os.path.basename(path)[:-len('.rst')]
        rel = os.path.join('Documentation/trace', os.path.basename(path))
        with open(os.path.join(outdir, stem + '.sh'), 'w') as sh, \
                open(os.path.join(outdir, stem + '.expected'), 'w') as exp:
            sh.write('# The examples of %s, made by harness/doc-examples.py\n' % rel)
            for ex in exs:
                where = ex['where'].replace(path, rel)
                head = '@@ex %s %s' % (ex['name'], where)
                sh.write("printf '\\n%%s\\n' '%s'\n" % head)
                exp.write(head + '\n')
                for a in ex['arch']:
                    exp.write('@@arch %s\n' % a)
                for a in ex['needs']:
                    exp.write('@@needs %s\n' % a)
                for m in ex['mask']:
                    exp.write('@@mask %s\n' % m)
                for n, (cmd, shown) in enumerate(ex['cmds']):
                    mark = '@@cmd %d' % (n + 1)
                    sh.write("printf '\\n%%s\\n' '%s'\n%s\n" % (mark, cmd))
                    exp.write('%s %s\n' % (mark, cmd.split('\n')[0]))
                    exp.writelines(s + '\n' for s in shown)
                total += 1
            sh.write("printf '\\n%s\\n' '@@end'\n")
            exp.write('@@end\n')
    # A malformed example fails the test that runs them, not the image
    # every other test needs.
    with open(os.path.join(outdir, 'errors'), 'w') as f:
        f.writelines(e + '\n' for e in errors)
    for e in errors:
        print('doc-examples: ' + e, file=sys.stderr)


main()
