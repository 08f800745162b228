#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Histograms as users see them (the hist file and the trigger listing of
# every feature): the scenario of tests/shell/hist_features.sh, printed.
# Its output on the base is tests/shell/hist_features.expected.
sh /tests/shell/hist_features.sh print
