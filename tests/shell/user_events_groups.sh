#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# user_events groups from the shell: names refused with a clear error,
# mkdir and rmdir for root only, the files of a group and who may use
# them, a group's event in a histogram, in perf and in dynamic_events,
# rmdir refused while the group is in use and taking its events when not.
. /tests/lib.sh
G=$T/user_events_groups
[ -d $G ] || skip "no user_events groups"
tracing_reset
cleanup() {
	for g in ue_sh ue_sh2 ue_perf; do
		[ -d $G/$g ] || continue
		echo 0 > $T/events/user_events_$g/enable 2>/dev/null
		for e in $T/events/user_events_$g/*/trigger; do
			[ -e "$e" ] && echo '!hist:keys=count' > "$e" 2>/dev/null
		done
		rmdir $G/$g
	done
	rm -f /tmp/perf.data /tmp/perf.data.old
	echo > $T/trace
}
cleanup
trap cleanup EXIT

# Bad names: refused, nothing made, error_log says why and where
grouperr() {
	echo > $T/error_log
	bounded 10 mkdir "$G/$1" 2>/dev/null && fail "mkdir '$1' accepted"
	[ -n "$2" ] || return 0
	_log=$(awk -v m="user_events_groups: error: $2" 'index($0, m) { n = 3 } n { print; n-- }' $T/error_log)
	[ -n "$_log" ] || fail "'$1': error_log lacks '$2': [$(cat $T/error_log)]"
	expect_eq "'$1' command" "  Command: $1" "$(echo "$_log" | sed -n 2p)"
	expect_eq "'$1' caret" "$(printf '%*s^' $((11 + $3)) '')" "$(echo "$_log" | sed -n 3p)"
}
grouperr 'a-b' 'Group name must be [A-Za-z0-9_]' 1
grouperr 'ab c' 'Group name must be [A-Za-z0-9_]' 2
grouperr 'multi' 'Group name is reserved' 0
grouperr 'registry' 'Group name is reserved' 0
long=$(printf '%065d' 0 | tr 0 a)
grouperr "$long" 'Group name is too long' 64
# The VFS refuses these before us: never a group
grouperr '.'
grouperr '..'
grouperr ''
grouperr 'x/y'
expect_eq "no group made" "" "$(ls $G)"

# Root makes a group; nobody may not, nor remove it
su -s /bin/sh nobody -c "mkdir $G/ue_nobody" 2>/dev/null && fail "nobody made a group"
mkdir $G/ue_sh || fail "mkdir ue_sh"
expect_fail mkdir $G/ue_sh
expect_eq "files" "user_events_data
user_events_max
user_events_persist
user_events_status" "$(ls $G/ue_sh)"
expect_eq "max" 1024 "$(cat $G/ue_sh/user_events_max)"
expect_eq "empty status" "
Active: 0
Busy: 0
Max: 32768" "$(cat $G/ue_sh/user_events_status)"

echo 100 > $G/ue_sh/user_events_max || fail "root sets the limit"
expect_eq "max set" 100 "$(cat $G/ue_sh/user_events_max)"
expect_fail sh -c "echo -1 > $G/ue_sh/user_events_max"

# The sample, run against the group through a mount namespace (as the
# container test does), makes the group's event
run_in_group() {
	_g=$1
	shift
	unshare -m sh -c "mount --bind $G/$_g/user_events_data $T/user_events_data &&
		mount --bind $G/$_g/user_events_status $T/user_events_status &&
		exec \"\$@\"" sh "$@"
}
bounded 20 run_in_group ue_sh /samples/example 1 > /dev/null || fail "sample in ue_sh"
E=$T/events/user_events_ue_sh/example
[ -d $E ] || fail "no events/user_events_ue_sh/example"
[ -d $T/events/user_events/example ] && fail "the default group has it too"
expect_eq "listed with its system" "u:user_events_ue_sh/example u32 count; __data_loc char[] msg" \
	"$(grep '^u:user_events_ue_sh/' $T/dynamic_events)"
# u: without a system is the default group's
expect_fail sh -c "echo '!u:example' >> $T/dynamic_events"
[ -d $E ] || fail "!u:example removed the group's event"

# A histogram on it
echo 'hist:keys=count' > $E/trigger || fail "hist trigger"
bounded 20 run_in_group ue_sh /samples/example 3 > /dev/null || fail "sample, hist"
expect_eq "hist" "{ count:          0 } hitcount:          1
{ count:          1 } hitcount:          1
{ count:          2 } hitcount:          1" "$(grep '^{' $E/hist | sort)"
expect_eq "status: used by ftrace" "1:example # Used by ftrace" \
	"$(head -1 $G/ue_sh/user_events_status)"

# rmdir: busy while the histogram uses the event, or a file is open
expect_fail rmdir $G/ue_sh
echo '!hist:keys=count' > $E/trigger
exec 3< $G/ue_sh/user_events_max
expect_fail rmdir $G/ue_sh
exec 3<&-
mkdir $G/ue_sh2 || fail "mkdir ue_sh2"
bounded 20 run_in_group ue_sh2 /samples/example 1 > /dev/null || fail "sample in ue_sh2"
bounded 10 rmdir $G/ue_sh || fail "idle rmdir"
[ -d $E ] && fail "the event outlived its group"
[ -d $T/events/user_events_ue_sh2/example ] || fail "the other group lost its event"
expect_eq "no listing" 0 "$(grep -c '^u:user_events_ue_sh/' $T/dynamic_events)"
echo '-:user_events_ue_sh2/example' >> $T/dynamic_events || fail "delete by system"
[ -d $T/events/user_events_ue_sh2/example ] && fail "ue_sh2's event not deleted"
rmdir $G/ue_sh2 || fail "rmdir ue_sh2"

# perf on a group's event
if command -v perf > /dev/null; then
	mkdir $G/ue_perf || fail "mkdir ue_perf"
	bounded 20 run_in_group ue_perf /samples/example 1 > /dev/null || fail "sample in ue_perf"
	cd /tmp
	bounded 60 run_in_group ue_perf perf record -q -e user_events_ue_perf:example \
		-o perf.data -- /samples/example 3 > /dev/null 2>&1 || fail "perf record"
	expect_eq "perf script" "count=0 msg=hello 0
count=1 msg=hello 1
count=2 msg=hello 2" "$(perf script -F event,trace 2>/dev/null |
		sed -n 's/^ *user_events_ue_perf:example: *//p')"
	cd /
fi
exit 0
