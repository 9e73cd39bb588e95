#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run each libFuzzer target: replay its past findings (regressions), then fuzz from its seed
# corpus for FUZZ_SECONDS each (make fuzz: 600), or by default a one-minute budget shared by
# the targets (the bounded run of make test), at least 15 s each.
# Usage: test_fuzz.sh [FUZZER...]  (default: $FUZZ_BINS)
set -u
. "$(dirname "$0")/../lib.sh"
bins=("$@")
[ ${#bins[@]} -gt 0 ] || read -r -a bins <<<"${FUZZ_BINS:-}"
[ ${#bins[@]} -gt 0 ] || { echo "not ok - no fuzzers given"; exit 1; }
seconds=${FUZZ_SECONDS:-$((60 / ${#bins[@]}))}
[ "$seconds" -ge 15 ] || seconds=15

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
    "$bin" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/fuzz.log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/fuzz.log")
    if [ "$rc" = 0 ] && [ -z "$(ls -A "$work/artifacts")" ]; then
        echo "ok - $name: ${runs:-?} inputs in ${seconds} s, no crash, hang or sanitizer report"
    else
        echo "not ok - $name: a finding in $work/artifacts (log: $work/fuzz.log);" \
            "add it to tests/fuzz/regressions/$name/ once fixed"
        grep -E 'ERROR|runtime error|SUMMARY|timeout' "$work/fuzz.log" | head -n 5 | sed 's/^/#   /'
    fi
done
