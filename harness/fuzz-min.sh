#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# fuzz-min.sh - make fuzz-min REPLAY=FILE: shorten a saved program to
# the operations its report needs.
#
# Every try is a serial replay (make fuzz REPLAY=FILE SERIAL=1 KEEP=list)
# on a fresh VM: the operations in the order they were generated, one
# after the other, those not kept turned into no-ops.  A try is a repeat
# when it reports the same class as the whole program did ("stuck",
# "left", "kernel splat", ...).  The list is cut by halves, then
# quarters, and so on (delta debugging), while a cut repeats; at most
# TRIES replays (default 40).  The result is kept in FILE.keep and shown
# as the command that replays it.
. "$(dirname "$0")/lib.sh"

file=${REPLAY:-}
{ [ -n "$file" ] && [ -f "$file" ]; } || die "usage: make fuzz-min REPLAY=build/fuzz/fuzz-SEED-EPOCH.seq"
tries=${TRIES:-40}
"$ROOT/harness/build-kernel.sh" debug > /dev/null
"$ROOT/harness/programs.sh"
fuzzer=$B/progs/samples/trace_fuzz

# The operations of the program, by index
mapfile -t ops < <("$fuzzer" -D "$file" | sed -n 's/^ *\([0-9][0-9]*\) .*/\1/p')
[ ${#ops[@]} != 0 ] || die "no operations in $file"

# list IDX... - "0-5,9,12" for the fuzzer's -K
list() {
	local out='' start='' prev='' i
	for i in "$@" ""; do
		if [ -n "$prev" ] && [ "$i" = $((prev + 1)) ]; then
			prev=$i
			continue
		fi
		if [ -n "$start" ]; then
			[ "$start" = "$prev" ] && out+=",$start" || out+=",$start-$prev"
		fi
		start=$i prev=$i
	done
	echo "${out#,}"
}

# class OUTPUT - the class of the first report
class() {
	grep -o -m1 'REPORT [a-z-]*\|kernel splat' <<< "$1" | head -n1
}

# try IDX... - whether replaying only these repeats the report
runs=0
try() {
	local out
	runs=$((runs + 1))
	out=$(REPLAY=$file SERIAL=1 KEEP=$(list "$@") "$ROOT/harness/fuzz.sh" 2>&1) && return 1
	[ "$(class "$out")" = "$want" ]
}

say "minimising $file: ${#ops[@]} operations, one serial replay per try"
out=$(REPLAY=$file SERIAL=1 "$ROOT/harness/fuzz.sh" 2>&1) &&
	die "a serial replay of the whole program reports nothing: its report needs the workers' timing (replay it without SERIAL=1)"
want=$(class "$out")
[ -n "$want" ] || die "a serial replay failed without a report: see build/logs/fuzz.console"
say "the whole program repeats: $want"

keep=("${ops[@]}")
n=2
while [ ${#keep[@]} -gt 1 ] && [ $runs -lt "$tries" ]; do
	[ $n -gt ${#keep[@]} ] && n=${#keep[@]}
	size=$(((${#keep[@]} + n - 1) / n))
	cut=0
	for ((c = 0; c < n && runs < tries; c++)); do
		rest=("${keep[@]:0:c*size}" "${keep[@]:(c+1)*size}")
		[ ${#rest[@]} = 0 ] && continue
		if try "${rest[@]}"; then
			keep=("${rest[@]}")
			say "${#keep[@]} operations still repeat it"
			cut=1
			n=$((n > 2 ? n - 1 : 2))
			break
		fi
	done
	if [ $cut = 0 ]; then
		[ $n -ge ${#keep[@]} ] && break
		n=$((n * 2))
	fi
done
list "${keep[@]}" > "$file.keep"
say "${#keep[@]} of ${#ops[@]} operations repeat \"$want\" ($runs tries); replay them with:"
echo "make fuzz REPLAY=$file SERIAL=1 KEEP=$(list "${keep[@]}")"
"$fuzzer" -D "$file" | awk -v keep=",$(list "${keep[@]}")," '
	NR == 1 { print; next }
	/^ *[0-9]/ { show = 0; i = $1 + 0
		n = split(substr(keep, 2), parts, ",")
		for (k = 1; k <= n; k++) {
			split(parts[k], r, "-")
			if (r[2] == "") r[2] = r[1]
			if (i >= r[1] + 0 && i <= r[2] + 0) show = 1
		} }
	show'
