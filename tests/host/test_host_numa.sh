#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-host's numa on two memory nodes: Debian's kernel (make deps: build/deps/linux) boots in
# QEMU (TCG, -smp 4, nodes of 1G with processors 0-1 and 2-3, distances 21 one way and 31 back)
# an initramfs of the static chase-host and tests/host/numa_init.c, which runs
# `chase-host experiments=numa` and prints the run folder's files to the serial console between
# marker lines. Checked: the two nodes as Linux shows them, the 2x2 latency and read bandwidth
# matrices, the buffers bound to their nodes (mbind, verified with move_pages, said on the console
# and in numa.csv's buffer_placement; their physical addresses inside the node's memory), the
# chase buffer's node recorded, and the remote cells as remote. TCG timings are never judged.
set -u
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/lib_run.sh"

. "$ROOT/tests/host/lib_linux.sh"

NODE_BYTES=$((1 << 30)) # each node's memory: node 0 is [0, 1G), node 1 [1G, 2G) (q35, no hole)
work=$(fresh_dir host-numa)
dir=$work/0001
mkdir -p "$dir"
linux_initrd "$work"

linux_boot "$work" "profile=quick experiments=numa numa.size=2M" \
    -machine q35 -accel tcg -cpu max -smp 4 -m 2G \
    -object memory-backend-ram,id=m0,size=1G -object memory-backend-ram,id=m1,size=1G \
    -numa node,nodeid=0,cpus=0-1,memdev=m0 -numa node,nodeid=1,cpus=2-3,memdev=m1 \
    -numa dist,src=0,dst=1,val=21 -numa dist,src=1,dst=0,val=31
rc=$?
log=$work/serial.txt
files="console.txt run.json numa.csv numa.samples.csv"
linux_files "$work" "$dir" $files

check "QEMU powers off by itself after init printed everything (rc $rc)" \
    sh -c "test $rc = 0 && grep -qx '=== done ===' '$log'"
check "chase-host ran under Linux on the serial console (ttyS0, no modules) and exited 0" \
    grep -qx '=== chase-host exit 0 ===' "$log"
check "init printed the run folder's files: $files" sh -c "cd '$dir' && test -s ${files// / -a -s }"
validate_run_json "$dir"
check "numa ran ok" json_true "$dir/run.json" '.experiments.numa == "ok"'
check "chase-host finds the two nodes in sysfs, their processors and the distances as given" \
    json_true "$dir/run.json" '.memory_nodes.source == "/sys/devices/system/node"
        and (.memory_nodes.nodes | length) == 2
        and .memory_nodes.nodes[0].processors == [0, 1]
        and .memory_nodes.nodes[1].processors == [2, 3]
        and all(.memory_nodes.nodes[]; .mem_bytes > 0 and .free_bytes > 0)
        and .memory_nodes.slit and .memory_nodes.distance == [[10, 21], [31, 10]]'
check "the processors list their node" json_true "$dir/run.json" \
    '[.processors[] | .node] == [0, 0, 1, 1]'
validate_experiments "$dir" # numa.csv: 2 x 2 cells, the columns, every repetition
check "numa.csv is the 2x2 latency matrix, chased from each node's first processor" \
    test "$(awk -F, 'NR > 1 && $(NF) != "" {print $1 $2 $5}' "$dir/numa.csv" | sort |
        tr '\n' ' ')" = "000 010 102 112 "
check "every latency cell is measured" csv_positive "$dir/numa.csv" ns_median
check "the 2x2 read bandwidth matrix: every cell read by its row node's two processors" \
    test "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["read_gbs"] > 0 && $c["read_gbs_min"] <= $c["read_gbs"] &&
        $c["read_gbs"] <= $c["read_gbs_max"] && $c["read_processors"] == 2 &&
        $c["read_reps"] >= 1 { n++ } END { print n + 0 }' "$dir/numa.csv")" = 4
# mbind's placement, checked by chase-host with move_pages on sampled pages of each buffer.
check "each node's buffer is bound with mbind and move_pages finds every sampled page there" \
    test "$(grep -cE '^node ([01]) buffer: 0x[0-9a-f]+, [0-9]+ bytes, mbind\(MPOL_BIND\) to node \1: ([1-9][0-9]*) of \2 sampled pages there$' \
        "$dir/console.txt")" = 2
# ... and in numa.csv, each row naming its memory node's buffer's (Linux's node: mem_domain).
check "numa.csv's buffer_placement: mbind to the row's memory node, every sampled page there" \
    test "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { p = $c["buffer_placement"]; want = "mbind(MPOL_BIND) to node " $c["mem_domain"] ": "
          n = split(substr(p, length(want) + 1), w, " ")
          if (substr(p, 1, length(want)) == want && n == 6 && w[1] == w[3] && w[1] > 0 &&
              w[2] == "of" && w[4] " " w[5] " " w[6] == "sampled pages there") k++ }
        END { print k + 0 }' "$dir/numa.csv")" = 4
# buffers_in_nodes: every row's buffer [buffer_phys, + the chain's size_bytes or the read
# bandwidth's read_bytes, the larger) is in its mem_node's 1G.
buffers_in_nodes() {
    local mem phys size rows=0
    while IFS=, read -r mem phys size; do
        phys=$((phys))
        [ "$phys" -ge $((mem * NODE_BYTES)) ] && [ $((phys + size)) -le $(((mem + 1) * NODE_BYTES)) ] ||
            return 1
        rows=$((rows + 1))
    done < <(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { b = $c["read_bytes"] > $c["size_bytes"] ? $c["read_bytes"] : $c["size_bytes"]
          print $c["mem_node"] "," $c["buffer_phys"] "," b }' "$1")
    [ "$rows" = 4 ]
}
check "each buffer's physical address (pagemap) lies in its node's memory" \
    buffers_in_nodes "$dir/numa.csv"
# The chase buffer: Linux places it (chase-host cannot choose); move_pages says where it is.
check "run.json records the chase buffer's node, the one its physical address lies in" \
    json_true "$dir/run.json" "$NODE_BYTES as \$g | .buffer.node_note == null and
        .buffer.node == (.buffer.phys_addr / \$g | floor) and .buffer.phys_addr > 0"
check "the console names the chase buffer's node" grep -qE \
    "^  node       buffer in memory node $(jq .buffer.node "$dir/run.json")\$" "$dir/console.txt"
check "the remote cells are the ones with the remote distances, the local ones with 10" \
    test "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { print ($c["cpu_node"] == $c["mem_node"] ? "local" : "remote") $c["slit_distance"] }' \
        "$dir/numa.csv" | sort | tr '\n' ' ')" = "local10 local10 remote21 remote31 "
check "the console shows both matrices, a row per node" sh -c "
    grep -q '^node x node latency, ns median (SLIT distance)' '$dir/console.txt' &&
    grep -qE '^ +0 +[0-9.]+ \\(10\\) +[0-9.]+ \\(21\\)$' '$dir/console.txt' &&
    grep -qE '^ +1 +[0-9.]+ \\(31\\) +[0-9.]+ \\(10\\)$' '$dir/console.txt' &&
    grep -q '^node x node read bandwidth, GB/s median (processors)' '$dir/console.txt' &&
    test \$(grep -cE '^ +[01] +[0-9.]+ \\(2\\) +[0-9.]+ \\(2\\)$' '$dir/console.txt') = 2"
"$ROOT/build/chase-report" --json "$dir" >"$work/report.json" 2>/dev/null
check "chase-report --json sets the remote cells apart: remote latency and read GB/s" \
    json_true "$work/report.json" '.verdicts.numa as $v | $v.local_ns > 0 and $v.remote_ns > 0
        and $v.local_read_gbs > 0 and $v.remote_read_gbs > 0'
finish
