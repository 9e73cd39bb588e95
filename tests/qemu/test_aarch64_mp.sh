#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The other processors of chaseaa64.efi under qemu-system-aarch64 -M virt with AAVMF (no EFI MP
# services): chase starts them with PSCI CPU_ON, runs cores, c2c, loaded and bw_cores on 2 and
# 4 of them (at EL1 through HVC, at EL2 through SMC), and turns them off with CPU_OFF before the
# firmware powers off; a processor that never comes back is lost and the run ends with a reboot;
# chase returning to the UEFI shell leaves them off (a second chase starts them again). TCG
# timings are never judged.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lib_loaded.sh"

SMALL=(--set profile=quick --set on_exit=shutdown --set cores.max=64K --set c2c.rounds=50
    --set loaded.size=1M --set loaded.traffic=1M --set loaded.delays=4,0 --set loaded.mode=read
    --set bw_cores.level=L1)
MP='experiments=cores,c2c,loaded,bw_cores,atomics'

# mp_run NAME CPU SMP [qemu-run.sh options...]: the four multi-processor experiments on SMP
# processors.
mp_run() {
    local name=$1 cpu=$2 smp=$3 j
    shift 3
    boot "$name" --arch aarch64 --cpu "$cpu" --smp "$smp" --timeout 240 --set "$MP" "${SMALL[@]}" \
        "$@"
    check "$name: QEMU powered off through the firmware, a run folder came out" \
        sh -c "test $BOOT_RC = 0 && test -n '$RUN_DIR' && test -d '$RUN_DIR'"
    [ -n "$RUN_DIR" ] || return 0
    j=$RUN_DIR/run.json
    validate_run_json "$RUN_DIR"
    check "$name: run.json lists $smp processors placed from MPIDR, one runs chase, none lost" \
        json_true "$j" "(.processors|length)==$smp and ([.processors[]|select(.runs_chase)]|length)==1
        and all(.processors[]; (.topology|startswith(\"MPIDR_EL1\")) and (.lost|not) and
        (.midr|test(\"^0x[0-9a-f]+$\")))"
    check "$name: cores, c2c, loaded, bw_cores and atomics ran ok" json_true "$j" \
        '[.experiments.cores, .experiments.c2c, .experiments.loaded, .experiments.bw_cores,
          .experiments.atomics] | all(.=="ok")'
    check "$name: cores.csv holds a curve for each of the $smp processors" test \
        "$(awk -F, 'NR>1 {print $1}' "$RUN_DIR/cores.csv" | sort -u | wc -l)" = "$smp"
    check "$name: c2c.csv measures all $((smp * (smp - 1))) ordered pairs" \
        test "$(awk -F, 'NR>1 && $7>0 && $13=="bounce"' "$RUN_DIR/c2c.csv" | wc -l)" = $((smp * (smp - 1)))
    check "$name: c2c.csv reads modified and exclusive lines of every pair" \
        test "$(awk -F, 'NR>1 && $7>0 && ($13=="modified" || $13=="exclusive")' "$RUN_DIR/c2c.csv" |
            wc -l)" = $((2 * smp * (smp - 1)))
    # LDADD where the core has LSE (max), the exclusive pair's loop where it has not (A72).
    local method=ldxr/stxr
    [ "$cpu" = max ] && method=ldadd
    check "$name: atomics.csv: 1 to $smp processors incrementing, $method, every repetition back" \
        test "$(awk -F, -v m="$method" 'NR > 1 && $4 == m && $3 == $2 && $7 > 0 && $10 > 0 {
            printf "%s ", $1 }' "$RUN_DIR/atomics.csv")" = "$([ "$smp" = 2 ] && echo "1 2 " ||
            echo "1 2 4 ")"
    check "$name: bw_cores.csv has a scaling row on all $smp processors" \
        test "$(awk -F, -v n="$smp" 'NR>1 && $1=="scaling" && $2==n' "$RUN_DIR/bw_cores.csv" |
            wc -l)" -ge 1
    check "$name: loaded.csv has points with $((smp - 1)) generator(s)" \
        test "$(awk -F, -v g=$((smp - 1)) 'NR>1 && $3==g' "$RUN_DIR/loaded.csv" | wc -l)" -ge 1
    check "$name: every other processor was turned off before the power-off" \
        grep -q "^chase: $((smp - 1)) of $((smp - 1)) other processor(s) off" "$SERIAL"
}

mp_run a72-smp2 cortex-a72 2
check "a72-smp2: at EL1 PSCI is called with HVC, as QEMU's FADT says" json_true \
    "$RUN_DIR/run.json" '.aarch64.exception_level==1 and
        all(.processors[]; .topology=="MPIDR_EL1 (PSCI over HVC)")'
# loaded's mixes with plain and non-temporal (STNP) stores on the secondaries, beside reads
mp_run max-smp4 max 4 --set loaded.mode=mixes --set loaded.mixes=100:0,50:50,0:100nt
check "max-smp4: bw_cores ran its SVE kernels on every processor (secondaries let SVE through)" \
    grep -q 'vector width: sve (' "$RUN_DIR/console.txt"
check "max-smp4: loaded.csv has idle, then 100:0, 50:50 and 0:100nt at both delays, 3 generators" \
    loaded_family "$RUN_DIR/loaded.csv" 3 "100:0 50:50 0:100nt" 2
# With EL2 (virtualization=on) the firmware and chase run there and QEMU's FADT names SMC; the
# secondaries get the boot processor's EL2 registers (HCR_EL2, CPTR_EL2 and the rest).
mp_run el2-smp2 cortex-a72 2 --qemu -machine --qemu virtualization=on
check "el2-smp2: chase at EL2 calls PSCI with SMC" json_true "$RUN_DIR/run.json" \
    '.aarch64.exception_level==2 and all(.processors[]; .topology=="MPIDR_EL1 (PSCI over SMC)")'

boot a64-hang --arch aarch64 --cpu cortex-a72 --smp 2 --timeout 240 \
    --set experiments=c2c,cores --set c2c.hang_test=answer "${SMALL[@]}"
check "hung secondary: the run completes, marks it lost and ends with a reboot" sh -c "
    test $BOOT_RC = 0 && jq -e '.status == \"complete\" and
        ([.processors[] | select(.lost)] | length) == 1' '$RUN_DIR/run.json' >/dev/null &&
    grep -q '^chase: 0 of 1 other processor(s) off' '$SERIAL' &&
    grep -q '^chase: rebooting' '$SERIAL'"
check "hung secondary: the buffer and page tables stay allocated until the reset" \
    grep -qE '^chase: kept for the lost processor until the reset: [1-9][0-9]* pages' "$SERIAL"

# Back to the shell twice with -smp 2: the second chase can start the secondary again only if
# the first left it off (CPU_ON answers ALREADY_ON otherwise), and the probe sees no change.
nsh="$TEST_TMP/startup-aa64-mp.nsh"
run='chase\chase.efi profile=quick on_exit=return experiments=c2c c2c.rounds=20'
printf '%s\r\n' 'fs0:' 'chase\probeaa64.efi' "$run" "$run" 'echo chase-test: second returned' \
    'chase\probeaa64.efi' 'reset -s' >"$nsh"
"$ROOT/tools/mkimage.sh" --shell "$nsh" --add "$ROOT/build/probeaa64.efi" \
    "$TEST_TMP/shell-aa64-mp.img" "$ROOT/build/chaseaa64.efi" "$ROOT/tools/chase.cfg.example"
IMAGE="$TEST_TMP/shell-aa64-mp.img" boot shell-aa64-mp --arch aarch64 --cpu cortex-a72 --smp 2
check "shell -smp 2: both chase runs turned the secondary off and the shell went on" sh -c "
    grep -q 'chase-test: second returned' '$SERIAL' &&
    test \$(grep -c '^chase: 1 of 1 other processor(s) off' '$SERIAL') = 2"
check "shell -smp 2: both runs measured c2c on the two processors" \
    test "$(grep -c '^c2c: core-to-core one-way latency by group' "$SERIAL")" = 2
probes=$(grep -a 'probe: el=' "$SERIAL" | tr -d '\r' | sed 's/ free_pages.*//')
check "shell -smp 2: probe sees the same EL, TTBR0, MAIR, TCR, SCTLR, VBAR and DAIF" sh -c "
    test \$(echo '$probes' | grep -c .) = 2 && test \$(echo '$probes' | sort -u | grep -c .) = 1"
finish
