#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-report reads every real lat_mem_rd and MemoryLatency output of the real corpus
# (tests/report/corpus/real-curves-lmbench, -memorylatency and their -loaded twins): each file is
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
finish
