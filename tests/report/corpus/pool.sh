#!/bin/bash
# SPDX-License-Identifier: MIT
# pool.sh [--from DIR] [DIR]: every part scored out of tuning (`eval.sh parts`: held-out, fresh,
# fresh2..fresh14) with one detector, and their pooled score per format with 95% intervals
# (score.awk's intervals=1). A part of 60 model curves and 40 chase-sim curves says little about a
# rate near the bar (one invented level in 60 curves is 0.17 per 10): the pool of all parts (with
# 15, 900 and 600 curves a format) says it within about +-0.2 per 10 curves.
#
# Runs eval.sh on each part, EVAL_JOBS at a time (default: the processors online), keeping each
# part's printout (DIR/PART.out) and per-curve lines (DIR/PART.tsv) in DIR (default build/eval);
# --from DIR only pools the .tsv files a run left there. Prints two pools: all parts, and the
# parts drawn after the detector last changed for foreign curves (UNSEEN below; parts drawn
# before were scored while it was tuned, and their misses were looked at). The real runs are the
# same in every part: pooled once. Exit 1 when held-out or the pool of all parts misses the bar
# in a format (eval.sh's bar), 2 when a part's lines are missing.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
# Parts out of sample for the detector as it is: held-out was never tuned on; fresh14 was drawn
# after the last change to how foreign curves are read (the witness's disputed points judged twice
# and by the fall, seventeenth pass). A change to the detector makes every part seen: then only
# parts drawn after it go here.
UNSEEN="held-out fresh14"
PARTS=$("$here/eval.sh" parts)

from=0
if [ "${1:-}" = --from ]; then
    from=1
    shift
fi
dir=${1:-$root/build/eval}
mkdir -p "$dir" || exit 2

if [ $from = 0 ]; then
    jobs=${EVAL_JOBS:-$(nproc)}
    echo "pool: scoring $(wc -w <<<"$PARTS") parts, $jobs at a time, into $dir" >&2
    printf '%s\n' $PARTS | xargs -P "$jobs" -I{} sh -c \
        'EVAL_SCORED="$1/$2.tsv" "$0" "$2" >"$1/$2.out" 2>&1; echo "pool: $2 scored ($(date -u +%T) UTC)" >&2' \
        "$here/eval.sh" "$dir" {}
fi

for p in $PARTS; do
    if [ ! -s "$dir/$p.tsv" ]; then
        echo "pool: $dir/$p.tsv missing ($([ $from = 1 ] && echo "run pool.sh without --from" ||
            echo "eval.sh $p failed: see $dir/$p.out"))" >&2
        exit 2
    fi
done
[ $from = 1 ] || echo "pool: each part's printout (eval.sh PART) is in $dir/PART.out"
status=0
awk -F'\t' -v part=held-out -f "$here/score.awk" "$dir/held-out.tsv" >/dev/null || status=1

# score.awk over the parts' lines, the real runs once (from held-out); header first, formats
# sorted. Returns score.awk's status.
pool() {
    local name=$1
    shift
    for p in "$@"; do grep -v '^real ' "$dir/$p.tsv"; done | cat - <(grep '^real ' "$dir/held-out.tsv") |
        awk -F'\t' -v part="$name" -v intervals=1 -f "$here/score.awk" >"$dir/$name.pool"
    local s=$?
    head -1 "$dir/$name.pool"
    tail -n +2 "$dir/$name.pool" | sort
    return $s
}
echo
echo "pool-all: the $(wc -w <<<"$PARTS") parts ($PARTS)"
pool pool-all $PARTS || status=1
echo
echo "pool-unseen: the parts drawn after the detector's last change ($UNSEEN)"
pool pool-unseen $UNSEEN
exit $status
