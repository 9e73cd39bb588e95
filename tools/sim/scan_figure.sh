#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Reproduce the classic scan-resistance figure with chase-sim: the scan experiment on a
# 4-slice, 12-way, 6 MiB LLC under LRU, SRRIP and BRRIP, plotted with gnuplot.
#   tools/sim/scan_figure.sh [OUT.png] [WORKDIR]
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
png=${1:-$root/docs/sim-scan.png}
work=${2:-$root/build/sim-scan-figure}
sim=$root/build/chase-sim
[ -x "$sim" ] || make -C "$root" -s build/chase-sim
rm -rf "$work"
mkdir -p "$work"
for policy in lru srrip brrip; do
    "$sim" --hierarchy "L1:32K:8w:4c:lru,L2:256K:8w:12c:lru,L3:6M:12w:40c:$policy:slices=4:hash=intel,DRAM:200c" \
        --out "$work/$policy" experiments=scan scan.huge=96M scan.small_min=512K \
        scan.small_max=12M scan.points_per_octave=8 >"$work/$policy.log"
    # small region in MiB, average core cycles per load
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
        { print $(idx["small_bytes"]) / 1048576, $(idx["core_cycles_median"]) }' \
        "$work/$policy/0001/scan.csv" >"$work/$policy.dat"
done
gnuplot <<GP
set terminal pngcairo size 900,560 font "sans,11"
set output "$png"
set title "Scan resistance on a 4-slice, 12-way, 6 MiB LLC (chase-sim, scan experiment)"
set xlabel "small region (MiB), loads alternating with a 96 MiB region"
set ylabel "average core cycles per load"
set logscale x 2
set xrange [0.5:12]
set xtics (0.5, 1, 2, 3, 4, 6, 8, 12)
set yrange [100:210]
set key bottom right box opaque
set grid
set arrow from 3,100 to 3,210 nohead dashtype 2 lc rgb "gray40"
set arrow from 6,100 to 6,210 nohead dashtype 2 lc rgb "gray40"
set label "LLC / 2" at 3,205 right offset -0.5,0
set label "LLC" at 6,205 right offset -0.5,0
set label "both regions miss: 200 (DRAM)" at 0.55,203
set label "small region hits the LLC: (200 + 40) / 2 = 120" at 0.55,113
plot "$work/lru.dat" with linespoints lw 2 pt 7 title "LRU", \
     "$work/srrip.dat" with linespoints lw 2 pt 5 title "SRRIP", \
     "$work/brrip.dat" with linespoints lw 2 pt 9 title "BRRIP"
GP
echo "wrote $png (data in $work)"
