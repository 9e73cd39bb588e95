#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# One interpretation: for a chase-host quick run and chase-sim quick runs of three presets, the
# console's summary (console.txt), report.md's Summary block and chase-report --json agree on
# the levels, the DRAM latency and every verdict. Timings are never judged.
set -u
. "$(dirname "$0")/../qemu/lib.sh"

host="$ROOT/build/chase-host"
sim="$ROOT/build/chase-sim"
report="$ROOT/build/chase-report"
work="$TEST_TMP/summary-agree"
rm -rf "$work"
mkdir -p "$work"

# The console's summary block: after "== summary", up to the hypervisor note or "results:".
console_block() {
    awk '/^== summary$/ { f = 1; next } f && /^(note|results): / { exit } f' "$1/console.txt"
}

# report.md's Summary block: the fenced text after "#### Summary".
report_block() {
    awk '/^#### Summary$/ { f = 1; next } f && /^```$/ { if (in_block) exit; in_block = 1; next }
         in_block' "$1/report.md"
}

# agree NAME DIR: the three views of the run in DIR say the same.
agree() {
    local name=$1 dir=$2 out="$work/$1"
    console_block "$dir" >"$out.console"
    check "$name: the console printed a summary with levels and verdicts" sh -c "
        grep -q '^levels of ' '$out.console' && grep -q '^DRAM latency: ' '$out.console' &&
        test \$(grep -c '^[a-z0-9_]*: ' '$out.console') -ge 9"
    "$report" --out "$out.report" "$dir" >"$out.log" 2>&1
    check "$name: chase-report writes report.md" test -s "$out.report/report.md"
    report_block "$out.report" >"$out.md"
    check "$name: report.md's Summary is the console's, line for line" cmp -s "$out.console" "$out.md"
    "$report" --json "$dir" >"$out.json" 2>/dev/null
    jq -r '.summary' "$out.json" | sed '${/^$/d}' >"$out.jsum"
    check "$name: --json's summary is the console's" cmp -s "$out.console" "$out.jsum"
    check "$name: --json's levels are the console's (count, size, ns)" levels_agree "$out"
    check "$name: --json's DRAM latency is the console's" dram_agrees "$out"
    check "$name: every --json verdict is a console line" verdicts_agree "$out"
}

# The rows "L<n>|TLB size ns cycles" of the console block against .levels of the JSON (a TLB
# step is a row of both).
levels_agree() {
    local rows
    rows=$(awk '$1 ~ /^(L[0-9]+|TLB)$/ { print $3 }' "$1.console")
    test "$(echo "$rows" | grep -c .)" = "$(jq '.levels | length' "$1.json")" || return 1
    test "$(echo "$rows" | grep -c .)" -ge 1 || return 1
    paste <(echo "$rows") <(jq -r '.levels[].latency_ns' "$1.json") |
        awk '{ d = $1 - $2; if (d < 0) d = -d; if (d > 0.006) bad = 1 } END { exit bad }'
}

dram_agrees() {
    local j
    j=$(jq -r '.dram_latency_ns // "null"' "$1.json")
    if [ "$j" = null ]; then
        grep -q '^DRAM latency: not reached' "$1.console"
    else
        local c
        c=$(sed -n 's/^DRAM latency: \(at least \)\{0,1\}\([0-9.]*\) ns.*/\2/p' "$1.console")
        [ -n "$c" ] && awk -v a="$c" -v b="$j" 'BEGIN { d = a - b; exit !(d < 0.051 && d > -0.051) }'
    fi
}

verdicts_agree() {
    local n=0 key line
    while IFS=$'\t' read -r key line; do
        grep -qxF "$key: $line" "$1.console" || return 1
        n=$((n + 1))
    done < <(jq -r '.verdicts | to_entries[] | [.key, .value.verdict] | @tsv' "$1.json")
    test "$n" -ge 9 && test "$n" = "$(grep -c '^[a-z0-9_]*: ' "$1.console")"
}

"$host" --out "$work/host" profile=quick seed=7 >"$work/host.log" 2>&1
check "chase-host quick run exits 0" test $? = 0
agree host "$work/host/0001"

for preset in ivybridge skylake epyc-zen4; do
    "$sim" --hierarchy "$preset" --out "$work/sim-$preset" profile=quick seed=7 \
        >"$work/sim-$preset.log" 2>&1
    check "chase-sim $preset quick run exits 0" test $? = 0
    agree "sim-$preset" "$work/sim-$preset/0001"
done
