#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Records a real latency curve of this machine for the real corpus: the true cache sizes of one
# CPU from sysfs (with lscpu and, where the cpuid tool is installed, CPUID leaf 4 / 0x8000001D
# beside them), and, when given a lat_mem_rd or MemoryLatency the user built, that tool's output
# run pinned to the CPU. Nothing is built or fetched here.
#
# usage: record-real.sh [--cpu N] [--max-mb N] [--strides "S..."] [--reps N] [--iter N]
#                       [--lat-mem-rd PATH] [--memory-latency PATH] NAME OUTDIR
# Without a tool it prints NAME's truth line and the machine's description and stops. With one it
# writes OUTDIR/native/NAME-<run>.out (the tool's console, stdout and stderr as printed),
# OUTDIR/machine/NAME.txt (how the truth was read, the load, the date) and appends one truth.tsv
# row per output (name<TAB>sizes in bytes, L1d first, as tests/report/corpus/real-curves has).
set -eu
cpu=0 max_mb=256 lmbench='' memlat='' strides='16 64 128 256' reps='' iter=100000000
while [ $# -gt 2 ]; do
    case $1 in
    --cpu) cpu=$2 ;;
    --max-mb) max_mb=$2 ;;
    --strides) strides=$2 ;; # lat_mem_rd's strides (lmbench's script: 16 to 1024)
    --reps) reps=$2 ;;       # lat_mem_rd -N (its default when not given)
    --iter) iter=$2 ;;       # MemoryLatency -iter (its default: 100000000)
    --lat-mem-rd) lmbench=$2 ;;
    --memory-latency) memlat=$2 ;;
    *) echo "record-real: unknown option $1" >&2; exit 2 ;;
    esac
    shift 2
done
[ $# -eq 2 ] || { sed -n 7,9p "$0" | cut -c3- >&2; exit 2; }
name=$1 out=$2
sys=/sys/devices/system/cpu/cpu$cpu/cache
[ -d "$sys" ] || { echo "record-real: no $sys (no sysfs cache description)" >&2; exit 1; }

# sysfs "32K", "1024K", "32M" as bytes.
bytes() {
    local v=$1
    case $v in
    *K) echo $((${v%K} * 1024)) ;;
    *M) echo $((${v%M} * 1048576)) ;;
    *G) echo $((${v%G} * 1073741824)) ;;
    *) echo "$v" ;;
    esac
}

# The data and unified caches the CPU sees, by level: "L1d L2 L3" in bytes.
truth() {
    local d sizes=''
    for lvl in 1 2 3 4; do
        for d in "$sys"/index*; do
            [ "$(cat "$d/level")" = "$lvl" ] || continue
            case $(cat "$d/type") in Data | Unified) sizes+=" $(bytes "$(cat "$d/size")")" ;; esac
        done
    done
    echo "${sizes# }"
}

describe() {
    echo "# recorded $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(uname -srm), pinned to cpu$cpu"
    echo "# load average before the runs: $(cat /proc/loadavg)"
    echo "# truth (sysfs, bytes, L1d first): $(truth)"
    echo "## sysfs $sys: level type size ways line_size shared_cpu_list"
    for d in "$sys"/index*; do
        echo "$(cat "$d/level") $(cat "$d/type") $(cat "$d/size") $(cat "$d/ways_of_associativity" \
            2>/dev/null) $(cat "$d/coherency_line_size") $(cat "$d/shared_cpu_list")"
    done
    echo "## lscpu"
    lscpu
    if command -v cpuid >/dev/null; then
        echo "## cpuid -1: leaf 4 / 0x8000001D cache parameters (type, level, sharing, size)"
        cpuid -1 | grep -E '^ +(--- cache|type +=|level +=|extra (cores|threads) sharing|\(synth size\))' \
            || true
    fi
}

if [ -z "$lmbench$memlat" ]; then
    printf '%s\t%s\n' "$name" "$(truth)"
    describe
    exit 0
fi
mkdir -p "$out/native" "$out/machine"
describe >"$out/machine/$name.txt"
pin=(taskset -c "$cpu")

# One run: its output file and its truth row; the command line goes to the machine file.
record() {
    local run=$1
    shift
    echo "## $name-$run: $*" >>"$out/machine/$name.txt"
    "${pin[@]}" "$@" >"$out/native/$name-$run.out" 2>&1
    printf '%s\t%s\n' "$name-$run" "$(truth)" >>"$out/truth.tsv"
}

if [ -n "$lmbench" ]; then
    # lmbench's own script runs these strides; -t is its random ("thrash") pattern.
    n=()
    [ -z "$reps" ] || n=(-N "$reps")
    # lmbench's own script gives lat_mem_rd ENOUGH (microseconds a timed loop runs) from its
    # configuration (results files show 5000); without it every size calibrates its own, which
    # took about 40 s a size on a loaded 2-vCPU guest.
    export ENOUGH=${ENOUGH:-5000}
    echo "## ENOUGH=$ENOUGH" >>"$out/machine/$name.txt"
    # shellcheck disable=SC2086 # the strides are words
    record lat-mem-rd-t "$lmbench" -t "${n[@]}" "$max_mb" $strides
    # shellcheck disable=SC2086
    record lat-mem-rd "$lmbench" "${n[@]}" "$max_mb" $strides
fi
if [ -n "$memlat" ]; then
    record memlat-c "$memlat" -iter "$iter" -maxsizemb "$max_mb"
    record memlat-asm "$memlat" -test asm -iter "$iter" -maxsizemb "$max_mb"
    # Dense: four sizes an octave from 4 KiB, one -sizekb run each (its console concatenated).
    sizes=()
    for ((kb = 4; kb <= max_mb * 1024; kb *= 2)); do
        sizes+=("$kb" $((kb * 5 / 4)) $((kb * 3 / 2)) $((kb * 7 / 4)))
    done
    echo "## $name-memlat-dense: $memlat -test asm -iter $iter -sizekb N for N in ${sizes[*]}" \
        >>"$out/machine/$name.txt"
    for kb in "${sizes[@]}"; do
        "${pin[@]}" "$memlat" -test asm -iter "$iter" -sizekb "$kb"
    done >"$out/native/$name-memlat-dense.out" 2>&1
    printf '%s\t%s\n' "$name-memlat-dense" "$(truth)" >>"$out/truth.tsv"
fi
echo "# load average after the runs: $(cat /proc/loadavg)" >>"$out/machine/$name.txt"
