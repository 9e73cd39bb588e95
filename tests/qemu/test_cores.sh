#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase.efi drives the other processors through EFI MP services: with -smp 4 cores, c2c and
# loaded run on all four (files complete, a 4x4 matrix, loaded's family of read:write mixes, each
# from idle to flat out); with -smp 1 they are skipped with a
# reason; an AP that never returns is reported, left out, and the run finishes. TCG timings are
# never judged.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lib_loaded.sh"

# The default window_max_ms (10 ms): c2c's waits and loaded's generators go on over windows of
# that length on every processor, however slowly TCG's vCPU threads answer on a shared host.
SMALL=(--set profile=quick --set on_exit=shutdown --set cores.max=64K --set c2c.rounds=50
    --set loaded.size=1M --set loaded.traffic=1M --set loaded.delays=4,0)

boot cores-smp4 --smp 4 --timeout 240 --set experiments=cores,c2c,loaded "${SMALL[@]}"
check "-smp 4: qemu-run exits 0 and copies the run folder" \
    sh -c "test $BOOT_RC = 0 && test -d '$RUN_DIR'"
validate_run_json "$RUN_DIR"
check "-smp 4: run.json lists 4 processors with package/core/thread, the BSP runs chase" \
    json_true "$RUN_DIR/run.json" '(.processors | length) == 4 and
        ([.processors[] | select(.runs_chase)] | length) == 1 and
        all(.processors[]; has("package") and has("core") and has("thread") and (.lost | not))'
check "-smp 4: cores, c2c and loaded ran ok" json_true "$RUN_DIR/run.json" \
    '.experiments.cores == "ok" and .experiments.c2c == "ok" and .experiments.loaded == "ok"'
check "-smp 4: cores.csv holds 4 processors' curves over the same sizes" sh -c "
    test \$(awk -F, 'NR>1 {print \$1}' '$RUN_DIR/cores.csv' | sort -u | wc -l) = 4 &&
    test \$(awk 'END {print NR-1}' '$RUN_DIR/cores.csv') = \$((4 * \$(awk -F, 'NR>1 && \$1==0' '$RUN_DIR/cores.csv' | wc -l)))"
check "-smp 4: c2c.csv is the 4x4 matrix: 12 ordered pairs, each measured" \
    test "$(awk -F, 'NR>1 && $7>0 && $10>0' "$RUN_DIR/c2c.csv" | wc -l)" = 12
# loaded's default family: the idle point, then each mix at both delays with 3 generators
check "-smp 4: loaded.csv has the idle point, then the 7 default mixes at 2 delays with 3 generators" \
    loaded_family "$RUN_DIR/loaded.csv" 3 "100:0 75:25 50:50 25:75 0:100 50:50nt 0:100nt" 2
check "-smp 4: a progress line per mix on the console, the estimate up front" sh -c "
    test \$(grep -c '^mix [1-7] of 7, ' '$RUN_DIR/console.txt') = 7 &&
    grep -q 'in 7 read:write mixes at 2 injection delays each (15 points, estimated ' \
        '$RUN_DIR/console.txt'"
check "-smp 4: a progress header per processor, the matrix and its groups on the console" sh -c "
    test \$(grep -c '^processor [0-3] (package' '$RUN_DIR/console.txt') = 4 &&
    grep -q 'one-way latency, ns' '$RUN_DIR/console.txt' &&
    grep -q '^group same_package  *12 pairs' '$RUN_DIR/console.txt'"
check "-smp 4: the summary names the c2c groups and the loaded latency" sh -c "
    grep -q '^c2c: core-to-core one-way latency by group: ' '$RUN_DIR/console.txt' &&
    grep -q '^loaded: .* at the highest bandwidth' '$RUN_DIR/console.txt'"

boot cores-smp1 --smp 1 --timeout 120 --set experiments=cores,c2c,loaded "${SMALL[@]}"
check "-smp 1: the run completes" json_true "$RUN_DIR/run.json" '.status == "complete"'
check "-smp 1: the three are skipped, saying the firmware shows one processor" \
    json_true "$RUN_DIR/run.json" '[.experiments.cores, .experiments.c2c, .experiments.loaded] |
        all(startswith("skipped: needs two processors or more: MP services report 1"))'

boot cores-hang --smp 4 --timeout 240 --set experiments=c2c,cores --set c2c.hang_test=answer \
    "${SMALL[@]}"
check "hung AP: the run still completes and shuts down" \
    sh -c "test $BOOT_RC = 0 && jq -e '.status == \"complete\"' '$RUN_DIR/run.json' >/dev/null"
check "hung AP: the console reports it, run.json marks it lost" sh -c "
    grep -q 'did not come back within 10 s: reported and left out' '$RUN_DIR/console.txt' &&
    jq -e '([.processors[] | select(.lost)] | length) == 1' '$RUN_DIR/run.json' >/dev/null"
check "hung AP: the run ends with a reboot instead of on_exit, said and recorded" sh -c "
    jq -e '.on_exit_forced | startswith(\"reboot: a processor was lost\")' '$RUN_DIR/run.json' \
        >/dev/null && grep -q '^chase: 1 processor lost: it may still run chase.s code, so the run ends with a reboot instead of on_exit = shutdown' '$SERIAL' &&
    grep -q '^chase: rebooting' '$SERIAL'"
# A lost AP may still write the buffer or walk chase's page tables: nothing is given back.
check "hung AP: the buffer and page tables stay allocated until the reset, said on the serial" \
    grep -qE '^chase: kept for the lost processor until the reset: [1-9][0-9]* pages' "$SERIAL"
check "hung AP: its pairs are left out of c2c, cores measures the other three" sh -c "
    jq -e '(.experiments.c2c | test(\"pairs left out\")) and .experiments.cores == \"ok\"' \
        '$RUN_DIR/run.json' >/dev/null &&
    test \$(awk -F, 'NR>1 {print \$1}' '$RUN_DIR/cores.csv' | sort -u | wc -l) = 3"
finish
