#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-report reads every real lat_mem_rd, MemoryLatency and ramlat output of the real corpus
# (tests/report/corpus/real-curves-lmbench, -memorylatency, their -loaded twins, -ramlat) and a
# whole sbc-bench log (real-logs): each file is
# taken by its reader, as many curves as the file has blocks or runs, and every data row becomes
# a point (counted here by a pattern independent of the readers). How well levels are found is
# make eval's business.
set -u
. "$(dirname "$0")/lib.sh"
corpus=$ROOT/tests/report/corpus
dir=$(fresh_dir real-readers)

# read_all FOLDER FORMAT ROW_PATTERN BLOCK_PATTERN: every truth.tsv row's native file.
read_all() {
    local folder=$corpus/$1 format=$2 row=$3 block=$4 name files=0
    while IFS=$'\t' read -r name _; do
        local f=$folder/native/$name.out j=$dir/$name.json
        files=$((files + 1))
        "$REPORT" --json "$f" >"$j" 2>"$dir/$name.err"
        check "$name: read (status 0)" test $? = 0
        check "$name: read as $format" test "$(jq -r '.sources[0].format' "$j")" = "$format"
        local rows blocks points curves
        rows=$(grep -c -E "$row" "$f")
        blocks=$(grep -c -E "$block" "$f")
        [ "$blocks" -gt 0 ] || blocks=1
        points=$(jq '[.sources[0].curves[].points] | add' "$j")
        curves=$(jq '.sources[0].curves | length' "$j")
        check "$name: all $rows data rows are points (got $points)" test "$points" = "$rows"
        check "$name: $blocks curves (got $curves)" test "$curves" = "$blocks"
    done <"$folder/truth.tsv"
    check "$1: curves to read" test "$files" -gt 0
}

# lat_mem_rd: "MiB ns" rows, a curve per "stride=N block.
for folder in real-curves-lmbench real-curves-lmbench-loaded; do
    read_all $folder "lmbench lat_mem_rd" '^[0-9]+\.[0-9]+ [0-9]+\.[0-9]+$' '^"?stride='
done
# MemoryLatency: "KB,ns" rows, a curve per run's header (concatenated -sizekb runs: one).
for folder in real-curves-memorylatency real-curves-memorylatency-loaded; do
    read_all $folder MemoryLatency '^[0-9]+,[0-9]+\.[0-9]+$' '^Region,Latency'
done

# A published run: the primary curve is the run's, with 4K pages as MemoryLatency uses by default.
j=$dir/published_Core-Ultra7-265K_Skymont-core12.json
check "published MemoryLatency: its curve speaks for it" \
    test "$(jq -r '.sources[0].curve' "$j")" = "MemoryLatency C"

# ramlat tables as sbc-bench printed them (real-curves-ramlat): read as ramlat, the 1xPTR column
# the levels curve with a point per "Nk:" row, labelled with the cpu of the Executing line.
n=0
while IFS=$'\t' read -r name _; do
    f=$corpus/real-curves-ramlat/native/$name.out j=$dir/$name.json
    n=$((n + 1))
    "$REPORT" --json "$f" >"$j" 2>"$dir/$name.err" || { check "$name: read" false; continue; }
    cpu=$(sed -n 's/^ *Executing ramlat on \(cpu[0-9]*\).*/\1/p' "$f")
    core=$(sed -n 's/^ *Executing ramlat on cpu[0-9]* (\([^)]*\)).*/\1/p' "$f")
    label="$cpu${core:+ (${core:0:16})} ramlat 1xPTR" # a core name is cut to 16 characters
    rows=$(grep -c -E '^ +[0-9]+k: ' "$f")
    got=$(jq -r '.sources[0] | "\(.format)|\(.curve)|\([.curves[].points] | add)"' "$j")
    check "$name: ramlat, '$label', $rows points" test "$got" = "ramlat|$label|$rows"
done <"$corpus/real-curves-ramlat/truth.tsv"
check "real-curves-ramlat: 37 tables read" test "$n" = 37

# A whole sbc-bench log (real-logs/sbc-bench-4ozG.txt, RK3399): every tinymembench and ramlat
# table, each labelled with its cpu; the rows counted by pattern.
log=$corpus/real-logs/sbc-bench-4ozG.txt j=$dir/sbc-bench.json
"$REPORT" --json "$log" >"$j" 2>"$dir/sbc-bench.err"
check "sbc-bench log: read (status 0)" test $? = 0
check "sbc-bench log: read as sbc-bench, the machine from its first line" test \
    "$(jq -r '.sources[0] | "\(.format)|\(.machine)"' "$j")" = \
    "sbc-bench|Radxa ROCK Pi 4B review (sbc-bench v0.9.24)"
want="cpu0 (Cortex-A53) single random read, no huge pages|17
cpu0 (Cortex-A53) single random read, huge pages|17
cpu4 (Cortex-A72) single random read, no huge pages|17
cpu4 (Cortex-A72) single random read, huge pages|17
cpu0 (Cortex-A53) ramlat 1xPTR|13
cpu4 (Cortex-A72) ramlat 1xPTR|13"
check "sbc-bench log: six levels curves, each labelled with its cpu" \
    test "$(jq -r '.sources[0].curves[] | "\(.label)|\(.points)"' "$j")" = "$want"
check "sbc-bench log: every tinymembench and ramlat row is a point" test \
    "$(jq '[.sources[0].curves[].points] | add' "$j")" = \
    "$(grep -c -E '^ +[0-9]+ : +[0-9.]+ ns|^ +[0-9]+k: ' "$log")"
check "sbc-bench log: cpu0's huge-page table speaks for it" \
    test "$(jq -r '.sources[0].curve' "$j")" = "cpu0 (Cortex-A53) single random read, huge pages"
# Its plot holds tinymembench's times added to an L1 hit beside ramlat's whole latencies.
"$REPORT" --out "$dir/sbc-bench" "$log" >/dev/null 2>&1
check "sbc-bench log: the latency plot drawn" is_png "$dir/sbc-bench/latency.png"
check "sbc-bench log: its axis says which curves are times added to an L1 hit" \
    grep -q "ylabel 'ns (tinymembench curves: added to an L1 hit)'" "$dir/sbc-bench/gnuplot/latency.gp"
# 24 curves do not fit gnuplot's 8 colours: the six levels curves alone, and the caption says so.
check "sbc-bench log: the plot draws its six levels curves, not the 18 plotted-only ones" test \
    "$(grep -c -E "title 'cpu[04] \(Cortex-A(53|72)\) (single random read|ramlat 1xPTR)" \
        "$dir/sbc-bench/gnuplot/latency.gp"):$(grep -c -E "dual random read|ramlat [248]x|ramlat 1x(32|64)" \
        "$dir/sbc-bench/gnuplot/latency.gp")" = "6:0"
check "sbc-bench log: the caption says 18 curves are not drawn" \
    grep -q "Not drawn: 18 of the input's curves" "$dir/sbc-bench/report.md"
# Each cpu's 4K-page curve is held against its own huge-page curve, not against cpu0's: the
# A72's L2 (1M) is no TLB step of +137 ns against the A53's smaller L2.
check "sbc-bench log: cpu4's 4K-page curve keeps its L2, and no TLB step" grep -q -F \
    "| cpu4 (Cortex-A72) single random read, no huge pages | 45.3K @ 0.00, 1.41M @ 11.00 | 148.3 | 0 |" \
    "$dir/sbc-bench/report.md"
check "sbc-bench log: no TLB step across cpus" test "$(grep -c 'TLB step in' "$dir/sbc-bench/report.md")" = 0
finish
