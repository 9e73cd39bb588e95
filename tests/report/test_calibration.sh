#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The level confidence chase-report prints is calibrated on the real tune set: detect_params.h's
# CALIBRATED_CONFIDENCE is what tests/report/corpus/calibrate.sh computes from the tune set now
# (stale after a detector change until the line is pasted again), it rises with the evidence, and
# every cache or uncertain level of a real curve carries the table's entry for its band of
# evidence; a TLB step keeps its own. calibrate.sh's pooling on hand-made lines: a band that reads
# less real than the one below is pooled with it.
set -u
. "$(dirname "$0")/../lib.sh"
dir=$(fresh_dir calibration)
corpus=$ROOT/tests/report/corpus
report=$ROOT/build/chase-report

out=$("$corpus/calibrate.sh" --check 2>&1)
check "CALIBRATED_CONFIDENCE is the tune set's ($out)" test $? = 0
table=$(sed -n 's/^#define CALIBRATED_CONFIDENCE //p' "$ROOT/kernel/analysis/detect_params.h")
echo "$table" | tr -d '{} ' | tr ',' '\n' >"$dir/table"
check "the table has ten bands" test "$(wc -l <"$dir/table")" = 10
check "the table rises with the evidence, inside (0, 1)" awk 'NR > 1 && $1 < prev { exit 1 }
    $1 <= 0 || $1 >= 1 { exit 1 } { prev = $1 }' "$dir/table"

# Every counted level of the tune set's curves: confidence = table[band(evidence)].
for f in "$corpus"/real-curves/native/*Graviton2*.out "$corpus"/real-curves/native/*i7-1360P*.out \
    "$corpus"/real-curves/native/*Silvermont*.out; do
    "$report" --json "$f" | jq -r '.levels[] | select(.size_known) |
        "\(.kind) \(.confidence) \(.evidence)"'
done >"$dir/levels"
check "levels were read" test "$(wc -l <"$dir/levels")" -ge 20
bad=$(awk -v t="$(tr '\n' ' ' <"$dir/table")" 'BEGIN { split(t, c, " ") }
    $1 == "tlb" { next }
    { b = int($3 * 10); b = b > 9 ? 9 : b; if ($2 + 0 != c[b + 1] + 0) print }' "$dir/levels")
check "each level's confidence is its band's entry${bad:+ (not: $bad)}" test -z "$bad"
check "an uncertain level's evidence is at most 0.5 (below a cache's rise, or halved)" awk '
    $1 == "uncertain" && $3 > 0.5 { exit 1 }' "$dir/levels"

# The pooling, on a tune set of hand-written curves: band 0.9 four of four real, band 0.8 four
# of four, band 0.7 one of four: 2/6 and 5/6, rising, kept, and the empty bands below take 0.7's;
# swap 0.7 and 0.8 and they pool, 7/12.
T=$'\t'
mkdir -p "$dir/tune/native"
: >"$dir/tune/truth.tsv"
i=0
add() { # evidence real: one curve, one level, matched or not
    i=$((i + 1))
    printf 'c%d\t32768\n' "$i" >>"$dir/tune/truth.tsv"
    printf '{"levels":[{"size_known":true,"size_bytes":%s,"kind":"cache","evidence":%s}]}\n' \
        "$([ "$2" = 1 ] && echo 32768 || echo 4194304)" "$1" >"$dir/tune/native/c$i.out"
}
fake=$dir/fake-report
printf '#!/bin/sh\ncat "$2"\n' >"$fake"
chmod +x "$fake"
for k in 1 2 3 4; do add 0.95 1; add 0.85 1; done
add 0.75 1; add 0.75 0; add 0.75 0; add 0.75 0
got=$(CHASE_REPORT=$fake REAL_CURVES=$dir/tune "$corpus/calibrate.sh")
check "bands that rise are kept ($got)" test "$got" = \
    "{0.33, 0.33, 0.33, 0.33, 0.33, 0.33, 0.33, 0.33, 0.83, 0.83}"
: >"$dir/tune/truth.tsv"
rm -f "$dir/tune/native/"*
i=0
for k in 1 2 3 4; do add 0.95 1; add 0.75 1; done
add 0.85 1; add 0.85 0; add 0.85 0; add 0.85 0
got=$(CHASE_REPORT=$fake REAL_CURVES=$dir/tune "$corpus/calibrate.sh")
check "a band less real than the one below is pooled with it ($got)" test "$got" = \
    "{0.58, 0.58, 0.58, 0.58, 0.58, 0.58, 0.58, 0.58, 0.58, 0.83}"
finish
