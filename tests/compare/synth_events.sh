#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Synthetic events as users see them (formats, listings, error_log,
# trace lines): the scenario of tests/shell/synth_events.sh, printed.
# Its output on the base is tests/shell/synth_events.expected.
sh /tests/shell/synth_events.sh print
