#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Scores chase-report's level detection on the generated corpus:
# eval.sh [tune|held-out|fresh|fresh2|...|fresh14|quick]; eval.sh parts lists the parts scored
# out of tuning (all but tune and quick; pool.sh pools them).
# tune: seeds 1..60 (what the detector may be adjusted on); held-out: seeds 1001..1060 (scored once
# per change); fresh: seeds 3001..3060 and chase-sim hierarchies 3001..3040, drawn 2026-11-23 after
# held-out had been seen; fresh2: 4001..4060 and 4001..4040, drawn after fresh had been scored once
# (only scored); fresh3: 5001..5060 and 5001..5040, drawn 2026-11-23 after fresh2 had been scored
# (only scored); fresh4: 6001..6060 and 6001..6040, drawn 2026-11-24 after fresh3 had been scored
# (only scored); fresh5: 7001..7060 and 7001..7040, drawn 2026-11-24 after fresh4 had been scored
# (only scored); fresh6: 8001..8060 and 8001..8040, drawn 2026-11-24 06:07 UTC after fresh5 had been
# scored (scored once, 08:46..08:59 UTC); fresh7: 9001..9060 and 9001..9040, drawn 2026-11-24 09:10
# UTC after fresh6 had been scored (scored once, 11:18..11:34 UTC); fresh8: 9101..9160 and
# 9101..9140, drawn 2026-11-24 11:35 UTC after fresh7 had been scored; fresh9: 9201..9260 and
# 9201..9240, drawn 2026-11-24 13:51 UTC after fresh8 had been scored; fresh10: 9301..9360 and
# 9301..9340, drawn 2026-11-24 23:40 UTC after fresh9 had been scored and the tinymembench witness
# (levels_witness.c) was fixed; fresh11: 9401..9460 and 9401..9440, drawn 2026-11-25 after the
# witness's mended points were put on the print grid (117ca9c); fresh12: 9501..9560 and
# 9501..9540, drawn 2026-11-25 05:17 UTC after the sparse model's restarts and step placement
# (f078688, since reverted); fresh13: 9601..9660 and 9601..9640, drawn 2026-11-25 after the
# level count was taken from polished fits (fifteenth pass); fresh14: 9701..9760 and 9701..9740,
# drawn 2026-11-25 18:53 UTC after the witness judged disputed points twice and by the fall
# (seventeenth pass); quick: 2001..2008.
# Prints per input format: curves, true levels, the share found within a factor 1.5 of their
# size, and levels invented (a detected level with no true level within 1.5x of the interval it
# is reported in, as real-score.sh scores; EVAL_POINTS=1: of its size alone), per ten curves,
# and the levels' confidences: their mean over the right levels and over the invented ones, and
# the Brier score (score.awk). Exit 1 when held-out misses the issue's
# bar (95% found, at most one invented per ten curves) in any format. Then the real runs of
# real/ (chase-host on the machines at hand) against their sysfs truth, levels above the
# bound given there (a shared last cache whose effective share is unknown) not scored. Also
# the chase-sim curves of sim/ (gen-sim.sh; tune: seeds 1..40, held-out: 1001..1040) as the
# formats sim.*. A level within 1.5x of a TLB reach of the curve (chase-sim's TLBs; the model
# curves' TLB step at 256K) is not invented when chase-report does not call it a cache (kind
# tlb or uncertain: the issue asks that such a step be named, not counted); in tinymembench64 a
# level near a true level beyond the curve's 64 MiB end is neither required nor invented. The same
# sim curves are scored again as sim-half.* against each cache's half-miss size (the size where
# the simulator counts half of the loads missing it and every cache before it). CORPUS_NO_WILD=1
# scores the same curves with their wild points at their true values (gen.sh, gen-sim.sh): what
# the wild points cost. Last, per format, the levels missed and invented in the curves that have
# a wild point within an octave of a true level's size, where it can move a step, and in the
# others (wildclass.awk).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
report=${CHASE_REPORT:-$root/build/chase-report}
part=${1:-held-out}
# Each drawn part's seeds are in the case below; a part drawn later goes in both.
scored_parts="held-out fresh fresh2 fresh3 fresh4 fresh5 fresh6 fresh7 fresh8 fresh9 fresh10 fresh11 fresh12 fresh13 fresh14"
case $part in
parts) echo "$scored_parts"; exit 0 ;;
tune) first=1 count=60 sim_first=1 sim_count=40 ;;
held-out) first=1001 count=60 sim_first=1001 sim_count=40 ;;
fresh) first=3001 count=60 sim_first=3001 sim_count=40 ;;
fresh2) first=4001 count=60 sim_first=4001 sim_count=40 ;;
fresh3) first=5001 count=60 sim_first=5001 sim_count=40 ;;
fresh4) first=6001 count=60 sim_first=6001 sim_count=40 ;;
fresh5) first=7001 count=60 sim_first=7001 sim_count=40 ;;
fresh6) first=8001 count=60 sim_first=8001 sim_count=40 ;;
fresh7) first=9001 count=60 sim_first=9001 sim_count=40 ;;
fresh8) first=9101 count=60 sim_first=9101 sim_count=40 ;;
fresh9) first=9201 count=60 sim_first=9201 sim_count=40 ;;
fresh10) first=9301 count=60 sim_first=9301 sim_count=40 ;;
fresh11) first=9401 count=60 sim_first=9401 sim_count=40 ;;
fresh12) first=9501 count=60 sim_first=9501 sim_count=40 ;;
fresh13) first=9601 count=60 sim_first=9601 sim_count=40 ;;
fresh14) first=9701 count=60 sim_first=9701 sim_count=40 ;;
quick) first=2001 count=8 sim_first=0 sim_count=0 ;;
*) echo "usage: eval.sh [tune|quick|parts|${scored_parts// /|}]" >&2; exit 2 ;;
esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CORPUS_WILD_LOG=$work/wild.log "$here/gen.sh" "$work" "$first" "$count"
CORPUS_WILD_LOG=$work/wild.log "$here/gen-sim.sh" "$work" "$sim_first" "$sim_count"
touch "$work/wild.log"

# EVAL_FORMATS=REGEX scores only the curves whose file name matches (tinymembench: both of its
# formats, model and sim), to look at one format quickly; the score is then of those alone.
while IFS=$'\t' read -r file truth spec half; do
    [[ $file =~ ${EVAL_FORMATS:-.} ]] || continue
    # "tlb=R1,R2 " and "skip=S1,S2 " lead the spec when the curve has them.
    reach=$(grep -o '\btlb=[0-9,]*' <<<"$spec" | cut -d= -f2)
    skip=$(grep -o '\bskip=[0-9,]*' <<<"$spec" | cut -d= -f2)
    fmt=${file#*.}; fmt=${fmt%.txt}
    got=$("$report" --json "$work/$file" 2>/dev/null |
        jq -r '[.levels[] | select(.size_known) |
            "\(.size_bytes):\(.kind):\(.confidence):\(.size_lo_bytes):\(.size_hi_bytes)"] | join(",")' 2>/dev/null) ||
        got=ERROR
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$fmt" "$truth" "${got:-}" "$reach" "$skip" "$file"
    [ -z "${half:-}" ] || printf '%s\t%s\t%s\t%s\t%s\n' "sim-half.${fmt#sim.}" "$half" "${got:-}" "$reach" "$skip"
done <"$work/truth.tsv" >"$work/scored.tsv"
# The real runs: "real" as the format, sizes above the bound dropped from both sides; the TLB
# reaches their tlb experiment measured (a level there that is not called a cache is excused).
grep -v '^#' "$here/real/truth.tsv" | while IFS=$'\t' read -r dir truth bound _; do
    got=$("$report" --json "$here/real/$dir" 2>/dev/null |
        jq -r --argjson b "$bound" '([.levels[] | select(.size_known and .size_bytes < $b) |
            "\(.size_bytes):\(.kind):\(.confidence):\(.size_lo_bytes):\(.size_hi_bytes)"] |
            join(",")) + "\t" + ([.verdicts.tlb.steps[]?.reach_bytes] | join(","))' \
            2>/dev/null) || got=ERROR
    printf 'real %s\t%s\t%s\n' "$dir" "$truth" "${got:-}"
done >>"$work/scored.tsv"
# EVAL_SCORED=FILE keeps the per-curve lines (format, truth, detected size:kind:confidence:lo:hi,
# TLB reaches, sizes beyond the curve's end, file) to look at.
[ -z "${EVAL_SCORED:-}" ] || cp "$work/scored.tsv" "$EVAL_SCORED"
# EVAL_POINTS=1 scores each level by its size alone, not the interval it is reported in.
awk -F'\t' -v part="$part" -v points="${EVAL_POINTS:-0}" -v failures="$work/failures.tsv" \
    -f "$here/score.awk" "$work/scored.tsv"
status=$?
touch "$work/failures.tsv"
awk -F'\t' -v part="$part" -f "$here/wildclass.awk" "$work/wild.log" "$work/failures.tsv" \
    "$work/scored.tsv" | sort
exit $status
