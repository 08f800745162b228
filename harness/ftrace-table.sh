#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ftrace-table.sh - every upstream ftrace selftest (each test.d/*.tc of the
# base, the whole ftracetest) on the base kernel and on ours, built with the
# same configuration and booted the same way; one row per test with both
# verdicts and times, and tests/ftrace.list (with tests/ftrace-ARCH.list)
# held to account.  The base's verdicts are those base-reference.sh
# recorded (made again when the base kernel changes); ours come from a
# run of the same tests on our kernel.
# Exits 1 when a test passes on the base and not on ours, when the list
# gives no reason for a test that does not pass on the base, or gives one
# for a test that passes there or does not exist.
. "$(dirname "$0")/lib.sh"

"$ROOT/harness/build-kernel.sh" ours
"$ROOT/harness/programs.sh"
"$ROOT/harness/base-reference.sh"
list=$B/ftrace-reasons.txt
ftrace_reasons > "$list"
ref=$B/reference/ftrace-base.txt

ours=$B/ftrace-ours.txt
# TS_FTRACE_FROM_CHECK=1 (CI, right after make check) takes our verdicts
# from that run when it ran every test on the kernel built now.
last=$B/logs/check-ours.out
if [ "${TS_FTRACE_FROM_CHECK:-}" = 1 ] && [ "$last" -nt "$(bzimage ours)" ] &&
	[ "$(grep -c '^TSFTRACE ' "$last")" = "$(wc -l < "$ref")" ]; then
	say "our verdicts: those of the last make check (${last#$ROOT/})"
	tr -d '\r' < "$last" | sed -n 's/^TSFTRACE //p' > "$ours"
else
	job=$B/ftrace-ours.job
	echo 'TS_TEST=ftrace-only TS_FTRACE_REFERENCE=1 sh /tests/run-tests.sh' > "$job"
	"$ROOT/harness/initramfs.sh" "$job"
	say "running every upstream ftrace selftest on our kernel"
	start=$(date +%s)
	TS_QUIET=1 TS_INITRD=$B/initramfs-job.cpio "$ROOT/harness/vm.sh" ours compare ftrace-ours \
		quiet kunit.enable=0
	grep -q TS-DONE "$B/logs/ftrace-ours.out" || die "the run on our kernel did not finish: see build/logs/ftrace-ours.console"
	tr -d '\r' < "$B/logs/ftrace-ours.out" | sed -n 's/^TSFTRACE //p' > "$ours"
	say "$(wc -l < "$ours") tests on ours in $(($(date +%s) - start)) s"
fi

rc=0
python3 - "$ref" "$ours" "$list" "$ROOT/tests/ftrace-adapted" <<'PY' || rc=$?
import os, re, sys
ref, ours, lst, adapted = sys.argv[1:5]
def verdicts(path):
    d = {}
    for line in open(path):
        p = line.split()
        if len(p) >= 3:
            d[p[0]] = (p[1], int(p[2]))
    return d
b, o = verdicts(ref), verdicts(ours)
reasons = {}
for line in open(lst):
    line = line.rstrip('\n')
    if not line or line.startswith('#'):
        continue
    m = re.match(r'^(\S+\.tc): *(.+)$', line)
    if not m:
        print('tests/ftrace.list: cannot read %r' % line)
        sys.exit(1)
    reasons.setdefault(m.group(1), m.group(2))
bad = 0
print('%-58s %-11s %-11s %s' % ('test', 'base', 'ours', 'tests/ftrace.list'))
count = {}
for t in sorted(set(b) | set(o)):
    bv, bs = b.get(t, ('none', 0))
    ov, os_ = o.get(t, ('none', 0))
    why = reasons.get(t)
    if bv == 'pass':
        note = ''
        if os.path.exists(os.path.join(adapted, t + '.sed')):
            note = 'ours runs it as tests/ftrace-adapted/%s.sed rewrites it' % t
        if ov != 'pass':
            note, bad = 'PASSES ON THE BASE ONLY', 1
        if why:
            note, bad = 'gives a reason, but it passes on the base', 1
    else:
        note = why or ''
        if not why:
            note, bad = 'NO REASON for a test that does not pass on the base', 1
    key = (bv, ov)
    count[key] = count.get(key, 0) + 1
    print('%-58s %-11s %-11s %s' % (t, '%s %ds' % (bv, bs), '%s %ds' % (ov, os_), note))
for t in sorted(set(reasons) - set(b) - set(o)):
    print('tests/ftrace.list names %s, which is no test' % t)
    bad = 1
print('%d tests; base %d s, ours %d s in all' % (len(set(b) | set(o)),
      sum(v[1] for v in b.values()), sum(v[1] for v in o.values())))
for (bv, ov), n in sorted(count.items()):
    print('  %3d %s on the base, %s on ours' % (n, bv, ov))
sys.exit(bad)
PY
[ $rc = 0 ] && say "every test that passes on the base passes on ours; tests/ftrace.list gives the others' reasons"
exit $rc
