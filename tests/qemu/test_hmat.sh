#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Memory tiers against the firmware's HMAT: QEMU q35 with hmat=on, node 0 with both processors
# and memory, node 1 memory only (its initiator node 0), HMAT latency and bandwidth for both
# (90 and 250 ns, 20 and 8 GiB/s: QEMU writes bandwidth in MiB/s, so 20480 and 8192 MB/s) and a
# memory-side cache in front of node 1. OVMF passes QEMU's HMAT on: run.json carries the four
# figures and the cache, the banner prints them, numa measures node 1 from node 0's processor
# (HMAT's attached initiator), its row says cpu_less and sets HMAT's figures beside the measured
# ones, and chase-report marks the CPU-less column and sets HMAT beside the matrix. TCG timings
# are never judged: only that a measured figure and its ratio are there. numa also chases across
# the memory-side cache (numa.msc.csv): node 1 is large enough (192M, of which about half is free
# after the firmware) for the quick profile's sizes to run from 2M past twice the 16M cache.
set -u
. "$(dirname "$0")/lib.sh"

lb() { # lb INITIATOR TARGET TYPE VALUE: one -numa hmat-lb entry
    local key=latency
    [ "$3" = access-bandwidth ] && key=bandwidth
    HMAT+=(--qemu -numa --qemu
        "hmat-lb,initiator=$1,target=$2,hierarchy=memory,data-type=$3,$key=$4")
}
HMAT=(--mem 320M --smp 2 --qemu -machine --qemu hmat=on
    --qemu -object --qemu memory-backend-ram,id=m0,size=128M
    --qemu -object --qemu memory-backend-ram,id=m1,size=192M
    --qemu -numa --qemu node,nodeid=0,cpus=0-1,memdev=m0
    --qemu -numa --qemu node,nodeid=1,memdev=m1,initiator=0)
lb 0 0 access-latency 90
lb 0 0 access-bandwidth 20G
lb 0 1 access-latency 250
lb 0 1 access-bandwidth 8G
# after the figures of its node, as QEMU asks
HMAT+=(--qemu -numa --qemu
    hmat-cache,node-id=1,size=16M,level=1,associativity=direct,policy=write-back,line=64)

boot hmat --timeout 400 "${HMAT[@]}" --set profile=quick --set on_exit=shutdown \
    --set experiments=numa --set numa.size=64K --set reps=3
j=$RUN_DIR/run.json
check "hmat: qemu-run exits 0 and the run completes with numa ok" sh -c "test $BOOT_RC = 0 &&
    jq -e '.status == \"complete\" and .experiments.numa == \"ok\"' '$j' >/dev/null"
check "hmat: run.json carries HMAT's four figures (ns, MB/s) and nothing else for the pairs" \
    json_true "$j" '.hmat.present and .hmat.revision == 2 and (.hmat.pairs | length) == 2 and
     ([.hmat.pairs[] | select(.hierarchy == 0 and .initiator == 0)] | sort_by(.target) |
      map([.target, .access_latency_ns, .access_bandwidth_mbs, .read_latency_ns,
           .write_bandwidth_mbs])) == [[0, 90, 20480, null, null], [1, 250, 8192, null, null]] and
     .hmat.dropped == 0 and .hmat.unknown_structures == 0'
check "hmat: both memory domains name initiator 0 as attached" json_true "$j" \
    '[.hmat.domains[] | [.mem_domain, .attached_initiator]] == [[0, 0], [1, 0]]'
check "hmat: the memory-side cache of node 1 is recorded (16M, direct mapped, write-back)" \
    json_true "$j" '.hmat.memory_side_caches == [{"mem_domain": 1, "size_bytes": 16777216,
     "level": 1, "total_levels": 1, "associativity": "direct mapped",
     "write_policy": "write-back", "line_bytes": 64, "address_mode": 0, "smbios_handles": 0}]'
check "hmat: memory_nodes says node 1 is CPU-less, node 0 not" json_true "$j" \
    '[.memory_nodes.nodes[] | .cpu_less] == [false, true] and
     all(.memory_nodes.nodes[]; .special_bytes == 0)'
check "hmat: the banner prints both pairs and the cache" sh -c "
    grep -qF '0 -> 0: latency 90.0 / - / -, bandwidth 20480 / - / -' '$RUN_DIR/console.txt' &&
    grep -qF '0 -> 1: latency 250.0 / - / -, bandwidth 8192 / - / -' '$RUN_DIR/console.txt' &&
    grep -qF 'memory-side cache of domain 1: 16M, level 1 of 1' '$RUN_DIR/console.txt'"
check "hmat: numa chases node 1 from node 0's processor, chosen by HMAT" \
    grep -qE '^ +1 +1 .* cpu 0 of node 0, the nearest \(HMAT\)$' "$RUN_DIR/console.txt"
# row FROM MEM CPU_LESS HMAT_NS HMAT_MBS: numa.csv's row with a measured median and read
# bandwidth, cpu_less and HMAT's access figures beside, and both ratios set.
row() {
    awk -F, -v f="$1" -v m="$2" -v c="$3" -v l="$4" -v b="$5" '
        NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
        $k["cpu_node"] == f && $k["mem_node"] == m && $k["cpu_less"] == c &&
        $k["hmat_latency_ns"] + 0 == l && $k["hmat_latency_kind"] == "access" &&
        $k["hmat_bandwidth_mbs"] == b && $k["hmat_bandwidth_kind"] == "access" &&
        $k["ns_median"] > 0 && $k["read_gbs"] > 0 && $k["latency_vs_hmat"] > 0 &&
        $k["bandwidth_vs_hmat"] > 0 { n++ } END { exit n != 1 }' "$RUN_DIR/numa.csv"
}
check "hmat: numa's row 0 -> 1 is CPU-less, beside 250 ns and 8192 MB/s" row 0 1 true 250 8192
check "hmat: numa's row 0 -> 0 is not, beside 90 ns and 20480 MB/s" row 0 0 false 90 20480
check "hmat: numa.csv has the 1 x 2 matrix only (node 1 has no processor of its own)" \
    test "$(csv_rows "$RUN_DIR/numa.csv")" = 2
check "hmat: the console's table sets the measured beside HMAT" sh -c "
    grep -qE '^ +0 +1 +yes +[0-9.]+ +250.0 +[0-9.]+ +8192$' '$RUN_DIR/console.txt'"
# The memory-side cache sweep: numa.msc.csv's columns as documented, every row in node 1 (domain
# 1, its 16M level-1 cache) chased from node 0's processor 0 in a buffer inside node 1's range,
# sizes a power of two apart from 2M (the cache / 8) to 32M or more (twice it at least), a
# measured median each; the console names the step, or that none shows, beside HMAT's 16M.
msc=$RUN_DIR/numa.msc.csv
check "hmat: numa.msc.csv has the documented columns" test "$(head -1 "$msc" 2>/dev/null |
    cut -d, -f1-13)" = "mem_node,mem_domain,cpu_node,cpu,cache_level,cache_bytes,size_bytes,\
size_vs_cache,stride_bytes,slots,chain_checksum,buffer_phys,buffer_placement"
n1=$(jq -r '.memory_nodes.nodes[1].ranges[0] | "\(.base) \(.base + .size_bytes)"' "$j")
check "hmat: numa.msc.csv's rows cross node 1's 16M cache in node 1's memory, from cpu 0" awk -F, \
    -v lo="${n1% *}" -v hi="${n1#* }" '
    function hex(s, v, i) { # mawk has no strtonum: "0x..." digit by digit
        for (i = 3; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
        return v }
    NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
    { n++; phys = hex($k["buffer_phys"]); size = $k["size_bytes"] + 0 }
    $k["mem_node"] != 1 || $k["mem_domain"] != 1 || $k["cpu_node"] != 0 || $k["cpu"] != 0 ||
    $k["cache_level"] != 1 || $k["cache_bytes"] != 16777216 || !($k["ns_median"] > 0) ||
    phys < lo || phys + size > hi || $k["buffer_placement"] == "" ||
    $k["size_vs_cache"] + 0 != size / 16777216 { bad++ }
    n > 1 && size != 2 * last { bad++ }
    { last = size; if (n == 1) first = size }
    END { exit !(n >= 5 && !bad && first == 2097152 && last >= 33554432) }' "$msc"
check "hmat: the console names the step (or none) beside HMAT's 16M" grep -qE \
    "^memory-side cache of domain 1: (step between .* HMAT's cache 16M|no step: .* HMAT's cache 16M|step unknown: .*half HMAT's 16M)" \
    "$RUN_DIR/console.txt"
report=$WORK/report
check "hmat: chase-report reads the run" "$ROOT/build/chase-report" --out "$report" "$RUN_DIR"
check "hmat: the report's numa matrix marks node 1 CPU-less and sets HMAT beside" sh -c "
    grep -qF '1 (CPU-less)' '$report/report.md' &&
    grep -qE 'HMAT 250(\\.0)? ns' '$report/report.md' && grep -qF 'HMAT 8192 MB/s' '$report/report.md'"
check "hmat: the report's memory-side cache table names node 1's 16M cache, its sizes, what shows" \
    grep -qE '^\| 1 \| 1 \| 0 \| 16M \(level 1\) \| 2M \.\. [0-9]+M \([0-9]+\) \| (step between|no step|unknown)' \
    "$report/report.md"
finish
