#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes the corpus' chase-sim curves (sim/, made by sim-curves.sh) with noise in every input
# format: gen-sim.sh OUTDIR FIRST_SEED COUNT (seeds missing from sim/ are skipped). Per seed
# (awk's srand, reproducible): multiplicative noise 0.5..4%, wild single points (0.35x or 2.5x)
# on 4% of the points of half the curves, a contention ramp of 3% per octave beyond twice the
# last cache on 40%. Formats as gen.sh's, named sNNNN.sim.*; sizes between the simulated ones
# (random-chase's 1.5x steps) are interpolated in log-log. Appends to OUTDIR/truth.tsv: file,
# cache sizes, "tlb=REACHES" (steps at a TLB's reach: neither required nor invented) and the
# hierarchy, and the caches' half-miss sizes (sim-curves.sh). A hierarchy with TLBs was simulated
# on 4K pages and is labelled so where a format says (page_bytes 4096, tinymembench's
# [MADV_NOHUGEPAGE] table, multichase's page_size); the others on 2M pages (huge pages).
# CORPUS_NO_WILD and CORPUS_WILD_LOG as gen.sh's.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=$1
first=$2
count=$3
mkdir -p "$out"
touch "$out/truth.tsv"

while IFS=$'\t' read -r id truth reach desc half; do
    seed=$((10#${id#s}))
    ((seed >= first && seed < first + count)) || continue
    csv=$here/sim/$id.csv
    last=${truth##*,}
    # curve SALT FILE [dual] < sizes: the simulated curve at each size, with this seed's noise (FILE:
    # the curve's file, for the wild points' log). With "dual", tinymembench's dual random read: the
    # time over L1 times 1.1..1.8, a factor that moves with ln latency from one drawn at L1's to
    # one drawn at the curve's top, and noise and wild points of its own (a loop measured apart).
    curve() {
        awk -v seed="$seed" -v salt="$1" -v last="$last" -v csv="$csv" -v nowild="${CORPUS_NO_WILD:-0}" \
            -v wildlog="${CORPUS_WILD_LOG:-}" -v file="$id.sim.$2" -v dual="${3:-}" '
        BEGIN { srand(seed * 37 + 11); noise = 0.005 + rand() * 0.035; wild = rand() < 0.5
            ramp = rand() < 0.4; srand(seed * 31 + salt); n = 0
            while ((getline l < csv) > 0) { if (l ~ /^size/) continue; split(l, f, ",")
                X[n] = log(f[1]) / log(2); Y[n++] = log(f[2]) }
            if (dual) { q0 = 1.1 + rand() * 0.7; q1 = 1.1 + rand() * 0.7
                for (i = 0; i < n; i++) { t = Y[n - 1] > Y[0] ? (Y[i] - Y[0]) / (Y[n - 1] - Y[0]) : 0
                    Y[i] = log(exp(Y[0]) + (exp(Y[i]) - exp(Y[0])) * (q0 + (q1 - q0) * t)) } } }
        function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307 * rand()) }
        function at(x,   i, t) {
            if (x <= X[0]) return exp(Y[0])
            for (i = 1; i < n; i++) if (X[i] >= x) break
            if (i >= n) return exp(Y[n - 1])
            t = (x - X[i - 1]) / (X[i] - X[i - 1]); return exp(Y[i - 1] + t * (Y[i] - Y[i - 1])) }
        { s = $1; v = at(log(s) / log(2)) * exp(noise * gauss())
          if (ramp && s > 2 * last) v *= 1 + 0.03 * log(s / (2 * last)) / log(2)
          if (wild && rand() < 0.04) { wf = rand() < 0.5 ? 0.35 : 2.5
              if (!nowild) { v *= wf; if (wildlog != "") print file, s, wf >>wildlog } }
          printf "%s %.4f\n", s, v }'
    }
    # sizes FROM TO PER_OCTAVE (log2 bytes)
    sizes() { awk -v a="$1" -v b="$2" -v k="$3" 'BEGIN { for (x = a; x <= b + 1e-9; x += 1 / k) printf "%.0f\n", 2 ^ x }'; }
    top=$(awk -F, 'END { printf "%.4f", log($1) / log(2) }' "$csv")
    if [ "$reach" != - ]; then
        page=4096 tiny='[MADV_NOHUGEPAGE]' mpage='4096 bytes'
    else
        page=2097152 tiny='[MADV_HUGEPAGE]' mpage='2097152 bytes (THP)'
    fi
    mkdir -p "$out/$id.sim.chase"
    { echo "size_bytes,stride_bytes,page_bytes,ns_median"
      awk -F, 'NR > 1 { print $1 }' "$csv" | curve 1 chase/random.csv | awk -v pg="$page" '{ printf "%d,64,%d,%s\n", $1, pg, $2 }'; } \
        >"$out/$id.sim.chase/random.csv"
    { echo "   memsize  time in ns"
      awk -v t="$top" 'BEGIN { for (s = 4096; s <= 2 ^ t; s *= 2) { print s; if (s * 1.5 <= 2 ^ t) print s * 1.5 } }' |
          curve 2 random-chase.txt | awk '{ printf " %9u  %10.5f\n", $1, $2 }'; } >"$out/$id.sim.random-chase.txt"
    { echo "\"stride=64"; sizes 12 "$top" 4 | curve 3 lat_mem_rd.txt | awk '{ printf "%.5f %.3f\n", $1 / 1048576, $2 }'; echo; } \
        >"$out/$id.sim.lat_mem_rd.txt"
    l1=$(awk -F, 'NR == 2 { print $2 }' "$csv")
    { echo "tinymembench v0.4 (simple benchmark for memory throughput and latency)"; echo
      echo "block size : single random read / dual random read, $tiny"
      paste -d' ' <(sizes 12 "$top" 1 | curve 4 tinymembench.txt) <(sizes 12 "$top" 1 | curve 6 tinymembench.dual dual) |
          awk -v l1="$l1" '{ t = $2 - l1; if (t < 0.05) t = 0; u = $4 - l1; if (u < 0.05) u = 0
          printf "%10d : %6.1f ns          / %7.1f ns \n", $1, t, u }'; echo; } >"$out/$id.sim.tinymembench.txt"
    { sizes 12 "$top" 1 | curve 5 multichase.txt | while read -r size ns; do
          printf 'nr_threads = 1\npage_size = %s\ntotal_memory = %s (%s MiB)\n' "$mpage" \
              "$size" "$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1048576 }')"
          printf 'stride = 256\ntlb_locality = 262144\nchase = simple\n'
          printf 'samples (one column per thread, one row per sample):\n  %s  avg=%s\n%s\n' "$ns" "$ns" "$ns"
      done; } >"$out/$id.sim.multichase.txt"
    for f in chase/random.csv random-chase.txt lat_mem_rd.txt tinymembench.txt multichase.txt; do
        printf '%s\t%s\ttlb=%s %s\t%s\n' "$id.sim.$f" "$truth" "${reach#-}" "$desc" "$half" \
            >>"$out/truth.tsv"
    done
done <"$here/sim/truth.tsv"
