#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# series-stat.sh - the lines each patch of build/patches/ (make patches)
# inserts and deletes, as kernel code (kernel/, include/, fs/, samples/ and
# every Kconfig and Makefile but the selftests'), tests (KUnit suites and
# tools/testing/) and documentation (Documentation/); deleted lines of a
# base file the patch replaces whole count apart, as "replaced".
. "$(dirname "$0")/lib.sh"

base=$(base_tree)
printf '%-62s %13s %13s %13s %9s\n' patch "code +/-" "tests +/-" "docs +/-" replaced
for p in $(cat "$B/patches/order"); do
	python3 - "$p" "$base" <<-'PY'
	import os, re, sys
	path, base = sys.argv[1], sys.argv[2]
	text = open(path, errors='replace').read()
	text = text[:text.rfind('\n-- \n')]	# the signature of the mail
	stat = {'code': [0, 0], 'tests': [0, 0], 'docs': [0, 0], 'other': [0, 0]}
	replaced = 0
	# one section per file: "diff --git a/X b/X"
	for sec in re.split(r'^diff --git ', text, flags=re.M)[1:]:
	    f = sec.split()[1][2:]
	    if f.startswith('Documentation/'):
	        kind = 'docs'
	    elif f.startswith('tools/testing/') or f.endswith('_kunit.c'):
	        kind = 'tests'
	    elif re.match(r'(kernel|include|fs|samples)/', f) or \
	            os.path.basename(f).startswith(('Kconfig', 'Makefile')):
	        kind = 'code'
	    else:
	        kind = 'other'
	    body = sec.split('\n@@', 1)[1] if '\n@@' in sec else ''
	    plus = sum(1 for l in body.split('\n') if l.startswith('+') and not l.startswith('+++'))
	    minus = sum(1 for l in body.split('\n') if l.startswith('-') and not l.startswith('---'))
	    stat[kind][0] += plus
	    # a base file replaced whole by ours: its deletions count apart
	    base_lines = 0
	    if os.path.exists(os.path.join(base, f)):
	        base_lines = sum(1 for _ in open(os.path.join(base, f), errors='replace'))
	    if kind == 'code' and base_lines and minus > base_lines / 2:
	        replaced += minus
	    else:
	        stat[kind][1] += minus
	name = os.path.basename(path)[:-6]
	print('%-62s %6d/%-6d %6d/%-6d %6d/%-6d %9d' % (name[:62], *stat['code'], *stat['tests'],
	      *stat['docs'], replaced))
	PY
done | awk '{ print } { split($2, c, "/"); split($3, t, "/"); split($4, d, "/")
	ci += c[1]; cd += c[2]; ti += t[1]; td += t[2]; di += d[1]; dd += d[2]; r += $5 }
	END { printf "%-62s %6d/%-6d %6d/%-6d %6d/%-6d %9d\n", "total", ci, cd, ti, td, di, dd, r }'
