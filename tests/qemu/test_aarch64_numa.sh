#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Memory nodes and many processors on AArch64: qemu-system-aarch64 -M virt (GICv3) with AAVMF,
# whose ACPI tables place processors by SRAT GICC affinity (ACPI processor UID, found in the
# MADT's GICC entries). -smp 8 in two nodes: every processor carries its node and its MPIDR as
# its ID, the buffer lies in the boot processor's node, numa measures the 2 x 2 matrix, c2c says
# the cache groups are unknown (QEMU's PPTT lists no caches) rather than shared_l2 (more than 64
# processors: test_aarch64_many_cpus.sh). TCG timings are never judged.
set -u
. "$(dirname "$0")/lib.sh"

MiB=$((1 << 20))
TWO=(--arch aarch64 --cpu cortex-a72 --smp 8 --mem 1G --qemu -machine --qemu gic-version=3
    --qemu -object --qemu memory-backend-ram,id=m0,size=512M
    --qemu -object --qemu memory-backend-ram,id=m1,size=512M
    --qemu -numa --qemu node,nodeid=0,cpus=0-3,memdev=m0
    --qemu -numa --qemu node,nodeid=1,cpus=4-7,memdev=m1
    --qemu -numa --qemu dist,src=0,dst=1,val=21)
boot a64-numa-two --timeout 400 "${TWO[@]}" --set profile=quick --set on_exit=shutdown \
    --set experiments=numa,c2c --set numa.size=64K --set reps=3 --set c2c.cpus=3 \
    --set c2c.rounds=20
j=$RUN_DIR/run.json
check "a64 two nodes: the run completes, numa and c2c ok" json_true "$j" \
    '.status == "complete" and .experiments.numa == "ok" and .experiments.c2c == "ok"'
check "a64 two nodes: run.json's nodes from SRAT, SLIT, processors by MPIDR" json_true "$j" \
    '.memory_nodes.source == "ACPI SRAT, SLIT" and (.memory_nodes.nodes | length) == 2 and
     .memory_nodes.nodes[0].apic_ids == [0, 1, 2, 3] and
     .memory_nodes.nodes[1].apic_ids == [4, 5, 6, 7] and
     .memory_nodes.nodes[0].processors == [0, 1, 2, 3] and
     .memory_nodes.nodes[1].processors == [4, 5, 6, 7] and
     .memory_nodes.distance == [[10, 21], [21, 10]]'
check "a64 two nodes: each processor carries its node from GICC affinity and its MPIDR id" \
    json_true "$j" '(.processors | length) == 8 and
     ([.processors[] | [.apic_id, .node]] == [range(8) | [., (. / 4 | floor)]])'
check "a64 two nodes: the buffer lies in the boot processor's node" json_true "$j" \
    '([.processors[] | select(.runs_chase) | .node] == [.buffer.node]) and .buffer.node == 0'
check "a64 two nodes: numa.csv is the 2 x 2 matrix, each cell measured, SLIT beside it" \
    test "$(awk -F, 'NR > 1 && $0 ~ /,/ {print $1 $2 $7}' "$RUN_DIR/numa.csv" | sort |
        tr '\n' ' ')" = "0010 0121 1021 1110 "
check "a64 two nodes: every cell's latency measured" csv_positive "$RUN_DIR/numa.csv" ns_median
# QEMU's PPTT lists no caches: which processors share a cache is unknown, said, never shared_l2.
check "a64 two nodes: c2c's pairs say caches_unknown (no PPTT caches), the console says why" \
    sh -c "test \$(awk -F, 'NR > 1 && \$3 == \"caches_unknown\" && \$13 == \"bounce\"' '$RUN_DIR/c2c.csv' | wc -l) = 6 &&
        grep -q '^cache groups unknown (no PPTT lists these processors' '$RUN_DIR/console.txt'"
# c2c's line states on AArch64 (DC CIVAC makes the clean ones): the pair within node 0 reads
# them homed in node 1 too, from a buffer of node 1's.
check "a64 two nodes: c2c's pair within node 0 reads each line state homed in node 1 too" \
    test "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["home"] == "other_node" && $c["ns_median"] > 0 { print $1 $2 $c["state"] $c["home_node"] }' \
        "$RUN_DIR/c2c.csv" | sort | tr '\n' ' ')" \
    = "01exclusive1 01modified1 01shared1 10exclusive1 10modified1 10shared1 "
finish
