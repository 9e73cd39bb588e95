#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Calibrates the confidence chase-report gives a level on real curves: for the 86 published
# tinymembench curves of the tune set (tests/report/corpus/real-curves; REAL_CURVES=DIR another
# copy), each reported cache or uncertain level's evidence (chase-report --json's "evidence", the
# confidence its step gives before calibration) and whether it was real by issue 51's rule
# (rule-score.awk: matched a true level within 1.5x); per band of evidence (ten of 0.1) the share
# real, (real + 1) / (levels + 2), made non-decreasing by pooling neighbours (pool adjacent
# violators, each band weighted by levels + 2; a band without levels takes the one below's). Prints the table as
# kernel/analysis/detect_params.h's CALIBRATED_CONFIDENCE; with --check, compares it with the
# header's and exits 1 when they differ (the detector changed: run this and paste the line).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
report=${CHASE_REPORT:-$root/build/chase-report}
real=${REAL_CURVES:-$here/real-curves}
header=$root/kernel/analysis/detect_params.h
[ -f "$real/truth.tsv" ] || { echo "calibrate: no $real/truth.tsv" >&2; exit 2; }
work=$(mktemp)
trap 'rm -f "$work"' EXIT
levels='[.levels[] | select(.size_known) | "\(.size_bytes):\(.kind):\(.evidence // "nan")"]
    | join(",")'
while IFS=$'\t' read -r name truth _; do
    got=$("$report" --json "$real/native/$name.out" | jq -r "$levels")
    printf 'tinymembench\t%s\t%s\t%s\n' "${truth// /,}" "$got" "$name"
done <"$real/truth.tsv" >"$work"
table=$(awk -F'\t' -v per_level=1 -f "$here/rule-score.awk" "$work" |
    awk -F'\t' -v nb=10 '
    $3 != "nan" { b = int($3 * nb); b = b < 0 ? 0 : b >= nb ? nb - 1 : b; n[b]++; r[b] += $4 }
    END {
        # Pool adjacent violators: a stack of blocks, each band with levels a block of weight
        # levels + 2; a band without levels takes the value of the block below it (the first
        # block reaches down to band 0), so that it neither votes nor pulls its neighbours.
        k = 0
        for (b = 0; b < nb; b++) {
            if (!n[b]) continue
            k++; num[k] = r[b] + 1; den[k] = n[b] + 2; first[k] = k == 1 ? 0 : b
            while (k > 1 && num[k - 1] / den[k - 1] > num[k] / den[k]) {
                num[k - 1] += num[k]; den[k - 1] += den[k]; k--
            }
        }
        line = "{"
        for (j = 1; j <= k; j++) {
            last = j < k ? first[j + 1] - 1 : nb - 1
            for (b = first[j]; b <= last; b++)
                line = line sprintf("%s%.2f", b ? ", " : "", num[j] / den[j])
        }
        print line "}"
    }')
if [ "${1:-}" = --check ]; then
    have=$(sed -n 's/^#define CALIBRATED_CONFIDENCE //p' "$header")
    if [ "$have" != "$table" ]; then
        echo "calibrate: detect_params.h has $have, the tune set gives $table" >&2
        exit 1
    fi
    echo "calibrate: CALIBRATED_CONFIDENCE $table is the tune set's"
else
    echo "$table"
fi
