#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The random experiment on a known hierarchy: a plateau at each level's latency, a step at
# each level's size, sharp with LRU (the chain either fits a level or misses it every time).
set -u
. "$(dirname "$0")/lib.sh"

lru="L1:32K:8w:4c:lru,L2:256K:8w:12c:lru,L3:2M:16w:40c:lru,DRAM:200c"
sim lru --hierarchy "$lru" --ghz 2 experiments=random random.min=4K random.max=16M \
    random.points_per_octave=4
check "the LRU sweep runs" test "$SIM_RC" = 0
csv="$RUN_DIR/random.csv"

# plateau LO HI CYCLES: every size in (LO, HI] costs CYCLES (ns at 2 GHz: half of it).
plateau() {
    awk -F, -v lo="$1" -v hi="$2" -v want="$3" '
        NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
        $(idx["size_bytes"]) > lo && $(idx["size_bytes"]) <= hi {
            n++
            c = $(idx["core_cycles_median"]); ns = $(idx["ns_median"])
            if (c < want - 0.01 || c > want + 0.01 || ns < want / 2 - 0.01 || ns > want / 2 + 0.01)
                bad++ }
        END { exit !(n > 0 && !bad) }' "$csv"
}
check "L1 plateau: 4 cycles (2 ns) up to 32K" plateau 0 32768 4
check "L2 plateau: 12 cycles from just above 32K to 256K" plateau 32768 262144 12
check "L3 plateau: 40 cycles from just above 256K to 2M" plateau 262144 2097152 40
check "DRAM: 200 cycles from just above 2M" plateau 2097152 16777216 200
check "the step after 32K is sharp (38K costs the full L2 latency)" \
    near "$(csv_at "$csv" size_bytes 38912 core_cycles_median)" 12 0.01
check "sim_levels.csv: L1 hits everything at 32K, nothing at 38K" \
    sh -c "awk -F, 'NR > 1 && \$4 == 512 && \$9 != \"1.000000\" { exit 1 }
                    NR > 1 && \$4 == 608 && \$9 != \"0.000000\" { exit 1 }' '$RUN_DIR/sim_levels.csv'"
check "the summary finds three levels and DRAM" \
    sh -c "grep -E '^ +L3 +2(\.[0-9]+)?M +20.00 +40.00' '$RUN_DIR/console.txt' &&
           ! grep -E '^ +L4 ' '$RUN_DIR/console.txt' &&
           grep -q '^DRAM latency: 100.0 ns, 200 cycles' '$RUN_DIR/console.txt'"

sim random --hierarchy "L1:32K:8w:4c:random,L2:256K:8w:12c:random,DRAM:200c" \
    experiments=random random.min=16K random.max=1M random.points_per_octave=4
c38=$(csv_at "$RUN_DIR/random.csv" size_bytes 38912 core_cycles_median)
check "random replacement makes the same step gradual (38K: $c38 cycles, between 4 and 12)" \
    between "$c38" 4.5 11
