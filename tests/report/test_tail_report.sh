#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-report on the tail experiment (issue 52): a chase-sim run with refresh every 3.9 us, one
# without, and a chase-host run on this machine: the histogram and slow-batch plots (PNGs of sane
# size), report.md's percentiles per level and refresh line (or why no period stood out),
# verdicts.tail.percentiles, and two runs side by side; columns absent or added are tolerated.
set -u
cd "$(dirname "$0")/../.."
. tests/report/lib.sh
SIM=${CHASE_SIM:-$ROOT/build/chase-sim}
HOST=${CHASE_HOST:-$ROOT/build/chase-host}
tmp=$(fresh_dir tail-report)
levels="L1:32K:8w:4c:lru,L2:256K:8w:12c:lru,L3:2M:16w:40c:lru"

# sane_png FILE: a PNG of at least 100x100 pixels, between 5 KB and 2 MB.
sane_png() {
    is_png "$1" && [ "$(stat -c %s "$1")" -ge 5000 ] && [ "$(stat -c %s "$1")" -le 2000000 ]
}
# md_row MD LEVEL COL: cell COL (from 1 after the level) of the distribution table's LEVEL row.
md_row() {
    awk -F' *\\| *' -v lv="$2" -v c="$3" '/^#### Latency distribution/ { on = 1 }
        on && $2 == lv { print $(c + 2); exit }' "$1"
}
# csv_last COL FILE: column COL of the last row.
csv_last() {
    awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
        { v = $(idx[c]) } END { print v }' "$2"
}

"$SIM" --out "$tmp/sim" --hierarchy "$levels,DRAM:250c:refresh=3.9us/350ns" --ghz 3 \
    experiments=tail profile=quick >"$tmp/sim.log" 2>&1
"$SIM" --out "$tmp/off" --hierarchy "$levels,DRAM:250c" --ghz 3 experiments=tail \
    profile=quick >"$tmp/off.log" 2>&1
"$HOST" --out "$tmp/host" experiments=tail profile=quick >"$tmp/host.log" 2>&1
sim=$tmp/sim/0001 off=$tmp/off/0001 host=$tmp/host/0001
rows=$(($(wc -l <"$sim/tail.csv") - 1))

# The refresh run: both plots, the comb panel, the table and the refresh line.
check "refresh run: report made" "$REPORT" --out "$tmp/r-sim" "$sim"
check "refresh run: tail-hist.png is a PNG of sane size" sane_png "$tmp/r-sim/tail-hist.png"
check "refresh run: tail-slow.png is a PNG of sane size" sane_png "$tmp/r-sim/tail-slow.png"
check "refresh run: report.md shows both plots" sh -c "grep -q '^!\[tail-hist.png\](tail-hist.png)' \
    '$tmp/r-sim/report.md' && grep -q '^!\[tail-slow.png\](tail-slow.png)' '$tmp/r-sim/report.md'"
check "refresh run: a histogram panel per size ($rows), p50/p99/p99.9 marked in each" \
    test "$(grep -c "^set label 'p99.9 " "$tmp/r-sim/gnuplot/tail-hist.gp")" = "$rows"
check "refresh run: the slow batches' zoom on the comb, 13 period lines of 3.900 us" sh -c \
    "grep -q 'the first 12 periods of DRAM 4M: .* every 3.900 us' '$tmp/r-sim/gnuplot/tail-slow.gp' &&
     test \$(grep -c \"nohead lc rgb '#909090'\" '$tmp/r-sim/gnuplot/tail-slow.gp') = 13"
check "refresh run: the distribution section links both plots" grep -qx \
    'Plots: \[the histogram per level\](tail-hist.png), \[the slow batches\](tail-slow.png).' \
    "$tmp/r-sim/report.md"
check "refresh run: the distribution table's header" grep -q \
    '^| level | size | batches | p50 ns | p90 ns | p99 ns | p99.9 ns | max ns | slow batches | stalls |$' \
    "$tmp/r-sim/report.md"
for lv in L1 L2 L3 DRAM; do
    check "refresh run: a $lv row in the table" test -n "$(md_row "$tmp/r-sim/report.md" $lv 1)"
done
want=$(awk -v v="$(csv_last p999_ns "$sim/tail.csv")" 'BEGIN { printf "%.1f", v }')
check "refresh run: DRAM's p99.9 in report.md ($(md_row "$tmp/r-sim/report.md" DRAM 6)) is tail.csv's ($want)" \
    test "$(md_row "$tmp/r-sim/report.md" DRAM 6)" = "$want"
check "refresh run: DRAM's slow batches in report.md are tail.csv's" \
    test "$(md_row "$tmp/r-sim/report.md" DRAM 8)" = "$(csv_last slow_batches "$sim/tail.csv")"
check "refresh run: the refresh line" grep -q \
    '^Refresh line: \*\*DRAM refresh: every 3.9 us, about 3[0-9][0-9] ns' "$tmp/r-sim/report.md"
check "refresh run: the period's confidence" grep -qE \
    '^At DRAM 4M: a period of 39[0-9][0-9].[0-9] ns costing .* confidence [01].[0-9]{2}, [0-9]+ slow batches on its comb' \
    "$tmp/r-sim/report.md"

# --json: verdicts.tail.percentiles, one record per row of tail.csv, by level.
json=$tmp/sim.json
"$REPORT" --json "$sim" >"$json" 2>/dev/null
check "--json: verdicts.tail.percentiles has $rows records" \
    test "$(jq '.verdicts.tail.percentiles | length' "$json")" = "$rows"
check "--json: their levels L1 L2 L3 DRAM" \
    test "$(jq -r '[.verdicts.tail.percentiles[].level] | join(" ")' "$json")" = "L1 L2 L3 DRAM"
check "--json: DRAM's p999_ns and max_ns are tail.csv's" test \
    "$(jq -r '.verdicts.tail.percentiles[-1] | "\(.p999_ns) \(.max_ns)"' "$json")" = \
    "$(awk -v a="$(csv_last p999_ns "$sim/tail.csv")" -v b="$(csv_last max_ns "$sim/tail.csv")" \
        'BEGIN { print a + 0, b + 0 }')"
check "--json: every record has p50 to max, slow batches and stalls" jq -e \
    '[.verdicts.tail.percentiles[] | has("p50_ns", "p90_ns", "p99_ns", "p999_ns", "max_ns",
      "slow_batches", "stalls")] | all' "$json"

# Refresh off: no period, and why; no slow batches to plot, and report.md says so.
check "refresh off: report made" "$REPORT" --out "$tmp/r-off" "$off"
check "refresh off: tail-hist.png is a PNG of sane size" sane_png "$tmp/r-off/tail-hist.png"
check "refresh off: the refresh line says no period stands out" grep -q \
    '^Refresh line: \*\*DRAM refresh: no period stands out\*\*' "$tmp/r-off/report.md"
check "refresh off: and why (too few slow batches; simulated DRAM without refresh)" grep -q \
    '^No period stands out: DRAM 4M has 0 slow batches, fewer than the 20 a period needs; .*the simulated DRAM refreshes only when its description says so' \
    "$tmp/r-off/report.md"
check "refresh off: report.md says why tail-slow.png is missing" grep -q \
    '^(tail-slow.png not drawn: no slow batches at any size' "$tmp/r-off/report.md"

# chase-host on this machine: the histogram and the table, whatever the timings.
hrows=$(($(wc -l <"$host/tail.csv") - 1))
check "host run: chase-host wrote tail.csv and tail.hist.csv" test -s "$host/tail.hist.csv"
check "host run: report made" "$REPORT" --out "$tmp/r-host" "$host"
check "host run: tail-hist.png is a PNG of sane size" sane_png "$tmp/r-host/tail-hist.png"
check "host run: a row per size of tail.csv ($hrows)" test "$(awk '/^#### / {
    on = /^#### Latency distribution/ } on && /^\| (L[0-9]|DRAM) \|/ { n++ } END { print n + 0 }' \
    "$tmp/r-host/report.md")" = "$hrows"
check "host run: a refresh line, with the period or why none stood out" grep -qE \
    '^(At .*: a period of|No period stands out: .+\.$)' "$tmp/r-host/report.md"

# Side by side: both folders are called 0001; each keeps its plots, one comparison of both.
check "side by side: report made" "$REPORT" --out "$tmp/both" "$sim" "$host"
check "side by side: the first run's histogram as 0001-tail-hist.png" \
    sane_png "$tmp/both/0001-tail-hist.png"
check "side by side: the second's as 0001-2-tail-hist.png" sane_png "$tmp/both/0001-2-tail-hist.png"
check "side by side: tail-hist-compare.png is a PNG of sane size" sane_png "$tmp/both/tail-hist-compare.png"
check "side by side: L1's panel holds both runs" grep -q \
    "^set title 'L1: simulated 16K p99.9 [0-9.]* ns; host .* p99.9 [0-9.]* ns'" \
    "$tmp/both/gnuplot/tail-hist-compare.gp"
check "side by side: one table with both runs' L1 rows" sh -c \
    "grep -q '^| L1 | simulated: run 0001 | 16K |' '$tmp/both/report.md' &&
     grep -q '^| L1 | host: run 0001 | ' '$tmp/both/report.md'"

# Columns read by name: one without p90_ns and stalls, one with page_bytes (4K and 1G rows).
drop=$tmp/drop
mkdir -p "$drop"
cp "$sim"/* "$drop/"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i != "p90_ns" && $i != "stalls") k[++n] = i }
    { s = $k[1]; for (j = 2; j <= n; j++) s = s OFS $k[j]; print s }' "$sim/tail.csv" >"$drop/tail.csv"
check "absent columns: report made" "$REPORT" --out "$tmp/r-drop" "$drop"
check "absent columns: shown as -" grep -qE '^\| DRAM \| 4M \| 16384 \| [0-9.]+ \| - \| .* \| - \|$' \
    "$tmp/r-drop/report.md"
paged=$tmp/paged
mkdir -p "$paged"
cp "$sim"/* "$paged/"
for f in tail.csv tail.hist.csv tail.samples.csv; do
    awk -F, 'NR == 1 { print $0 ",page_bytes"; next } { print $0 ",4096"; print $0 ",1073741824" }' \
        "$sim/$f" >"$paged/$f"
done
check "page_bytes: report made" "$REPORT" --out "$tmp/r-paged" "$paged"
check "page_bytes: a row for 4K and one for 1G pages at DRAM" sh -c \
    "grep -q '^| DRAM | 4M, 4K pages |' '$tmp/r-paged/report.md' &&
     grep -q '^| DRAM | 4M, 1G pages |' '$tmp/r-paged/report.md'"
check "page_bytes: beside a run without pages, its DRAM rows matched to that run's" sh -c \
    "'$REPORT' --out '$tmp/r-pair' '$sim' '$paged' && grep -A1 '^| DRAM | simulated: run 0001 | 4M |' \
    '$tmp/r-pair/report.md' | grep -q '^| DRAM | simulated: run paged | 4M, 4K pages |'"
check "page_bytes: verdicts.tail.percentiles carries them" test "$("$REPORT" --json "$paged" \
    2>/dev/null | jq -c '[.verdicts.tail.percentiles[-2:][].page_bytes]')" = "[4096,1073741824]"
# Damaged side files: bins out of order, counts not numbers or negative, a short row, a samples
# file with other columns: the report is still made, the bad rows left out.
bad=$tmp/bad
mkdir -p "$bad"
cp "$sim"/* "$bad/"
printf 'size_bytes,bin_low_ns,bin_high_ns,count\n16384,9,5,10\n16384,5,x,3\n16384,5,6,-4\n16384,5\n4194304,300,400,1e300\n' \
    >"$bad/tail.hist.csv"
printf 'size_bytes,rep,ns\n4194304,1,2\n' >"$bad/tail.samples.csv"
check "damaged side files: report made" "$REPORT" --out "$tmp/r-bad" "$bad"
check "damaged side files: the table still there" grep -q '^| DRAM | 4M | 16384 |' "$tmp/r-bad/report.md"
check "damaged side files: no slow-batch plot from a samples file without its columns" \
    test ! -e "$tmp/r-bad/tail-slow.png"
finish
