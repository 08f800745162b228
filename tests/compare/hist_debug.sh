#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The hist_debug files of tests/shell/hist_debug.sh, printed; see there.
sh /tests/shell/hist_debug.sh print
