#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make eval's scorer (tests/report/corpus/score.awk) on hand-written per-curve lines: what is
# found, what is invented, and what a TLB reach or a level beyond the curve's end excuses; the
# corpus' wild points (gen.sh's CORPUS_NO_WILD and CORPUS_WILD_LOG) and wildclass.awk; the
# real curves' scorer (real-score.awk): intervals, one true level per level, kinds.
set -u
. "$(dirname "$0")/../lib.sh"
dir=$(fresh_dir corpus-score)
score() { awk -F'\t' -v part=t -f "$ROOT/tests/report/corpus/score.awk" "$dir/$1"; }
# "fmt curves levels found% invented per10" of format $2 in file $1
row() { score "$1" | awk -v f="$2" '$3 == f { print $4, $5, $6, $7 }'; }
T=$'\t'
# Truth 32K, 1M. Found: 40K (1.25x) and 1.4M (1.37x); 2M is 2x from 1M: invented.
printf 'a%s32768,1048576%s40960:cache,1468006:cache,2097152:cache%s%s\n' "$T" "$T" "$T" "$T" >"$dir/found"
check "levels within 1.5x are found, one 2x off is invented" test "$(row found a)" = "1 2 100.0% 1"
# A level at the 256K reach called uncertain or tlb is not invented; called a cache it is.
{ printf 'b%s32768%s32768:cache,300000:uncertain%s262144%s\n' "$T" "$T" "$T" "$T"
  printf 'b%s32768%s32768:cache,200000:tlb%s262144%s\n' "$T" "$T" "$T" "$T"
  printf 'c%s32768%s32768:cache,300000:cache%s262144%s\n' "$T" "$T" "$T" "$T"; } >"$dir/tlb"
check "a TLB-reach level not called a cache is not invented" test "$(row tlb b)" = "2 2 100.0% 0"
check "a TLB-reach level called a cache is invented" test "$(row tlb c)" = "1 1 100.0% 1"
# A level near a true level beyond the curve's end (tinymembench64's skip list), of any kind.
printf 'd%s32768%s32768:cache,50331648:cache%s%s67108864\n' "$T" "$T" "$T" "$T" >"$dir/skip"
check "a level near a true level beyond the end is not invented" test "$(row skip d)" = "1 1 100.0% 0"
# The real runs' lines carry sizes without kinds and no reach columns.
printf 'real x%s49152,2097152%s49152,2097152\n' "$T" "$T" >"$dir/real"
check "sizes without kinds are scored" test "$(score real | awk '$3 == "real" { print $6, $7, $8 }')" = "2 100.0% 0"
# A level's interval: 256K..512K finds a true 680K (within 1.5x of 512K) though its size, 315K,
# is 2.2x off; scored by its size alone (points=1) it misses and is invented.
printf 'p%s24576,696320%s21743:cache:0.9:16384:32768,322737:cache:0.8:262144:524288%s%s\n' "$T" "$T" "$T" "$T" >"$dir/iv"
check "a level's interval finds a true level its size is 2.2x from" test "$(row iv p)" = "1 2 100.0% 0"
check "points=1 scores the size alone" test "$(awk -F'\t' -v part=t -v points=1 \
    -f "$ROOT/tests/report/corpus/score.awk" "$dir/iv" | awk '$3 == "p" { print $4, $5, $6, $7 }')" = "1 2 50.0% 1"
# A missed level: 1 of 2 found.
printf 'e%s32768,1048576%s32768:cache\n' "$T" "$T" >"$dir/missed"
check "a level with nothing within 1.5x is missed" test "$(row missed e)" = "1 2 50.0% 0"
# The exit status: 1 when a format misses the bar (but sim-half.*), else 0.
score missed >/dev/null; rc=$?
check "a format under 95% found fails the score" test "$rc" = 1
sed 's/^e/sim-half.e/' "$dir/missed" >"$dir/half"
score half >/dev/null; rc=$?
check "sim-half formats are shown, not judged" test "$rc" = 0
{ for i in 1 2 3 4 5 6 7 8 9; do printf 'g%s32768%s32768:cache\n' "$T" "$T"; done
  printf 'g%s32768%s32768:cache,8388608:cache,67108864:cache\n' "$T" "$T"; } >"$dir/bar"
score bar >/dev/null; rc=$?
check "two invented in ten curves fails the score" test "$rc" = 1
head -9 "$dir/bar" >"$dir/bar1"; printf 'g%s32768%s32768:cache,8388608:cache\n' "$T" "$T" >>"$dir/bar1"
score bar1 >/dev/null; rc=$?
check "one invented in ten curves meets the bar" test "$rc" = 0
# Confidences: their mean over right and invented levels, and the Brier score, excused levels out.
printf 'k%s32768,1048576%s32768:cache:0.9,300000:tlb:0.5,4194304:cache:0.3%s262144%s\n' "$T" "$T" "$T" "$T" >"$dir/conf"
check "confidences: right 0.90, invented 0.30, Brier (0.1^2 + 0.3^2) / 2" \
    test "$(score conf | awk '$3 == "k" { print $9, $10, $11 }')" = "0.90 0.30 0.0500"
check "levels without a confidence are not rated" \
    test "$(score found | awk '$3 == "a" { print $9, $10, $11 }')" = "- - -"
check "an unreadable curve is counted" grep -q '(1 unreadable)' <(printf 'h%s32768%sERROR\n' "$T" "$T" >"$dir/err"; score err)
# CORPUS_NO_WILD=1: the same curves with each wild point at its true value, nothing else moved.
CORPUS_WILD_LOG=$dir/wild.log "$ROOT/tests/report/corpus/gen.sh" "$dir/wild" 1 6 >/dev/null
"$ROOT/tests/report/corpus/gen.sh" "$dir/unlogged" 1 6 >/dev/null
CORPUS_NO_WILD=1 "$ROOT/tests/report/corpus/gen.sh" "$dir/tame" 1 6 >/dev/null
ratios=$(for f in "$dir"/wild/*.random-chase.txt; do
    paste "$f" "$dir/tame/${f##*/}" | awk 'NR > 1 && $2 != $4 { printf "%.2f\n", $2 / $4 }'; done)
check "without wild points some points differ" test -n "$ratios"
check "each differs by the wild factor, 0.35x or 2.5x" \
    test -z "$(grep -vxE '0\.35|2\.50' <<<"$ratios")"
check "the truth is the same" cmp -s "$dir/wild/truth.tsv" "$dir/tame/truth.tsv"
# CORPUS_WILD_LOG: one line per wild point (id, format salt, size, factor), the curves unchanged.
check "logging the wild points changes no curve" diff -r -q "$dir/wild" "$dir/unlogged"
moved=$(for f in "$dir"/wild/*.random-chase.txt; do
    paste "$f" "$dir/tame/${f##*/}" | awk -v f="${f##*/}" 'NR > 1 && $2 != $4 { printf "%s %s %.2f\n", f, $1, $2 / $4 }'
done | sort)
check "the log names every point the wild factors moved, with its curve's file and factor" \
    test "$moved" = "$(awk '$1 ~ /random-chase/ { printf "%s %s %.2f\n", $1, $2, $3 }' "$dir/wild.log" | sort)"
# score.awk's failures=OUT: the curves that miss or invent, with the file named in column 6.
{ printf 'm%s32768,1048576%s32768:cache,3000000:cache%s%s%ss0001.m.txt\n' "$T" "$T" "$T" "$T" "$T"
  printf 'm%s32768%s32768:cache%s%s%ss0002.m.txt\n' "$T" "$T" "$T" "$T" "$T"; } >"$dir/fail"
awk -F'\t' -v part=t -v failures="$dir/fail.out" -f "$ROOT/tests/report/corpus/score.awk" \
    "$dir/fail" >/dev/null
check "failures=OUT lists the failing curve: 1 missed, 1 invented" \
    test "$(cat "$dir/fail.out")" = "m${T}s0001.m.txt${T}1${T}1${T}32768,1048576"
# wildclass.awk: a failing curve's levels counted by where its wild points are (within an octave
# of a true size: near a step). Truth 32K and 1M.
{ printf 'tinymembench%s32768,1048576%s32768:cache,3000000:cache%s%s%ss0001.tinymembench.txt\n' "$T" "$T" "$T" "$T" "$T"
  printf 'tinymembench%s32768,1048576%s32768:cache%s%s%ss0002.tinymembench.txt\n' "$T" "$T" "$T" "$T" "$T"
  printf 'tinymembench%s32768,1048576%s3000000:cache%s%s%ss0003.tinymembench.txt\n' "$T" "$T" "$T" "$T" "$T"
  printf 'tinymembench%s32768,1048576%s32768:cache,1048576:cache%s%s%ss0004.tinymembench.txt\n' "$T" "$T" "$T" "$T" "$T"
  printf 'sim.tinymembench%s32768%s32768:cache%s%s%ss0001.sim.tinymembench.txt\n' "$T" "$T" "$T" "$T" "$T"
  printf 'chase/random.csv%s32768%s32768:cache%s%s%ss0005.chase/random.csv\n' "$T" "$T" "$T" "$T" "$T"
  printf 'tinymembench64%s32768%s32768:cache%s%s%ss0006.tinymembench64.txt\n' "$T" "$T" "$T" "$T" "$T"
} >"$dir/wc"
printf '%s\n' 's0001.tinymembench.txt 2097152 2.5' 's0002.tinymembench.txt 262144 0.35' \
    's0002.random-chase.txt 1048576 2.5' 's0004.tinymembench.txt 65536 2.5' \
    's0001.sim.tinymembench.txt 65536 2.5' 's0005.chase/random.csv 40960 0.35' \
    's0006.tinymembench.txt 65536 2.5' >"$dir/wc.log"
awk -F'\t' -v part=t -v failures="$dir/wc.fail" -f "$ROOT/tests/report/corpus/score.awk" "$dir/wc" >/dev/null
wc_row=$(awk -F'\t' -v part=t -f "$ROOT/tests/report/corpus/wildclass.awk" "$dir/wc.log" "$dir/wc.fail" \
    "$dir/wc" | awk '$5 == "tinymembench"')
check "wildclass: 4 curves, 2 with a wild point near a step (2M by 1M, 64K by 32K)" \
    grep -q "tinymembench *4 curves,  2 with one near a step" <<<"$wc_row"
check "wildclass: the chase CSV's, the sim curve's and tinymembench64's wild points are theirs" \
    test "$(awk -F'\t' -v part=t -f "$ROOT/tests/report/corpus/wildclass.awk" "$dir/wc.log" "$dir/wc.fail" \
        "$dir/wc" | grep -cE '(chase/random.csv|sim.tinymembench|tinymembench64) +1 curves,  1 with one near')" = 3
# s0001 misses 1M and invents 3M (wild at 2M: near); s0002 misses 1M (wild at 256K, and one in
# another format: elsewhere); s0003 misses both and invents 3M (no wild point); s0004 is right.
check "wildclass: 4 missed / 2 invented in all; near a step 1 / 1, elsewhere 1 / 0, without 2 / 1" \
    grep -q "invented:  4 /  2, in curves with a wild point near a step  1 /  1, with wild points elsewhere  1 /  0, without  2 /  1" <<<"$wc_row"
# intervals=1: Wilson's interval for the share found, the Poisson interval for invented per ten
# curves. 1 of 2 found: 9.5%..90.5%; 1 invented in 1 curve: 0.25..55.7 per 10 (exact 0.253,
# 55.72); none in 10 curves: up to 3.69 (exact -ln 0.025).
ci() { awk -F'\t' -v part=t -v intervals=1 -f "$ROOT/tests/report/corpus/score.awk" "$dir/$1" |
    awk -v f="$2" '$3 == f { print $(NF - 1), $NF }'; }
check "intervals: 1 of 2 found is 9.5..90.5%" test "$(ci missed e | cut -d' ' -f1)" = "9.5..90.5%"
check "intervals: one invented in one curve is 0.25..55.64 per 10" \
    test "$(printf 'x%s32768%s32768:cache,4194304:cache\n' "$T" "$T" >"$dir/one"; ci one x | cut -d' ' -f2)" = "0.25..55.64"
for i in 1 2 3 4 5 6 7 8 9 10; do printf 'g%s32768%s32768:cache\n' "$T" "$T"; done >"$dir/none"
check "intervals: none invented in ten curves is 0..3.69 per 10" test "$(ci none g | cut -d' ' -f2)" = "0.00..3.69"
# pool.sh --from: the parts' lines pooled, the real runs once; exit 1 when the pool misses.
mkdir -p "$dir/pool"
for p in $("$ROOT/tests/report/corpus/eval.sh" parts); do
    { printf 'p%s32768,1048576%s32768:cache,1048576:cache\n' "$T" "$T"
      printf 'real r%s32768%s32768\n' "$T" "$T"; } >"$dir/pool/$p.tsv"
done
printf 'p%s32768,1048576%s32768:cache,1048576:cache,8388608:cache\n' "$T" "$T" >>"$dir/pool/fresh3.tsv"
pooled=$("$ROOT/tests/report/corpus/pool.sh" --from "$dir/pool"); rc=$?
nparts=$("$ROOT/tests/report/corpus/eval.sh" parts | wc -w)
nunseen=$(sed -n 's/^UNSEEN="\(.*\)"$/\1/p' "$ROOT/tests/report/corpus/pool.sh" | wc -w)
check "pool: a curve a part and one more, twice the levels, one invented" \
    test "$(awk '$2 == "pool-all:" && $3 == "p" { print $4, $5, $6, $7 }' <<<"$pooled")" = \
    "$((nparts + 1)) $((2 * nparts + 2)) 100.0% 1"
check "pool: the unseen parts alone, a curve each" \
    test "$(awk '$2 == "pool-unseen:" && $3 == "p" { print $4, $7 }' <<<"$pooled")" = "$nunseen 0"
check "pool: the real runs once" test "$(awk '$2 == "pool-all:" && $3 == "real" { print $5 }' <<<"$pooled")" = 1
check "pool: one invented in more than ten curves meets the bar" test "$rc" = 0
# One more curve inventing a level per ten parts and one more (8M, 64M, ...): past one per ten
# curves however many parts eval.sh lists.
extra=$(awk -v n=$((nparts / 10 + 1)) 'BEGIN { for (i = 0; i < n; i++) printf ",%d:cache", 8388608 * 8 ^ i }')
printf 'p%s32768%s32768:cache%s\n' "$T" "$T" "$extra" >>"$dir/pool/fresh4.tsv"
"$ROOT/tests/report/corpus/pool.sh" --from "$dir/pool" >/dev/null; rc=$?
check "pool: more than one invented per ten curves misses the bar" test "$rc" = 1
rm "$dir/pool/fresh5.tsv"
"$ROOT/tests/report/corpus/pool.sh" --from "$dir/pool" >/dev/null 2>&1; rc=$?
check "pool: a part missing is an error" test "$rc" = 2
# pool.sh scoring: each part's eval.sh run (here a stand-in beside a copy of pool.sh that writes
# one curve a part), two at a time, its printout and lines kept, then pooled.
mkdir -p "$dir/run/t/r/c"
cp "$ROOT/tests/report/corpus/pool.sh" "$ROOT/tests/report/corpus/score.awk" "$dir/run/t/r/c/"
cat >"$dir/run/t/r/c/eval.sh" <<'STAND_IN'
#!/bin/bash
[ "$1" = parts ] && { echo "held-out fresh11 fresh12 fresh"; exit; }
printf 'p\t32768\t32768:cache\nreal r\t32768\t32768\n' >"$EVAL_SCORED"
echo "corpus $1: scored"
STAND_IN
chmod +x "$dir/run/t/r/c/eval.sh"
pooled=$(EVAL_JOBS=2 "$dir/run/t/r/c/pool.sh" "$dir/run/out" 2>/dev/null); rc=$?
check "pool: each part scored, its printout kept" test "$(cat "$dir/run/out/fresh.out")" = "corpus fresh: scored"
check "pool: the scored parts pooled, 4 curves" \
    test "$(awk '$2 == "pool-all:" && $3 == "p" { print $4, $7; exit }' <<<"$pooled")" = "4 0"
check "pool: scoring exits 0 when the bar is met" test "$rc" = 0
# real-score.awk: "found% cache-invented/10 other-invented/10 cache-real%" of format $2 in file $1.
real_row() { awk -F'\t' -f "$ROOT/tests/report/corpus/real-score.awk" "$dir/$1" |
    awk -v f="$2" '$2 == f { print $5, $6, $7, $8 }'; }
# Truth 24K, 1M. The 16K..32K interval finds 24K; 1.2M finds 1M; 200K (uncertain) is invented.
printf 't\t24576,1048576\t20000:cache:0.8:16384:32768,1200000:cache:0.9:1048576:2097152,200000:uncertain:0.3:196608:262144\tx\n' >"$dir/r1"
check "real: intervals find, an uncertain level far from truth is counted apart" \
    test "$(real_row r1 t)" = "100.0% 0.00 10.00 100.0%"
# One level cannot find two true levels an octave apart; a second cache near truth is not invented.
printf 'u\t2097152,4194304\t3000000:cache:0.9:2097152:4194304\tx\n' >"$dir/r2"
printf 'v\t2097152\t2000000:cache:0.9:2000000:2000000,2200000:cache:0.9:2200000:2200000\tx\n' >>"$dir/r2"
check "real: a level finds at most one true level" test "$(real_row r2 u)" = "50.0% 0.00 0.00 100.0%"
check "real: a duplicate near a true level is not invented, nor real" \
    test "$(real_row r2 v)" = "100.0% 0.00 0.00 50.0%"
# Without an interval the size alone is scored: 2x off is an invented cache.
printf 'w\t32768\t32768:cache:1:null:null,65536:cache:1:null:null\tx\n' >"$dir/r3"
check "real: a size without interval 2x off is an invented cache" \
    test "$(real_row r3 w)" = "100.0% 10.00 0.00 50.0%"
# real-score.awk md=1: the same counts as Markdown rows, and the calibration bands.
check "real: md=1 prints the score as a Markdown row" \
    grep -qxF '| v | 1 | 1 | 100.0% | 0.00 | 0.00 | 50.0% (1 of 2) |' <(printf 'tinymembench\t2097152\t2000000:cache:0.9:2000000:2000000,2200000:cache:0.6:2200000:2200000\tx\n' |
    awk -F'\t' -v md=1 -f "$ROOT/tests/report/corpus/real-score.awk" | sed 's/tinymembench, 4K pages/v/')
check "real: md=1 prints a calibration band per confidence quarter" \
    grep -qxF '| 0.50-0.75 | 1 | 1 | 0 (0%) | 1 (100%) |' <(printf 'tinymembench\t2097152\t2000000:cache:0.9:2000000:2000000,2200000:cache:0.6:2200000:2200000\tx\n' |
    awk -F'\t' -v md=1 -f "$ROOT/tests/report/corpus/real-score.awk")
# rule-score.awk (issue 51's rule): "curves levels found-any found-cache cache-inv/10 uncert/10".
rule_row() { awk -F'\t' -f "$ROOT/tests/report/corpus/rule-score.awk" "$dir/$1" |
    awk -v f="$2" '$2 == f { print $3, $4, $5, $6, $7, $8 }'; }
# A level is its size alone: 645K is 1.63x from 1M (its interval 512K..1M would have found it),
# so it is an invented cache and 1M is found by the uncertain 1.29M, with any kind only.
printf 'a\t24576,1048576\t23390:cache:0.7:16384:32768,645474:cache:0.6:524288:1048576,1290948:uncertain:0.4:1048576:2097152\tx\n' >"$dir/q1"
check "rule: the size alone is scored; found any kind and found as cache apart" \
    test "$(rule_row q1 a)" = "1 2 100.0% 50.0% 10.00 0.00"
# Each level matches one true level at most, nearest first: 1.5M lies within 1.5x of 1M and 2M
# and takes 2M (1.33x) over 1M (1.5x); an unmatched uncertain level counts apart; tlb never.
printf 'b\t1048576,2097152\t1572864:cache:0.9\tx\nb\t32768\t32768:cache:1,300000:uncertain:0.3,262144:tlb:0.3\tx\n' >"$dir/q2"
check "rule: one true level per level, unmatched uncertain counted, tlb not" \
    test "$(rule_row q2 b)" = "2 3 66.7% 66.7% 0.00 5.00"
check "rule: the tinymembench formats pool as tinymembench-all" \
    test "$(sed 's/^a/tinymembench/' "$dir/q1" >"$dir/q3"; sed 's/^a/tinymembench-huge/' "$dir/q1" >>"$dir/q3"
        rule_row q3 tinymembench-all)" = "2 4 100.0% 50.0% 10.00 0.00"
check "rule: bands=1 gives the share of cache levels that are real per confidence band" \
    grep -q '^rule: ~confidence a  *0.6-0.7:   1 cache levels,   0 real (0.0%)$' \
    <(awk -F'\t' -v bands=1 -f "$ROOT/tests/report/corpus/rule-score.awk" "$dir/q1")
# docs-scores.sh: it writes the whole page (docs/report-scores.md), replacing what was there,
# with the date and the commit it scored at, and fails when it cannot write it.
printf 'stale\n| format | curves | old |\n' >"$dir/doc.md"
DOC=$dir/doc.md "$ROOT/tests/report/corpus/docs-scores.sh"
check "docs-scores: the stale lines go, the score table comes" \
    test "$(grep -c '^stale$' "$dir/doc.md"):$(grep -c '^| format | curves |' "$dir/doc.md")" = 0:1
check "docs-scores: the page says what wrote it, when and at which commit" \
    grep -qE '^Written by `tests/report/corpus/docs-scores.sh` on [0-9-]{10} at [0-9a-f]{7}' \
    "$dir/doc.md"
DOC=$dir/no-such-folder/doc.md "$ROOT/tests/report/corpus/docs-scores.sh" 2>/dev/null
check "docs-scores: a page that cannot be written is an error" test $? != 0

finish
