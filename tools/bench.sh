#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-host's benchmark (`make bench`): chain build rate, time per experiment of a full default
# run, L1/L2 plateau latencies in core cycles, and the spread of three repeated random sweeps.
#   tools/bench.sh [path/to/chase-host]      BENCH_FULL=0 skips the full run (about 7 minutes)
# A benchmark, not a test: it prints figures and judges only the build-rate target.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
host=${1:-$root/build/chase-host}
[ -x "$host" ] || make -C "$root" -s build/chase-host
work=$(mktemp -d "${TMPDIR:-/tmp}/chase-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

BUILD_TARGET_S=1.5       # a random cycle over 16 Mi slots (1 GiB at 64 B) builds this fast
SPREAD_MAX=64M           # the repeated sweeps go this far (beyond this machine's caches)
# median(a, n): the median of a[1..n] (sorts a; plain awk has no asort).
AWK_MEDIAN='function median(a, n,   i, j, t) {
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}'

# run NAME ARGS...: one chase-host run into $work/NAME; prints the run folder.
run() {
    local name=$1
    shift
    "$host" --out "$work/$name" "$@" >"$work/$name.log" 2>&1 || {
        echo "bench: chase-host $* failed:" >&2
        tail -n 20 "$work/$name.log" >&2
        exit 1
    }
    echo "$work/$name/0001"
}

# col FILE NAME: the column number of NAME in a CSV header.
col() {
    head -n 1 "$1" | tr ',' '\n' | grep -nx "$2" | cut -d: -f1
}

# plateau CSV LO HI: median core cycles of the random points with LO <= size <= HI.
plateau() {
    local c
    c=$(col "$1" core_cycles_median)
    awk -F, -v lo="$2" -v hi="$3" -v c="$c" "$AWK_MEDIAN"'
        NR > 1 && $1 >= lo && $1 <= hi { v[++n] = $c }
        END { if (!n) { print "n/a"; exit }
              printf "%.2f cycles (%d points)", median(v, n), n }' "$1"
}

model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')
echo "== chase-host benchmark on $model"
echo "   $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "   (a shared machine: other work on its CPUs shows up as spread below)"
echo

# 1. Chain build rate: one random cycle over 1 GiB at 64 B stride.
dir=$(run build experiments=random random.min=1G random.max=1G random.stride=64 reps=1)
bns=$(awk -F, -v c="$(col "$dir/random.csv" build_ns)" -v s="$(col "$dir/random.csv" slots)" \
    'NR == 2 { printf "%d %d", $c, $s }' "$dir/random.csv")
set -- $bns
awk -v ns="$1" -v slots="$2" -v target="$BUILD_TARGET_S" 'BEGIN {
    s = ns / 1e9
    printf "chain build: %d slots (1 GiB at 64 B) in %.3f s = %.1f M slots/s", slots, s,
        slots / s / 1e6
    printf " (target <= %.1f s: %s)\n", target, s <= target ? "met" : "MISSED" }'
echo "  command: chase-host experiments=random random.min=1G random.max=1G random.stride=64 reps=1"
echo

# 2. A full default run: time per experiment.
l1=$(jq '[.caches[] | select(.level == 1 and .type != "instruction")][0].size_bytes' \
    "$dir/run.json")
l2=$(jq '[.caches[] | select(.level == 2)][0].size_bytes // 0' "$dir/run.json")
if [ "${BENCH_FULL:-1}" != 0 ]; then
    start=$(date +%s)
    full=$(run full)
    end=$(date +%s)
    echo "full default run (all nine experiments): $((end - start)) s wall"
    sed -n 's/^(\([a-z]*\) took \(.*\) s)$/  \1 \2/p' "$full/console.txt" |
        awk '{ printf "  %-10s %8.1f s\n", $1, $2 }'
    echo "  command: chase-host (no settings)"
    echo
    random_csv="$full/random.csv"
else
    random_csv=$(run plateaus experiments=random random.max="$SPREAD_MAX")/random.csv
fi

# 3. L1 and L2 plateaus from the random sweep, in core cycles.
echo "plateaus of the random chase (CPUID: L1d $((l1 / 1024))K, L2 $((l2 / 1024))K):"
echo "  L1 (sizes up to half the L1): $(plateau "$random_csv" 0 $((l1 / 2)))"
echo "  L2 (twice the L1 to half the L2): $(plateau "$random_csv" $((2 * l1)) $((l2 / 2)))"
echo

# 4. Spread of three repeated random sweeps: (max - min) / median of each point's median.
for i in 1 2 3; do
    cp "$(run "spread$i" experiments=random random.max="$SPREAD_MAX")/random.csv" \
        "$work/spread$i.csv"
done
c=$(col "$work/spread1.csv" ns_median)
paste -d, "$work/spread1.csv" "$work/spread2.csv" "$work/spread3.csv" |
    awk -F, -v c="$c" -v nf="$(head -n 1 "$work/spread1.csv" | tr ',' '\n' | wc -l)" \
        -v l1="$l1" -v l2="$l2" "$AWK_MEDIAN"'
    NR > 1 {
        x = $c; y = $(c + nf); z = $(c + 2 * nf)
        lo = x < y ? (x < z ? x : z) : (y < z ? y : z)
        hi = x > y ? (x > z ? x : z) : (y > z ? y : z)
        md = x + y + z - lo - hi
        s = md > 0 ? (hi - lo) / md : 0
        k = ""
        if ($1 <= l1 / 2) k = "L1"
        else if ($1 >= 2 * l1 && $1 <= l2 / 2) k = "L2"
        else if ($1 >= 8 * l2) k = "beyond"
        if (k != "") { v[k, ++n[k]] = s }
    }
    END {
        print "spread of 3 repeated random sweeps, (max - min) / median of each point,"
        print "median over the points of each range:"
        split("L1 L2 beyond", ks, " ")
        for (i = 1; i <= 3; i++) {
            k = ks[i]; delete a
            for (j = 1; j <= n[k]; j++) a[j] = v[k, j]
            if (n[k]) printf "  %-7s %6.2f%% (%d points)\n", k, 100 * median(a, n[k]), n[k]
        }
    }'
echo "  command: chase-host experiments=random random.max=$SPREAD_MAX (three times)"
