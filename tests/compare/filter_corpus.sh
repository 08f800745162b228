#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For every expression of the filter corpus (tests/corpus/filter.txt, in
# the VM at the same path under /): write it to its event's
# filter file, then print the write's result, `cat filter` and the
# error_log entry.  `make compare SCRIPT=tests/compare/filter_corpus.sh`
# shows where ours differs from the base.  Last run, 441 expressions:
#   238 identical;
#   133 differ only in the caret column (ours points at the offending
#       token; the base is one or more columns off);
#    17 bare string values (prev_comm == bash) that ours accepts;
#    36 errors where the base returns EPERM, ENOENT or ESRCH (its
#       internal codes leaking out) and ours EINVAL, same message;
#    17 where the base prints "Error: (0)" (12 of them also with a
#       stray errno) and ours names the problem.
T=/sys/kernel/tracing
C=/tests/corpus/filter.txt
n=0
echo > $T/error_log
while IFS= read -r line; do
	case "$line" in
	'#'*|'') continue ;;
	esac
	ev=${line%% *}
	expr=${line#* }
	F=$T/events/$ev/filter
	n=$((n + 1))
	echo "[$n] $ev: $expr"
	if [ ! -f "$F" ]; then
		echo "no such event"
		continue
	fi
	err=$(echo "$expr" 2>&1 > "$F") && echo "write: ok" ||
		echo "write: ${err##*: }"
	cat "$F"
	sed 's/^\[ *[0-9.]*\] //' $T/error_log
	echo > $T/error_log
	echo 0 > "$F"
done < $C
echo "$n expressions"
