#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A synthetic event takes at most 64 fields, as on the base.  The 65th is
# refused with "Too many fields" and nothing is created; the parser once
# cleared the slot after the last one before it checked (a heap write
# past the definition that KASAN reported).
. /tests/lib.sh
S=$T/synthetic_events
tracing_reset
[ -e $S ] || skip "no synthetic events"

fields() {
	i=0 def=$1
	while [ $i -lt "$2" ]; do def="$def u8 f$i;"; i=$((i + 1)); done
	echo "$def"
}

echo > $T/error_log
expect_fail sh -c "echo '$(fields many 65)' >> $S"
grep -q 'error: Too many fields' $T/error_log || fail "no error_log entry: $(cat $T/error_log)"
[ -e $T/events/synthetic/many ] && fail "a refused definition created events/synthetic/many"
grep -q '^many ' $S && fail "a refused definition is listed"

echo "$(fields many 64)" >> $S || fail "64 fields refused"
expect_eq "fields of the 64-field event" 64 \
	"$(grep -c 'field:u8 f' $T/events/synthetic/many/format)"
echo '!many' >> $S || fail "cannot delete many"
exit 0
