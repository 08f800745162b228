#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Allocation failures while a deleted event keeps its type.  A synthetic
# event that was enabled is deleted through synthetic_events: the delete
# allocates what keeps the event's type while its records remain.  Each
# allocation of the delete is failed in turn (/proc/self/fail-nth);
# whatever failed, the delete either works (the event is gone from every
# list) or is refused with the event whole (listed, its files working),
# and a later delete takes it.  Needs fault injection (the debug kernel).
. /tests/lib.sh
[ -e /proc/self/fail-nth ] || skip "no fault injection (CONFIG_FAILSLAB)"
D=/sys/kernel/debug
[ -d $D/failslab ] || mount -t debugfs none $D 2>/dev/null
[ -d $D/failslab ] || skip "no failslab in debugfs"
S=$T/synthetic_events
E=$T/events/synthetic/gh_del
trap 'echo "!gh_del" >> $S 2>/dev/null; echo > $T/trace' EXIT
tracing_reset
echo '!gh_del' >> $S 2>/dev/null
for f in failslab fail_page_alloc; do
	echo N > $D/$f/ignore-gfp-wait
	echo 0 > $D/$f/probability
	echo 0 > $D/$f/verbose
done

n=1
refusals=0
while [ $n -le 200 ]; do
	[ -d $E ] || echo 'gh_del u32 v; char s[8]' >> $S ||
		fail "fail-nth $n: cannot make gh_del"
	# enabled once: deleting it keeps its type
	echo 1 > $E/enable && echo 0 > $E/enable ||
		fail "fail-nth $n: gh_del's enable"
	# every file opened first: the write alone meets the failure
	out=$(bounded 10 sh -c "exec 3>>$S 4</proc/self/fail-nth \
			5>/proc/self/fail-nth 2>/dev/null
		echo $n >&5
		if echo '!gh_del' >&3; then r=0; else r=1; fi
		read left <&4; echo \$r \$left") ||
		fail "fail-nth $n: the delete did not return"
	set -- $out
	if [ "$1" = 0 ]; then
		[ ! -d $E ] || fail "fail-nth $n: deleted, still in events/"
		grep -q 'gh_del' $S && fail "fail-nth $n: deleted, still listed"
	else
		refusals=$((refusals + 1))
		[ -d $E ] || fail "fail-nth $n: refused, gone from events/"
		grep -q '^gh_del[[:space:]]u32 v; char\[8\] s$' $S ||
			fail "fail-nth $n: refused, not listed: [$(cat $S)]"
		grep -q '^ID: [0-9]' $E/format || fail "fail-nth $n: format"
		echo 1 > $E/enable && echo 0 > $E/enable ||
			fail "fail-nth $n: refused, enable fails"
	fi
	[ "$2" = 0 ] || break
	n=$((n + 1))
done
[ $n -gt 1 ] && [ $n -le 200 ] || fail "fail-nth ran $n rounds"
[ $refusals -ge 1 ] || fail "no allocation of the delete was failed"
echo "$refusals of $n deletes refused"
# what is left goes, and the name is free again
if [ -d $E ]; then
	echo '!gh_del' >> $S || fail "the last delete"
fi
echo 'gh_del u64 w' >> $S || fail "gh_del made again"
grep -q 'field:u64 w;' $E/format || fail "gh_del made again: its format"
echo '!gh_del' >> $S || fail "gh_del deleted again"
exit 0
