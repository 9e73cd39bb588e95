#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes docs/report-scores.md: the real curves' score and calibration tables (real-score.sh's
# lines through rule-score.awk, issue 51's rule with the `cache` levels' confidence bands, and
# real-score.awk, the older interval figures, with md=1) with the date and commit they were
# scored at, so the scores in the docs are this script's output, never written by hand. DOC=FILE writes another
# file; REAL_CURVES=DIR and CHASE_REPORT=BIN pass on to real-score.sh.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
calib=$(sed -n 's/^#define CALIBRATED_CONFIDENCE //p' "$root/kernel/analysis/detect_params.h")
doc=${DOC:-$root/docs/report-scores.md}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
REAL_SCORED=$work/scored.tsv "$here/real-score.sh" >/dev/null
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "an unknown commit")
{
    cat <<EOF
# chase-report's scores on real machines' curves

Written by \`tests/report/corpus/docs-scores.sh\` on $(date -u +%F) at $commit; do not edit by
hand, run the script again. \`make eval\` prints the same scores as text. The method is in
\`tests/report/corpus/real-score.sh\`, \`rule-score.awk\` and \`real-score.awk\` (tested by
\`tests/report/test_corpus_score.sh\`); the detector is described in [report.md](report.md).

The curves: the 86 published tinymembench curves of
\`tests/report/corpus/real-curves/\` (40 runs of real machines, the truth from the same logs;
their sources in its INDEX.md), those of any other format in a folder beside it named
\`real-curves-FORMAT\` (\`FORMAT-loaded\`: the same tool's curves of a busy machine, scored
apart; a row whose note says \`score below N\` is scored below N bytes only, as chase-host's runs
are), and chase-host's runs in
\`tests/report/corpus/real/\` (only sizes below each run's bound in its truth.tsv: a shared
L3's share is unknown).

## By the rule a user checks (issue 51)

A reported level is its \`size_bytes\`, the one size the console and report print. A true level
is found when a reported level lies within 1.5x of it, each reported level matching one true
level at most; found with any kind, and found with kind \`cache\`. A \`cache\` level left
unmatched is invented; an \`uncertain\` one left unmatched is counted apart; \`tlb\` levels count
neither way. \`tinymembench-all\` pools the two tinymembench formats (the tune set).

EOF
    awk -F'\t' -v md=1 -f "$here/rule-score.awk" "$work/scored.tsv"
    cat <<EOF

### Confidence, calibrated on these real curves

Per band of the confidence chase-report gives a \`cache\` level, how many such levels there
are and the share that are real (match a true level by the rule above). The confidence is
calibrated on the tinymembench tune set (\`tests/report/corpus/calibrate.sh\`): per band of a
level's evidence (what its step's rise gives, halved on doubt), the share of the tune set's
levels that were real, \`(real + 1) / (levels + 2)\`, made non-decreasing. By band of evidence,
0.0 to 0.9: $calib (\`CALIBRATED_CONFIDENCE\`).
The other formats' rows check it on curves it was not computed from.

EOF
    awk -F'\t' -v md=1 -v bands=1 -f "$here/rule-score.awk" "$work/scored.tsv" |
        awk '/^\| format \| confidence/ { f = 1 } f'
    cat <<EOF

## By the interval a level is reported in (the older figures)

A level is the interval of grid sizes it lies between (\`size_lo_bytes\`..\`size_hi_bytes\`); a
true level is found by the nearest unmatched level whose interval comes within 1.5x of it; a
level is invented when no true level is within 1.5x of its interval. These read higher than a
user's check of the one size printed.

EOF
    awk -F'\t' -v md=1 -f "$here/real-score.awk" "$work/scored.tsv"
} >"$work/scores.md"
cp "$work/scores.md" "$doc"
