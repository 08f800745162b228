#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A bad filter is refused with EINVAL, the filter file shows the
# expression with a caret under the offending column and the message,
# error_log says the same, and the filter in force keeps working.
. /tests/lib.sh
use_event signal/signal_generate
tracing_reset
trap '' WINCH URG

# bad EXPR COLUMN MESSAGE
bad() {
	echo > $T/error_log
	out=$( (echo "$1" > $E/filter) 2>&1 ) && fail "accepted: $1"
	case "$out" in
	*"Invalid argument"*) ;;
	*) fail "wrong error for [$1]: $out" ;;
	esac
	caret=$(printf "%$(($2 + 1))s" "^")
	expect_eq "filter file for [$1]" "$1
$caret
parse_error: $3" "$(cat $E/filter)"
	expect_eq "error_log for [$1]" "event filter parse error: error: $3
  Command: $1
           $caret" "$(sed 's/^\[ *[0-9.]*\] //' $T/error_log)"
}

bad '((sig >= 10 && sig < 15) || dsig == 17) && comm != bash' 33 'Field not found'
bad 'sig = 10' 4 'Invalid operator'
bad 'sig == 10 && (pid == 1' 13 "Too many '('"
bad 'sig == 10) && pid == 1' 9 "Too few '('"
bad 'comm == "bash' 8 'Missing matching quote'
bad 'sig == 10 &&' 12 'Meaningless filter expression'
bad 'sig == 10 pid == 1' 10 'Too many terms in predicate expression'
bad 'comm == 10' 8 'Expecting string field'
bad "sig == 'x'" 7 'Expecting numeric field'
bad 'sig ~ 10' 4 'Illegal operation for field type'
bad 'comm > "a"' 5 'Illegal operation for field type'
bad 'sig == 1O' 7 'Illegal integer value'
bad 'sig == bash' 7 'Invalid value (did you forget quotes)?'
bad 'sig.function == kill_pid_info' 0 'Illegal operation for field type'
bad 'sig == CPUS{0' 13 "Missing '}'"
bad 'sig == CPUS{x}' 12 'Invalid cpulist'
bad '!' 1 'No filter found'

# An expression that ends on a logical operator is incomplete after a
# condition, an alternative, a conjunction or a negated group, bare or
# followed by "!" or "!!".
for head in 'sig == 10' 'sig == 10 || sig == 12' 'sig == 10 && pid == 1' \
	    '!(sig == 10 || sig == 12)'; do
	for op in '&&' '||'; do
		for neg in '' ' !' ' !! '; do
			(printf '%s' "$head $op$neg" > $E/filter) 2>/dev/null &&
				fail "accepted the incomplete [$head $op$neg]"
			grep -q '^parse_error: ' $E/filter ||
				fail "no parse error for [$head $op$neg]: $(cat $E/filter)"
		done
	done
done

# A failed write keeps the filter in force.
echo "sig == 23 && pid == $$" > $E/filter
echo 'sig == 23 &&& pid' > $E/filter 2>/dev/null && fail "accepted &&&"
echo > $T/trace
echo 1 > $E/enable
kill -s WINCH $$; kill -s URG $$
echo 0 > $E/enable
expect_eq "records after a failed write" \
	"signal_generate: sig=23 errno=0 code=0 comm=sh pid=$$ grp=1 res=1" \
	"$(trace_lines)"

# A too long operand.
long=$(printf '%0300d' 0)
bad "comm == \"$long\"" 8 'Operand too long'
exit 0
