#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase.efi's own exception vectors on AArch64 (qemu-system-aarch64 -M virt, AAVMF): a data abort
# inside a measurement window is caught, recorded with its syndrome, and the run goes on to its
# other experiments and a clean power-off; VBAR_ELx, TPIDR, CPACR and the PMU registers are the
# firmware's again after a return to the UEFI shell, a faulted run's included (probeaa64.efi
# before and after).
set -u
. "$(dirname "$0")/lib.sh"

small=(--set profile=quick --set experiments=random,tlb --set random.max=64K --set tlb.max=64K
    --set on_exit=shutdown)

# fault_vector NAME CPU KIND FAR: the first experiment fails with a data abort at FAR.
fault_vector() {
    local name=$1 cpu=$2 kind=$3 far=$4 j
    boot "$name" --arch aarch64 --cpu "$cpu" "${small[@]}" --set fault_test="$kind"
    j=$RUN_DIR/run.json
    check "$name: QEMU powered off cleanly" test "$BOOT_RC" = 0
    [ -n "$RUN_DIR" ] || return 0
    check "$name: the run completes, random failed with the data abort, its syndrome and FAR" \
        json_true "$j" ".status==\"complete\" and (.experiments.random | startswith(\"failed: point \")
            and contains(\"data abort (EC 0x25, ESR 0x\") and contains(\"at ELR 0x\")
            and contains(\"FAR $far\"))"
    check "$name: the next experiment ran after the abandoned window" json_true "$j" \
        '.experiments.tlb=="ok"'
    check "$name: the console shows the fault" grep -qF "FAILED: data abort (EC 0x25" \
        "$RUN_DIR/console.txt"
}

# kind 1 loads from an unmapped address, kind 2 from one outside the translation range
fault_vector fault-a72 cortex-a72 page_fault 0x7f0000000000
fault_vector fault-max max general_protection 0x80000000000000

# What AArch64 cannot provoke is refused with the reason.
boot fault-nmi --arch aarch64 --cpu cortex-a72 --set fault_test=nmi --set on_exit=shutdown
check "fault_test=nmi: refused on AArch64, with why" grep -q \
    "key 'fault_test': chase.efi on AArch64 loads its exception vectors only inside windows" \
    "$SERIAL"

# Return to the shell after a faulted run under -cpu max (windows also enable SVE and the PMU):
# the firmware's VBAR, CPACR, PMU registers and the rest are back.
nsh="$TEST_TMP/startup-vectors.nsh"
run='chase\chase.efi profile=quick on_exit=return experiments=random,tlb random.max=64K tlb.max=64K'
printf '%s\r\n' 'fs0:' 'chase\probeaa64.efi' "$run fault_test=page_fault" \
    'echo chase-test: faulted run returned' 'chase\probeaa64.efi' 'reset -s' >"$nsh"
"$ROOT/tools/mkimage.sh" --shell "$nsh" --add "$ROOT/build/probeaa64.efi" \
    "$TEST_TMP/shell-vectors.img" "$ROOT/build/chaseaa64.efi" "$ROOT/tools/chase.cfg.example"
IMAGE="$TEST_TMP/shell-vectors.img" boot shell-vectors --arch aarch64 --cpu max
check "shell: the faulted run returned to the shell" \
    grep -q 'chase-test: faulted run returned' "$SERIAL"
check "shell: the faulted run recorded its data abort" grep -q 'FAILED: data abort' "$SERIAL"
probes=$(grep -a 'probe: el=' "$SERIAL" | tr -d '\r' | sed 's/ free_pages.*//')
check "shell: probeaa64.efi ran before and after" test "$(echo "$probes" | grep -c .)" = 2
check "shell: probe sees the same VBAR, TPIDR, CPACR, PMU and translation registers, DAIF" \
    test "$(echo "$probes" | sort -u | grep -c .)" = 1
finish
