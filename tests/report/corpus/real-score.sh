#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Scores chase-report's level detection on real machines' curves: the published tinymembench
# curves of tests/report/corpus/real-curves (their sources in its INDEX.md; REAL_CURVES=DIR
# scores another copy, skipped with a line when it has no truth.tsv) and chase-host's own runs
# in tests/report/corpus/real. Per format (tinymembench, tinymembench
# with huge pages, chase-host): curves, true levels, the share of true levels found, the `cache`
# levels invented per 10 curves, the `uncertain` or `tlb` levels invented per 10 curves, and the
# share of `cache` levels that are real. A level is the interval of sizes it is reported in
# (size_lo_bytes..size_hi_bytes, or its size_bytes alone where the JSON has no interval); a
# true level is found by the nearest unmatched level whose interval comes within 1.5x of it, each
# level finding at most one; a level that finds none and has no true level within 1.5x is
# invented. REAL_SCORED=FILE keeps the per-curve lines. Exit 0 always: this measures.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
report=${CHASE_REPORT:-$root/build/chase-report}
real=${REAL_CURVES:-$here/real-curves}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One line per curve: format, true sizes, detected size:kind:confidence (comma-separated), name.
levels='[.levels[] | select(.size_known) |
    "\(.size_bytes):\(.kind):\(.confidence):\(.size_lo_bytes):\(.size_hi_bytes)"] | join(",")'
if [ -f "$real/truth.tsv" ]; then
    while IFS=$'\t' read -r name truth _; do
        fmt=tinymembench
        [[ $name == *_hugepage ]] && fmt=tinymembench-huge
        got=$("$report" --json "$real/native/$name.out" 2>/dev/null | jq -r "$levels") || got=ERROR
        printf '%s\t%s\t%s\t%s\n' "$fmt" "${truth// /,}" "$got" "$name"
    done <"$real/truth.tsv" >>"$work/scored.tsv"
else
    echo "real-score: no $real/truth.tsv: published curves not scored"
fi
# chase-host's runs: only sizes below the bound the truth gives (a shared L3's share is unknown).
grep -v '^#' "$here/real/truth.tsv" | while IFS=$'\t' read -r dir truth bound _; do
    got=$("$report" --json "$here/real/$dir" 2>/dev/null |
        jq -r --argjson b "$bound" "[.levels[] | select(.size_known and .size_bytes < \$b) |
            \"\(.size_bytes):\(.kind):\(.confidence):\(.size_lo_bytes):\(.size_hi_bytes)\"] |
            join(\",\")") || got=ERROR
    printf 'chase-host\t%s\t%s\t%s\n' "$truth" "$got" "$dir"
done >>"$work/scored.tsv"
[ -z "${REAL_SCORED:-}" ] || cp "$work/scored.tsv" "$REAL_SCORED"
awk -F'\t' -f "$here/real-score.awk" "$work/scored.tsv" | sort
