#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh - run every bench/*.c program on our kernel and on the unmodified
# base kernel, booted the same way under QEMU -icount (guest time counts
# guest instructions; one vCPU and no address randomisation, so figures
# repeat exactly from run to run), and print the ratios.  BENCH=name runs
# only the program bench/name.c; a whole run rewrites
# bench/figures-ARCH.txt.
#
# The two kernels are those of the tests, built -O2 as distributions build
# theirs (config/tracing.config).
. "$(dirname "$0")/lib.sh"

kernels=$(opt_kernels)
for v in $kernels; do "$ROOT/harness/build-kernel.sh" "$v"; done
"$ROOT/harness/programs.sh"
"$ROOT/harness/initramfs.sh"
for v in $kernels; do
	log=bench-$v
	say "benchmarks on the $v kernel (QEMU -icount shift=0,sleep=off)"
	TS_SMP=1 TS_QUIET=1 TS_ICOUNT=1 "$ROOT/harness/vm.sh" "$v" bench "$log" \
		quiet kunit.enable=0 norandmaps nokaslr ${BENCH:+ts.test=$BENCH}
	grep -q TS-DONE "$B/logs/$log.out" || die "the $v benchmark run did not finish"
done
# A whole run (no BENCH=) is recorded in bench/figures-ARCH.txt, where
# the cover letters take their figures from (harness/patches.sh).
figures=
if [ -z "${BENCH:-}" ]; then figures=$ROOT/bench/figures-$TS_ARCH.txt; fi
python3 - "$B/logs/bench-ours.out" "$B/logs/bench-base.out" "$figures" \
	"$TS_ARCH" "$(base_label)" <<'PY'
import sys, time
def load(path):
    d = {}
    for line in open(path, errors='replace'):
        p = line.split()
        if len(p) >= 3 and p[0] == 'BENCH':
            d[p[1]] = (float(p[2]), p[3] if len(p) > 3 else '')
    return d
ours, base = load(sys.argv[1]), load(sys.argv[2])
figures, arch, version = sys.argv[3:6]
if figures:
    with open(figures, 'w') as f:
        f.write('# make bench on %s, %s: guest ns per operation under\n'
                '# QEMU -icount on ours and on the unmodified base\n'
                '# (%s), booted the same way in one run;\n'
                "# '-': no such figure on that kernel.  The cover letters take\n"
                '# their figures from here (harness/patches.sh); make bench\n'
                '# rewrites it.\n'
                % (arch, time.strftime('%Y-%m-%d', time.gmtime()), version))
        # '-': the kernel has no such figure (7.2 has no status page)
        v = lambda d, n: '%.1f' % d[n][0] if n in d else '-'
        for name in sorted(set(ours) | set(base)):
            f.write('%s %s %s\n' % (name, v(ours, name), v(base, name)))
print('%-44s %12s %12s %8s' % ('benchmark (guest ns per operation)', 'ours', 'base', 'ours/base'))
for name in sorted(set(ours) | set(base)):
    o = ours.get(name, (None, ''))[0]
    b = base.get(name, (None, ''))[0]
    fmt = lambda v: '%12.1f' % v if v is not None else '%12s' % 'n/a'
    ratio = '%8.3f' % (o / b) if o is not None and b else '%8s' % '-'
    print('%-44s %s %s %s' % (name, fmt(o), fmt(b), ratio))
# Costs against a reference measured in the same run, on each kernel
rel = [('ue_enabled_writev', 'ue_ref_trace_marker'),
       ('ue_enabled_writev_2iov', 'ue_ref_trace_marker'),
       ('ue_enabled_write', 'ue_ref_trace_marker')]
rows = [(a, r) for a, r in rel if a in ours and r in ours]
if rows:
    print('%-44s %12s %12s' % ('within one run', 'ours', 'base'))
for a, r in rows:
    q = lambda d: '%12.3f' % (d[a][0] / d[r][0]) if a in d and r in d else '%12s' % 'n/a'
    print('%-44s %s %s' % (a + ' / ' + r.replace('ue_ref_', ''), q(ours), q(base)))
# Each workload above its floor, the floor measured in the same run on
# the same kernel: what the path cannot avoid (the ring buffer's write of
# a record that size; the event with its record built and dropped; the
# syscall's path up to the trigger engine)
floors = [('layer_fixed', 'layer_fixed_floor'),
          ('layer_string', 'layer_string_floor'),
          ('layer_dynarray', 'layer_dynarray_floor'),
          ('trigger_traceon_filtered', 'trigger_syscall_floor'),
          ('trigger_traceon_unfiltered', 'trigger_syscall_floor'),
          ('hist_pid', 'hist_floor_getppid'),
          ('hist_two_keys', 'hist_floor_lseek'),
          ('hist_90_full', 'hist_floor_lseek'),
          ('hist_string', 'hist_floor_signal'),
          ('synth_onmatch_disabled', 'synth_floor'),
          ('synth_onmatch_trace', 'synth_floor'),
          ('synth_onmatch_trace_extra', 'layer_64_floor')]
rows = [(a, f) for a, f in floors if all(n in d for n in (a, f) for d in (ours, base))]
if rows:
    print('%-44s %12s %12s %8s' % ('above its floor (each kernel\'s own)', 'ours', 'base',
                                   'ours/base'))
for a, f in rows:
    o, b = ours[a][0] - ours[f][0], base[a][0] - base[f][0]
    ratio = '%8.3f' % (o / b) if b > 0 else '%8s' % '-'
    print('%-44s %12.1f %12.1f %s' % (a + ' - ' + f, o, b, ratio))
PY
# Code the event layer generates, ours against the base's
FIGURES=$figures "$ROOT/harness/layer-size.sh" $kernels
