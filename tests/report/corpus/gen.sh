#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes a corpus of latency curves with known levels: gen.sh OUTDIR FIRST_SEED COUNT.
# Each seed draws a hierarchy (2 to 4 caches, 16K..256M, inclusive or exclusive, step
# sharpness 1.5..5), a noise (multiplicative 0.5..4%, wild single points, a contention ramp
# in memory, a TLB step of a 4K-page curve) and writes the curve in each input format
# chase-report reads: chase CSV (4 points per octave), random-chase (1.5x steps), lmbench
# lat_mem_rd (MiB sizes), tinymembench (one point per octave, time added over L1, its dual read
# drawn apart with noise and wild points of its own; also cut at
# 64 MiB, where tinymembench's own range ends, as tinymembench64) and multichase -v (one run
# per size). A curve with the TLB step carries 4K pages where its format says (page_bytes 4096,
# tinymembench's [MADV_NOHUGEPAGE] table, multichase's page_size), the others 2M (huge pages).
# OUTDIR/truth.tsv lists per file the true level sizes, then "tlb=262144" when the curve has the
# TLB step (a level there is neither required nor invented when the report does not call it a
# cache) and the hierarchy drawn.
# Reproducible: every random number comes from awk's srand(seed). CORPUS_NO_WILD=1 writes each
# wild point at its true value (the same random numbers drawn); CORPUS_WILD_LOG=FILE appends a
# line per wild point: the curve's file (as truth.tsv names it; tinymembench64's are its
# tinymembench file's), the size and the factor (wildclass.awk reads it).
set -eu
out=$1
first=$2
count=$3
mkdir -p "$out"
: >"$out/truth.tsv"

for ((seed = first; seed < first + count; seed++)); do
    # One hierarchy: "nlev sharp exclusive noise wild ramp tlb L1..Lk DRAM | S1..Sk"
    spec=$(awk -v seed="$seed" 'BEGIN {
        srand(seed); k = 2 + int(rand() * 3); lat = 0.8 + rand() * 1.2; lo = 14 + rand() * 1.5
        for (i = 1; i <= k; i++) {
            L[i] = lat; S[i] = 2 ^ lo
            lo += 2 + rand() * (i < k ? 3 : 2.5); if (lo > 28) lo = 28
            lat *= 2.2 + rand() * 3 }
        dram = lat * (1 + rand()); if (dram < L[k] * 2) dram = L[k] * 2
        sharp = 1.5 + rand() * 3.5; excl = rand() < 0.3
        noise = 0.005 + rand() * 0.035; wild = rand() < 0.5; ramp = rand() < 0.4; tlb = rand() < 0.4
        printf "%d %.2f %d %.4f %d %d %d", k, sharp, excl, noise, wild, ramp, tlb
        for (i = 1; i <= k; i++) printf " %.3f", L[i]; printf " %.3f |", dram
        for (i = 1; i <= k; i++) printf " %.0f", int(S[i] / 4096) * 4096 }')
    # model SALT FILE [dual] < sizes: the model's latency at each size with this seed's noise (FILE:
    # the curve's file, for the wild points' log). With "dual", tinymembench's dual random read:
    # each level above L1 (and memory) costs 1.1..1.8 times as much over L1 (drawn per level), and
    # the noise and wild points are its own, as in a loop measured apart from the single read's.
    model() {
        awk -v seed="$seed" -v spec="$spec" -v salt="$1" -v nowild="${CORPUS_NO_WILD:-0}" \
            -v wildlog="${CORPUS_WILD_LOG:-}" -v file="$id.$2" -v dual="${3:-}" '
        BEGIN { srand(seed * 31 + salt); split(spec, parts, "|"); nf = split(parts[1], a, " ")
            k = a[1]; p = a[2]; excl = a[3]; noise = a[4]; wild = a[5]; ramp = a[6]; tlb = a[7]
            for (i = 1; i <= k + 1; i++) L[i] = a[7 + i]
            if (dual) for (i = 2; i <= k + 1; i++) L[i] = L[1] + (L[i] - L[1]) * (1.1 + rand() * 0.7)
            split(parts[2], s, " "); cum = 0
            for (i = 1; i <= k; i++) { cum += s[i]; S[i] = excl ? cum : s[i] } }
        function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307 * rand()) }
        function lat(n,   e, h, hp, i) {
            e = 0; hp = 0
            for (i = 1; i <= k; i++) { h = S[i] >= n ? 1 : (S[i] / n) ^ p; e += L[i] * (h - hp); hp = h }
            return e + L[k + 1] * (1 - hp) }
        { n = $1; v = lat(n) * exp(noise * gauss())
          if (ramp && n > 2 * S[k]) v *= 1 + 0.03 * log(n / (2 * S[k])) / log(2)
          if (tlb && n > 262144) v += 0.12 * L[1] + 0.02 * v
          if (wild && rand() < 0.04) { wf = rand() < 0.5 ? 0.35 : 2.5
              if (!nowild) { v *= wf; if (wildlog != "") print file, n, wf >>wildlog } }
          printf "%s %.4f\n", n, v }'
    }
    sizes() { awk -v a="$1" -v b="$2" -v k="$3" 'BEGIN { for (x = a; x <= b + 1e-9; x += 1 / k) printf "%.0f\n", 2 ^ x }'; }
    truth=$(echo "$spec" | awk -F'|' '{ split($1, a, " "); n = split($2, s, " "); cum = 0
        for (i = 1; i <= n; i++) { cum += s[i]; printf "%s%.0f", (i > 1 ? "," : ""), (a[3] ? cum : s[i]) } }')
    top=$(echo "$spec" | awk -F'|' '{ n = split($2, s, " "); x = log(s[n] * 16) / log(2); if (x < 26) x = 26; if (x > 31) x = 31; printf "%d", x }')
    id=$(printf "s%04d" "$seed")
    # The TLB step is a 4K-page TLB's (64 entries x 4K): such a curve is labelled with 4K pages.
    if [ "$(echo "$spec" | awk '{ print $7 }')" = 1 ]; then
        page=4096 tiny='[MADV_NOHUGEPAGE]' mpage='4096 bytes' reach='tlb=262144 '
    else
        page=2097152 tiny='[MADV_HUGEPAGE]' mpage='2097152 bytes (THP)' reach=''
    fi
    mkdir -p "$out/$id.chase"

    { echo "size_bytes,stride_bytes,page_bytes,ns_median"
      sizes 12 "$top" 4 | model 1 chase/random.csv | awk -v pg="$page" '{ printf "%d,64,%d,%s\n", $1, pg, $2 }'; } >"$out/$id.chase/random.csv"
    { echo "   memsize  time in ns"
      awk -v t="$top" 'BEGIN { for (s = 1024; s <= 2 ^ t; s *= 2) { print s; print s * 1.5 } }' |
          model 2 random-chase.txt | awk '{ printf " %9u  %10.5f\n", $1, $2 }'; } >"$out/$id.random-chase.txt"
    { echo "\"stride=64"; sizes 10 "$top" 4 | model 3 lat_mem_rd.txt | awk '{ printf "%.5f %.3f\n", $1 / 1048576, $2 }'; echo; } \
        >"$out/$id.lat_mem_rd.txt"
    l1=$(echo "$spec" | awk '{ print $8 }')
    { echo "tinymembench v0.4 (simple benchmark for memory throughput and latency)"; echo
      echo "block size : single random read / dual random read, $tiny"
      paste -d' ' <(sizes 10 "$top" 1 | model 4 tinymembench.txt) <(sizes 10 "$top" 1 | model 6 tinymembench.dual dual) |
          awk -v l1="$l1" '{ t = $2 - l1; if (t < 0.05) t = 0; u = $4 - l1; if (u < 0.05) u = 0
          printf "%10d : %6.1f ns          / %7.1f ns \n", $1, t, u }'; echo; } >"$out/$id.tinymembench.txt"
    # tinymembench's own range ends at 64 MiB: the same curve cut there (a level needs an
    # octave beyond it to be required; larger true levels are neither required nor invented).
    sed -n '1,/^  *67108864 :/p' "$out/$id.tinymembench.txt" >"$out/$id.tinymembench64.txt"
    beyond=$(echo "$truth" | tr , '\n' | awk '$1 > 33554432' | paste -sd, -)
    { sizes 12 "$top" 1 | model 5 multichase.txt | while read -r size ns; do
          printf 'nr_threads = 1\npage_size = %s\ntotal_memory = %s (%s MiB)\n' "$mpage" \
              "$size" "$(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1048576 }')"
          printf 'stride = 256\ntlb_locality = 262144\nchase = simple\n'
          printf 'samples (one column per thread, one row per sample):\n  %s  avg=%s\n%s\n' "$ns" "$ns" "$ns"
      done; } >"$out/$id.multichase.txt"
    for f in chase/random.csv random-chase.txt lat_mem_rd.txt tinymembench.txt multichase.txt; do
        printf '%s\t%s\t%s%s\n' "$id.$f" "$truth" "$reach" "$spec" >>"$out/truth.tsv"
    done
    printf '%s\t%s\tskip=%s %s%s\n' "$id.tinymembench64.txt" \
        "$(echo "$truth" | tr , '\n' | awk '$1 <= 33554432' | paste -sd, -)" "$beyond" "$reach" "$spec" \
        >>"$out/truth.tsv"
done
