#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every worked example of Documentation/trace runs, and prints what the
# documentation shows.  harness/doc-examples.py extracted them into
# /tests/doc: for each .rst, NAME.sh (the commands, between "@@" marker
# lines) and NAME.expected (the output shown).  The examples of one file
# run in order in one shell from /sys/kernel/tracing, on a tracefs reset
# before and after; then each command's output is compared with what is
# shown, once both have lost trailing blanks and trailing empty lines and
# what always varies is masked (see mask() below, and an example's own
# "mask:" lines); an example whose "needs:" names a program the VM lacks
# is not compared.  A line "..." of the output shown stands for any lines.
. /tests/lib.sh
D=/tests/doc
[ -d $D ] || skip "no examples in this image (harness/doc-examples.py)"
if [ -s $D/errors ]; then
	sed 's/^/FAIL: /' $D/errors
	exit 1
fi

# doc_reset - what an example may have left in tracefs, gone: triggers
# (histograms that others read go in a later round), instances, groups,
# dynamic and synthetic events, the snapshot, the clock, the buffer.
doc_reset() {
	cd $T || exit 1
	echo 0 > events/enable
	for i in instances/*; do [ -d "$i" ] && echo 0 > "$i/events/enable"; done
	for round in 1 2 3 4 5 6; do
		left=0
		for dir in . instances/*; do
			[ -f "$dir/show_event_triggers" ] || continue
			while read -r event line; do
				left=1
				f=$dir/events/${event%%:*}/${event#*:}/trigger
				line=${line% \[active\]}
				echo "!${line% \[paused\]}" >> "$f" 2>/dev/null
			done < "$dir/show_event_triggers"
		done
		[ $left = 0 ] && break
	done
	for i in instances/*; do [ -d "$i" ] && rmdir "$i"; done
	for g in user_events_groups/*; do [ -d "$g" ] && rmdir "$g"; done
	echo > synthetic_events 2>/dev/null
	echo > dynamic_events 2>/dev/null
	echo 0 > snapshot 2>/dev/null
	echo local > trace_clock
	echo 4 > buffer_subbuf_size_kb 2>/dev/null
	# The trace's output options as a fresh boot has them: the trace
	# lines shown are printed with these.
	for o in stacktrace userstacktrace raw hex bin block verbose sym-offset \
		sym-addr latency-format record-tgid event-fork printk-msg-only; do
		echo 0 > "options/$o" 2>/dev/null
	done
	for o in print-parent context-info record-cmd irq-info markers overwrite; do
		echo 1 > "options/$o" 2>/dev/null
	done
	echo nop > current_tracer
	echo 32768 > /proc/sys/kernel/user_events_max 2>/dev/null
	tracing_reset
}

# compare EXPECTED PRINTED - one result line per example that differs,
# with both outputs; the summary "N M F" (examples, commands, failed) last.
compare() {
	awk -v arch="$(uname -m)" '
	# What always varies: the task, pid, CPU, flags and time stamp that
	# start a trace line (the task name too: it reads "<...>" when no
	# task switch on the CPU of the event saved its comm before the
	# trace was read), error_log time stamps,
	# pids, addresses and hashed pointers, offsets into functions (and
	# the padding after them), and the name of the shell in its write
	# errors.
	function mask(s, e,   i, rest, h) {
		h = "[0-9a-f][0-9a-f][0-9a-f][0-9a-f]"
		if (match(s, /^ *[^ ]+-[0-9]+ +\[[0-9][0-9][0-9]\] [^ ]+ +[0-9]+\.[0-9]+: /)) {
			rest = substr(s, RLENGTH + 1)
			s = "TASK-PID [CPU] FLAGS TIME: " rest
		}
		gsub(/\[ *[0-9]+\.[0-9]+\]/, "[TIME]", s)
		gsub(/pid: *[0-9]+/, "pid: PID", s)
		gsub(/pid=[0-9]+/, "pid=PID", s)
		gsub(/\[ *[0-9]+\] }/, "[PID] }", s)
		gsub(/\[ *[0-9]+\],/, "[PID],", s)
		gsub("ffff" h h h, "ADDR", s)
		gsub("00000000" h h, "HASH", s)
		gsub(/\+0x[0-9a-f]+\/0x[0-9a-f]+/, "+OFF", s)
		# a sym-offset key is padded to a fixed width, however long its
		# offset is
		gsub(/\+OFF +/, "+OFF ", s)
		sub(/^(-?bash|sh): (echo: )?write error: /, "write error: ", s)
		for (i = 1; i <= nmask[e]; i++) gsub(masks[e, i], "~", s)
		sub(/[ \t]+$/, "", s)
		return s
	}
	# Read one file into side k: lines of example e, command c.
	function load(file, k,   line, e, c, f) {
		e = 0; c = 0
		while ((getline line < file) > 0) {
			if (line ~ /^@@ex /) {
				e++; c = 0; split(line, f, " ")
				if (k == "x") { name[e] = f[2]; where[e] = f[3] }
				continue
			}
			if (line ~ /^@@cmd /) {
				split(line, f, " "); c = f[2] + 0; n[k, e, c] = 0
				if (k == "x") {
					ncmd[e] = c
					cmd[e, c] = substr(line, length(f[1] f[2]) + 3)
				}
				continue
			}
			if (line ~ /^@@mask /) {
				if (k == "x") masks[e, ++nmask[e]] = substr(line, 8)
				continue
			}
			if (line ~ /^@@arch /) {
				if (k == "x") want[e] = want[e] " " substr(line, 8)
				continue
			}
			if (line ~ /^@@needs /) {
				if (k == "x") needs[e] = needs[e] " " substr(line, 9)
				continue
			}
			if (line == "@@end") { if (k == "x") nex = e; else done = 1; continue }
			if (c == 0) continue
			n[k, e, c]++; raw[k, e, c, n[k, e, c]] = line
		}
		close(file)
	}
	# Masked lines of one command, trailing empty lines dropped; a run
	# of lines an example masks whole (the frames of a stack, whose
	# number varies with the build) is one line.
	function norm(k, e, c,   i, j, t) {
		j = 0
		for (i = 1; i <= n[k, e, c]; i++) {
			t = mask(raw[k, e, c, i], e)
			if (t == "~" && j > 0 && l[k, j] == "~") continue
			l[k, ++j] = t
		}
		while (j > 0 && l[k, j] == "") j--
		return j
	}
	# Are the programs of the "needs:" lines of an example all here?
	function have_all(list,   f, i, m) {
		m = split(list, f, " ")
		for (i = 1; i <= m; i++)
			if (system("command -v " f[i] " > /dev/null 2>&1") != 0)
				return 0
		return 1
	}
	# Do shown lines i.. match printed lines j..?  "..." takes any number.
	function fits(i, j) {
		if (i > xn) return j > pn
		if (l["x", i] == "...") return fits(i + 1, j) || (j <= pn && fits(i, j + 1))
		return j <= pn && l["x", i] == l["p", j] && fits(i + 1, j + 1)
	}
	BEGIN {
		load(ARGV[1], "x"); load(ARGV[2], "p")
		for (e = 1; e <= nex; e++) {
			if (want[e] != "" && index(want[e] " ", " " arch " ") == 0) continue
			if (!have_all(needs[e])) continue
			ran++; bad = 0
			for (c = 1; c <= ncmd[e]; c++) {
				cmds++
				xn = norm("x", e, c); pn = norm("p", e, c)
				if (fits(1, 1)) continue
				bad = 1
				printf "FAIL: %s example %s, command %d: %s\n",
					where[e], name[e], c, cmd[e, c]
				for (i = 1; i <= xn; i++)
					print "  shown:   " l["x", i]
				for (i = 1; i <= n["p", e, c]; i++)
					print "  printed: " raw["p", e, c, i]
			}
			failed += bad
		}
		if (!done) { print "FAIL: " ARGV[2] " stops before its end"; failed++ }
		print "SUMMARY " ran + 0 " " cmds + 0 " " failed + 0
	}' "$1" "$2"
}

files=0 examples=0 commands=0 failed=0
for script in $D/*.sh; do
	doc=${script##*/}
	doc=${doc%.sh}
	doc_reset
	(cd $T && timeout 240 sh "$script") > /tmp/doc-$doc.out 2>&1 < /dev/null
	compare $D/$doc.expected /tmp/doc-$doc.out > /tmp/doc-$doc.cmp
	grep -v '^SUMMARY ' /tmp/doc-$doc.cmp
	set -- $(sed -n 's/^SUMMARY //p' /tmp/doc-$doc.cmp)
	files=$((files + 1)) examples=$((examples + $1)) commands=$((commands + $2))
	failed=$((failed + $3))
done
doc_reset
echo "doc_examples: $examples examples ($commands commands) of $files files run, $failed differ"
[ $failed = 0 ] || exit 1
[ $examples -gt 0 ] || fail "no example ran"
