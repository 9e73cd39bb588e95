#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-host runs the random experiment as a pinned Linux process and writes the same folder
# format as chase.efi (timings are not judged: this checks behaviour, files and formats).
set -u
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/lib_run.sh"

out=$(fresh_dir host-random)
"$ROOT/build/chase-host" --out "$out" profile=quick experiments=random >"$TEST_TMP/host-random.log" 2>&1
rc=$?
check "chase-host exits 0" test "$rc" = 0
dir="$out/0001"
check "chase-host made run folder 0001" test -d "$dir"
validate_run_json "$dir"
check "run.json says linux, TSC against CLOCK_MONOTONIC_RAW, page size obtained" \
    json_true "$dir/run.json" '.platform=="linux" and .tsc.method=="clock_monotonic_raw"
        and (.buffer.page_size_bytes>0) and (.buffer.page_source|length>0)'
check "run.json has the core-clock estimate and timer overhead" json_true "$dir/run.json" \
    '.core_clock.core_per_tsc>0 and .core_clock.method=="dependent add chain" and .tsc.overhead_ticks>0
     and (.tsc.sources[0].calibrations_hz|length)==5'
validate_random "$dir"
check "console.txt matches what chase-host printed" grep -qF "$(sed -n 2p "$dir/console.txt")" \
    "$TEST_TMP/host-random.log"

# Interleaved passes: the same files, one row per point in size order, every point measured in
# two passes at least, the same chains (checksums) as the one-pass run, a clock per repetition.
passes=$(fresh_dir host-passes)
"$ROOT/build/chase-host" --out "$passes" profile=quick experiments=random passes=3 \
    >"$TEST_TMP/host-passes.log" 2>&1
check "chase-host passes=3 exits 0" test "$?" = 0
dir="$passes/0001"
validate_random "$dir"
# (a point whose rebuild and warm-up cost over 30% of a slice takes one visit: passes 1)
check "passes=3: rows in size order, points up to 64K in 2 or 3 passes, others 1 to 3" awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $1 <= last || $c["passes"] < ($1 <= 65536 ? 2 : 1) || $c["passes"] > 3 { bad = 1 }
    { last = $1 } END { exit bad || NR < 3 }' "$dir/random.csv"
check "passes=3 chased the same chains as one pass (chain_checksum)" test \
    "$(cut -d, -f7 "$dir/random.csv")" = "$(cut -d, -f7 "$out/0001/random.csv")"
check "every point has the headline, per-repetition cycles and a clock per repetition" awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    !($c["ns"] > 0 && $c["ns"] <= $c["ns_p90"] + 1e-9 && $c["core_cycles"] > 0 &&
      $c["core_cycles_min"] <= $c["core_cycles_median"] && $c["clock"] == "adds" &&
      $c["disturbed"] ~ /^(tail|modes|drift|\+)*$/) { bad = 1 } END { exit bad }' \
    "$dir/random.csv"
check "the samples give each repetition's own clock" awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } !($c["core_per_tsc"] > 0) { bad = 1 }
    END { exit bad }' "$dir/random.samples.csv"
check "the samples give how far each repetition's two clock estimates lie apart" awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    !($c["clock_pair_pct"] ~ /^[0-9]+\.[0-9]+$/ && $c["clock_pair_pct"] < 100) { bad = 1 }
    END { exit bad }' "$dir/random.samples.csv"
dir="$out/0001"

"$ROOT/build/chase-host" --out "$out" profile=quick experiments=random random.max=16K >/dev/null 2>&1
check "a second run gets folder 0002 and leaves 0001 alone" \
    test -d "$out/0002" -a "$(csv_rows "$dir/random.csv")" -gt 5

"$ROOT/build/chase-host" --out "$out" profile=quick random.mxa=1M >"$TEST_TMP/host-bad.log" 2>&1
rc=$?
check "an unknown key stops chase-host with status 2" test "$rc" = 2
check "the error names the key and suggests the right one" \
    grep -q "load options:2: unknown key 'random.mxa' (did you mean 'random.max'?)" \
    "$TEST_TMP/host-bad.log"
check "the bad run wrote errors.txt and status config_error, no experiment files" \
    sh -c "test -s '$out/0003/errors.txt' && ! test -e '$out/0003/random.csv' &&
           jq -e '.status==\"config_error\"' '$out/0003/run.json'"
