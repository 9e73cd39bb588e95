#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-report's level detection on curves chase-sim produces from known hierarchies, with
# noise added: the levels, their sizes and latencies come back within stated tolerances, a
# two-level machine gives two levels, and DRAM is never counted as a level.
#   sizes:     the detected effective size within a factor 0.5..1.5 of the modelled size
#   latencies: within 15% of the modelled latency (chase-sim runs at 1 GHz: 1 cycle = 1 ns)
set -u
. "$(dirname "$0")/../lib.sh"

sim="$ROOT/build/chase-sim"
report="$ROOT/build/chase-report"
work=$(fresh_dir sim-curves)

# curve NAME HIERARCHY MAX: simulate the random sweep, add +-4% multiplicative noise
# (seeded), and analyse the noisy folder.
curve() {
    local name=$1 hier=$2 max=$3
    "$sim" --hierarchy "$hier" --out "$work/$name" experiments=random random.max="$max" \
        random.points_per_octave=4 >"$work/$name.log" 2>&1 || return 1
    local dir="$work/$name/0001"
    awk -F, -v OFS=, 'BEGIN { srand(7) }
        NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^(ns|tsc)_(min|median|p90)$|^core_cycles_median$/) noisy[i] = 1; print; next }
        { f = 1 + (rand() * 2 - 1) * 0.04; for (i in noisy) $i = sprintf("%.4f", $i * f); print }' \
        "$dir/random.csv" >"$dir/random.noisy" && mv "$dir/random.noisy" "$dir/random.csv"
    "$report" --json "$dir" >"$work/$name.json" 2>"$work/$name.err"
}

# level_ok NAME INDEX SIZE LATENCY: the INDEX-th level (from 0) is near SIZE bytes and LATENCY ns.
level_ok() {
    jq -e --argjson i "$2" --argjson s "$3" --argjson l "$4" \
        '.levels[$i] as $v | $v.size_bytes >= 0.5 * $s and $v.size_bytes <= 1.5 * $s and
         ($v.latency_ns - $l | fabs) <= 0.15 * $l' "$work/$1.json" >/dev/null
}

three='L1:32K:8w:4c:lru,L2:1M:8w:14c:lru,L3:16M:16w:50c:lru,DRAM:200c'
check "three levels (LRU): the simulated curve is analysed" curve three "$three" 64M
check "three levels: exactly three levels, DRAM not among them" \
    jq -e '(.levels | length) == 3' "$work/three.json"
check "three levels: L1 32K at 4 ns" level_ok three 0 32768 4
check "three levels: L2 1M at 14 ns" level_ok three 1 1048576 14
check "three levels: L3 16M at 50 ns" level_ok three 2 16777216 50
check "three levels: DRAM latency near 200 ns" \
    jq -e '(.dram_latency_ns - 200 | fabs) <= 30' "$work/three.json"

two='L1:48K:12w:5c:lru,L2:2M:16w:16c:plru,DRAM:150c'
check "two levels (48K 12-way LRU, 2M tree-PLRU): analysed" curve two "$two" 32M
check "two levels: exactly two levels, none invented" jq -e '(.levels | length) == 2' "$work/two.json"
check "two levels: L1 48K (not a power of two) at 5 ns" level_ok two 0 49152 5
check "two levels: L2 2M at 16 ns" level_ok two 1 2097152 16
