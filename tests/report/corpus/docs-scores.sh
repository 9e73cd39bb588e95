#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes the real curves' score and calibration tables (real-score.sh's lines, real-score.awk
# with md=1) into docs/report.md between its "real-score tables" markers, with today's date:
# the tables in the docs are this script's output, not written by hand. DOC=FILE writes another
# file. Exit 1 when the markers are missing.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
doc=${DOC:-$root/docs/report.md}
begin='<!-- real-score tables: written by tests/report/corpus/docs-scores.sh -->'
end='<!-- real-score tables end -->'
grep -qxF "$begin" "$doc" && grep -qxF "$end" "$doc" || {
    echo "docs-scores: $doc lacks the markers" >&2
    exit 1
}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
REAL_SCORED=$work/scored.tsv "$here/real-score.sh" >/dev/null
{
    echo "Scored $(date -u +%F) by \`tests/report/corpus/real-score.sh\` at $(git -C "$root" \
        rev-parse --short HEAD 2>/dev/null || echo "an unknown commit"):"
    echo
    awk -F'\t' -v md=1 -f "$here/real-score.awk" "$work/scored.tsv"
} >"$work/tables.md"
awk -v b="$begin" -v e="$end" -v t="$work/tables.md" '
    $0 == b { print; while ((getline l < t) > 0) print l; skip = 1; next }
    $0 == e { skip = 0 }
    !skip' "$doc" >"$work/doc.md"
cp "$work/doc.md" "$doc"
