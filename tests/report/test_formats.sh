#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-report on each foreign format's sample (written for these tests from the latency
# model): recognised, analysed to the right levels, plotted; bad input is a clear error.
set -u
cd "$(dirname "$0")/../.."
. tests/report/lib.sh
tmp=$(fresh_dir formats)

# format FILE LEVELS PLOT: JSON with that many levels and a DRAM latency, the plot drawn and
# the report written.
format() {
    local name=$1 levels=$2 plot=$3 json="$tmp/$1.json"
    check "$name: --json succeeds" "$REPORT" --json "$DATA/$name.txt"
    "$REPORT" --json "$DATA/$name.txt" >"$json" 2>/dev/null
    check "$name: JSON is valid" json_valid "$json"
    check "$name: $levels levels detected" test "$(top_levels "$json")" = "$levels"
    check "$name: DRAM latency found" in_range "$(top_value "$json" dram_latency_ns)" 10 1000
    check "$name: report written" "$REPORT" --out "$tmp/$name" "$DATA/$name.txt"
    check "$name: report.md written" test -s "$tmp/$name/report.md"
    check "$name: $plot drawn" is_png "$tmp/$name/$plot"
}

format lat_mem_rd 3 lat_mem_rd.png
format random-chase 3 latency.png
format tinymembench 2 latency.png
format multichase 3 latency.png
check "lat_mem_rd: L2 of the sample near 256K" \
    in_range "$(level_value "$tmp/lat_mem_rd.json" 2 size_bytes)" 200000 330000
check "random-chase: L3 of the sample near 12M" \
    in_range "$(level_value "$tmp/random-chase.json" 3 size_bytes)" 10000000 16000000

# What a size means is said where it is shown (the summary, the table's note, the latency plot's
# caption where there is one): the step's middle (half its rise in ln), the effective size where
# it has made 30%, and on a sparse curve (one point per octave) the middle of the two measured
# sizes around it, all that is known there.
for name in tinymembench multichase; do
    check "$name: report.md says only the two sizes around each are known" \
        test "$(grep -c 'only the two sizes around it are known' "$tmp/$name/report.md")" -ge 3
done
for name in lat_mem_rd random-chase; do
    check "$name: report.md says its sizes are the step's middle" \
        test "$(grep -c "the step's middle, where latency has made 50% of its rise" \
            "$tmp/$name/report.md")" -ge 2
    check "$name: and its effective sizes where the step has made 30%" \
        grep -q 'the effective size is where it has made 30% of its rise' "$tmp/$name/report.md"
    check "$name: and does not call them sparse" \
        test "$(grep -c 'only the two sizes around it' "$tmp/$name/report.md")" = 0
done

# tinymembench reports time above an L1 hit; --l1-ns turns it into latency.
tiny="$tmp/tinymembench.json"
check "tinymembench: latencies marked as added to an L1 hit" \
    grep -q '^  "latency_reference": "added to an L1 hit"' "$tiny"
check "tinymembench: L1 at 0 ns above L1" in_range "$(level_value "$tiny" 1 latency_ns)" 0 0.05
check "tinymembench: 4K-page steps missing with huge pages are TLB steps" \
    test "$(grep -c '"penalty_ns"' "$tiny")" -ge 2
"$REPORT" --json --l1-ns 1.5 "$DATA/tinymembench.txt" >"$tmp/abs.json" 2>/dev/null
check "tinymembench --l1-ns: absolute latencies" grep -q '^  "latency_reference": "absolute"' "$tmp/abs.json"
check "tinymembench --l1-ns: L1 at 1.5 ns" in_range "$(level_value "$tmp/abs.json" 1 latency_ns)" 1.45 1.55

# A long input (400k points) is analysed and drawn in reasonable time.
awk 'BEGIN { for (s = 1; s <= 4; s++) { printf "\"stride=%d\n", 64 * s
    for (i = 0; i < 100000; i++) { x = 9 + 17 * i / 100000
        printf "%.5f %.3f\n", 2 ^ x / 1048576, 1 + (x > 15) * 3 + (x > 20) * 10 + (x > 24) * 80 }
    print "" } }' >"$tmp/long.txt"
check "a 400k-point lat_mem_rd output within 60 s" timeout 60 "$REPORT" --out "$tmp/long" "$tmp/long.txt"
"$REPORT" --json "$tmp/long.txt" >"$tmp/long.json" 2>/dev/null
check "the long input: three levels" test "$(top_levels "$tmp/long.json")" = 3

# Errors: unrecognised input gets one line naming each format tried and why; nothing crashes.
printf 'hello\nworld\n' >"$tmp/notes.txt"
: >"$tmp/empty.txt"
# 3000 bytes of noise, the same on every machine (Park and Miller's generator, seed 1; awk's own
# rand() differs between awks), written as octal escapes for printf.
printf "$(awk 'BEGIN { x = 1; for (i = 0; i < 3000; i++) { x = (x * 16807) % 2147483647
    printf "\\%03o", x % 256 } }')" >"$tmp/noise.bin"
for f in notes.txt empty.txt noise.bin; do
    "$REPORT" --json "$tmp/$f" >/dev/null 2>"$tmp/err"
    check "$f: refused with status 2" test $? = 2
    check "$f: one line naming each format tried" sh -c "test \$(wc -l <'$tmp/err') = 1 &&
        grep -q 'tried: .*tinymembench (no .*lat_mem_rd (no .*MemoryLatency (no ' '$tmp/err'"
done
"$REPORT" /nonexistent/run >/dev/null 2>&1
check "a missing input: status 2" test $? = 2
"$REPORT" --bogus "$DATA/multichase.txt" >/dev/null 2>&1
check "an unknown option: status 2" test $? = 2
"$REPORT" --l1-ns abc "$DATA/tinymembench.txt" >/dev/null 2>&1
check "--l1-ns with a bad number: status 2" test $? = 2
finish
