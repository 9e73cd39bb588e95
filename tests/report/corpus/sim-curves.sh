#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes the corpus' chase-sim curves: sim-curves.sh FIRST_SEED COUNT [CHASE_SIM] (run once; the
# curves are kept in sim/, sNNNN.csv with size_bytes,ns per line, and their truth in
# sim/truth.tsv). Each seed draws a hierarchy: 2 to 4 set-associative caches from 16K to 256M
# (inclusive or, for the outer levels, exclusive; LRU, tree-PLRU, SRRIP, DRRIP or random
# replacement), DRAM, and on half of them a 64-entry DTLB and a 1536-entry STLB with 4K pages.
# chase-sim runs the random experiment (4 points per octave) on it; eval.sh adds noise and
# writes the curve in every input format (gen-sim.sh). Truth: each cache's capacity (the
# cumulative capacity for an exclusive one); the TLB reaches (entries x 4K, "-": no TLB) apart;
# last, each cache's half-miss size from the simulator's own hit rates (where half of the loads
# miss it and every cache before it).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
first=$1
count=$2
sim=${3:-$here/../../../build/chase-sim}
mkdir -p "$here/sim"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
touch "$here/sim/truth.tsv"

for ((seed = first; seed < first + count; seed++)); do
    id=$(printf "s%04d" "$seed")
    # "description|truth|tlb reaches|page|max"
    line=$(awk -v seed="$seed" 'BEGIN {
        srand(seed * 7 + 3); k = 2 + int(rand() * 3); lo = 14 + int(rand() * 2)
        split("lru plru srrip drrip random", pol, " "); lat = 3 + int(rand() * 3); cum = 0
        for (i = 1; i <= k; i++) {
            odd = rand() < 0.3; size = 2 ^ lo * (odd ? 1.5 : 1)
            ways = odd ? 3 * 2 ^ (1 + int(rand() * 2)) : 2 ^ (2 + int(rand() * 3)) # sets: 2^n
            p = i == 1 ? "lru" : pol[1 + int(rand() * 5)]
            if (odd && p == "plru") p = "lru" # tree-PLRU needs power-of-two ways
            excl = i > 1 && rand() < 0.25; cum += size
            d = d sprintf("L%d:%dK:%dw:%dc:%s%s,", i, size / 1024, ways, lat, p, excl ? ":excl" : "")
            t = t sprintf("%s%d", i > 1 ? "," : "", excl ? cum : size)
            if (!excl) cum = size
            lo += 2 + int(rand() * (i < k ? 3 : 2)); if (lo > 28) lo = 28
            lat = int(lat * (2.5 + rand() * 2.5)) }
        tlb = rand() < 0.5
        if (tlb) d = d "DTLB:64:4w:7c,STLB:1536:12w:20c,"
        d = d sprintf("DRAM:%dc", int(lat * (1.5 + rand() * 1.5)))
        max = cum * 8; if (max < 64 * 2 ^ 20) max = 64 * 2 ^ 20; if (max > 2 ^ 30) max = 2 ^ 30
        printf "%s|%s|%s|%s|%d", d, t, tlb ? "262144,6291456" : "-", tlb ? "4K" : "2M", max }')
    IFS='|' read -r desc truth reach page max <<<"$line"
    rm -rf "$work/runs"
    "$sim" --hierarchy "$desc" --seed "$seed" --out "$work/runs" experiments=random random.min=4K \
        "random.max=$max" "page=$page" on_exit=return >/dev/null
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "size_bytes,ns"; next }
        { print $c["size_bytes"] "," $c["ns_median"] }' "$work/runs/0001/random.csv" >"$here/sim/$id.csv"
    # Half-miss sizes: where half of the loads miss each cache and all before it (the product of
    # the levels' own miss rates in sim_levels.csv, one row per point of random.csv), log2-log
    # interpolated between points.
    half=$(awk -F, 'NR == FNR { if (FNR > 1) x[++nx] = log($1) / log(2); next }
        FNR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^L[0-9]+_hit_rate$/) col[++nl] = i; next }
        { n++; miss = 1; for (l = 1; l <= nl; l++) { miss *= 1 - $col[l]; m[l, n] = miss } }
        END { if (n != nx) { print "sim_levels.csv and random.csv differ in rows" > "/dev/stderr"; exit 1 }
            for (l = 1; l <= nl; l++) { h = 2 ^ x[1]
                for (j = 2; j <= n; j++) if (m[l, j] >= 0.5) {
                    t = (0.5 - m[l, j - 1]) / (m[l, j] - m[l, j - 1])
                    h = 2 ^ (x[j - 1] + t * (x[j] - x[j - 1])); break }
                printf "%s%.0f", (l > 1 ? "," : ""), h } }' "$here/sim/$id.csv" "$work/runs/0001/sim_levels.csv")
    grep -v "^$id	" "$here/sim/truth.tsv" >"$work/truth" || true
    printf '%s\t%s\t%s\t%s\t%s\n' "$id" "$truth" "$reach" "$desc" "$half" >>"$work/truth"
    sort "$work/truth" >"$here/sim/truth.tsv"
done
