#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Where our histograms do better than the base kernel, on purpose:
# trace_marker's buf as a key (the base keys every entry by an empty
# string), variable references listed as written, clock=nosuch refused,
# and error_log entries for the refusals the base left silent.
. /tests/lib.sh
P=$T/events/ftrace/print
[ -e $P/hist ] || skip "no histograms"
LOC='hist:ftrace:print: error: '
cleanup() { echo > $P/trigger; tracing_reset; }
trap cleanup EXIT
tracing_reset

# try CMD ERRNO-TEXT MESSAGE CARET-COLUMN: refused, logged, nothing added
try() {
	echo > $T/error_log
	out=$( (echo "$1" >> $P/trigger) 2>&1 ) && fail "'$1' was accepted"
	case "$out" in
	*"$2"*) ;;
	*) fail "'$1': expected '$2', got '$out'" ;;
	esac
	log=$(awk -v m="$LOC$3" 'index($0, m) { n = 3 } n { print; n-- }' $T/error_log)
	[ -n "$log" ] || fail "'$1': error_log lacks '$3': [$(cat $T/error_log)]"
	expect_eq "'$1' command line" "  Command: $1" "$(echo "$log" | sed -n 2p)"
	expect_eq "'$1' caret" "$(printf '%*s^' $((11 + $4)) '')" "$(echo "$log" | sed -n 3p)"
	expect_eq "'$1' added nothing" "# Available triggers:" "$(head -1 $P/trigger)"
}

# save() on a synthetic event (the base refuses its fields: "Invalid
# action param"), tracking values fed through onmatch().trace(); and a
# value that is a variable of the same histogram, named and sorted as
# written (the base names the column after the expression, a, and
# refuses sort=$p)
echo 'nums u64 a; u64 b' >> $T/synthetic_events || fail "nums"
N=$T/events/synthetic/nums
echo 'hist:keys=common_pid:m=b:onmax($m).save(a,b)' >> $N/trigger || fail "onmax().save() refused"
echo 'hist:keys=common_pid:c=a:onchange($c).save(b)' >> $N/trigger || fail "onchange().save() refused"
echo 'hist:keys=common_pid:p=a:vals=$p:sort=$p' >> $N/trigger || fail "vals=\$p refused"
for ab in 5,1 6,9 7,4 7,20; do
	f="hist:keys=common_pid:fa=${ab%,*},fb=${ab#*,}:onmatch(ftrace.print).trace(nums,\$fa,\$fb) if buf == \"go\""
	echo "$f" >> $P/trigger || fail "feed $ab"
	echo -n go > $T/trace_marker
	echo "!$f" >> $P/trigger
done
expect_eq "onmax and onchange entries" "$(printf '\tmax:         20  a:          7  b:         20\n\tchanged:          7  b:          4')" \
	"$(grep "$(printf '^\t')" $N/hist)"
expect_eq "vals=\$p entry" '{ common_pid: P } hitcount:          4  $p:         25' \
	"$(grep '^{.*\$p:' $N/hist | sed 's/common_pid: *[0-9]*/common_pid: P/')"
expect_eq "vals=\$p listing" 'hist:keys=common_pid:vals=hitcount,$p:p=a:sort=$p:size=2048 [active]' \
	"$(grep 'p=a' $N/trigger)"
echo > $N/trigger
echo '!nums' >> $T/synthetic_events

# buf, a flexible char[] at the end of the record, is a string key
echo 'hist:keys=buf' > $P/trigger || fail "keys=buf refused"
for m in aa b aa; do echo -n $m > $T/trace_marker; done
expect_eq "entries by buf" "$(printf '{ buf: %-50s } hitcount:          1\n{ buf: %-50s } hitcount:          2' b aa)" \
	"$(grep '^{' $P/hist)"
echo > $P/trigger

# references listed as written, not as the expression they name
echo 'hist:keys=common_pid:t0=common_timestamp.usecs if buf == "s"' >> $P/trigger
echo 'hist:keys=common_pid:d=common_timestamp.usecs-$t0 if buf == "e"' >> $P/trigger ||
	fail "reference refused"
expect_eq "listing" 'hist:keys=common_pid:vals=hitcount:d=common_timestamp.usecs-$t0:sort=hitcount:size=2048:clock=global if buf == "e" [active]' \
	"$(grep 'd=' $P/trigger)"

# the histogram whose variable is read cannot go
echo > $T/error_log
out=$( (echo '!hist:keys=common_pid:t0=common_timestamp.usecs if buf == "s"' >> $P/trigger) 2>&1 ) &&
	fail "removed a histogram in use"
case "$out" in *busy*) ;; *) fail "in use: got '$out'" ;; esac
grep -q "${LOC}Variables of this histogram are in use" $T/error_log || fail "no error_log entry for in use"
echo '!hist:keys=common_pid:d=common_timestamp.usecs-$t0 if buf == "e"' >> $P/trigger
echo '!hist:keys=common_pid:t0=common_timestamp.usecs if buf == "s"' >> $P/trigger ||
	fail "not removed once unused"
expect_eq "all gone" "# Available triggers:" "$(head -1 $P/trigger)"

# refusals the base left without a word
try 'hist:keys=common_pid:clock=nosuch' 'Invalid argument' "Couldn't set trace_clock" 27
try 'hist:keys=common_pid:size=3' 'Invalid argument' 'Map size must be between 128 and 131072' 26
try 'hist:vals=hitcount' 'Invalid argument' 'No keys= given' 5
try 'hist:keys=common_pid,common_cpu,buf,ip,common_pid,common_cpu,ip' 'Invalid argument' 'Too many keys (6 max)' 61
try 'hist:keys=common_pid:a=ip-' 'Invalid argument' 'Operand missing in expression' 26
try 'hist:keys=nosuch' 'Invalid argument' "Couldn't find field" 10
