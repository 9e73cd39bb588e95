#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# More than 8 memory nodes, two of them memory only: QEMU with 10 nodes (8 of one processor each,
# nodes 8 and 9 of memory only) and a full SLIT. run.json lists every node with its memory; numa
# measures the memory-only nodes from a processor of their nearest node by SLIT (node 3 for
# node 8, node 6 for node 9), says so on the console, and its matrix has every column of the
# 8 processors' rows. TCG timings are never judged.
set -u
. "$(dirname "$0")/lib.sh"

MiB=$((1 << 20))
NODE_MIB=96
# d FROM TO: the distance QEMU is given. Processors' nodes 20 apart; node 8 is 15 from node 3,
# node 9 15 from node 6, 30 from the rest, 40 from each other.
d() {
    local a=$1 b=$2
    case "$a,$b" in
    3,8 | 8,3 | 6,9 | 9,6) echo 15 ;;
    8,9 | 9,8) echo 40 ;;
    *) if [ "$a" -ge 8 ] || [ "$b" -ge 8 ]; then echo 30; else echo 20; fi ;;
    esac
}
TEN=(--mem $((10 * NODE_MIB))M --smp 8)
for n in $(seq 0 9); do
    TEN+=(--qemu -object --qemu memory-backend-ram,id=m$n,size=${NODE_MIB}M)
    if [ "$n" -lt 8 ]; then
        TEN+=(--qemu -numa --qemu node,nodeid=$n,cpus=$n,memdev=m$n)
    else
        TEN+=(--qemu -numa --qemu node,nodeid=$n,memdev=m$n)
    fi
done
for a in $(seq 0 9); do
    for b in $(seq $((a + 1)) 9); do
        TEN+=(--qemu -numa --qemu "dist,src=$a,dst=$b,val=$(d "$a" "$b")")
    done
done

boot numa-ten --timeout 600 "${TEN[@]}" --set profile=quick --set on_exit=shutdown \
    --set experiments=numa --set numa.size=64K --set reps=3
j=$RUN_DIR/run.json
check "ten nodes: the run completes and numa is ok" json_true "$j" \
    '.status == "complete" and .experiments.numa == "ok"'
check "ten nodes: run.json lists all ten, each with its memory, SLIT whole" json_true "$j" \
    "$((NODE_MIB * MiB)) as \$m | "'(.memory_nodes.nodes | length) == 10 and
     ([.memory_nodes.nodes[] | .domain] == [range(10)]) and
     all(.memory_nodes.nodes[1:][]; .mem_bytes == $m) and .memory_nodes.nodes[0].mem_bytes > 0 and
     .memory_nodes.slit and (.memory_nodes.distance | length) == 10 and
     .memory_nodes.distance[8][3] == 15 and .memory_nodes.distance[9][6] == 15'
check "ten nodes: each processor in its own node from SRAT; nodes 8 and 9 have none" \
    json_true "$j" '[.processors[] | .node] == [range(8)] and
     .memory_nodes.nodes[8].apic_ids == [] and .memory_nodes.nodes[9].apic_ids == []'
check "ten nodes: the memory-only nodes' nearest node with a processor, by SLIT" json_true "$j" \
    '.memory_nodes.nodes[8].nearest_processor_node == 3 and
     .memory_nodes.nodes[9].nearest_processor_node == 6 and
     .memory_nodes.nodes[4].nearest_processor_node == 4'
# cell FROM MEM: numa.csv has the cell measured (a positive median) with SLIT's distance beside.
cell() {
    awk -F, -v f="$1" -v m="$2" -v s="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["cpu_node"] == f && $c["mem_node"] == m && $c["slit_distance"] == s &&
        $c["ns_median"] > 0 { n++ } END { exit n != 1 }' "$RUN_DIR/numa.csv"
}
check "ten nodes: node 8's memory measured from node 3's processor (distance 15)" cell 3 8 15
check "ten nodes: node 9's memory measured from node 6's processor (distance 15)" cell 6 9 15
check "ten nodes: numa.csv has the whole 8 x 10 matrix" \
    test "$(csv_rows "$RUN_DIR/numa.csv")" = 80
check "ten nodes: the console names the nearest node's processor for nodes 8 and 9" sh -c "
    grep -qE '^ +8 +8 .* cpu 3 of node 3, the nearest$' '$RUN_DIR/console.txt' &&
    grep -qE '^ +9 +9 .* cpu 6 of node 6, the nearest$' '$RUN_DIR/console.txt'"
finish
