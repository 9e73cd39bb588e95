#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-host's memory tiers on a real Linux kernel: Debian's kernel (make deps) boots in QEMU q35
# with hmat=on, node 0 with both processors and 512M, node 1 of 512M memory only (its HMAT
# initiator node 0), HMAT 90 and 250 ns, 20G and 8G; an initramfs of the static chase-host and
# tests/host/numa_init.c runs `chase-host experiments=numa` as root and prints the run folder.
# Checked: Linux's CPU-less node 1 as chase-host reads sysfs, its buffer bound with mbind and
# found there by move_pages, the HMAT read from /sys/firmware/acpi/tables/HMAT into run.json,
# and numa's row 0 -> 1 cpu_less with HMAT's figures beside; a 16M memory-side cache in front of
# node 1, crossed by numa.msc.csv's chase in node 1. TCG timings are never judged.
set -u
. "$(dirname "$0")/../lib.sh"

. "$ROOT/tests/host/lib_linux.sh"

work=$(fresh_dir host-tiers)
dir=$work/0001
mkdir -p "$dir"
linux_initrd "$work"

lb="hierarchy=memory,initiator=0"
linux_boot "$work" "profile=quick experiments=numa numa.size=2M" \
    -machine q35,hmat=on -accel tcg -cpu max -smp 2 \
    -m 1G -object memory-backend-ram,id=m0,size=512M -object memory-backend-ram,id=m1,size=512M \
    -numa node,nodeid=0,cpus=0-1,memdev=m0 -numa node,nodeid=1,memdev=m1,initiator=0 \
    -numa "hmat-lb,$lb,target=0,data-type=access-latency,latency=90" \
    -numa "hmat-lb,$lb,target=0,data-type=access-bandwidth,bandwidth=20G" \
    -numa "hmat-lb,$lb,target=1,data-type=access-latency,latency=250" \
    -numa "hmat-lb,$lb,target=1,data-type=access-bandwidth,bandwidth=8G" \
    -numa hmat-cache,node-id=1,size=16M,level=1,associativity=direct,policy=write-back,line=64
rc=$?
log=$work/serial.txt
linux_files "$work" "$dir" console.txt run.json numa.csv numa.msc.csv

check "QEMU powers off by itself and chase-host exited 0 (rc $rc)" sh -c "test $rc = 0 &&
    grep -qx '=== chase-host exit 0 ===' '$log' && grep -qx '=== done ===' '$log'"
check "numa ran ok" json_true "$dir/run.json" '.experiments.numa == "ok"'
check "Linux's node 1 has memory and no processor: cpu_less in run.json" json_true \
    "$dir/run.json" '(.memory_nodes.nodes | length) == 2 and
     .memory_nodes.nodes[0].processors == [0, 1] and .memory_nodes.nodes[1].processors == [] and
     [.memory_nodes.nodes[] | .cpu_less] == [false, true] and .memory_nodes.nodes[1].mem_bytes > 0'
check "chase-host reads the HMAT from sysfs: the four figures (QEMU's MiB/s as MB/s)" json_true \
    "$dir/run.json" '.hmat.present and ([.hmat.pairs[] | select(.hierarchy == 0) |
     [.initiator, .target, .access_latency_ns, .access_bandwidth_mbs]] | sort) ==
     [[0, 0, 90, 20480], [0, 1, 250, 8192]]'
check "node 1's buffer is bound with mbind and every sampled page is there" grep -qE \
    '^node 1 buffer: 0x[0-9a-f]+, [0-9]+ bytes, mbind\(MPOL_BIND\) to node 1: ([1-9][0-9]*) of \1 sampled pages there$' \
    "$dir/console.txt"
check "numa measures node 1 from node 0's processor, named by HMAT" \
    grep -qE '^ +1 +1 .* cpu 0 of node 0, the nearest \(HMAT\)$' "$dir/console.txt"
check "numa.csv: row 0 -> 1 cpu_less beside 250 ns and 8192 MB/s, row 0 -> 0 beside 90 and 20480" \
    test "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["ns_median"] > 0 && $c["latency_vs_hmat"] > 0 {
        print $c["cpu_node"] $c["mem_node"], $c["cpu_less"], $c["hmat_latency_ns"] + 0,
              $c["hmat_bandwidth_mbs"] }' "$dir/numa.csv" | sort | tr '\n' ';')" \
    = "00 false 90 20480;01 true 250 8192;"
check "numa.msc.csv: node 1's 16M memory-side cache crossed from 2M to 128M in node 1 (mbind)" \
    test "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["ns_median"] > 0 && $c["buffer_placement"] ~ /^mbind\(MPOL_BIND\) to node 1/ {
        print $c["mem_node"] $c["cpu_node"] $c["cache_bytes"], $c["size_bytes"] / 1048576 }' \
        "$dir/numa.msc.csv" | tr '\n' ';')" \
    = "1016777216 2;1016777216 4;1016777216 8;1016777216 16;1016777216 32;1016777216 64;1016777216 128;"
finish
