#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Named histograms and refused commands: every command the engine refuses
# (bad key, bad filter, bad value, bad size, a name whose histogram does
# not match, a duplicate, a bad count or filter of any other command)
# leaves both trigger files and the list of named triggers as they were,
# so that the same name still works afterwards, is shared by two events,
# outlives the event that made it and is free again once both are gone.
. /tests/lib.sh
F=$T/events/sched/sched_process_fork
X=$T/events/sched/sched_process_exec
[ -e $F/hist ] || skip "no histograms"
NONE='# Available triggers:'
cleanup() {
	for e in $F $X; do
		for c in 'hist:name=foo:keys=common_pid' 'hist:name=bar:keys=common_pid' \
			'hist:name=foo:keys=child_pid' 'traceon'; do
			echo "!$c" >> $e/trigger 2>/dev/null
		done
	done
	tracing_reset
}
trap cleanup EXIT
tracing_reset

# The trigger file, or only its first line when it lists no trigger.
listing() { if head -1 $1/trigger | grep -q "^$NONE"; then echo "$NONE"; else cat $1/trigger; fi; }

# refuse FILE CMD ERRNO-TEXT MESSAGE: refused with that errno and that
# error_log message, and neither trigger file changed.
refuse() {
	before_f=$(listing $F); before_x=$(listing $X)
	echo > $T/error_log
	out=$( (echo "$2" >> $1/trigger) 2>&1 ) && fail "'$2' was accepted"
	case "$out" in *"$3"*) ;; *) fail "'$2': expected '$3', got '$out'" ;; esac
	grep -qF "error: $4" $T/error_log ||
		fail "'$2': error_log lacks '$4': [$(cat $T/error_log)]"
	expect_eq "'$2' left fork's triggers" "$before_f" "$(listing $F)"
	expect_eq "'$2' left exec's triggers" "$before_x" "$(listing $X)"
}

# The hitcount of the histogram of FILE, summed over its entries.
hits() { awk '/^\{/ { n += $NF } END { print n + 0 }' $1/hist; }

FOO='hist:name=foo:keys=common_pid:vals=hitcount:sort=hitcount:size=2048 [active]'

# Refused before the name is ever taken.
refuse $F 'hist:name=foo:keys=BAD' 'Invalid argument' "Couldn't find field"
refuse $F 'hist:name=foo:keys=common_pid if BAD' 'Invalid argument' 'Field not found'
refuse $F 'hist:name=foo:keys=common_pid if child_pid ==' 'Invalid argument' 'Invalid value'
refuse $F 'hist:name=foo:keys=common_pid:vals=BAD' 'Invalid argument' "Couldn't find field"
refuse $F 'hist:name=foo:keys=common_pid:BAD' 'Invalid argument' ''
refuse $F 'hist:name=foo:keys=common_pid:clear' 'No such file or directory' \
	"Can't clear or continue a nonexistent hist trigger"

# The name, taken by a valid histogram.
echo 'hist:name=foo:keys=common_pid' >> $F/trigger || fail "first foo refused"
expect_eq "foo on fork" "$FOO" "$(listing $F)"

# Refused with the name taken: a different histogram, a bad filter on
# the same one, the same one again on its own event.
refuse $X 'hist:name=foo:keys=pid' 'Invalid argument' "Named hist trigger doesn't match"
refuse $X 'hist:name=foo:keys=common_pid:vals=common_preempt_count' 'Invalid argument' \
	"Named hist trigger doesn't match"
refuse $X 'hist:name=foo:keys=common_pid if BAD' 'Invalid argument' 'Field not found'
# (a filter of its own is no mismatch: it is the event's, not the data's)
echo 'hist:name=foo:keys=common_pid if pid == 1' >> $X/trigger || fail "filtered foo refused"
expect_eq "filtered foo on exec" "${FOO% \[active\]} if pid == 1 [active]" "$(listing $X)"
echo '!hist:name=foo:keys=common_pid if pid == 1' >> $X/trigger
refuse $F 'hist:name=foo:keys=common_pid' 'File exists' 'Hist trigger already exists'
refuse $F 'hist:keys=common_pid:name=foo:keys=child_pid' 'Invalid argument' ''

# Other commands refused on the same events, beside the named one.
refuse $F 'traceon:0' 'Invalid argument' 'Count must be'
refuse $F 'traceon if BAD' 'Invalid argument' 'Field not found'
refuse $F 'enable_event:sched:nosuch' 'Invalid argument' 'No such event in this instance'
refuse $F 'enable_event:sched:sched_process_exec:x' 'Invalid argument' 'Count must be'
echo 'traceon' >> $F/trigger
refuse $F 'traceoff' 'File exists' 'A trigger of this kind is already set'
echo '!traceon' >> $F/trigger
expect_eq "foo alone on fork" "$FOO" "$(listing $F)"

# The same histogram on a second event shares the first one's counts.
echo 'hist:name=foo:keys=common_pid' >> $X/trigger || fail "second foo refused"
expect_eq "foo on exec" "$FOO" "$(listing $X)"
/bin/true; /bin/true; /bin/true
n=$(hits $F)
[ "$n" -ge 6 ] || fail "shared foo counted $n hits for 3 forks and 3 execs"
# one cat reads both: no fork or exec comes between the two reads
cat $F/hist $X/hist > /tmp/named.hist
n=$(grep -c 'Hits:' /tmp/named.hist)
expect_eq "two hist files" 2 "$n"
expect_eq "both files show one histogram" \
	"$(awk '/^# event histogram/ { n++ } n == 1 && !/^#/' /tmp/named.hist)" \
	"$(awk '/^# event histogram/ { n++ } n == 2 && !/^#/' /tmp/named.hist)"

# The first one removed: its data lives on for the second, and the name
# still means it, so a third one shares it too.
echo '!hist:name=foo:keys=common_pid' >> $F/trigger
expect_eq "fork after !foo" "$NONE" "$(listing $F)"
refuse $F 'hist:name=foo:keys=child_pid' 'Invalid argument' "Named hist trigger doesn't match"
before=$(hits $X)
/bin/true
[ "$(hits $X)" -ge $((before + 1)) ] || fail "foo stopped counting on exec"
echo 'hist:name=foo:keys=common_pid' >> $F/trigger || fail "foo refused again"
cat $F/hist $X/hist > /tmp/named.hist
expect_eq "old counts shared again" \
	"$(awk '/^# event histogram/ { n++ } n == 1 && !/^#/' /tmp/named.hist)" \
	"$(awk '/^# event histogram/ { n++ } n == 2 && !/^#/' /tmp/named.hist)"

# Truncation removes it from one event; '!' from the other: the name is free.
echo > $F/trigger 2>/dev/null
expect_eq "fork truncated" "$NONE" "$(listing $F)"
echo '!hist:name=foo:keys=common_pid' >> $X/trigger
expect_eq "exec empty" "$NONE" "$(listing $X)"
# (a filter no fork passes: the new foo must start and stay empty)
echo 'hist:name=foo:keys=child_pid if child_pid == 0' >> $F/trigger || fail "free name refused"
expect_eq "new foo" 'hist:name=foo:keys=child_pid:vals=hitcount:sort=hitcount:size=2048 if child_pid == 0 [active]' \
	"$(listing $F)"
expect_eq "the new foo is new" "$(printf 'Totals:\n    Hits: 0\n    Entries: 0\n    Dropped: 0')" \
	"$(grep -v '^#' $F/hist | grep .)"
echo '!hist:name=foo:keys=child_pid if child_pid == 0' >> $F/trigger

# Refused commands with a name never taken leave it free.
refuse $X 'hist:name=bar:keys=pid:vals=BAD' 'Invalid argument' "Couldn't find field"
refuse $X 'hist:name=bar:keys=pid if BAD' 'Invalid argument' 'Field not found'
echo 'hist:name=bar:keys=common_pid' >> $F/trigger || fail "bar refused"
echo 'hist:name=bar:keys=common_pid' >> $X/trigger || fail "second bar refused"
echo '!hist:name=bar:keys=common_pid' >> $F/trigger
echo '!hist:name=bar:keys=common_pid' >> $X/trigger
expect_eq "fork empty at the end" "$NONE" "$(listing $F)"
expect_eq "exec empty at the end" "$NONE" "$(listing $X)"
exit 0
