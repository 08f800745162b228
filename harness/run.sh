#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run.sh [shell] - boot our kernel and run the demo (tests/demo.sh), or give
# an interactive shell in the same VM (leave it with `poweroff -f` or Ctrl-A X).
. "$(dirname "$0")/lib.sh"

mode=${1:-run}
"$ROOT/harness/build-kernel.sh" ours
"$ROOT/harness/programs.sh"
"$ROOT/harness/initramfs.sh"
say "booting our kernel ($mode)"
"$ROOT/harness/vm.sh" ours "$mode" "$mode" quiet
if [ "$mode" = run ]; then
	grep -q TS-DONE "$B/logs/run.out" || die "the demo did not finish: see build/logs/run.console"
	if grep -qE '^\[ *[0-9]+\.[0-9]+\].*(WARNING:|BUG:|Oops|Kernel panic)' "$B/logs/run.console"; then
		die "the kernel reported a problem during the demo"
	fi
fi
