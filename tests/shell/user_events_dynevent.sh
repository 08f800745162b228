#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# user_events through dynamic_events: create, list, reuse, match on delete,
# busy refusal, parse errors with their error_log entries, and the exact
# format file (fields and print fmt) of every field type.
. /tests/lib.sh
[ -e $T/user_events_status ] || skip "no user_events"
D=$T/dynamic_events
E=$T/events/user_events
tracing_reset
cleanup() {
	for n in ue_dyn ue_dyn2 ue_dyn3 ue_fmt; do
		[ -d $E/$n ] || continue
		echo 0 > $E/$n/enable
		echo "!u:$n" >> $D
	done
}
cleanup

# Create, listed back in the same syntax
echo 'u:ue_dyn u32 a;char[4]   b;' >> $D || fail "create ue_dyn"
expect_eq "listing" "u:ue_dyn u32 a; char[4] b" "$(grep '^u:ue_dyn ' $D)"
[ -d $E/ue_dyn ] || fail "no events/user_events/ue_dyn"
for f in enable filter format id trigger; do
	[ -e $E/ue_dyn/$f ] || fail "no $f file"
done
# Same fields again: reused; other fields: refused
echo 'u:ue_dyn u32 a; char[4] b' >> $D || fail "identical create refused"
expect_eq "one listing" 1 "$(grep -c '^u:ue_dyn ' $D)"
expect_fail sh -c "echo 'u:ue_dyn u64 a' >> $D"
# Delete only with matching fields (or the name alone)
expect_fail sh -c "echo '!u:ue_dyn u32 b; char[4] b' >> $D"
expect_fail sh -c "echo '!u:ue_dyn u32 a' >> $D"
expect_fail sh -c "echo '!u:user_events/ue_nothing' >> $D"
expect_eq "still there" 1 "$(grep -c '^u:ue_dyn ' $D)"
echo '!u:ue_dyn u32 a;char[4] b' >> $D || fail "matching delete"
expect_eq "gone" 0 "$(grep -c '^u:ue_dyn ' $D)"
[ -d $E/ue_dyn ] && fail "directory left behind"

echo 'u:ue_dyn2' >> $D || fail "create ue_dyn2"
expect_eq "listing without fields" "u:ue_dyn2" "$(grep '^u:ue_dyn2' $D)"
echo '-:user_events/ue_dyn2' >> $D || fail "delete with -:system/name"
expect_eq "ue_dyn2 gone" 0 "$(grep -c '^u:ue_dyn2' $D)"

# Busy while enabled or triggered
echo 'u:ue_dyn3 u64 v' >> $D || fail "create ue_dyn3"
echo 1 > $E/ue_dyn3/enable
expect_fail sh -c "echo '!u:ue_dyn3' >> $D"
echo 0 > $E/ue_dyn3/enable
echo 'traceon' > $E/ue_dyn3/trigger
expect_fail sh -c "echo '!u:ue_dyn3' >> $D"
echo '!traceon' > $E/ue_dyn3/trigger
echo '!u:ue_dyn3' >> $D || fail "delete ue_dyn3"

# Parse errors: refused, nothing created, error_log says where
echo > $T/error_log
bad() {
	expect_fail sh -c "echo '$1' >> $D"
	expect_eq "no event after '$1'" 0 "$(grep -c '^u:ue_bad' $D)"
}
bad 'u:ue_bad float a'
bad 'u:ue_bad long a'
bad 'u:ue_bad u32'
bad 'u:ue_bad u32 a 4'
bad 'u:ue_bad struct s a'
bad 'u:ue_bad char[0] a'
bad 'u:ue_bad char[99999] a'
bad 'u:ue_bad u32 a;u32 a'
bad 'u:ue_bad:X u32 a'
bad 'u:ue-bad u32 a'
bad 'u:ue_bad __data_loc char b'
echo > $T/error_log
expect_fail sh -c "echo 'u:ue_bad u32 a; float b' >> $D"
expect_eq "error_log" "user_events: error: Unknown field type
  Command: u:ue_bad u32 a; float b
                           ^" "$(sed 's/^\[ *[0-9.]*\] //' $T/error_log)"
echo > $T/error_log

# Format of every field type
F1='u8 a; s8 b; u16 c; s16 d; u32 e; s32 f; u64 g; s64 h; char i'
F2='unsigned char j; short k; unsigned short l; int m; unsigned int n'
F3='char[6] o; unsigned char[0x4] p; struct foo q 3; __data_loc char[] r'
F4='__rel_loc char[] s; __data_loc u8[] t; __rel_loc unsigned char[] u'
echo "u:ue_fmt $F1; $F2; $F3; $F4" >> $D || fail "create ue_fmt"
F3L='char[6] o; unsigned char[4] p; struct foo q 3; __data_loc char[] r'
expect_eq "ue_fmt listing" "u:ue_fmt $F1; $F2; $F3L; $F4" \
	"$(grep '^u:ue_fmt' $D)"
id=$(cat $E/ue_fmt/id)
PF1='"a=%u b=%d c=%u d=%d e=%u f=%d g=%llu h=%lld i=%d j=%u k=%d l=%u m=%d'
PF1="$PF1"' n=%u o=%s p=%s q=%s r=%s s=%s t=%s u=%s"'
PA1='REC->a, REC->b, REC->c, REC->d, REC->e, REC->f, REC->g, REC->h, REC->i'
PA2='REC->j, REC->k, REC->l, REC->m, REC->n, REC->o, REC->p'
PA3='__print_hex(REC->q, 3), __get_str(r), __get_rel_str(s)'
PA4='__print_hex(__get_dynamic_array(t), __get_dynamic_array_len(t))'
PA4="$PA4, __get_rel_str(u)"
expect_eq "format" "name: ue_fmt
ID: $id
format:
	field:unsigned short common_type;	offset:0;	size:2;	signed:0;
	field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
	field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
	field:int common_pid;	offset:4;	size:4;	signed:1;

	field:u8 a;	offset:8;	size:1;	signed:0;
	field:s8 b;	offset:9;	size:1;	signed:1;
	field:u16 c;	offset:10;	size:2;	signed:0;
	field:s16 d;	offset:12;	size:2;	signed:1;
	field:u32 e;	offset:14;	size:4;	signed:0;
	field:s32 f;	offset:18;	size:4;	signed:1;
	field:u64 g;	offset:22;	size:8;	signed:0;
	field:s64 h;	offset:30;	size:8;	signed:1;
	field:char i;	offset:38;	size:1;	signed:1;
	field:unsigned char j;	offset:39;	size:1;	signed:0;
	field:short k;	offset:40;	size:2;	signed:1;
	field:unsigned short l;	offset:42;	size:2;	signed:0;
	field:int m;	offset:44;	size:4;	signed:1;
	field:unsigned int n;	offset:48;	size:4;	signed:0;
	field:char o[];	offset:52;	size:6;	signed:0;
	field:unsigned char p[];	offset:58;	size:4;	signed:0;
	field:struct foo q;	offset:62;	size:3;	signed:0;
	field:__data_loc char[] r;	offset:65;	size:4;	signed:0;
	field:__rel_loc char s[];	offset:69;	size:4;	signed:0;
	field:__data_loc u8[] t;	offset:73;	size:4;	signed:0;
	field:__rel_loc unsigned char u[];	offset:77;	size:4;	signed:0;

print fmt: $PF1, $PA1, $PA2, $PA3, $PA4" \
	"$(cat $E/ue_fmt/format)"
echo '!u:ue_fmt' >> $D || fail "delete ue_fmt"
cleanup
tracing_reset
exit 0
