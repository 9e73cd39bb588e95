#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The one chase.img on AArch64: qemu-system-aarch64 -M virt with AAVMF boots
# \EFI\BOOT\BOOTAA64.EFI from it, with -cpu cortex-a72 and -cpu max, on 1 and 2 processors;
# every single-core experiment of the quick profile runs, every file is written, run.json
# describes the AArch64 machine, and chase powers off through the firmware. Timings from TCG
# are never judged; the core clock comes from the PMU cycle counter QEMU implements; chase returns
# to the UEFI shell leaving TTBR0, MAIR, TCR, SCTLR, VBAR, TPIDR, DAIF, the PMU registers and
# CPACR as it found them (probeaa64.efi before and after). (x86-64's half: test_smoke.sh.)
set -u
. "$(dirname "$0")/lib.sh"

# The single-core experiments: each must run (bandwidth with its NEON kernels, or under -cpu max
# its SVE kernels: windows enable SVE). The rest need other processors or memory nodes and may be skipped
# with the reason.
SINGLE_CORE='["random","linear","fused","dual","scan","ring","offset","parallel","tlb","bandwidth"]'

check "the image holds both boot files" sh -c \
    "mdir -i '$IMAGE@@1M' -b ::/EFI/BOOT | grep -q BOOTX64.EFI &&
     mdir -i '$IMAGE@@1M' -b ::/EFI/BOOT | grep -q BOOTAA64.EFI"

# arm_run NAME CPU SMP: boot the quick profile; check what every AArch64 run must show.
arm_run() {
    local name=$1 cpu=$2 smp=$3 j
    boot "$name" --arch aarch64 --cpu "$cpu" --smp "$smp" --set profile=quick \
        --set on_exit=shutdown
    check "$name: QEMU powered off through the firmware (exit status 0)" test "$BOOT_RC" = 0
    check "$name: a run folder came out of the image" test -n "$RUN_DIR" -a -d "$RUN_DIR"
    [ -n "$RUN_DIR" ] || return 0
    j=$RUN_DIR/run.json
    for f in run.json console.txt; do
        check "$name: run folder holds $f" test -s "$RUN_DIR/$f"
    done
    validate_run_json "$RUN_DIR"
    validate_experiments "$RUN_DIR"
    check "$name: run.json says aarch64, complete, on UEFI" json_true "$j" \
        '.arch=="aarch64" and .status=="complete" and .platform=="uefi"'
    check "$name: every single-core experiment is ok, the others ok or skipped with why" \
        json_true "$j" "$SINGLE_CORE as \$one | all(.experiments|to_entries[];
            if (.key as \$k|\$one|index(\$k)) then .value==\"ok\"
            else (.value==\"ok\" or (.value|startswith(\"skipped: \"))) end)"
    check "$name: each experiment that ran wrote its CSV and samples" json_true "$j" \
        '[.experiments|to_entries[]|select(.value=="ok")]|length>0'
    for e in $(jq -r '.experiments|to_entries[]|select(.value=="ok")|.key' "$j"); do
        check "$name: $e.csv and $e.samples.csv written" \
            test -s "$RUN_DIR/$e.csv" -a -s "$RUN_DIR/$e.samples.csv"
    done
    check "$name: run.json records MIDR, the exception level and the timer" json_true "$j" \
        '(.aarch64.midr|test("^0x[0-9a-f]+$")) and (.aarch64.exception_level==1 or
         .aarch64.exception_level==2) and .aarch64.timer_hz>0 and .tsc.hz>0'
    check "$name: run.json records CLIDR/CCSIDR's cache levels and says where sizes came from" \
        json_true "$j" '(.aarch64.cache_levels|length>0) and
        all(.aarch64.cache_levels[]; .data_or_unified.size_bytes>0) and
        (.cache_source=="CLIDR_EL1/CCSIDR_EL1" or .cache_source=="ACPI PPTT") and
        (.aarch64.pptt|type=="boolean") and (.aarch64.pptt_caches or (.aarch64.pptt_note|length>0))'
    check "$name: run.json records MAIR, TCR and the buffer's Normal WB attribute" json_true "$j" \
        '(.aarch64.translation.mair|test("^0x")) and (.aarch64.translation.tcr|test("^0x")) and
         (.buffer.mem_type|startswith("Normal WB, MAIR[")) and .buffer.table_pages>0'
    check "$name: x86-only records say they are not on this architecture" json_true "$j" \
        '(.memory_types.why|startswith("not on this architecture")) and
         (.prefetch.documented|test("not on this architecture"))'
    # NEON's 128 bits on the Cortex-A72; SVE's vector length on max, which windows enable
    local want=128
    if [ "$cpu" = max ]; then
        check "$name: run.json says windows enable SVE, at which length" json_true "$j" \
            '(.windows.sve|startswith("enabled inside windows (CPACR_EL1.ZEN, ZCR_EL1.LEN"))
             and (.windows.sve|test(": [0-9]+-bit vectors"))'
        want=$(jq -r '.windows.sve' "$j" | sed -n 's/.*: \([0-9]*\)-bit vectors.*/\1/p')
    else
        check "$name: run.json says SVE is absent" json_true "$j" \
            '.windows.sve=="not enabled: no SVE (ID_AA64PFR0_EL1)"'
    fi
    local widths=neon=128
    [ "$cpu" = max ] && widths="sve=${want:-0} neon=128"
    check "$name: bandwidth.csv: read, write and copy at ${widths/ / and }, the faster kept" sh -c "
        $(declare -f bw_fastest_kept); bw_fastest_kept '$RUN_DIR/bandwidth.csv' $widths &&
        awk -F, 'NR > 1 { seen[\$2] = 1 } END { exit !seen[\"read\"] || !seen[\"write\"] ||
            !seen[\"copy\"] }' '$RUN_DIR/bandwidth.csv'"
    check "$name: each repetition's core clock is PMCCNTR_EL0, enabled in windows (run.json, CSV)" \
        json_true "$j" '.core_clock.per_repetition=="pmccntr" and
            (.core_clock.core_counter|startswith("PMCCNTR_EL0, enabled inside windows at EL"))
            and .core_clock.aperf_mperf_core_per_tsc>0'
    check "$name: random.csv's clock column says pmccntr" awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        $col["clock"] != "pmccntr" { bad = 1 } END { exit bad || NR < 2 }' "$RUN_DIR/random.csv"
    check "$name: the console names the processor by MIDR" grep -qE '^  cpu .*\(MIDR 0x' \
        "$RUN_DIR/console.txt"
    check "$name: the console says chase shut down" grep -q 'chase: shutting down' "$SERIAL"
}

arm_run a72-1 cortex-a72 1
check "a72-1: MIDR names the Cortex-A72" json_true "$RUN_DIR/run.json" \
    '.aarch64.midr=="0x410fd083" and (.cpu.brand|startswith("Cortex-A72"))'
arm_run max-2 max 2
check "max-2: the multi-processor experiments ran on both processors (test_aarch64_mp.sh)" \
    json_true "$RUN_DIR/run.json" '.experiments.cores=="ok" and (.processors|length)==2'
arm_run max-1 max 1
check "max-1: the multi-processor experiments say why they were skipped" json_true \
    "$RUN_DIR/run.json" '.experiments.cores|startswith("skipped: ")'
arm_run a72-2 cortex-a72 2

# A configuration error on AArch64: prefetch=off cannot be honoured, and says why.
boot prefetch --arch aarch64 --cpu cortex-a72 --set prefetch=off --set on_exit=shutdown
check "prefetch=off: refused as not on this architecture" grep -q \
    "key 'prefetch': not on this architecture" "$SERIAL"

# bandwidth.width=sve at a vector length QEMU caps (sve-max-vq=4: 512 bits): RDVL in a window
# gives it, the SVE kernels run at it.
boot sve512 --arch aarch64 --cpu max,sve-max-vq=4 --set profile=quick --set experiments=bandwidth \
    --set bandwidth.width=sve --set bandwidth.max=16K --set on_exit=shutdown
check "sve-max-vq=4: bandwidth ok, SVE enabled at 512 bits" json_true "$RUN_DIR/run.json" \
    '.experiments.bandwidth=="ok" and (.windows.sve|contains(": 512-bit vectors"))'
check "sve-max-vq=4: every bandwidth.csv row is 512 bits wide" awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    $col["width_bits"] != 512 { bad = 1 } END { exit bad || NR < 2 }' "$RUN_DIR/bandwidth.csv"

# Without a PMU (-cpu cortex-a72,pmu=off: ID_AA64DFR0_EL1.PMUVer 0) the add chain, and why.
boot nopmu --arch aarch64 --cpu cortex-a72,pmu=off --set profile=quick --set experiments=random \
    --set random.max=64K --set on_exit=shutdown
check "pmu=off: the add chain is each repetition's clock, run.json says why not PMCCNTR_EL0" \
    json_true "$RUN_DIR/run.json" '.status=="complete" and .core_clock.per_repetition=="adds" and
        (.core_clock.core_counter|startswith("not used: ID_AA64DFR0_EL1.PMUVer = 0x0"))'
# The timer's resolution per point: tick_share_pct is one tick over the mean timed region, here
# (no lap split at 64K) 100 x repetitions / the repetitions' ticks in the samples file.
check "random.csv's tick_share_pct agrees with its samples' ticks (within rounding)" awk -F, '
    FNR == 1 { for (i = 1; i <= NF; i++) col[FILENAME, $i] = i; next }
    FILENAME ~ /samples/ { k = $col[FILENAME, "size_bytes"]; sum[k] += $col[FILENAME, "tsc_total"]
                           n[k]++; next }
    { share[$col[FILENAME, "size_bytes"]] = $col[FILENAME, "tick_share_pct"] }
    END { for (k in share) { want = 100 * n[k] / sum[k]; got = share[k]
                             if (!(want > 0) || got < want * 0.999 - 1e-6 ||
                                 got > want * 1.001 + 1e-6) bad = 1
                             m++ }
          exit bad || m < 2 }' "$RUN_DIR/random.samples.csv" "$RUN_DIR/random.csv"

# Return to the firmware: the UEFI shell runs probeaa64.efi, chase twice, probeaa64.efi again.
nsh="$TEST_TMP/startup-aa64.nsh"
run='chase\chase.efi profile=quick on_exit=return experiments=random,tlb random.max=64K tlb.max=64K'
printf '%s\r\n' 'fs0:' 'chase\probeaa64.efi' "$run" 'echo chase-test: first returned' "$run" \
    'echo chase-test: second returned' 'chase\probeaa64.efi' 'reset -s' >"$nsh"
"$ROOT/tools/mkimage.sh" --shell "$nsh" --add "$ROOT/build/probeaa64.efi" \
    "$TEST_TMP/shell-aa64.img" "$ROOT/build/chaseaa64.efi" "$ROOT/tools/chase.cfg.example"
IMAGE="$TEST_TMP/shell-aa64.img" boot shell-aa64 --arch aarch64 --cpu cortex-a72
check "shell: chase returned to the firmware twice and the shell went on" \
    grep -q 'chase-test: second returned' "$SERIAL"
check "shell: each chase says it left TTBR0, MAIR, TCR, SCTLR, VBAR, DAIF and memory as found" \
    test "$(grep -c 'chase: leaving the machine as it was: TTBR0, MAIR, TCR' "$SERIAL")" = 2
probes=$(grep -a 'probe: el=' "$SERIAL" | tr -d '\r')
check "shell: probeaa64.efi ran before and after" test "$(echo "$probes" | grep -c .)" = 2
check "shell: probe sees the same EL, translation registers, VBAR, TPIDR, DAIF, PMU and CPACR" \
    test "$(echo "$probes" | sed 's/ free_pages.*//' | sort -u | grep -c .)" = 1
before=$(echo "$probes" | sed -n '1s/.*free_pages=//p')
after=$(echo "$probes" | sed -n '2s/.*free_pages=//p')
check "shell: free memory after two runs within 64 pages of before ($before -> $after)" \
    test $((before - after)) -le 64 -a $((before - after)) -ge -64
finish
