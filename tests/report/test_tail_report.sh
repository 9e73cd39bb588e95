#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-report on the tail experiment (issue 52): a chase-sim run with refresh every 3.9 us, one
# without, and a chase-host run on this machine: the histogram and slow-batch plots (PNGs of sane
# size), report.md's percentiles per level and page size, its refresh line (the console's) or why
# no period stood out, the page walks, verdicts.tail.percentiles, and two runs side by side;
# columns absent (a table from before page_bytes) or damaged side files are tolerated.
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
# md_row MD LEVEL COL [SIZE]: cell COL (from 1 after the level: 1 is the size) of the
# distribution table's first LEVEL row (whose size cell is SIZE, when given).
md_row() {
    awk -F' *\\| *' -v lv="$2" -v c="$3" -v sz="${4-}" '/^#### Latency distribution/ { on = 1 }
        on && $2 == lv && (sz == "" || $3 == sz) { print $(c + 2); exit }' "$1"
}
# csv_last COL FILE: column COL of the last row.
csv_last() {
    awk -F, -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
        { v = $(idx[c]) } END { print v }' "$2"
}
# csv_at COL SIZE PAGE FILE: column COL of the row of that size_bytes and page_bytes.
csv_at() {
    awk -F, -v c="$1" -v z="$2" -v pg="$3" 'NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
        $(idx["size_bytes"]) == z && $(idx["page_bytes"]) == pg { print $(idx[c]); exit }' "$4"
}
# summary_line LOG: the console's refresh line (its summary's "tail: DRAM refresh: ...").
summary_line() { sed -n 's/^tail: \(DRAM refresh: \)/\1/p' "$1" | tr -d '\r' | head -n 1; }

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
check "refresh run: a histogram panel per size ($rows), p50/p99/p99.9 named in each one's key" \
    test "$(grep -c "title 'p99.9'$" "$tmp/r-sim/gnuplot/tail-hist.gp")" = "$rows"
check "refresh run: each panel's lines at its row's p50, p99 and p99.9 (tail.csv's)" awk -F, '
    FNR == 1 { f++ } f == 1 && FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    f == 1 { want[n++] = $c["p50_ns"]; want[n++] = $c["p99_ns"]; want[n++] = $c["p999_ns"] }
    f == 2 && /^set arrow from / { split($0, a, /[ ,]+/); got[m++] = a[4] }
    END { for (i = 0; i < n; i++) if (got[i] - want[i] > 1e-6 || want[i] - got[i] > 1e-6) exit 1
          exit !(n == m && n == 3 * '"$rows"') }' "$sim/tail.csv" "$tmp/r-sim/gnuplot/tail-hist.gp"
check "refresh run: a histogram panel per size and page size, each with that point's bins" awk '
    FNR == 1 { f++ } f == 1 && FNR > 1 { n[$1 "," $2]++ }
    f == 2 && FNR > 1 { key[k++] = $1 "," $2 }
    f == 3 && /^$/ { if (prev) b++; prev = 0; next } f == 3 { rows[b + 0]++; prev = 1 }
    END { for (i = 0; i < k; i++) if (rows[i] != n[key[i]]) exit 1; exit !(k == b && k > 4) }' \
    FS=, "$sim/tail.hist.csv" "$sim/tail.csv" FS=' ' "$tmp/r-sim/gnuplot/tail-hist.dat"
check "refresh run: the panels titled by level, size and page size" sh -c \
    "grep -q \"^set title 'DRAM 4M, 4K pages: p50 \" '$tmp/r-sim/gnuplot/tail-hist.gp' &&
     grep -q \"^set title 'DRAM 4M, 2M pages: p50 \" '$tmp/r-sim/gnuplot/tail-hist.gp' &&
     grep -q \"^set title 'L1 16K, 1G pages: p50 \" '$tmp/r-sim/gnuplot/tail-hist.gp'"
for pg in 4096:4K 2097152:2M; do
    n=$(awk -F, -v pg="${pg%:*}" '$1 == 4194304 && $2 == pg { n++ } END { print n + 0 }' \
        "$sim/tail.samples.csv")
    check "refresh run: the slow batches of DRAM 4M under ${pg#*:} pages as their own series ($n)" \
        grep -q "title 'DRAM 4M, ${pg#*:} pages: $n slow'" "$tmp/r-sim/gnuplot/tail-slow.gp"
done
check "refresh run: the slow batches' zoom on the comb (the refresh row's), 13 period lines of 3.900 us" sh -c \
    "grep -q 'the first 12 periods of DRAM 4M, 2M pages: .* every 3.900 us' '$tmp/r-sim/gnuplot/tail-slow.gp' &&
     test \$(grep -c \"nohead lc rgb '#909090'\" '$tmp/r-sim/gnuplot/tail-slow.gp') = 13"
check "refresh run: the distribution section links both plots" grep -qx \
    'Plots: \[the histogram per level\](tail-hist.png), \[the slow batches\](tail-slow.png).' \
    "$tmp/r-sim/report.md"
check "refresh run: the distribution table's header" grep -q \
    '^| level | size | batches | p50 ns | p90 ns | p99 ns | p99.9 ns | max ns | slow batches | stalls |$' \
    "$tmp/r-sim/report.md"
for row in "L1 16K, 1G pages" "L2 128K, 1G pages" "L3 1M, 1G pages" "DRAM 4M, 4K pages" \
    "DRAM 4M, 2M pages"; do
    check "refresh run: a row for $row in the table" \
        test -n "$(md_row "$tmp/r-sim/report.md" "${row%% *}" 2 "${row#* }")"
done
for pg in 4096:4K 2097152:2M; do
    want=$(awk -v v="$(csv_at p999_ns 4194304 "${pg%:*}" "$sim/tail.csv")" 'BEGIN { printf "%.1f", v }')
    got=$(md_row "$tmp/r-sim/report.md" DRAM 6 "4M, ${pg#*:} pages")
    check "refresh run: DRAM 4M, ${pg#*:} pages' p99.9 in report.md ($got) is tail.csv's ($want)" \
        test "$got" = "$want"
    check "refresh run: DRAM 4M, ${pg#*:} pages' slow batches in report.md are tail.csv's" test \
        "$(md_row "$tmp/r-sim/report.md" DRAM 8 "4M, ${pg#*:} pages")" = \
        "$(csv_at slow_batches 4194304 "${pg%:*}" "$sim/tail.csv")"
done
check "refresh run: the refresh line" grep -q \
    '^Refresh line: \*\*DRAM refresh: every 3.9 us, about 3[0-9][0-9] ns' "$tmp/r-sim/report.md"
line=$(summary_line "$tmp/sim.log")
check "refresh run: the refresh line is the console's ($line)" \
    grep -qxF "Refresh line: **$line**." "$tmp/r-sim/report.md"
check "refresh run: the period's confidence, at the refresh row (the largest pages)" grep -qE \
    '^At DRAM 4M, 2M pages: a period of 39[0-9][0-9].[0-9] ns costing .* confidence [01].[0-9]{2}, [0-9]+ slow batches on its comb' \
    "$tmp/r-sim/report.md"
walk=$(awk -F, 'NR > 1 && $1 == 4194304 { v[$2 "," 0] = $5; v[$2 "," 1] = $8 }
    END { printf "%+.1f %+.1f", v["4096,0"] - v["2097152,0"], v["4096,1"] - v["2097152,1"] }' \
    "$sim/tail.csv")
check "refresh run: the page walks at DRAM 4M, 4K against 2M pages ($walk ns)" grep -qxF \
    "Page walks at DRAM 4M: 4K pages add ${walk% *} ns to the median batch and ${walk#* } ns to its p99.9 against 2M pages (page_walk_p50_ns, page_walk_p999_ns)." \
    "$tmp/r-sim/report.md"
check "refresh run: the percentiles once in report.md (the verdict's table points to them)" sh -c \
    "test \$(grep -c '^| L1 |' '$tmp/r-sim/report.md') = 1 &&
     grep -qx 'percentiles, the batch times per size: the distribution.s table above (the same rows).' \
     '$tmp/r-sim/report.md'"

# --json: verdicts.tail.percentiles, one record per row of tail.csv, by level.
json=$tmp/sim.json
"$REPORT" --json "$sim" >"$json" 2>/dev/null
check "--json: verdicts.tail.percentiles has $rows records" \
    test "$(jq '.verdicts.tail.percentiles | length' "$json")" = "$rows"
check "--json: their levels L1 L2 L3 DRAM DRAM (the largest size under two page sizes)" \
    test "$(jq -r '[.verdicts.tail.percentiles[].level] | join(" ")' "$json")" = "L1 L2 L3 DRAM DRAM"
check "--json: their page_bytes are tail.csv's" test \
    "$(jq -c '[.verdicts.tail.percentiles[].page_bytes]' "$json")" = \
    "[$(awk -F, 'NR > 1 { printf "%s%s", (NR > 2 ? "," : ""), $2 }' "$sim/tail.csv")]"
check "--json: page_walk_p50_ns and page_walk_p999_ns" jq -e \
    '.verdicts.tail | (.page_walk_p50_ns | type) == "number" and (.page_walk_p999_ns | type) == "number"' \
    "$json"
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
    '^Refresh line: \*\*DRAM refresh: no period stands out' "$tmp/r-off/report.md"
line=$(summary_line "$tmp/off.log")
check "refresh off: the refresh line is the console's ($line)" \
    grep -qxF "Refresh line: **$line**." "$tmp/r-off/report.md"
check "refresh off: and why, at the refresh row (too few slow batches; simulated DRAM without refresh)" grep -q \
    '^No period stands out: DRAM 4M, 2M pages has 0 slow batches, fewer than the 20 a period needs; .*the simulated DRAM refreshes only when its description says so' \
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
check "side by side: L1's panel holds both runs (each under its own large pages)" grep -qE \
    "^set title 'L1: simulated 16K, 1G pages p99.9 [0-9.]+ ns; host [0-9]+[KM], [0-9]+[MG] pages p99.9 [0-9.]+ (ns|us|ms|s)'" \
    "$tmp/both/gnuplot/tail-hist-compare.gp"
check "side by side: one table, the host's L1 row beside the simulated one" sh -c \
    "grep -A1 '^| L1 | simulated: run 0001 | 16K, 1G pages |' '$tmp/both/report.md' |
     grep -qE '^\| L1 \| host: run 0001 \| [0-9]+[KM], [0-9]+[MG] pages \|'"

# Columns read by name: one without p90_ns and stalls, one with page_bytes (4K and 1G rows).
drop=$tmp/drop
mkdir -p "$drop"
cp "$sim"/* "$drop/"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i != "p90_ns" && $i != "stalls") k[++n] = i }
    { s = $k[1]; for (j = 2; j <= n; j++) s = s OFS $k[j]; print s }' "$sim/tail.csv" >"$drop/tail.csv"
check "absent columns: report made" "$REPORT" --out "$tmp/r-drop" "$drop"
check "absent columns: shown as -" grep -qE '^\| DRAM \| 4M, 2M pages \| 16384 \| [0-9.]+ \| - \| .* \| - \|$' \
    "$tmp/r-drop/report.md"
# A run from before page_bytes (no page column, the largest size once): rows by size alone.
unpaged=$tmp/unpaged
mkdir -p "$unpaged"
cp "$sim"/* "$unpaged/"
for f in tail.csv tail.hist.csv tail.samples.csv; do
    awk -F, -v OFS=, 'NR > 1 && $1 == 4194304 && $2 == 4096 { next }
        { s = $1; for (i = 3; i <= NF; i++) s = s OFS $i; print s }' "$sim/$f" >"$unpaged/$f"
done
check "no page_bytes: report made" "$REPORT" --out "$tmp/r-unpaged" "$unpaged"
check "no page_bytes: rows by size alone, a DRAM 4M row" grep -q '^| DRAM | 4M | 16384 |' \
    "$tmp/r-unpaged/report.md"
check "no page_bytes: no page walk line" sh -c "! grep -q '^Page walks' '$tmp/r-unpaged/report.md'"
check "no page_bytes: verdicts.tail.percentiles without page_bytes" test "$("$REPORT" --json \
    "$unpaged" 2>/dev/null | jq -c '[.verdicts.tail.percentiles[] | has("page_bytes")] | unique')" = "[false]"
check "no page_bytes: beside a run with pages, its DRAM row matched to that run's first" sh -c \
    "'$REPORT' --out '$tmp/r-pair' '$unpaged' '$sim' && grep -A1 '^| DRAM | simulated: run unpaged | 4M |' \
    '$tmp/r-pair/report.md' | grep -q '^| DRAM | simulated: run 0001 | 4M, 4K pages |'"
# Damaged side files: bins out of order, counts not numbers or negative, a short row, a samples
# file with other columns: the report is still made, the bad rows left out.
bad=$tmp/bad
mkdir -p "$bad"
cp "$sim"/* "$bad/"
printf 'size_bytes,bin_low_ns,bin_high_ns,count\n16384,9,5,10\n16384,5,x,3\n16384,5,6,-4\n16384,5\n4194304,300,400,1e300\n' \
    >"$bad/tail.hist.csv"
printf 'size_bytes,rep,ns\n4194304,1,2\n' >"$bad/tail.samples.csv"
check "damaged side files: report made" "$REPORT" --out "$tmp/r-bad" "$bad"
check "damaged side files: the table still there" grep -q '^| DRAM | 4M, 2M pages | 16384 |' \
    "$tmp/r-bad/report.md"
check "damaged side files: no slow-batch plot from a samples file without its columns" \
    test ! -e "$tmp/r-bad/tail-slow.png"
finish
