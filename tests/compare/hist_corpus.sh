#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# For every command of the hist corpus (tests/corpus/hist.txt, in the
# VM at the same path under /; one "system/event<TAB>command" a
# line): write it to its event's trigger file, the event holding no
# trigger, then print the write's result, the
# trigger listing when the command was accepted or the error_log entry
# when it was refused, and remove whatever the command left.
# `make compare SCRIPT=tests/compare/hist_corpus.sh` shows where our
# histogram engine differs from the base.  The commands are only
# written: no event is generated on purpose and nothing printed holds a
# pid, an address or a timestamp.
T=/sys/kernel/tracing
C=/tests/corpus/hist.txt
tab=$(printf '\t')
clock=$(sed 's/.*\[\(.*\)\].*/\1/' $T/trace_clock)

# clean TRIGGER-FILE: write every listed trigger back with a leading "!"
# and without its " [active]" or " [paused]" tail (a " if filter" before
# the tail stays: the removal must name it).  What is left after that
# is shown, then dropped by truncating the file.
clean() {
	left=$(sed -e '/^#/d' -e 's/ \[active\].*$//' -e 's/ \[paused\].*$//' "$1")
	[ -n "$left" ] || return 0
	printf '%s\n' "$left" | while IFS= read -r t; do
		[ -n "$t" ] && echo "!$t" >> "$1" 2>/dev/null
	done
	left=$(grep -v '^#' "$1")
	if [ -n "$left" ]; then
		printf '%s\n' "$left" | sed 's/^/left after removal: /'
		: > "$1" 2>/dev/null
	fi
}

n=0
last=
while IFS= read -r line; do
	case "$line" in
	'#'*|'') continue ;;
	esac
	ev=${line%%"$tab"*}
	cmd=${line#*"$tab"}
	if [ "$ev" = "$line" ]; then
		echo "corpus line without a tab: $line"
		continue
	fi
	if [ "$ev" != "$last" ]; then
		echo "== $ev"
		last=$ev
	fi
	F=$T/events/$ev/trigger
	if [ ! -f "$F" ]; then
		echo "$cmd => no such event"
		continue
	fi
	n=$((n + 1))
	echo > $T/error_log
	err=$(echo "$cmd" 2>&1 >> "$F")
	rc=$?
	echo "$cmd => rc=$rc${err:+ $err}"
	if [ $rc = 0 ]; then
		cat "$F"
	else
		sed 's/^\[ *[0-9.]*\] //' $T/error_log
	fi
	clean "$F"
done < $C
echo > $T/error_log
[ -n "$clock" ] && echo "$clock" > $T/trace_clock
echo "$n commands"
