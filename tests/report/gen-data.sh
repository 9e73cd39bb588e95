#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes the small test inputs in tests/report/data/ from the latency model with known levels,
# in the shape of each tool's output (chase runs, lmbench, random-chase, tinymembench,
# multichase). The files are committed; run this only to regenerate them.
set -eu
cd "$(dirname "$0")/data"

# model SEED NOISE SHARP "L1 L2 ... DRAM (ns)" "S1 S2 ... (bytes)": prints "size ns" for sizes on stdin.
model() {
    awk -v seed="$1" -v noise="$2" -v p="$3" -v lats="$4" -v sizes="$5" '
    BEGIN { srand(seed); m = split(lats, L, " "); split(sizes, S, " ") }
    function gauss() { return sqrt(-2 * log(1 - rand())) * cos(6.283185307 * rand()) }
    function lat(n,   e, h, hp, i) {
        e = 0; hp = 0
        for (i = 1; i < m; i++) { h = S[i] >= n ? 1 : (S[i] / n) ^ p; e += L[i] * (h - hp); hp = h }
        return e + L[m] * (1 - hp)
    }
    { printf "%s %.4f\n", $1, lat($1) * exp(noise * gauss()) }'
}

# sizes FROM_LOG2 TO_LOG2 PER_OCTAVE
sizes() { awk -v a="$1" -v b="$2" -v k="$3" 'BEGIN { for (x = a; x <= b + 1e-9; x += 1 / k) printf "%.0f\n", 2 ^ x }'; }

# lmbench lat_mem_rd: "stride=N blocks, sizes in MiB with five decimals.
{
    for stride in 64 256; do
        echo "\"stride=$stride"
        sizes 9 26 4 | model $stride 0.02 3 "1.1 3.6 12.5 78" "32768 262144 8388608" |
            awk '{ printf "%.5f %.3f\n", $1 / 1048576, $2 * ('$stride' == 64 ? 0.9 : 1) }'
        echo
    done
} >lat_mem_rd.txt

# afborchert random-chase: header, then memsize (1.5x steps) and ns.
{
    echo "   memsize  time in ns"
    awk 'BEGIN { for (s = 1024; s <= 134217728; s *= 2) { print s; print s * 1.5 } }' |
        model 7 0.015 4 "1.35 3.0 17.5 62" "32768 262144 12582912" |
        awk '{ printf " %9u  %10.5f\n", $1, $2 }'
} >random-chase.txt

# tinymembench: time added to an L1 hit (here 1.5 ns), a 4K-page table with TLB steps
# (at 128K and 8M) and a huge-page one without; a two-level machine (L1 32K, L2 1M).
{
    echo "tinymembench v0.4 (simple benchmark for memory throughput and latency)"
    echo
    echo " C copy                                               :   5120.4 MB/s"
    echo
    for tag in NOHUGEPAGE HUGEPAGE; do
        echo "block size : single random read / dual random read, [MADV_$tag]"
        sizes 10 26 1 | model 3 0.01 4 "1.5 6.0 105" "32768 1048576" |
            awk -v tlb=$tag '{ t = $2; if (tlb == "NOHUGEPAGE") { if ($1 > 131072) t += 2.5;
                                if ($1 > 8388608) t += 30 }
                               t -= 1.5; if (t < 0.05) t = 0;
                               printf "%10d : %6.1f ns          / %7.1f ns \n", $1, t, t * 1.35 }'
        echo
    done
} >tinymembench.txt

# multichase -v, one run per size, 4K pages then THP: settings, samples, then the result.
{
    for page in "4096 bytes" "2097152 bytes (THP)"; do
        sizes 14 29 1 | model 11 0.01 3 "1.2 4.4 15 88" "49152 1310720 25165824" |
            while read -r size ns; do
                extra=$(awk -v s="$size" -v p="$page" 'BEGIN { print (p ~ /^4096/ && s > 8388608) ? 9 : 0 }')
                res=$(awk -v a="$ns" -v b="$extra" 'BEGIN { printf "%.3f", a + b }')
                echo "nr_threads = 1"
                echo "page_size = $page"
                echo "total_memory = $size ($(awk -v s="$size" 'BEGIN { printf "%.1f", s / 1048576 }') MiB)"
                echo "stride = 256"
                echo "tlb_locality = 262144"
                echo "chase = simple"
                echo "samples (one column per thread, one row per sample):"
                echo "  $res  avg=$res"
                echo "  $res  avg=$res"
                echo "$res"
            done
    done
} >multichase.txt

# A chase result folder with every experiment: a three-level machine (L1 48K, L2 2M, L3 32M)
# seen through 2M pages, with prefetchers tracking 4 streams up to 256-byte strides, LRU-like
# LLC insertion, scan resistance up to about 0.6 of the LLC and parallelism saturating near 6.
run=run-synth
mkdir -p $run
common=hops,reps,tsc_min,tsc_median,tsc_p90,ns_min,ns_median,ns_p90,core_cycles_median
# row NS: the common columns for a point of NS ns per load (TSC 2.5 GHz, core 3.0 GHz).
row='function row(ns) { return sprintf("100000,5,%.3f,%.3f,%.3f,%.4f,%.4f,%.4f,%.3f", ns * 2.45, ns * 2.5, ns * 2.6, ns * 0.98, ns, ns * 1.04, ns * 3.0) }'
m3='function lat(n,   e, h, hp, i, L, S) { split("1.1 4.3 18 92", L, " "); split("49152 2097152 33554432", S, " ")
    e = 0; hp = 0; for (i = 1; i < 4; i++) { h = S[i] >= n ? 1 : (S[i] / n) ^ 3; e += L[i] * (h - hp); hp = h }
    return e + L[4] * (1 - hp) }
function noise() { return exp(0.012 * sqrt(-2 * log(1 - rand())) * cos(6.283185307 * rand())) }'
awk "BEGIN { srand(5) } $row $m3"'
BEGIN { print "size_bytes,stride_bytes,offset_bytes,slots,build_ns,'$common',core_per_tsc"
    for (x = 12; x <= 30; x += 0.25) { s = int(2 ^ x / 64) * 64
        printf "%d,64,0,%d,1000,%s,1.2\n", s, s / 64, row(lat(s) * noise()) } }' >$run/random.csv
awk 'BEGIN { print "size_bytes,rep,hops,tsc_total,tsc_per_access,ns_per_access"
    for (r = 0; r < 5; r++) printf "4096,%d,100000,275000,2.75,1.10\n", r }' >$run/random.samples.csv
awk "BEGIN { srand(6) } $row $m3"'
BEGIN { print "page_bytes,size_bytes,slots," "'$common'"
    for (p = 1; p <= 3; p++) { page = p == 1 ? 4096 : p == 2 ? 2097152 : 1073741824
        for (x = 16; x <= 32; x += 0.5) { s = 2 ^ x; ns = lat(s / 64)
            if (page == 4096 && s > 262144) ns += 1.5
            if (page == 4096 && s > 6291456) ns += 25
            if (page == 2097152 && s > 67108864) ns += 4
            printf "%d,%.0f,%.0f,%s\n", page, s, s / 4096, row(ns * noise()) } } }' >$run/tlb.csv
awk "BEGIN { srand(7) } $row"'
BEGIN { print "size_bytes,stride_bytes,slots,page_bytes," "'$common'"
    for (st = 8; st <= 2048; st *= 2) { ns = st <= 256 ? 1.2 + st / 64 : st == 512 ? 60 : 92
        printf "67108864,%d,%d,2097152,%s\n", st, 67108864 / st, row(ns) } }' >$run/linear.csv
awk 'BEGIN { print "streams,stride_bytes,size_bytes,gib_per_s,ns_per_access_per_chain,'$common'"
    for (st = 64; st <= 512; st *= 2) for (k = 1; k <= 8; k++) {
        g = (k < 4 ? k : 4) * 6.0 * 64 / st + (k > 4 ? 0.05 * (k - 4) : 0); ns = 8 * k / g
        printf "%d,%d,134217728,%.4f,%.3f,100000,5,1,1,1,%.3f,%.3f,%.3f,%.3f\n", k, st, g, ns, ns, ns, ns, ns * 3 } }' >$run/fused.csv
awk "BEGIN { srand(8) } $row $m3"'
BEGIN { print "size_bytes,lag_slots,stride_bytes,slots," "'$common'"
    for (x = 20; x <= 30; x += 0.5) { s = 2 ^ x; r = lat(s); d = s > 33554432 ? (r + 18) / 2 * 1.05 : r
        printf "%d,65536,64,%d,%s\n", s, s / 64, row(d * noise()) } }' >$run/dual.csv
awk "$row"'
BEGIN { print "small_bytes,huge_bytes,slots," "'$common'"
    for (x = 16; x <= 26; x += 0.5) { s = 2 ^ x; ns = s <= 8388608 ? 45 : 45 + 50 * (log(s / 8388608) / log(4))
        if (ns > 95) ns = 95
        printf "%d,1073741824,%d,%s\n", s, s / 64, row(ns) } }' >$run/scan.csv
awk "BEGIN { srand(9) } $row $m3"'
BEGIN { print "stride_bytes,size_bytes,slots," "'$common'"
    for (st = 64; st <= 1024; st *= 4) for (x = 12; x <= 28; x += 0.5) { s = 2 ^ x
        f = st == 64 ? 0.6 : st == 256 ? 1.0 : 1.05
        printf "%d,%d,%d,%s\n", st, s, s / st, row(lat(s) * f * noise()) } }' >$run/ring.csv
awk "$row"'
BEGIN { print "direction,offset_bytes,stride_bytes,size_bytes,slots," "'$common'"
    for (d = 0; d < 2; d++) for (i = 0; i < 64; i++) { o = d ? (63 - i) * 64 : i * 64
        ns = 60 + (o * 7 % 5) * 0.3; if (o == 0 || o == 2048) ns = 92
        if (d && o >= 1024 && o <= 1216) ns = 85
        printf "%s,%d,131072,45088768,344,%s\n", d ? "down" : "up", o, row(ns) } }' >$run/offset.csv
awk 'BEGIN { print "chains,size_bytes,stride_bytes,gib_per_s,ns_per_access_per_chain,parallelism,'$common'"
    for (n = 1; n <= 10; n++) { p = n / sqrt(1 + (n / 6.5) ^ 2) * 1.19; if (n == 1) p = 1
        ns = 92 * n / p; g = 8 * n / ns
        printf "%d,268435456,64,%.4f,%.3f,%.3f,100000,5,1,1,1,%.3f,%.3f,%.3f,%.3f\n", n, g, ns, p, ns, ns, ns, ns * 3 } }' >$run/parallel.csv
printf 'chase 0.1.0 (synthetic run for chase-report tests)\n' >$run/console.txt
cat >$run/run.json <<'JSON'
{
  "tool": "chase",
  "version": "0.1.0",
  "status": "complete",
  "platform": "uefi",
  "simulated": false,
  "firmware": {"vendor": "Test Firmware", "revision": 65536},
  "cpu": {"vendor": "GenuineIntel", "brand": "Synthetic Test CPU @ 3.00GHz", "family": 6,
          "model": 151, "stepping": 2, "rdtscp": true, "page_1g": true},
  "cache_source": "cpuid 4",
  "caches": [
    {"level": 1, "type": "data", "size_bytes": 49152, "ways": 12, "line_bytes": 64, "sets": 64, "shared_by": 1},
    {"level": 1, "type": "instruction", "size_bytes": 32768, "ways": 8, "line_bytes": 64, "sets": 64, "shared_by": 1},
    {"level": 2, "type": "unified", "size_bytes": 2097152, "ways": 16, "line_bytes": 64, "sets": 2048, "shared_by": 1},
    {"level": 3, "type": "unified", "size_bytes": 33554432, "ways": 16, "line_bytes": 64, "sets": 32768, "shared_by": 16}
  ],
  "hypervisor": false,
  "memory_total_bytes": 17179869184,
  "tsc": {"hz": 2500000000, "method": "acpi pm timer", "invariant": true, "spread": 0.00002},
  "core_clock": {"core_per_tsc": 1.2, "core_hz": 3000000000, "method": "dependent add chain"},
  "buffer": {"phys_addr": 4294967296, "size_bytes": 4294967296, "page_size_bytes": 2097152},
  "page_size_bytes": 2097152,
  "config": {
    "experiments": ["random", "linear", "fused", "dual", "scan", "ring", "offset", "parallel", "tlb"],
    "profile": "full", "on_exit": "shutdown", "seed": 1, "reps": 5,
    "random": {"min": 4096, "max": 1073741824, "points_per_octave": 4, "stride": 64, "offset": 0},
    "tlb": {"min": 65536, "max": 4294967296, "pages": ["4K", "2M", "1G"]}
  },
  "start_time": "2026-11-20T10:00:00Z",
  "end_time": "2026-11-20T10:20:00Z",
  "experiments": {"random": "ok", "linear": "ok", "fused": "ok", "dual": "ok", "scan": "ok",
                  "ring": "ok", "offset": "ok", "parallel": "ok", "tlb": "ok"}
}
JSON
