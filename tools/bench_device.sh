#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Bandwidth and core-to-core figures on a borrowed Linux server in one short run (issue 41):
# chase-host's single-core read, write and copy at an L1, an L2, an LLC and a DRAM size (from
# sysfs) in interleaved rounds beside lmbench's bw_mem and tinymembench, bw_cores (1, 2, 4 ...
# all processors, the peak mixes) beside bw_mem and multiload on every processor, then cores and
# c2c. Needs only the C library on the target: --prepare builds the peers statically here.
#   tools/bench_device.sh --prepare [SRC]  build build/peers/bin/{chase-host,bw_mem,tinymembench,
#       multiload} from build/chase-host's objects and the peers' sources under SRC (default
#       build/peers/src: tinymembench/ (ssvb/tinymembench), lmbench/ (intel/lmbench),
#       multichase/ (google/multichase)); a missing source is said and skipped.
#   tools/bench_device.sh OUT              run; run folders under OUT/runs, the peers' raw output
#       under OUT/peers, OUT/figures.txt ("tool kernel size round gbs") and OUT/summary.txt.
# Knobs (the defaults fit a 16-core server in about 7 minutes; DEV_BUDGET_S bounds the whole):
#   DEV_CPU=0 (the single-core CPU), DEV_ROUNDS=3, DEV_SIZES (default: half of L1d, of L2 and of
#   the LLC, and max(4 x LLC, 256M)), DEV_BUDGET_S=450 (later steps are cut to fit, said),
#   DEV_CORES_MAX (cores' largest chain, default max(2 x LLC, 64M) up to 512M), DEV_CPUS=0 (cores
#   and c2c: all), DEV_TMB_S=120 (tinymembench's cap), DEV_ML_SAMPLES=3 (multiload's -n),
#   ENOUGH=50000 (bw_mem's timing interval in us: set, as lmbench's own scripts set it, so that
#   each bw_mem run does not spend a minute finding one).
# A benchmark, not a test: it judges nothing.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/build/peers/bin

# ---- --prepare: static binaries, built here ----------------------------------------------------

prepare_tinymembench() { # SRC: its own sources compiled at once, stdout line-buffered (it has no
    # flag for it and stdbuf cannot reach a static binary; without it a timed-out run says nothing)
    local s=$1/tinymembench w
    [ -f "$s/main.c" ] || { echo "prepare: no tinymembench source in $s: skipped"; return 0; }
    w=$(mktemp -d)
    {
        echo '#include <stdio.h>'
        echo '__attribute__((constructor)) static void line_buffered(void)'
        echo '{ setvbuf(stdout, NULL, _IOLBF, 0); }'
    } >"$w/line_buffered.c"
    (cd "$s" && cc -O2 -static -o "$bin/tinymembench" main.c util.c asm-opt.c x86-sse2.S \
        arm-neon.S mips-32.S aarch64-asm.S "$w/line_buffered.c" -lm) 2>&1 |
        grep -v 'GNU-stack\|NOTE: This' || true
    rm -rf "$w"
}

prepare_bw_mem() { # SRC: bw_mem and the lmbench library files it needs, nothing else (its
    # bench.h includes <rpc/rpc.h>: glibc's old Sun RPC headers, now libtirpc's; none is linked)
    local s=$1/lmbench/src
    [ -f "$s/bw_mem.c" ] || { echo "prepare: no lmbench source in $s: skipped"; return 0; }
    (cd "$s" && cc -O2 -static -w -I/usr/include/tirpc -DHAVE_uint=1 -DHAVE_int64_t=1 -DHAVE_DRAND48 \
        -DHAVE_SCHED_SETAFFINITY -o "$bin/bw_mem" bw_mem.c lib_timing.c lib_mem.c lib_stats.c \
        lib_sched.c lib_debug.c getopt.c -lm)
}

prepare_multiload() { # SRC: its own Makefile links statically already
    local s=$1/multichase
    [ -f "$s/multiload.c" ] || { echo "prepare: no multichase source in $s: skipped"; return 0; }
    make -C "$s" -s multiload >/dev/null && cp "$s/multiload" "$bin/multiload"
}

prepare() {
    local src=${1:-$root/build/peers/src} b
    mkdir -p "$bin"
    make -C "$root" -s build/chase-host-static && cp "$root/build/chase-host-static" "$bin/chase-host"
    prepare_tinymembench "$src" || echo "prepare: tinymembench did not build"
    prepare_bw_mem "$src" || echo "prepare: bw_mem did not build"
    prepare_multiload "$src" || echo "prepare: multiload did not build"
    for b in "$bin"/*; do
        printf '%-14s %s\n' "$(basename "$b")" "$(file -b "$b" | cut -d, -f1-4)"
    done
}

if [ "${1:-}" = --prepare ]; then
    prepare "${2:-}"
    exit 0
fi
[ $# -eq 1 ] || { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }

# ---- the run --------------------------------------------------------------------------------

out=$1
mkdir -p "$out/runs" "$out/peers"
out=$(cd "$out" && pwd)
host=$bin/chase-host
[ -x "$host" ] || host=$root/build/chase-host
cpu=${DEV_CPU:-0}
rounds=${DEV_ROUNDS:-3}
budget=${DEV_BUDGET_S:-450}
ncpu=$(nproc)
start=$(date +%s)
figures=$out/figures.txt
: >"$figures"
export ENOUGH=${ENOUGH:-50000}
. "$root/tools/bench_lib.sh"

say() { echo "[$(($(date +%s) - start))s] $*" | tee -a "$out/progress.txt"; }
left() { echo $((budget - ($(date +%s) - start))); }

# cache_bytes LEVEL [TYPE]: a cache of CPU $cpu from sysfs, in bytes (0 when not listed).
cache_bytes() {
    local d l t s
    for d in /sys/devices/system/cpu/cpu"$cpu"/cache/index*; do
        l=$(cat "$d/level" 2>/dev/null) || continue
        t=$(cat "$d/type" 2>/dev/null) || continue
        [ "$l" = "$1" ] && [ "$t" != Instruction ] || continue
        [ -z "${2:-}" ] || [ "$t" = "$2" ] || continue
        s=$(cat "$d/size")
        case $s in *K) echo $((${s%K} * 1024)) ;; *M) echo $((${s%M} * 1048576)) ;; *) echo "$s" ;; esac
        return
    done
    echo 0
}
half() { echo $(($1 / 2 / 4096 * 4096)); } # a size that fits: half of a cache, 4K-aligned

l1=$(cache_bytes 1 Data)
l2=$(cache_bytes 2)
llc=0
for lv in 4 3 2; do [ "$llc" -gt 0 ] || llc=$(cache_bytes "$lv"); done
dram=$((4 * llc > 268435456 ? 4 * llc : 268435456))
sizes=${DEV_SIZES:-}
if [ -z "$sizes" ]; then # the levels sysfs lists (a cache it does not list gives no size)
    for c in "$l1" "$l2" "$llc"; do [ "$c" -lt 8192 ] || sizes="$sizes $(half "$c")"; done
    sizes="${sizes# } $dram"
fi
cores_max=${DEV_CORES_MAX:-$((2 * llc > 67108864 ? (2 * llc < 536870912 ? 2 * llc : 536870912) : 67108864))}

{
    echo "== chase bench_device on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
    echo "   $(date -u '+%Y-%m-%d %H:%M UTC'), $ncpu processors, single core on CPU $cpu, load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "   caches (sysfs): L1d $l1, L2 $l2, LLC $llc bytes; sizes: $sizes; $rounds rounds"
    printf '   chase-host: %s; peers:' "$host"
    for p in "$bin"/*; do [ "${p##*/}" = chase-host ] || [ ! -x "$p" ] || printf ' %s' "${p##*/}"; done
    echo
} | tee "$out/machine.txt"

# chase_single ROUND SIZE: chase-host's bandwidth at one size, read, write and copy.
chase_single() {
    local d=$out/runs/single-$1-$2
    "$host" --cpu "$cpu" --out "$d" on_exit=return experiments=bandwidth bandwidth.min="$2" \
        bandwidth.max="$2" bandwidth.kernels=read,write,copy >"$d.log" 2>&1 || return 0
    awk -F, -v r="$1" -v s="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { print "chase", $c["kernel"], s, r, $c["gbs_median"]
          if ($c["kernel"] == "read") print "chase", "read_bytes_per_cycle", s, r,
              $c["bytes_per_cycle_median"] }' "$d/0001/bandwidth.csv" >>"$figures"
}

# pinned: run a peer on CPU $cpu where taskset exists (else as it is, said once).
pinned() {
    if command -v taskset >/dev/null; then taskset -c "$cpu" "$@"; else "$@"; fi
}

# bw_mem_single ROUND SIZE: frd, fwr (every word) and fcp (counted once by bw_mem: doubled).
bw_mem_single() {
    [ -x "$bin/bw_mem" ] || return 0
    local k
    for k in frd:read:1 fwr:write:1 fcp:copy:2; do
        pinned "$bin/bw_mem" -P 1 "$2" "${k%%:*}" 2>&1 | tee -a "$out/peers/bw_mem.txt" |
            awk -v r="$1" -v s="$2" -v k="$k" 'BEGIN { split(k, p, ":") }
                NF == 2 { print "bw_mem", p[2], s, r, p[3] * $2 / 1000 }' >>"$figures"
    done
}

# all_cpus ROUND: every processor reading its share of $dram together: chase-host's bw_cores
# (its scaling 1, 2, 4 ... all and the peak mixes; bw_cores.size is each processor's buffer),
# bw_mem -P, multiload -t.
all_cpus() {
    local d=$out/runs/all-$1 share=$((dram / ncpu / 4096 * 4096))
    "$host" --cpu "$cpu" --out "$d" on_exit=return experiments=bw_cores bw_cores.kernel=read \
        bw_cores.size="$share" >"$d.log" 2>&1 &&
        awk -F, -v r="$1" -v s="$dram" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            $c["table"] == "scaling" { g = $c["gbs_total"] }
            END { if (g) print "chase", "read_all_cpus", s, r, g }' "$d/0001/bw_cores.csv" >>"$figures"
    if [ -x "$bin/bw_mem" ]; then
        "$bin/bw_mem" -P "$ncpu" "$share" frd 2>&1 | tee -a "$out/peers/bw_mem.txt" |
            awk -v r="$1" -v s="$dram" 'NF == 2 { print "bw_mem", "read_all_cpus", s, r, $2 / 1000 }' >>"$figures"
    fi
    if [ -x "$bin/multiload" ]; then # LdAvgMibs: MiB/s over its samples, all threads
        "$bin/multiload" -n "${DEV_ML_SAMPLES:-3}" -t "$ncpu" -m "$share" -l stream-sum 2>&1 |
            tee -a "$out/peers/multiload.txt" |
            awk -F, -v r="$1" -v s="$dram" '
                NR == 1 { for (i = 1; i <= NF; i++) { n = $i; gsub(/[ \t]/, "", n); c[n] = i }; next }
                NR == 2 && c["LdAvgMibs"] { print "multiload", "read_all_cpus", s, r, $c["LdAvgMibs"] * 1048576 / 1e9 }' >>"$figures"
    fi
}

# tinymembench: its fixed 32 MiB copy and fill tables once, the best line of each (copy
# doubled), within what the budget leaves.
tinymembench() {
    local cap=${DEV_TMB_S:-120}
    [ -x "$bin/tinymembench" ] || return 0
    [ "$(left)" -gt 60 ] || { say "tinymembench left out: the budget is spent"; return 0; }
    [ "$(left)" -gt $((cap + 30)) ] || cap=$(($(left) - 30))
    say "tinymembench (at most ${cap}s)"
    timeout "$cap" "$bin/tinymembench" 2>/dev/null | tee "$out/peers/tinymembench.txt" |
        awk '/MB\/s/ && /copy/ && !/prefetch/ { v = $(NF - 1) + 0; if ($0 ~ /\(/) v = $(NF - 2) + 0
                 if (v > c) c = v }
             /MB\/s/ && /fill/ { v = $(NF - 1) + 0; if ($0 ~ /\(/) v = $(NF - 2) + 0
                 if (v > f) f = v }
             /Memory latency/ { exit }
             END { if (c) print "tinymembench", "copy", 33554432, 1, 2 * c / 1000
                   if (f) print "tinymembench", "write", 33554432, 1, f / 1000 }' >>"$figures" || true
}

for r in $(seq 1 "$rounds"); do
    say "round $r of $rounds: single core at $sizes"
    for s in $sizes; do
        chase_single "$r" "$s"
        bw_mem_single "$r" "$s"
    done
    say "round $r of $rounds: all $ncpu processors reading $dram bytes together"
    all_cpus "$r"
done

if [ "$(left)" -gt 120 ]; then
    say "bw_cores at L2: 1, 2, 4 ... $ncpu processors, and the peak mixes"
    "$host" --cpu "$cpu" --out "$out/runs/bw_cores-L2" on_exit=return experiments=bw_cores \
        bw_cores.level=L2 >"$out/runs/bw_cores-L2.log" 2>&1 || say "bw_cores at L2 failed"
else
    say "bw_cores at L2 left out: the budget is spent"
fi
if [ "$(left)" -gt 90 ]; then
    say "cores (16K..$cores_max, one point per octave) and c2c on ${DEV_CPUS:-all} processors"
    timeout $(($(left) - 30)) "$host" --cpu "$cpu" --out "$out/runs/cores-c2c" on_exit=return \
        experiments=cores,c2c cores.cpus="${DEV_CPUS:-0}" c2c.cpus="${DEV_CPUS:-0}" \
        cores.min=16K cores.max="$cores_max" cores.points_per_octave=1 point_max_ms=200 \
        c2c.rounds=2000 >"$out/runs/cores-c2c.log" 2>&1 || say "cores and c2c failed or were cut"
else
    say "cores and c2c left out: the budget is spent"
fi
tinymembench

say "writing the summary"
{
    cat "$out/machine.txt"
    echo
    echo "GB/s = 10^9 bytes moved per second (a copy: read + written; bw_mem's copy and"
    echo "tinymembench's counted once by them, doubled here). read_all_cpus: every processor"
    echo "reading its share of $dram bytes together."
    echo
    figures_table "$figures" "$rounds"
    echo
    grep -h -E '^(L1 peak|DRAM peak)' "$out"/runs/single-1-*/0001/console.txt 2>/dev/null |
        sort -u || true
    for f in "$out"/runs/{all-*,bw_cores-*,cores-*}/0001/console.txt; do
        [ -f "$f" ] || continue
        echo
        echo "-- $(basename "$(dirname "$(dirname "$f")")"): the run's summary"
        sed -n '/^== summary/,$p' "$f" | sed '1d'
    done
} >"$out/summary.txt"
say "done: $out/summary.txt"
