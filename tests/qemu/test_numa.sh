#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# numa on the firmware: QEMU with -smp 4 and two nodes (OVMF publishes QEMU's SRAT and SLIT)
# runs all four multi-processor experiments (cores, c2c, loaded beside numa); numa gives a 2x2
# matrix, each cell chased from a processor of its row's node over a buffer inside
# its column's SRAT range, with SLIT's distances beside it, and each cell's read bandwidth from
# both processors of its row's node (a heatmap and a table in chase-report's output); one node,
# or no SRAT at all, skips numa with that reason. TCG timings are never judged.
set -u
. "$(dirname "$0")/lib.sh"

SMALL=(--set profile=quick --set on_exit=shutdown --set experiments=numa --set numa.size=2M)
MiB=$((1 << 20))
# Two nodes of 256M, processors 0-1 and 2-3; SLIT asymmetric on purpose (21 one way, 31 back),
# so a matrix read the wrong way round shows.
TWO=(--mem 512M --smp 4
    --qemu -object --qemu memory-backend-ram,id=m0,size=256M
    --qemu -object --qemu memory-backend-ram,id=m1,size=256M
    --qemu -numa --qemu node,nodeid=0,cpus=0-1,memdev=m0
    --qemu -numa --qemu node,nodeid=1,cpus=2-3,memdev=m1
    --qemu -numa --qemu dist,src=0,dst=1,val=21 --qemu -numa --qemu dist,src=1,dst=0,val=31)

# The two-node boot runs the other three multi-processor experiments too, small.
# The default window_max_ms: c2c's waits go on over windows, however slowly TCG answers.
ALL4=(--set experiments=cores,c2c,loaded,numa,atomics --set cores.max=64K --set c2c.rounds=50
    --set loaded.size=1M --set loaded.traffic=1M --set loaded.delays=4,0 --set loaded.mode=read)
boot numa-two --timeout 300 "${TWO[@]}" "${SMALL[@]}" "${ALL4[@]}"
check "two nodes: qemu-run exits 0 (clean shutdown) and copies the run folder" \
    sh -c "test $BOOT_RC = 0 && test -d '$RUN_DIR'"
validate_run_json "$RUN_DIR"
check "two nodes: the run completes and all four experiments are ok" json_true "$RUN_DIR/run.json" \
    '.status == "complete" and .experiments.numa == "ok" and .experiments.cores == "ok"
     and .experiments.c2c == "ok" and .experiments.loaded == "ok" and .experiments.atomics == "ok"'
check "two nodes: cores.csv holds the 4 processors' curves" \
    test "$(awk -F, 'NR>1 {print $1}' "$RUN_DIR/cores.csv" | sort -u | wc -l)" = 4
check "two nodes: c2c.csv is the 4x4 matrix: 12 ordered pairs, each measured" \
    test "$(awk -F, 'NR>1 && $7>0 && $10>0' "$RUN_DIR/c2c.csv" | wc -l)" = 12
# c2c's line states (issue 53): every pair reads lines modified, clean exclusive and shared (with
# a third processor) in the other, homed in chase's buffer (node 0); the pairs within node 0 also
# read them homed in node 1, away from both (the pairs within node 1 have node 0 away already).
C2C_COLS='NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'
check "two nodes: c2c.csv has the state, home_node, home, fresh and helper columns" \
    csv_has_columns "$RUN_DIR/c2c.csv" state home_node home fresh helper ns_median
check "two nodes: c2c: every pair has its 3 states in chase's buffer (node 0), each measured" \
    test "$(awk -F, "$C2C_COLS"' $c["home"] == "buffer" && $c["home_node"] == 0 &&
        $c["state"] ~ /^(modified|exclusive|shared)$/ && $c["ns_median"] > 0 &&
        $c["fresh"] == "yes" { n[$1 ">" $2] += 1; s[$c["state"]] = 1 }
        END { for (p in n) if (n[p] == 3) k++; print k + 0, length(s) }' "$RUN_DIR/c2c.csv")" = "12 3"
check "two nodes: c2c: the pairs within node 0 (and only they) read lines homed in node 1" \
    test "$(awk -F, "$C2C_COLS"' $c["home"] == "other_node" && $c["ns_median"] > 0 {
        print $1 $2 $c["state"] $c["home_node"] }' "$RUN_DIR/c2c.csv" | sort | tr '\n' ' ')" \
    = "01exclusive1 01modified1 01shared1 10exclusive1 10modified1 10shared1 "
check "two nodes: c2c: the shared state's helper is a third processor; none elsewhere" \
    awk -F, "$C2C_COLS"' $c["state"] == "shared" && ($c["helper"] == "" || $c["helper"] == $1 ||
        $c["helper"] == $2) { bad++ } $c["state"] != "shared" && $c["helper"] != "" { bad++ }
        END { exit bad > 0 }' "$RUN_DIR/c2c.csv"
check "two nodes: c2c: the bounce rows keep the one-way and modified-read columns" \
    test "$(awk -F, "$C2C_COLS"' $c["state"] == "bounce" && $c["ns_median"] > 0 &&
        $c["modified_read_ns_median"] > 0 && $c["rounds"] == 50 && $c["fresh"] == "no"' \
        "$RUN_DIR/c2c.csv" | wc -l)" = 12
far=$(sed -n 's/^line states: node 1 buffer for lines homed away from a pair: \(0x[0-9a-f]*\),.*/\1/p' \
    "$RUN_DIR/console.txt")
check "two nodes: c2c's node 1 buffer for the far home lies in node 1, said on the console" \
    test "$((${far:-0} >= 256 * MiB && ${far:-0} < 512 * MiB))" = 1
# atomics (issue 53): 1, 2 and 4 processors incrementing one line with LOCK ADD, each count's
# repetitions all back, each processor's own increments in the samples.
check "two nodes: atomics.csv has the counts 1, 2, 4 (lock add), every repetition measured" \
    test "$(awk -F, "$C2C_COLS"' $c["method"] == "lock add" && $c["reps_ok"] == $c["reps"] &&
        $c["mops_median"] > 0 && $c["ns_per_op_median"] > 0 &&
        $c["ns_per_op_fastest"] <= $c["ns_per_op_slowest"] { printf "%s ", $c["processors"] }' \
        "$RUN_DIR/atomics.csv")" = "1 2 4 "
check "two nodes: atomics.samples.csv: each repetition of 4 has the 4 processors' own counts" \
    test "$(awk -F, 'NR > 1 && $1 == 4 && $4 > 0 && $5 > 0 { print $2 "," $3 }' \
        "$RUN_DIR/atomics.samples.csv" | sort -u | wc -l)" = "$((4 * 5))"
check "two nodes: loaded.csv has the idle point and two points with 3 generators" \
    test "$(awk -F, 'NR==2 && $3==0 {i=1} NR>2 && $3==3 && $6>0 {n++} END {print i+n}' \
        "$RUN_DIR/loaded.csv")" = 3
check "two nodes: run.json's numa has the SRAT's nodes, their ranges and processors" \
    json_true "$RUN_DIR/run.json" "$((256 * MiB)) as \$m | "'.memory_nodes.source == "ACPI SRAT, SLIT"
        and (.memory_nodes.nodes | length) == 2
        and .memory_nodes.nodes[0].apic_ids == [0, 1] and .memory_nodes.nodes[1].apic_ids == [2, 3]
        and .memory_nodes.nodes[0].processors == [0, 1] and .memory_nodes.nodes[1].processors == [2, 3]
        and all(.memory_nodes.nodes[0].ranges[]; .base + .size_bytes <= $m)
        and all(.memory_nodes.nodes[1].ranges[]; .base >= $m and .base + .size_bytes <= 2 * $m)
        and .memory_nodes.nodes[1].mem_bytes == $m'
check "two nodes: SLIT is recorded as given, row by row" json_true "$RUN_DIR/run.json" \
    '.memory_nodes.slit and .memory_nodes.distance == [[10, 21], [31, 10]]'
check "two nodes: the processors list their node" json_true "$RUN_DIR/run.json" \
    '[.processors[] | .node] == [0, 0, 1, 1]'
validate_experiments "$RUN_DIR" # numa.csv: 2 x 2 cells, the columns, every repetition
check "two nodes: numa.csv has the four cells" test "$(csv_rows "$RUN_DIR/numa.csv")" = 4
check "two nodes: numa.csv is the 2x2 matrix, SLIT beside each cell, from each node's processor" \
    test "$(awk -F, 'NR > 1 {print $1 $2 $5 $7}' "$RUN_DIR/numa.csv" | sort | tr '\n' ' ')" \
    = "00010 01021 10231 11210 "
# buffers_in_nodes CSV: every row's buffer [buffer_phys, + the chain's size_bytes or the read
# bandwidth's read_bytes, the larger) is in its mem_node's 256M.
buffers_in_nodes() {
    local mem phys size rows=0
    while IFS=, read -r mem phys size; do
        phys=$((phys))
        [ "$phys" -ge $((mem * 256 * MiB)) ] && [ $((phys + size)) -le $(((mem + 1) * 256 * MiB)) ] ||
            return 1
        rows=$((rows + 1))
    done < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { b = $c["read_bytes"] > $c["size_bytes"] ? $c["read_bytes"] : $c["size_bytes"]
          print $c["mem_node"] "," $c["buffer_phys"] "," b }' "$1")
    [ "$rows" = 4 ]
}
check "two nodes: each buffer lies inside its node's memory" buffers_in_nodes "$RUN_DIR/numa.csv"
check "two nodes: numa.csv's buffer_placement says how each was placed" test "$(awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["buffer_placement"] == "write-back span inside the node'"'"'s SRAT ranges" { n++ }
    END { print n + 0 }' "$RUN_DIR/numa.csv")" = 4
check "two nodes: the console shows the nodes, the matrix and the summary line" sh -c "
    grep -q '^node domain  *memory' '$RUN_DIR/console.txt' &&
    grep -q '^node x node latency, ns median (SLIT distance)' '$RUN_DIR/console.txt' &&
    grep -qE '^ +1 +[0-9.]+ \\(31\\) +[0-9.]+ \\(10\\)$' '$RUN_DIR/console.txt' &&
    grep -q '^numa: 2 nodes, local ' '$RUN_DIR/console.txt'"

check "two nodes: every cell's read bandwidth measured by its row node's two processors" \
    test "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["read_gbs"] > 0 && $c["read_gbs_min"] <= $c["read_gbs"] &&
        $c["read_gbs"] <= $c["read_gbs_max"] && $c["read_processors"] == 2 &&
        $c["read_reps"] >= 1 { n++ } END { print n + 0 }' "$RUN_DIR/numa.csv")" = 4
# Each cell reads twice the last caches of its row's processors (QEMU gives each vCPU's package
# an L3 of its own: so 2 L3s a node), at least the chain's size; said on the console.
check "two nodes: each cell reads twice its row's L3s (2 a node here), said" sh -c "
    llc=\$(jq '[.caches[] | select(.type != \"instruction\") | .size_bytes] | max' '$RUN_DIR/run.json') &&
    test \$(awk -F, -v w=\$((4 * llc)) 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
        \$c[\"read_bytes\"] == w && w > \$c[\"size_bytes\"] { n++ } END { print n + 0 }' \
        '$RUN_DIR/numa.csv') = 4 &&
    grep -q 'read bandwidth: each cell reads .* the last caches of a node.s processors hold (2 of' \
        '$RUN_DIR/console.txt'"
check "two nodes: the console shows the bandwidth matrix, a row per node" sh -c "
    grep -q '^node x node read bandwidth, GB/s median (processors)' '$RUN_DIR/console.txt' &&
    test \$(grep -cE '^ +[01] +[0-9.]+ \\(2\\) +[0-9.]+ \\(2\\)$' '$RUN_DIR/console.txt') = 2"
"$ROOT/build/chase-report" --out "$WORK/report" "$RUN_DIR" >/dev/null 2>&1
"$ROOT/build/chase-report" --json "$RUN_DIR" >"$WORK/report.json" 2>/dev/null
check "two nodes: chase-report draws the bandwidth heatmap and tables it in report.md" sh -c "
    test -s '$WORK/report/numa_bandwidth.png' &&
    grep -q '^| processors. node . memory.s node, read GB/s | 0 | 1 |' '$WORK/report/report.md'"
check "two nodes: chase-report draws c2c's heatmap per line state, tables states and homes" sh -c "
    test -s '$WORK/report/c2c.png' && test -s '$WORK/report/c2c_modified.png' &&
    test -s '$WORK/report/c2c_exclusive.png' && test -s '$WORK/report/c2c_shared.png' &&
    grep -q '^| shared | other_node | 2 |' '$WORK/report/report.md'"
check "two nodes: chase-report draws the atomics curves and gives their items" sh -c "
    test -s '$WORK/report/atomics.png' && test -s '$WORK/report/atomics_rate.png' &&
    jq -e '.verdicts.atomics | .one_ns_per_op > 0 and .all_processors == 4' '$WORK/report.json'"
check "two nodes: --json gives each line state's latency, homed near and away" \
    json_true "$WORK/report.json" '.verdicts.c2c as $v | all([$v.modified_ns, $v.exclusive_ns,
        $v.shared_ns, $v.modified_other_node_ns, $v.shared_other_node_ns][]; . > 0)'
check "two nodes: --json gives local and remote read GB/s" json_true "$WORK/report.json" \
    '.verdicts.numa as $v | ($v.local_read_gbs > 0) and ($v.remote_read_gbs > 0)'

boot numa-one --timeout 120 --mem 256M --smp 2 \
    --qemu -object --qemu memory-backend-ram,id=m0,size=256M \
    --qemu -numa --qemu node,nodeid=0,cpus=0-1,memdev=m0 "${SMALL[@]}"
check "one node: the run completes" json_true "$RUN_DIR/run.json" '.status == "complete"'
check "one node: numa is skipped, saying the SRAT lists one node" json_true "$RUN_DIR/run.json" \
    '.experiments.numa == "skipped: needs two memory nodes or more: one node here (ACPI SRAT)"
     and (.memory_nodes.nodes | length) == 1'
check "one node: numa.csv still says what it holds" csv_has_columns "$RUN_DIR/numa.csv" \
    cpu_node mem_node slit_distance ns_median

boot numa-none --timeout 120 --smp 2 "${SMALL[@]}"
check "no SRAT: numa is skipped with that reason, run.json says why" \
    json_true "$RUN_DIR/run.json" '.status == "complete" and
        (.experiments.numa | startswith("skipped: needs two memory nodes or more: the ACPI "
            + "tables have no SRAT")) and (.memory_nodes.note | test("no SRAT"))'
finish
