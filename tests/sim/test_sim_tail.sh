#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tail experiment on chase-sim's DRAM refresh: 3.9 us costing 350 ns and 7.8 us costing
# 280 ns recovered within 5% from tail.csv and chase-report --json's verdicts.tail, and with
# refresh off no period claimed (null items, the summary saying so); the files and their columns.
set -u
. "$(dirname "$0")/lib.sh"
REPORT=${CHASE_REPORT:-$ROOT/build/chase-report}
levels="L1:32K:8w:4c:lru,L2:256K:8w:12c:lru,L3:2M:16w:40c:lru"

# item NAME: verdicts.tail's item NAME in chase-report --json of the last run ("null" when null).
item() { "$REPORT" --json "$RUN_DIR" 2>/dev/null | jq -r ".verdicts.tail.$1"; }
# within GOT WANT: GOT within 5% of WANT.
within() { near "$1" "$2" "$(awk -v w="$2" 'BEGIN { print w * 0.05 }')"; }
# last COL: column COL of tail.csv's last row (the size beyond the last cache).
last() { awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
    { v = $(idx[c]) } END { print v }' "$RUN_DIR/tail.csv"; }

for case in "3.9us/350ns 3900 350" "7.8us/280ns 7800 280"; do
    set -- $case
    sim "tail-$2" --hierarchy "$levels,DRAM:250c:refresh=$1" --ghz 3 experiments=tail \
        profile=quick
    check "refresh=$1: chase-sim runs tail" test "$SIM_RC" = 0
    p=$(last refresh_period_ns) s=$(last refresh_stall_ns)
    check "refresh=$1: tail.csv's period $p ns within 5% of $2" within "$p" "$2"
    check "refresh=$1: tail.csv's stall $s ns within 5% of $3" within "$s" "$3"
    p=$(item refresh_period_ns) s=$(item refresh_stall_ns)
    check "refresh=$1: verdicts.tail.refresh_period_ns $p within 5% of $2" within "$p" "$2"
    check "refresh=$1: verdicts.tail.refresh_stall_ns $s within 5% of $3" within "$s" "$3"
    check "refresh=$1: the summary's refresh line" \
        grep -qE "^tail: DRAM refresh: every $(echo "$1" | cut -d/ -f1 | sed 's/us/ us/'), about" \
        "$RUN_DIR/console.txt"
done

sim tail-off --hierarchy "$levels,DRAM:250c" --ghz 3 experiments=tail profile=quick
check "refresh off: chase-sim runs tail" test "$SIM_RC" = 0
check "refresh off: no period in tail.csv" test "$(last refresh_period_ns)" = 0.000
check "refresh off: verdicts.tail.refresh_period_ns is null" test "$(item refresh_period_ns)" = null
check "refresh off: verdicts.tail.refresh_stall_ns is null" test "$(item refresh_stall_ns)" = null
check "refresh off: the summary says no period stands out" \
    grep -q "^tail: DRAM refresh: no period stands out" "$RUN_DIR/console.txt"

# The files (of the refresh-off run): tail.csv's columns, a histogram row per bin of every size, the slow batches.
check "tail.csv has the percentile, refresh and stall columns" \
    grep -qE '^size_bytes,page_bytes,hops,batches,p50_ns,p90_ns,p99_ns,p999_ns,max_ns,.*refresh_period_ns,'\
'refresh_stall_ns,.*stalls,stall_longest_ns,stalls_per_minute,smi_count,dropped_windows,dram_type' "$RUN_DIR/tail.csv"
check "tail.csv: a row per size (L1, L2, L3 halves), the largest under 4K and 2M pages" \
    test "$(($(wc -l <"$RUN_DIR/tail.csv") - 1))" = 5
check "tail.csv: the largest size's rows under 4K, then 2M pages (page_bytes)" \
    test "$(awk -F, 'NR > 4 { printf "%s:%s ", $1, $2 }' "$RUN_DIR/tail.csv")" = \
    "4194304:4096 4194304:2097152 "
check "tail.hist.csv: its columns, and every point's counts add up to its batches" \
    awk -F, 'NR == 1 { ok = $0 == "size_bytes,page_bytes,bin_low_ns,bin_high_ns,count"; next }
        { n[$1 "," $2] += $5; if ($4 <= $3) ok = 0 }
        END { for (s in n) { k++; if (n[s] != 16384) ok = 0 } exit !(ok && k == 5) }' \
    "$RUN_DIR/tail.hist.csv"
check "tail.samples.csv: its columns (no slow batch with refresh off)" \
    test "$(cat "$RUN_DIR/tail.samples.csv")" = "size_bytes,page_bytes,tsc_offset,time_us,excess_ns"
check "no SMBIOS under chase-sim: the refresh line says the DIMMs' type is unknown" \
    grep -q "^tail: DRAM refresh: no period stands out (the DIMMs' type is unknown: no SMBIOS" \
    "$RUN_DIR/console.txt"
check "run.json's stalls: none with refresh off, SMIs not counted" json_true "$RUN_DIR/run.json" \
    '.stalls.count == 0 and .stalls.not_memory == false and .stalls.note == null and
     .stalls.smi_counting == false and .stalls.batches == 5 * 16384'
check "the plan line states the time up front" \
    grep -qE "plan: 5 sizes, 16384 batches of 4 hops each; about [0-9]+ ms; the largest under 4K,2M pages" \
    "$RUN_DIR/console.txt"
# SMIs: chase-sim's smi=1ms/100us seen as stalls no memory explains, 100 us each, 60000 a
# minute, with the console's note; no refresh claimed from them.
sim tail-smi --hierarchy "$levels,DRAM:250c:smi=1ms/100us" --ghz 3 experiments=tail profile=quick
check "smi=1ms/100us: chase-sim runs tail" test "$SIM_RC" = 0
check "smi=1ms/100us: at least 3 stalls at the largest size" test "$(last stalls)" -ge 3
check "smi=1ms/100us: the longest stall $(last stall_longest_ns) ns within 5% of 100 us" \
    within "$(last stall_longest_ns)" 100000
check "smi=1ms/100us: $(last stalls_per_minute) stalls a minute, within 5% of 60000" \
    within "$(last stalls_per_minute)" 60000
check "smi=1ms/100us: no refresh period claimed" test "$(item refresh_period_ns)" = null
check "smi=1ms/100us: the console's note on stalls no memory explains" \
    grep -q "note: [0-9]* stalls no memory explains (the longest 100.0 us" "$RUN_DIR/console.txt"
check "smi=1ms/100us: run.json's stalls: not memory's, the longest 100 us, with a note" \
    json_true "$RUN_DIR/run.json" '.stalls.not_memory and .stalls.count >= 3 and
     (.stalls.longest_ns - 100000 | fabs) < 5000 and (.stalls.note | test("^[0-9]+ stalls no memory explains"))'
check "smi=1ms/100us: the console's note for the run" \
    grep -q "^tail: note: [0-9]* stalls no memory explains (over 10 us each, the longest 100.0 us" \
    "$RUN_DIR/console.txt"

finish
