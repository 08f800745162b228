# SPDX-License-Identifier: GPL-2.0
# The plot of make bench-lttng: guest ns per event in the writing thread,
# per writer and consumer, with nobody consuming and enabled, for the
# 28-byte event and the 1 KiB string.  Called by harness/bench-lttng.sh
# with data= (harness/bench-lttng.py's DAT file) and out= (the PNG).
set terminal pngcairo size 1300,560 font "sans,10"
set output out
set termoption noenhanced
set bmargin 5
set title "One event, per writer and consumer: guest ns in the writing thread (QEMU -icount, one vCPU)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y
set yrange [1:*]
set ylabel "guest ns per event (log scale)"
set grid ytics
set key outside right top vertical
set xtics scale 0
plot data using 2:xticlabels(1) title "28 B, nobody consuming", \
     '' using 3 title "28 B, enabled", \
     '' using 4 title "1 KiB, nobody consuming", \
     '' using 5 title "1 KiB, enabled", \
     '' using ($0-0.3):2:(sprintf("%d", $2)) with labels offset 0,0.7 font ",8" notitle, \
     '' using ($0+0.1):4:(sprintf("%d", $4)) with labels offset 0,0.7 font ",8" notitle, \
     '' using ($0-0.1):3:(sprintf("%d", $3)) with labels offset 0,0.7 font ",8" notitle, \
     '' using ($0+0.3):5:(sprintf("%d", $5)) with labels offset 0,0.7 font ",8" notitle
