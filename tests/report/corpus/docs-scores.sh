#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes docs/report-scores.md: the real curves' score and calibration tables (real-score.sh's
# lines through real-score.awk with md=1) with the date and commit they were scored at, so the
# scores in the docs are this script's output, never written by hand. DOC=FILE writes another
# file; REAL_CURVES=DIR and CHASE_REPORT=BIN pass on to real-score.sh.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
doc=${DOC:-$root/docs/report-scores.md}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
REAL_SCORED=$work/scored.tsv "$here/real-score.sh" >/dev/null
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo "an unknown commit")
{
    cat <<EOF
# chase-report's scores on real machines' curves

Written by \`tests/report/corpus/docs-scores.sh\` on $(date -u +%F) at $commit; do not edit by
hand, run the script again. \`make eval\` prints the same scores as text. The method (what a
level is, when it finds a true level, when it is invented) is in
\`tests/report/corpus/real-score.sh\` and \`tests/report/corpus/real-score.awk\` (tested by
\`tests/report/test_corpus_score.sh\`); the detector is described in [report.md](report.md).

The curves: the 86 published tinymembench curves of
\`tests/report/corpus/real-curves/\` (40 runs of real machines, the truth from the same logs;
their sources in its INDEX.md) and chase-host's runs in \`tests/report/corpus/real/\` (sizes
below 4M: a shared L3's share is unknown).

EOF
    awk -F'\t' -v md=1 -f "$here/real-score.awk" "$work/scored.tsv"
} >"$work/scores.md"
cp "$work/scores.md" "$doc"
