#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-host's benchmark (`make bench`): accuracy, repeatability and efficiency of chase's
# measurements on this machine, each figure with the command behind it (issue 8).
#   tools/bench.sh [path/to/chase-host]
#   BENCH_CPU=N pins the runs (default: the last CPU); BENCH_FULL=1 adds a full default run
#   of every experiment (several more minutes); PEERS="/path/to/multichase ..." adds peers
#   (lat_mem_rd is added when on the PATH), run after each of the three sweeps at 16K, 256K,
#   2M and 256M; BENCH_ONEPASS=1 adds a passes=1 sweep to each round. Each round also runs
#   chase-host at those four sizes one process per size (multichase's protocol).
#   BENCH_KEEP=1 keeps the run folders (their path is printed at the end).
# A benchmark, not a test: it prints figures against their targets and judges nothing else.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
host=${1:-$root/build/chase-host}
[ -x "$host" ] || make -C "$root" -s build/chase-host
work=$(mktemp -d "${TMPDIR:-/tmp}/chase-bench.XXXXXX")
if [ -n "${BENCH_KEEP:-}" ]; then
    trap 'echo "run folders kept in $work"' EXIT
else
    trap 'rm -rf "$work"' EXIT
fi
. "$root/tools/bench_lib.sh"

cpu=${BENCH_CPU:-$(($(nproc) - 1))}
SWEEP="experiments=random random.min=4K random.max=256M random.points_per_octave=4 precision=0.5"
L1_DOC_CYCLES=${BENCH_L1_DOC_CYCLES:-5} # Golden Cove / Redwood Cove load-to-use latency

model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')
echo "== chase-host benchmark on $model"
echo "   $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, runs pinned to CPU $cpu," \
    "load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "   (a shared machine: figures are medians and ratios within one run)"
echo

# The peers: lat_mem_rd when on the PATH, and every binary PEERS names (multichase,
# lat_mem_rd); each runs at KEY_SIZES right after each chase-host sweep (interleaved).
KEY_SIZES="16384 262144 2097152 268435456"
peers=()
if command -v lat_mem_rd >/dev/null; then
    peers+=("$(command -v lat_mem_rd)")
else
    echo "lat_mem_rd: not on the PATH (Debian 12 has no lmbench package; build lmbench and put"
    echo "  its bin folder on the PATH to compare): not compared"
fi
for p in ${PEERS:-}; do
    if [ ! -x "$p" ] || [ -z "$(peer_kind "$p")" ]; then
        echo "bench: PEERS: $p is not an executable multichase or lat_mem_rd: left out" >&2
        continue
    fi
    peers+=("$p")
    # multichase also with chase-host's access pattern, so each spread is of the same thing.
    [ "$(peer_kind "$p")" != multichase ] || peers+=("$p@matched")
done
[ ${#peers[@]} -gt 0 ] || echo "no peers (PEERS=/path/to/multichase ... names some): chase-host alone"
echo

# 1. The random sweep, three rounds, each followed by every peer: wall time, points per
# second, timed fraction, and the side-by-side spreads.
for i in 1 2 3; do
    sweep[i]=$(run "sweep$i" $SWEEP)
    [ "${BENCH_ONEPASS:-0}" = 0 ] || onepass[i]=$(run "onepass$i" $SWEEP passes=1)
    alone_round "$i" $KEY_SIZES
    for j in "${!peers[@]}"; do
        peer_round "$i" "$j" "${peers[j]}" $KEY_SIZES
    done
done
a=${sweep[1]}
side_by_side
l1=$(jq '[.caches[] | select(.level == 1 and .type != "instruction")][0].size_bytes' \
    "$a/run.json")
l2=$(jq '[.caches[] | select(.level == 2)][0].size_bytes // 0' "$a/run.json")
echo "random sweep 4K -> 256M, 4 points per octave, precision 0.5% (three runs):"
for i in 1 2 3; do
    sweep_figures "${sweep[i]}" "run $i"
done
for i in 1 2 3; do
    echo "  where run $i's time went: $(sed -n 's/^  time: //p' "${sweep[i]}/console.txt")"
done
range_fraction "$a/random.csv" 0 $((2 * l2)) "  timed fraction of points up to $((2 * l2 >> 20))M:"
range_fraction "$a/random.csv" $((16 << 20)) $((1 << 40)) \
    "  timed fraction of points from 16M (one-lap warm-ups of DRAM-sized chains):"
echo "  command: chase-host --cpu $cpu $SWEEP (three times)"
echo

# 2. Latencies: L1 against the documented value, L2 against chase's own plateau.
echo "latency in core cycles (CPUID: L1d $((l1 >> 10))K, L2 $((l2 >> 10))K):"
l1run=$(run l1 experiments=random random.min=16K random.max=16K precision=0.2)
l1c=$(csv_value "$l1run/random.csv" core_cycles_median)
awk -v c="$l1c" -v doc="$L1_DOC_CYCLES" -v busy="$(cat "$work/l1.busy")" 'BEGIN {
    printf "  L1 at 16K: %.3f cycles; documented %d: %+.1f%% (target within 2%%: %s; other CPUs " \
        "%d%% busy)\n", c, doc, 100 * (c / doc - 1),
        (c / doc - 1 < 0.02 && c / doc - 1 > -0.02) ? "met" : "MISSED", busy }'
echo "    sweep plateaus (median of per-point medians): L1 $(plateau "$a/random.csv" 0 \
$((l1 / 2))), L2 $(plateau "$a/random.csv" $((2 * l1)) $((l2 / 2)))"
echo "    command: chase-host --cpu $cpu experiments=random random.min=16K random.max=16K" \
    "precision=0.2"
l2run=$(run l2 experiments=random random.min=256K random.max=256K precision=0.2)
l2c=$(csv_value "$l2run/random.csv" core_cycles_median)
l2p=$(summary_level "$a/console.txt" L2 cycles)
awk -v c="$l2c" -v p="$l2p" -v busy="$(cat "$work/l2.busy")" 'BEGIN {
    printf "  L2 at 256K: %.2f cycles; chase'"'"'s L2 plateau (run 1 summary) %.2f: %+.1f%% " \
        "(target within 5%%: %s; other CPUs %d%% busy)\n", c, p, 100 * (c / p - 1),
        (c / p - 1 < 0.05 && c / p - 1 > -0.05) ? "met" : "MISSED", busy }'
echo "    command: chase-host --cpu $cpu experiments=random random.min=256K random.max=256K" \
    "precision=0.2"
l2q=$(csv_value "$l2run/random.csv" core_cycles)
for i in 1 2 3; do
    awk -v c1="$(value_at "$work/chase$i.txt" 16384 4)" -v doc="$L1_DOC_CYCLES" \
        -v c2="$(value_at "$work/chase$i.txt" 262144 4)" -v q="$l2q" -v i="$i" 'BEGIN {
        printf "  sweep %d: 16K %.3f cycles (%+.1f%% from %d), 256K %.2f cycles (%+.1f%% from " \
            "the 256K run'"'"'s %.2f)\n", i, c1, 100 * (c1 / doc - 1), doc, c2,
            100 * (c2 / q - 1), q }'
done
echo "    (core_cycles: the headline of the sweep's point, each repetition at its own clock)"
echo "  level sizes chase reports (run 1 summary):" \
    "L1 $(summary_level "$a/console.txt" L1 size) (CPUID L1d $((l1 >> 10))K);" \
    "L2 $(summary_level "$a/console.txt" L2 size) (CPUID L2 $((l2 >> 10))K)"
echo

targets "$L1_DOC_CYCLES" "$l2q"
echo

# 3. Repeatability: the spread of each point's median over the three sweeps.
echo "spread of per-point headlines (ns, core_cycles) over the 3 sweeps, (max - min) / median,"
echo "median over points:"
spread "${sweep[1]}/random.csv" "${sweep[2]}/random.csv" "${sweep[3]}/random.csv" \
    core_cycles 0 $((l1 / 2)) "L1 (up to L1/2), cycles" 1
spread "${sweep[1]}/random.csv" "${sweep[2]}/random.csv" "${sweep[3]}/random.csv" \
    core_cycles $((2 * l1)) $((l2 / 2)) "L2 (2 x L1 to L2/2), cycles" 1
spread "${sweep[1]}/random.csv" "${sweep[2]}/random.csv" "${sweep[3]}/random.csv" \
    ns $((32 << 20)) $((1 << 40)) "DRAM (32M and up), ns" 5
spread "${sweep[1]}/random.csv" "${sweep[2]}/random.csv" "${sweep[3]}/random.csv" \
    ns 0 $((l1 / 2)) "L1 in ns (core clock included)" 3
echo "  command: the three sweeps above"
echo

# 4. Warm-up: lap by lap from a fresh chain, then 1 lap against 4 at full precision.
echo "warm-up near cache levels: ns per load of laps 1..8 right after the build (warm_laps=0:"
echo "each repetition one lap; each lap the median of 3 runs); steady laps from lap 2 on show"
echo "one lap is enough. Then warm_laps=1 against 4 (separate runs: they also differ by the"
echo "run-to-run noise of the spread figures):"
for size in 40K 1536K 6M 32M; do
    warmup_figure "$size"
done
echo "  commands: chase-host --cpu $cpu experiments=random random.min=SIZE random.max=SIZE" \
    "warm_laps=0 precision=0 reps=8 (3 times); ... warm_laps=1 (and 4) precision=0.5"
echo

# 5. Chain building, and the timer.
dir=$(run build experiments=random random.min=1G random.max=1G warm_laps=0 precision=0 reps=1)
build_figure "$dir/random.csv"
echo "  command: chase-host --cpu $cpu experiments=random random.min=1G random.max=1G" \
    "warm_laps=0 precision=0 reps=1"
rate_figure "$a/random.csv"
echo
timer_figure "$a"
echo "  command: the first sweep (its timing header and hops column)"

# 6. Core to core: a->b against b->a, the same line handover timed both ways.
if [ "$(nproc)" -ge 2 ]; then
    echo
    dir=$(run c2c experiments=c2c c2c.rounds=2000)
    awk -F, 'NR > 1 { m[$1 "," $2] = $7 }
        END { w = 1; for (k in m) { split(k, p, ","); r = m[k] / m[p[2] "," p[1]]
                  if (r >= w) { w = r; at = k } }
              printf "core to core: largest a->b / b->a of the one-way medians %.2f (%s -> %s);" \
                  " target under 1.5\n", w, substr(at, 1, index(at, ",") - 1),
                  substr(at, index(at, ",") + 1) }' "$dir/c2c.csv"
    echo "  command: chase-host --cpu $cpu experiments=c2c c2c.rounds=2000 (the c2c.csv medians)"
fi

if [ "${BENCH_FULL:-0}" != 0 ]; then
    echo
    start=$(date +%s)
    full=$(run full)
    echo "full default run (every experiment): $(($(date +%s) - start)) s wall"
    sed -n 's/^(\([a-z]*\) took \(.*\) s)$/  \1 \2/p' "$full/console.txt" |
        awk '{ printf "  %-10s %8.1f s\n", $1, $2 }'
    echo "  command: chase-host --cpu $cpu (no settings)"
fi
echo
