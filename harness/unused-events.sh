#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# unused-events.sh - make unused-events: the tracepoints our kernel
# defines and never fires (what mainline's `make UT=1` checks since late
# 2025), from the symbols and relocations of vmlinux.o and the modules
# (harness/unused-events.py says how).  Every one is listed, in
# build/unused-events.txt; the check fails when an event declared in one
# of our files (the Files: of harness/components/) is among them.  Base
# events unused in this configuration are only listed: their callers
# may be configured out.
. "$(dirname "$0")/lib.sh"

"$ROOT/harness/build-kernel.sh" ours > /dev/null
obj=$(variant_obj ours)
ours=$B/unused-events.ours
# our C files and headers, for the events they declare
owned_files | grep '\.[ch]$' | sed "s|^|$ROOT/|" > "$ours"
set +e
python3 "$ROOT/harness/unused-events.py" "$ours" "$obj/vmlinux.o" \
	$(find "$obj" -name '*.ko' -not -path "$obj/modules/*") > "$B/unused-events.txt"
rc=$?
set -e
grep '<- ours' "$B/unused-events.txt" || true
tail -n 1 "$B/unused-events.txt"
say "the list: build/unused-events.txt"
exit $rc
