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
