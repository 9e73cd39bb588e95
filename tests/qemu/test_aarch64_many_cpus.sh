#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# More than 64 processors on AArch64: qemu-system-aarch64 -M virt (GICv3) with AAVMF, -smp 66 in
# two SRAT nodes. Every MADT GICC entry is held (no 64 cap), started with PSCI CPU_ON, placed in
# its node and turned off at the end. Slow under TCG: 65 secondaries waiting in WFE share the
# host's cores with the boot processor (555 s here on two busy cores; -smp 72 without nodes took
# 362 s, -smp 96 more than 600 s). TCG timings are never judged.
set -u
. "$(dirname "$0")/lib.sh"

# Two nodes of 33 (QEMU virt's MPIDR: Aff0 the core in a cluster of 16, Aff1 the cluster).
MANY=(--arch aarch64 --cpu cortex-a72 --smp 66 --mem 512M --qemu -machine --qemu gic-version=3
    --qemu -object --qemu memory-backend-ram,id=m0,size=256M
    --qemu -object --qemu memory-backend-ram,id=m1,size=256M
    --qemu -numa --qemu node,nodeid=0,cpus=0-32,memdev=m0
    --qemu -numa --qemu node,nodeid=1,cpus=33-65,memdev=m1)
boot a64-many --timeout 900 "${MANY[@]}" --set profile=quick --set on_exit=shutdown \
    --set experiments=numa --set numa.size=64K --set reps=3
j=$RUN_DIR/run.json
check "a64 -smp 66: the run completes, every processor turned off after" sh -c "
    test $BOOT_RC = 0 && grep -q '^chase: 65 of 65 other processor(s) off' '$SERIAL'"
check "a64 -smp 66: all 66 MADT GICC entries held and recorded, none lost or left out" \
    json_true "$j" '.processor_counts.total == 66 and .processor_counts.listed == 66 and
     .processor_counts.not_started == 0 and (.processors | length) == 66 and
     all(.processors[]; .lost | not) and ([.processors[] | .apic_id] | unique | length) == 66'
check "a64 -smp 66: each processor in its SRAT node (33 and 33)" json_true "$j" \
    '([.processors[] | select(.node == 0)] | length) == 33 and
     ([.processors[] | select(.node == 1)] | length) == 33 and
     (.memory_nodes.nodes[1].processors | length) == 33'
finish
