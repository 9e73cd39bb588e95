#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The shape of a two-socket server in QEMU: -smp 8 as 2 sockets x 2 cores x 2 threads, two NUMA
# nodes (socket 0 in node 0, socket 1 in node 1), node 1 holding the highest addresses. The
# buffer and page tables go in the boot processor's node (node 0, not the top of memory) and
# lie inside its SRAT range; with node=1 the buffer moves there. Each processor's package, core
# and thread come from CPUID run on it; c2c asked for 4 of the 8 takes them spread over both
# packages and says which. With node 0 too small, node 1 (nearest by SLIT) takes the buffer,
# said and recorded. TCG timings are never judged.
set -u
. "$(dirname "$0")/lib.sh"

MiB=$((1 << 20))
QUICK=(--set profile=quick --set on_exit=shutdown --set experiments=random
    --set random.min=4K --set random.max=64K)
SERVER=(--mem 1G --smp 8,sockets=2,cores=2,threads=2
    --qemu -object --qemu memory-backend-ram,id=m0,size=512M
    --qemu -object --qemu memory-backend-ram,id=m1,size=512M
    --qemu -numa --qemu node,nodeid=0,cpus=0-3,memdev=m0
    --qemu -numa --qemu node,nodeid=1,cpus=4-7,memdev=m1
    --qemu -numa --qemu dist,src=0,dst=1,val=21)

# in_node JSON NODE WHAT: WHAT's [phys, + size) lies inside one of NODE's SRAT ranges.
in_node() {
    json_true "$1" "(.buffer.phys_addr) as \$p | (.buffer.size_bytes) as \$s |
        any(.memory_nodes.nodes[$2].ranges[]; .base <= \$p and \$p + \$s <= .base + .size_bytes)"
}

# The default window_max_ms: c2c's waits go on over windows, however slowly TCG answers.
C2C=(--set experiments=random,c2c --set c2c.cpus=4 --set c2c.rounds=20 --set c2c.reps=3)
boot server-home --timeout 400 "${SERVER[@]}" "${QUICK[@]}" "${C2C[@]}"
j=$RUN_DIR/run.json
check "server: the run completes" json_true "$j" \
    '.status == "complete" and .experiments.random == "ok" and .experiments.c2c == "ok"'
check "server: 8 processors, each place from CPUID, all distinct" json_true "$j" \
    '(.processors | length) == 8 and all(.processors[]; .topology | startswith("CPUID"))
     and ([.processors[] | [.package, .core, .thread]] | unique | length) == 8
     and ([.processors[] | .package] | unique) == [0, 1]
     and ([.processors[] | .thread] | unique) == [0, 1]
     and ([.processors[] | select(.package == 1) | .node] | unique) == [1]'
check "server: the firmware's counts are recorded, no processor lost" json_true "$j" \
    '.processor_counts.total == 8 and .processor_counts.enabled == 8 and
     .processor_counts.listed == 8 and .processor_counts.topology_not_from_cpuid == 0 and
     .on_exit_forced == null and all(.processors[]; .lost | not)'
check "server: c2c takes 4 of 8 spread over both packages and says which" sh -c "
    grep -q '^processors: 4 of 8, spread over memory nodes, packages' '$RUN_DIR/console.txt' &&
    test \$(awk -F, 'NR==1 {for (i=1;i<=NF;i++) if (\$i==\"group\") g=i; next}
        \$g==\"other_package\"' '$RUN_DIR/c2c.csv' | wc -l) -gt 0"

check "server: node 1 holds the highest addresses (the place chase used to take)" json_true "$j" \
    "all(.memory_nodes.nodes[1].ranges[]; .base >= $((512 * MiB)))"
check "server: buffer.node and tables.node are the boot processor's node, 0" json_true "$j" \
    '.buffer.node == 0 and .tables.node == 0 and .buffer.node_note == null and
     ([.processors[] | select(.runs_chase) | .node] == [0])'
check "server: the buffer lies inside node 0's SRAT range" in_node "$j" 0
check "server: the console says the nodes" \
    grep -q '^  node       buffer in memory node 0, page tables in node 0$' "$RUN_DIR/console.txt"

boot server-node1 --timeout 300 "${SERVER[@]}" "${QUICK[@]}" --set node=1
j=$RUN_DIR/run.json
check "node=1: the run completes" json_true "$j" '.status == "complete" and .experiments.random == "ok"'
check "node=1: the buffer moves to node 1, the tables stay in the boot processor's node" \
    json_true "$j" '.buffer.node == 1 and .tables.node == 0 and .config.node == 1 and (.config.node_auto | not)'
check "node=1: the buffer lies inside node 1's SRAT range" in_node "$j" 1

# Node 0 too small for the buffer: the nearest node by SLIT takes it, said and recorded.
SMALL0=(--mem 1G --smp 8,sockets=2,cores=2,threads=2
    --qemu -object --qemu memory-backend-ram,id=m0,size=128M
    --qemu -object --qemu memory-backend-ram,id=m1,size=896M
    --qemu -numa --qemu node,nodeid=0,cpus=0-3,memdev=m0
    --qemu -numa --qemu node,nodeid=1,cpus=4-7,memdev=m1
    --qemu -numa --qemu dist,src=0,dst=1,val=21)
boot server-fallback --timeout 400 "${SMALL0[@]}" --set profile=quick --set on_exit=shutdown \
    --set experiments=random --set random.min=160M --set random.max=160M
j=$RUN_DIR/run.json
check "fallback: the run completes with the buffer in node 1, the tables in node 0" \
    json_true "$j" '.status == "complete" and .buffer.node == 1 and .tables.node == 0'
check "fallback: run.json and the console say why" sh -c "
    jq -e '.buffer.node_note | test(\"^node 0 .the boot processor.s. has no free write-back span .*placed in node 1, the nearest with room .SLIT distance 21.\")' '$j' >/dev/null &&
    grep -q '^  node note  node 0 (the boot processor' '$RUN_DIR/console.txt'"
check "fallback: the buffer lies inside node 1's SRAT range" in_node "$j" 1

boot server-node7 --timeout 200 "${SERVER[@]}" "${QUICK[@]}" --set node=7
check "node=7: no such node: nothing runs, the reason is said" sh -c "
    jq -e '.status == \"no_memory\"' '$RUN_DIR/run.json' >/dev/null &&
    grep -q 'node 7 was asked for; the SRAT lists 2 node(s)' '$SERIAL'"
finish
