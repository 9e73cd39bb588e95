#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# More than 64 processors: QEMU -smp 96 as 2 sockets x 48 cores under TCG with OVMF (it boots
# in tens of seconds here). The firmware's 96 are all held and recorded with their places from
# CPUID; c2c and cores, asked for 4, choose them spread over both packages and say which, and
# c2c measures pairs across the packages. TCG timings are never judged.
set -u
. "$(dirname "$0")/lib.sh"

boot many-cpus --timeout 400 --mem 1G --smp 96,sockets=2,cores=48,threads=1 \
    --set profile=quick --set on_exit=shutdown --set experiments=c2c,cores \
    --set c2c.cpus=4 --set c2c.rounds=20 --set c2c.reps=3 --set cores.cpus=4 --set cores.max=16K
j=$RUN_DIR/run.json
check "-smp 96: the run completes, c2c and cores ok" json_true "$j" \
    '.status == "complete" and .experiments.c2c == "ok" and .experiments.cores == "ok"'
check "-smp 96: the firmware's counts recorded, all 96 held, none lost" json_true "$j" \
    '.processor_counts.total == 96 and .processor_counts.enabled == 96 and
     .processor_counts.listed == 96 and (.processors | length) == 96 and
     all(.processors[]; .lost | not) and .on_exit_forced == null'
check "-smp 96: every place from CPUID, 96 distinct, both packages of 48" json_true "$j" \
    'all(.processors[]; .topology | startswith("CPUID")) and
     ([.processors[] | [.package, .core, .thread]] | unique | length) == 96 and
     ([.processors[] | select(.package == 1)] | length) == 48'
check "-smp 96: c2c and cores each take 4 of 96, spread, and say which" \
    test "$(grep -c '^processors: 4 of 96, spread over memory nodes, packages' \
        "$RUN_DIR/console.txt")" = 2
check "-smp 96: c2c measures pairs across the two packages" \
    awk -F, 'NR==1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
             $col["group"] == "other_package" && $col["ns_median"] > 0 {n++}
             END {exit !(n >= 4)}' "$RUN_DIR/c2c.csv"
pkg1=$(jq -r '[.processors[] | select(.package == 1) | .id] | map(tostring) | join("|")' "$j")
check "-smp 96: cores measures a processor of package 1" \
    awk -F, -v ids="^($pkg1)\$" 'NR > 1 && $1 ~ ids {n++} END {exit !(n > 0)}' \
    "$RUN_DIR/cores.csv"

# ---- 50-numa: 96 processors in one socket and one SRAT node (more than 64 in a node) ----
# QEMU publishes an SRAT for -numa: every processor is placed by it, node 0, none unknown
# (null); the no-SRAT boot above has every node null. numa, the only experiment, skips (one node).
no_srat=$j
boot one-node-96 --timeout 400 --mem 1G --smp 96,sockets=1,cores=96,threads=1 \
    --qemu -object --qemu memory-backend-ram,id=m0,size=1G \
    --qemu -numa --qemu node,nodeid=0,cpus=0-95,memdev=m0 \
    --set profile=quick --set on_exit=shutdown --set experiments=numa
j=$RUN_DIR/run.json
check "one node of 96: the run completes, numa skipped for its one node" json_true "$j" \
    '.status == "complete" and .experiments.numa ==
     "skipped: needs two memory nodes or more: one node here (ACPI SRAT)"'
check "one node of 96: 96 processors, each in node 0 from SRAT, none null" json_true "$j" \
    '(.processors | length) == 96 and all(.processors[]; .node == 0) and
     .memory_nodes.source == "ACPI SRAT" and (.memory_nodes.nodes | length) == 1 and
     (.memory_nodes.nodes[0].apic_ids | length) == 96 and
     (.memory_nodes.nodes[0].processors | length) == 96'
check "-smp 96 without SRAT: no table places a processor, every node null" \
    json_true "$no_srat" 'all(.processors[]; .node == null)'
# ---- end 50-numa ----
# ---- 50-mp: c2c with cpus = all over 96 processors: a stated sample of the 9,120 ordered pairs
# (every pair of places, each place's nearest relations, a ring through every processor, seeded
# random) within a time budget said up front; processors above 63 are measured. The budget is
# generous here: TCG's pace is the host's, never judged.
boot many-cpus-c2c-all --timeout 600 --mem 1G --smp 96,sockets=2,cores=48,threads=1 \
    --set profile=quick --set on_exit=shutdown --set experiments=c2c,cores --set c2c.cpus=all \
    --set c2c.pairs=110 --set c2c.budget_s=3000 --set c2c.rounds=16 --set c2c.reps=3 \
    --set c2c.states=bounce \
    --set cores.cpus=all --set cores.max=16K
j=$RUN_DIR/run.json
c=$RUN_DIR/console.txt
check "c2c cpus=all: the run completes, c2c ok and says its sample and budget" json_true "$j" \
    '.status == "complete" and (.experiments.c2c | startswith("ok: a sample of 110 of 9120")) and
     (.experiments.c2c | test("budget 3000 s")) and .config.c2c.cpus == "all" and
     .config.c2c.pairs == 110 and .config.c2c.budget_s == 3000'
check "c2c cpus=all: all 96 taken, the sample and budget stated before the first pair" \
    awk '/^pairs: 110 of the 9120 ordered pairs of 96 processors \(a sample/ &&
         /2 between 2 places/ && /96 in a ring|9[0-9] in a ring/ &&
         /time budget 3000 s \(c2c.budget_s\)/ {said = NR}
         /^ +[0-9]+ -> [0-9]+ / && !first {first = NR}
         END {exit !(said && first > said)}' "$c"
check "c2c cpus=all: 110 pairs measured, every processor timing and answering" awk -F, \
    'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
     $col["ns_median"] > 0 {n++; t[$1] = 1; a[$2] = 1}
     END {exit !(n == 110 && length(t) == 96 && length(a) == 96)}' "$RUN_DIR/c2c.csv"
check "c2c cpus=all: pairs with processors above 63, across the packages too" awk -F, \
    'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
     $col["ns_median"] > 0 && ($1 > 63 || $2 > 63) {high++}
     $col["ns_median"] > 0 && $col["group"] == "other_package" {across++}
     END {exit !(high >= 32 && across >= 2)}' "$RUN_DIR/c2c.csv"
# cores with cpus = all: every one of the 96 measured, one after another (no sample: one chase
# each), those above 63 included.
check "cores cpus=all: cores ok, the key recorded as all" json_true "$j" \
    '.experiments.cores == "ok" and .config.cores.cpus == "all"'
check "cores cpus=all: cores.csv has rows of all 96 processors, the 32 above 63 among them" awk -F, \
    'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
     $col["ns_median"] > 0 {seen[$col["cpu"]] = 1; if ($col["cpu"] > 63) high[$col["cpu"]] = 1}
     END {exit !(length(seen) == 96 && length(high) == 32)}' "$RUN_DIR/cores.csv"
# ---- end of 50-mp
finish
