#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Single-core bandwidth side by side with peers (`make bench`, issue 41): chase-host's bandwidth
# experiment and, where built or installed, likwid-bench (Debian's likwid), lmbench's bw_mem,
# tinymembench and multichase's multiload, in three interleaved rounds at an L1, an L2 and a
# DRAM size, all pinned to one CPU; then the all-processor DRAM read (chase-host's bw_cores
# beside the peers run on every CPU). Every figure is GB/s = 10^9 bytes moved by the program per
# second (a copy counts what it reads and what it writes; peers that count a copy once are
# doubled; multiload's MiB/s are converted). Prints each median of three and its spread
# (min-max), and chase's L1 read in bytes per core cycle.
#   tools/bench_bw.sh [path/to/chase-host]
#   BW_CPU=N (default 0), BW_PEERS_DIR (default build/peers: tinymembench/tinymembench,
#   lmbench/src/bw_mem, multichase/ (google/multichase's source: multiload is built there
#   with its own Makefile when missing)), BW_SIZES="16384 262144 268435456", BW_ROUNDS=3,
#   BW_ALL_BYTES=268435456 (what all processors read together in the all-processor read: each
#   its share, in chase-host and in every peer alike),
#   BW_MULTILOAD_SAMPLES=3 (multiload's -n: about 12 s a run), ENOUGH=50000 (bw_mem's timing
#   interval in us, set as lmbench's own scripts set it: found anew, it costs a minute a run).
# A benchmark, not a test: it judges nothing.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/tools/bench_lib.sh"
host=${1:-$root/build/chase-host}
[ -x "$host" ] || make -C "$root" -s build/chase-host
cpu=${BW_CPU:-0}
peers=${BW_PEERS_DIR:-$root/build/peers}
sizes=${BW_SIZES:-16384 262144 268435456}
rounds=${BW_ROUNDS:-3}
all_bytes=${BW_ALL_BYTES:-268435456}
ml_samples=${BW_MULTILOAD_SAMPLES:-3}
ncpu=$(nproc)
export ENOUGH=${ENOUGH:-50000}
# multiload from multichase's source, built here at bench time as the other peers were
if [ ! -x "$peers/multichase/multiload" ] && [ -f "$peers/multichase/multiload.c" ]; then
    echo "building multiload in $peers/multichase"
    make -C "$peers/multichase" -s multiload >/dev/null 2>&1 || echo "bench: multiload did not build" >&2
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/chase-bw.XXXXXX")
trap 'rm -rf "$work"' EXIT
out=$work/figures # lines: "tool kernel size round gbs"

echo "== single-core bandwidth on $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //')"
echo "   $(date -u '+%Y-%m-%d %H:%M UTC'), CPU $cpu, load $(cut -d' ' -f1-3 /proc/loadavg)"

chase() { # round size
    "$host" --cpu "$cpu" --out "$work/chase-$1-$2" experiments=bandwidth bandwidth.min="$2" \
        bandwidth.max="$2" bandwidth.kernels=read,write,copy >/dev/null 2>&1 || return 0
    awk -F, -v r="$1" -v s="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { print "chase", $c["kernel"], s, r, $c["gbs_median"]
          if ($c["kernel"] == "read") print "chase", "read_bytes_per_cycle", s, r,
              $c["bytes_per_cycle_median"]
          print r, s, $c["kernel"], $c["width_bits"], $c["widths_gbs"] >>widths }' \
        widths="$work/widths" "$work/chase-$1-$2/0001/bandwidth.csv" >>"$out"
}

likwid() { # round size: load, store, copy (likwid counts both streams of a copy)
    command -v likwid-bench >/dev/null || return 0
    local t k
    for t in load:read store:write copy:copy; do
        k=${t#*:}
        likwid-bench -t "${t%%:*}_avx512" -w "N:$(($2 / 1024))kB:1" 2>/dev/null |
            awk -v r="$1" -v s="$2" -v k="$k" '/^MByte\/s:/ { print "likwid-bench", k, s, r, $2 / 1000 }' \
            >>"$out" || true
    done
}

bw_mem() { # round size: frd, fwr (every word) and fcp (counted once: doubled)
    local b=$peers/lmbench/src/bw_mem
    [ -x "$b" ] || return 0
    taskset -c "$cpu" "$b" -P 1 "$2" frd 2>&1 | awk -v r="$1" -v s="$2" '{ print "bw_mem", "read", s, r, $2 / 1000 }' >>"$out"
    taskset -c "$cpu" "$b" -P 1 "$2" fwr 2>&1 | awk -v r="$1" -v s="$2" '{ print "bw_mem", "write", s, r, $2 / 1000 }' >>"$out"
    taskset -c "$cpu" "$b" -P 1 "$2" fcp 2>&1 | awk -v r="$1" -v s="$2" '{ print "bw_mem", "copy", s, r, 2 * $2 / 1000 }' >>"$out"
}

tinymem() { # round: its 32 MiB copy and fill tables, the best line of each (copy doubled)
    local b=$peers/tinymembench/tinymembench
    [ -x "$b" ] || return 0
    timeout 150 stdbuf -oL taskset -c "$cpu" "$b" 2>/dev/null |
        awk -v r="$1" '/MB\/s/ && /copy/ && !/prefetch/ { v = $(NF - 1) + 0; if ($0 ~ /\(/) v = $(NF - 2) + 0
                           if (v > c) c = v }
                       /MB\/s/ && /fill/ { v = $(NF - 1) + 0; if ($0 ~ /\(/) v = $(NF - 2) + 0
                           if (v > f) f = v }
                       /Memory latency/ { exit }
                       END { if (c) print "tinymembench", "copy", 33554432, r, 2 * c / 1000
                             if (f) print "tinymembench", "write", 33554432, r, f / 1000 }' >>"$out" || true
}

# multiload_run ROUND SIZE THREADS LOAD KERNEL [ROW_SIZE]: one multiload run (SIZE bytes a
# thread; the figure's row says ROW_SIZE, default SIZE), its LdAvgMibs (MiB/s averaged
# over its samples, all threads) as GB/s. Its memcpy-libc counts bytes read plus written, its
# stream-sum bytes read, its memset-libc bytes written: as chase counts them.
multiload_run() {
    local b=$peers/multichase/multiload
    [ -x "$b" ] || return 0
    taskset -c "$([ "$3" = 1 ] && echo "$cpu" || echo "0-$((ncpu - 1))")" "$b" -n "$ml_samples" \
        -t "$3" -m "$2" -l "$4" 2>/dev/null |
        awk -F, -v r="$1" -v s="${6:-$2}" -v k="$5" '
            NR == 1 { for (i = 1; i <= NF; i++) { n = $i; gsub(/[ \t]/, "", n); c[n] = i }; next }
            NR == 2 && c["LdAvgMibs"] { print "multiload", k, s, r, $c["LdAvgMibs"] * 1048576 / 1e9 }' \
        >>"$out" || true
}

multiload() { # round size: stream-sum (read), memset-libc (write), memcpy-libc (copy)
    multiload_run "$1" "$2" 1 stream-sum read
    multiload_run "$1" "$2" 1 memset-libc write
    multiload_run "$1" "$2" 1 memcpy-libc copy
}

all_read() { # round: every processor reading its share of all_bytes at once
    local d=$work/all-$1 share=$((all_bytes / ncpu / 4096 * 4096))
    # bw_cores.size is each processor's own buffer: the share, as the peers are given
    "$host" --cpu "$cpu" --out "$d" experiments=bw_cores bw_cores.kernel=read \
        bw_cores.size="$share" >/dev/null 2>&1 &&
        awk -F, -v r="$1" -v s="$all_bytes" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            $c["table"] == "scaling" { g = $c["gbs_total"] }
            END { if (g) print "chase", "read_all_cpus", s, r, g }' "$d/0001/bw_cores.csv" >>"$out"
    if command -v likwid-bench >/dev/null; then
        likwid-bench -t load_avx512 -w "N:$((all_bytes / 1024))kB:$ncpu" 2>/dev/null |
            awk -v r="$1" -v s="$all_bytes" '/^MByte\/s:/ { print "likwid-bench", "read_all_cpus", s, r, $2 / 1000 }' \
            >>"$out" || true
    fi
    if [ -x "$peers/lmbench/src/bw_mem" ]; then
        "$peers/lmbench/src/bw_mem" -P "$ncpu" "$share" frd 2>&1 |
            awk -v r="$1" -v s="$all_bytes" '{ print "bw_mem", "read_all_cpus", s, r, $2 / 1000 }' >>"$out"
    fi
    multiload_run "$1" "$share" "$ncpu" stream-sum read_all_cpus "$all_bytes"
}

for r in $(seq 1 "$rounds"); do
    echo "round $r of $rounds"
    for s in $sizes; do
        chase "$r" "$s"
        likwid "$r" "$s"
        bw_mem "$r" "$s"
        multiload "$r" "$s"
    done
    tinymem "$r"
    all_read "$r"
done

echo
figures_table "$out" "$rounds"
if [ -s "$work/widths" ]; then
    echo
    echo "chase-host's rows: the width kept (bits) and every width's median (width auto)"
    echo
    echo "| round | size | kernel | bits | every width's GB/s |"
    echo "|---|---|---|---|---|"
    sort -k2,2n -k3,3 -k1,1n "$work/widths" | awk '{ w = $5; for (i = 6; i <= NF; i++) w = w " " $i
        print "| " $1 " | " $2 " | " $3 " | " $4 " | " w " |" }'
fi
