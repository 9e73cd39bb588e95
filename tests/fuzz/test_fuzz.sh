#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run each libFuzzer target: replay its past findings (regressions) and its seed corpus, then
# fuzz from the corpus.
# - In make test (FUZZ_SECONDS unset): a fixed seed and a fixed number of runs (FUZZ_SEED,
#   FUZZ_RUNS), so every machine tries the same inputs and the same commit gives the same result.
# - In make fuzz (FUZZ_SECONDS set): exploration for that many seconds per target, from a seed
#   drawn by libFuzzer (printed, so a finding can be replayed); new findings are caught here.
# Usage: test_fuzz.sh [FUZZER...]  (default: $FUZZ_BINS)
set -u
. "$(dirname "$0")/../lib.sh"
bins=("$@")
[ ${#bins[@]} -gt 0 ] || read -r -a bins <<<"${FUZZ_BINS:-}"
[ ${#bins[@]} -gt 0 ] || { echo "not ok - no fuzzers given"; exit 1; }
# 2000 runs take 2 to 40 s a target on 2 cores (ASan and UBSan on): the bounded run of make test.
seed=${FUZZ_SEED:-1}
runs=${FUZZ_RUNS:-2000}
# With a fixed seed, what libFuzzer keeps still depends on where memory lands (some code paths
# under test follow the addresses ASan hands out) and on the clock (-reload): the fixed runs go
# without address randomisation (setarch -R) and without reloading, which makes them repeat
# input for input (the corpus digest printed is the same from run to run).
# A hang is what -timeout is for: the slowest inputs found so far (a run.json with three 14-point
# ramps) take about 1 s of CPU under the sanitizers and 5 s of wall time on 2 busy cores, so the
# limit leaves room for a shared machine and still ends a loop that does not.
timeout_s=30
fixed=(env)
setarch -R true 2>/dev/null && fixed=(setarch -R)

for bin in "${bins[@]}"; do
    name=$(basename "$bin")
    work=$(fresh_dir "$name")
    mkdir -p "$work/corpus" "$work/artifacts"
    cp "$ROOT/tests/fuzz/corpus/$name/"* "$work/corpus/" 2>/dev/null
    regressions=("$ROOT/tests/fuzz/regressions/$name/"*)
    if [ -e "${regressions[0]}" ]; then
        if "$bin" "${regressions[@]}" >"$work/regressions.log" 2>&1; then
            echo "ok - $name: every past finding (${#regressions[@]}) runs clean"
        else
            echo "not ok - $name: a past finding fails again (log: $work/regressions.log)"
            grep -E 'ERROR|runtime error|SUMMARY' "$work/regressions.log" | head -n 5 | sed 's/^/#   /'
        fi
    fi
    if [ -n "${FUZZ_SECONDS:-}" ]; then
        how="for ${FUZZ_SECONDS} s"
        launch=(env)
        limits=(-max_total_time="$FUZZ_SECONDS")
    else
        how="with -seed=$seed -runs=$runs"
        launch=("${fixed[@]}")
        limits=(-seed="$seed" -runs="$runs" -reload=0)
    fi
    "${launch[@]}" "$bin" "${limits[@]}" -timeout="$timeout_s" -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/fuzz.log" 2>&1
    rc=$?
    executed=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log")
    drawn=$(sed -n 's/.*Seed: \([0-9]*\).*/\1/p' "$work/fuzz.log" | head -n 1)
    if [ -n "${FUZZ_SECONDS:-}" ]; then
        how="$how from seed ${drawn:-?}"
    else
        how="$how (corpus $(ls "$work/corpus" | wc -l) inputs, digest $(ls "$work/corpus" |
            md5sum | cut -c1-8))"
    fi
    if [ "$rc" = 0 ] && [ -z "$(ls -A "$work/artifacts")" ]; then
        echo "ok - $name: ${executed:-?} inputs $how, no crash, hang or sanitizer report"
    else
        echo "not ok - $name: a finding $how in $work/artifacts (log: $work/fuzz.log);" \
            "add it to tests/fuzz/regressions/$name/ once fixed"
        grep -E 'ERROR|runtime error|SUMMARY|timeout' "$work/fuzz.log" | head -n 5 | sed 's/^/#   /'
    fi
done
