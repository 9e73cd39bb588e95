#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Scores chase-report's level detection on real machines' curves: the published tinymembench
# curves of tests/report/corpus/real-curves (their sources in its INDEX.md; REAL_CURVES=DIR
# scores another copy, skipped with a line when it has no truth.tsv), every other real corpus
# folder tests/report/corpus/real-curves-<format>/ (format from the folder's name, truth.tsv
# name<TAB>sizes in bytes[<TAB>note], the curve as native/<name> or native/<name>.*; a note
# "score below N" leaves sizes from N bytes up unscored, as chase-host's bound), and
# chase-host's own runs in tests/report/corpus/real. First by issue 51's rule (rule-score.awk:
# a level is its size_bytes, found within 1.5x, each level matching one true level at most; per
# format found with any kind, found as `cache`, `cache` invented and `uncertain` unmatched per 10
# curves; lines "rule:"; REAL_BANDS=1 adds the `cache` levels' confidence bands); then, labelled
# "real:", the older interval figures: a level is the interval of sizes it is reported in
# (size_lo_bytes..size_hi_bytes), a true level found by the nearest unmatched level whose
# interval comes within 1.5x of it, invented when no true level is within 1.5x of the interval.
# REAL_SCORED=FILE keeps the per-curve lines. Exit 0 always: this measures.
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
# The other formats' real corpora: one folder each, scored the same way.
for dir in "$here"/real-curves-*/; do
    [ -f "$dir/truth.tsv" ] || continue
    fmt=$(basename "$dir"); fmt=${fmt#real-curves-}
    grep -v '^#' "$dir/truth.tsv" | while IFS=$'\t' read -r name truth note; do
        [ -n "$name" ] || continue
        file=$dir/native/$name
        [ -f "$file" ] || file=$(ls "$dir/native/$name".* 2>/dev/null | head -n 1)
        # "score below N" in the note: a last cache shared with other guests, whose share the
        # guest cannot know; true and reported sizes from N up are left out, as for chase-host.
        bound=0
        [[ $note =~ ^score\ below\ ([0-9]+) ]] && bound=${BASH_REMATCH[1]}
        got=$("$report" --json "$file" 2>/dev/null |
            jq -r --argjson b "$bound" "[.levels[] | select(\$b == 0 or .size_bytes < \$b)] |
                {levels: .} | $levels") || got=ERROR
        [ "$bound" = 0 ] || truth=$(printf '%s\n' $truth | awk -v b="$bound" '$1 < b' | xargs)
        printf '%s\t%s\t%s\t%s\n' "$fmt" "${truth// /,}" "$got" "$name"
    done >>"$work/scored.tsv"
done
# chase-host's runs: only sizes below the bound the truth gives (a shared L3's share is unknown).
grep -v '^#' "$here/real/truth.tsv" | while IFS=$'\t' read -r dir truth bound _; do
    got=$("$report" --json "$here/real/$dir" 2>/dev/null |
        jq -r --argjson b "$bound" "[.levels[] | select(.size_known and .size_bytes < \$b) |
            \"\(.size_bytes):\(.kind):\(.confidence):\(.size_lo_bytes):\(.size_hi_bytes)\"] |
            join(\",\")") || got=ERROR
    printf 'chase-host\t%s\t%s\t%s\n' "$truth" "$got" "$dir"
done >>"$work/scored.tsv"
[ -z "${REAL_SCORED:-}" ] || cp "$work/scored.tsv" "$REAL_SCORED"
awk -F'\t' -v bands="${REAL_BANDS:-0}" -f "$here/rule-score.awk" "$work/scored.tsv"
awk -F'\t' -f "$here/real-score.awk" "$work/scored.tsv" | sort
