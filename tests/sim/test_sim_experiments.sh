#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every experiment runs simulated; scan, dual and offset show what the replacement policies
# are known for (scan resistance, adaptive insertion, set-dueling leader sets).
set -u
. "$(dirname "$0")/lib.sh"

sim all --hierarchy "L1:32K:8w:4c:plru,L2:256K:8w:12c:lru,L3:2M:16w:40c:drrip:slices=2,DTLB:64:4w:8c,DRAM:200c" \
    profile=quick
check "a quick run of every experiment exits 0" test "$SIM_RC" = 0
check "every experiment of the table ran ok; those needing processors or nodes skipped, saying so" \
    json_true "$RUN_DIR/run.json" '(.experiments | length) == (.config.experiments | length) and
     all(.experiments | to_entries[]; .value == "ok" or
         ((.key == "cores" or .key == "c2c" or .key == "loaded" or .key == "bandwidth" or .key == "bw_cores" or
           .key == "atomics") and
          (.value | startswith("skipped: needs real processors"))) or
         (.key == "numa" and (.value | startswith("skipped: needs real memory nodes"))))'
missing=
for x in $(jq -r '.config.experiments[]' "$RUN_DIR/run.json"); do
    test -s "$RUN_DIR/$x.csv" -a -s "$RUN_DIR/$x.samples.csv" || missing="$missing $x"
done
check "every experiment wrote its CSV and samples${missing:+ (missing:$missing)}" test -z "$missing"

# Scan: small region swept against a 16x larger huge one on a 1M 16-way LLC. Where the
# average reaches 160 cycles (half way from 120, both regions' average with the small one
# in the LLC, to 200, DRAM for both) the small region has left the LLC.
scan_cross() {
    sim "scan-$1" --hierarchy "L1:16K:4w:4c:lru,LLC:1M:16w:40c:$1,DRAM:200c" experiments=scan \
        scan.huge=16M scan.small_min=128K scan.small_max=2M scan.points_per_octave=8
    crossing "$RUN_DIR/scan.csv" small_bytes core_cycles_median 160
}
lru=$(scan_cross lru)
brrip=$(scan_cross brrip)
check "scan, LRU: the small region leaves the LLC near half of it (at $lru bytes of 1M)" \
    between "${lru:-0}" 420000 660000
check "scan, BRRIP: the small region stays up to about the whole LLC (leaves at ${brrip:-never})" \
    between "${brrip:-99999999}" 943718 99999999

# Dual: with the second pointer lag = 2 x L2 lines behind, DIP's leader sets vote LRU.
dual_random() {
    sim "dual-$1" --hierarchy "L1:16K:4w:4c:lru,L2:128K:8w:12c:lru,LLC:1M:16w:40c:$1,DRAM:200c" \
        experiments=random,dual random.min=2M random.max=4M dual.min=2M dual.max=4M \
        random.points_per_octave=1 dual.points_per_octave=1
    echo "$(csv_at "$RUN_DIR/random.csv" size_bytes 4194304 core_cycles_median)" \
        "$(csv_at "$RUN_DIR/dual.csv" size_bytes 4194304 core_cycles_median)"
}
read -r lru_random lru_dual < <(dual_random lru)
read -r dip_random dip_dual < <(dual_random dip)
check "random at 4x the LLC: DIP resists the thrash ($dip_random vs LRU $lru_random cycles)" \
    below "$dip_random" "$(awk -v v="$lru_random" 'BEGIN { print v * 0.9 }')"
check "dual at 4x the LLC: DIP behaves like LRU ($dip_dual vs $lru_dual cycles)" \
    near "$dip_dual" "$lru_dual" "$(awk -v v="$lru_dual" 'BEGIN { print v * 0.02 }')"

# Offset: 21 lines in one set of a 16-way 2M DIP LLC (2048 sets, 32 leader sets per policy
# in constituencies of 64: an LRU leader at set 0, a BIP leader at set 63).
sim offset --hierarchy "L1:32K:8w:4c:lru,L2:256K:8w:12c:lru,L3:2M:16w:40c:dip,DRAM:200c" \
    experiments=offset offset.size=2752512 offset.offset_step=64 offset.offset_max=4096
at() {
    awk -F, -v d="$1" -v o="$2" 'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
        $(idx["direction"]) == d && $(idx["offset_bytes"]) == o {
            print $(idx["core_cycles_median"]) }' "$RUN_DIR/offset.csv"
}
check "offset up: the LRU leader set (0) thrashes and flips the followers to BIP" \
    sh -c "test '$(at up 0)' = 200.000 && awk 'BEGIN { exit !($(at up 64) < 100) }'"
check "offset up: followers keep BIP up to the BIP leader set (63), then flip to LRU" \
    sh -c "awk 'BEGIN { exit !($(at up 3968) < 100) }' && test '$(at up 4096)' = 200.000"
check "offset down: the same follower sets now thrash (LRU): up and down differ" \
    sh -c "test '$(at down 3968)' = 200.000 && test '$(at down 64)' = 200.000"
