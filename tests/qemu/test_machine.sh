#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase owns the machine: its page tables on small and large memory, CPUs with and without
# 1 GiB pages and RDTSCP, page=4K, faults caught inside windows, and the firmware still
# working after chase returns to it (the UEFI shell runs chase twice from startup.nsh).
set -u
. "$(dirname "$0")/lib.sh"

quick=(--set profile=quick --set on_exit=shutdown)

# ---- memory: 256 MiB, and 6 GiB with the buffer above 4 GiB
boot mem256 --mem 256M "${quick[@]}" --set experiments=random
j=$RUN_DIR/run.json
check "256M: clean power-off and a complete run" json_true "$j" '.status=="complete"'
check "256M: own page tables cover the buffer" json_true "$j" \
    '.buffer.table_pages>0 and (.buffer.identity_map_bytes >= .buffer.phys_addr + .buffer.size_bytes)'
check "256M: buffer 2 MiB aligned" json_true "$j" '.buffer.phys_addr % 2097152 == 0'

boot mem6g --mem 6G "${quick[@]}" --set experiments=random
j=$RUN_DIR/run.json
check "6G: memory over 4 GiB is seen" json_true "$j" '.memory_total_bytes > 4294967296'
check "6G: the buffer lies above 4 GiB and the identity map covers it" json_true "$j" \
    '.buffer.phys_addr >= 4294967296 and
     (.buffer.identity_map_bytes >= .buffer.phys_addr + .buffer.size_bytes)'
check "6G: the random experiment ran on it" json_true "$j" '.experiments.random=="ok"'
validate_random "$RUN_DIR"

# ---- CPU models: max has 1 GiB pages and RDTSCP; qemu64 has neither
# 2 GiB: a 1 GiB page wholly write-back exists (with 256 MiB, every 1 GiB page also covers
# the first MiB's fixed-range types, and chase maps the buffer with 2 MiB pages there)
boot cpumax --cpu max --mem 2G "${quick[@]}" --set experiments=random
j=$RUN_DIR/run.json
check "cpu max: 1 GiB pages used by default" json_true "$j" \
    '.cpu.page_1g and .buffer.page_size_bytes==1073741824 and .page_size_bytes==1073741824'
check "cpu max: timed regions end with rdtscp" json_true "$j" '.tsc.end_fence=="rdtscp; lfence"'

boot qemu64 --cpu qemu64 "${quick[@]}" --set experiments=random
j=$RUN_DIR/run.json
check "cpu qemu64: no 1 GiB pages, falls back to 2 MiB" json_true "$j" \
    '(.cpu.page_1g|not) and .buffer.page_size_bytes==2097152'
check "cpu qemu64: the console says why" grep -q '2M pages (no 1 GiB pages on this CPU)' \
    "$RUN_DIR/console.txt"
check "cpu qemu64: no RDTSCP, fenced rdtsc instead" json_true "$j" \
    '(.cpu.rdtscp|not) and .tsc.end_fence=="lfence; rdtsc; lfence" and .experiments.random=="ok"'

for cpu in max qemu64; do
    boot "page4k-$cpu" --cpu "$cpu" "${quick[@]}" --set experiments=random --set page=4K
    check "cpu $cpu: page=4K maps the buffer with 4 KiB pages and runs" json_true \
        "$RUN_DIR/run.json" '.buffer.page_size_bytes==4096 and .experiments.random=="ok"'
done

boot page1g-qemu64 --cpu qemu64 "${quick[@]}" --set page=1G
check "cpu qemu64: page=1G is a configuration error that says why" \
    grep -q "key 'page': this CPU has no 1 GiB pages" "$RUN_DIR/errors.txt"

boot intel --cpu qemu64,vendor=GenuineIntel "${quick[@]}" --set experiments=random
check "Intel CPU in ring 0: SMIs counted, an smi column with a count per repetition" \
    sh -c "jq -e '.tsc.smi_counting' '$RUN_DIR/run.json' >/dev/null &&
           awk -F, 'NR==1 {for (i=1;i<=NF;i++) if (\$i==\"smi\") c=i; if (!c) exit 1; next}
                    \$c !~ /^[0-9]+\$/ {exit 1}' '$RUN_DIR/random.samples.csv'"
j=$WORK/../cpumax/out/0001/run.json
check "AMD CPU: SMIs not counted, the smi column left empty" \
    sh -c "jq -e '.tsc.smi_counting|not' '$j' >/dev/null &&
           awk -F, 'NR>1 && \$NF != \"\" {exit 1}' '$WORK/../cpumax/out/0001/random.samples.csv'"
check "the chase loop's own cost per load is measured (16 vs 256 loads per iteration)" \
    json_true "$j" '.tsc.loop_check.l1_ticks_per_load_unroll16 > 0 and
                    .tsc.loop_check.l1_ticks_per_load_unroll256 > 0'
check "the buffer is aligned to at least 2 MiB and to what run.json says" json_true "$j" \
    '.buffer.align_bytes >= 2097152 and .buffer.phys_addr % .buffer.align_bytes == 0'

# ---- windows: the longest recorded against window_max_ms; LFENCE and paging findings
j=$WORK/../cpumax/out/0001/run.json
check "windows: count, the longest (ms, under interrupts off) and the cap in run.json" json_true \
    "$j" '.windows.interrupts_off and .windows.count > 0 and .windows.longest_ms > 0 and
          .windows.max_ms == 10 and .config.window_max_ms == 10'
check "windows: 4-level paging found (CR4.LA57 clear), LFENCE finding recorded" json_true "$j" \
    '(.windows.paging | startswith("4-level (CR4.LA57 clear)")) and (.windows.lfence|length) > 0'
check "windows: the console prints the longest window and the findings" sh -c \
    "grep -q '^windows: [0-9]*, the longest [0-9.]* ms' '$WORK/../cpumax/out/0001/console.txt' &&
     grep -q '^  paging     4-level' '$WORK/../cpumax/out/0001/console.txt'"
# An AMD family 17h (Zen) CPU needs DE_CFG[1]: chase reads it, tries to set it, says what came of
# it (TCG keeps no DE_CFG: the bit does not stick), and the run goes on.
boot epyc --cpu EPYC "${quick[@]}" --set experiments=random
check "cpu EPYC (family 17h): the DE_CFG finding is recorded and the run completes" json_true \
    "$RUN_DIR/run.json" '.status=="complete" and (.windows.lfence | contains("DE_CFG")) and
                         .experiments.random=="ok"'
check "cpu EPYC: the console says what was found about LFENCE" \
    grep -q '^  lfence     DE_CFG' "$RUN_DIR/console.txt"

# ---- NMI and machine check in a window: that repetition is dropped, counted, the point goes on
for kind in nmi machine_check; do
    boot "fault-$kind" "${quick[@]}" --set experiments=random --set fault_test=$kind
    j=$RUN_DIR/run.json
    case $kind in
    nmi) what='an NMI' count='.windows.nmis >= 1 and .windows.nmi_windows_dropped >= 1' ;;
    *) what='a machine check' count='.windows.machine_checks >= 1' ;;
    esac
    check "$kind: the run completes and the point is ok" json_true "$j" \
        ".status==\"complete\" and .experiments.random==\"ok\" and $count"
    check "$kind: the console notes the dropped window of that point" \
        grep -q "note: 1 window of this point was lost to $what and taken again" \
        "$RUN_DIR/console.txt"
done

# ---- TSC: calibrated against the ACPI PM timer, every source recorded
j=$WORK/../cpumax/out/0001/run.json
check "TSC calibrated against the ACPI PM timer, 5 times, spread recorded" json_true "$j" \
    '.tsc.method=="pm_timer" and (.tsc.sources[0].calibrations_hz|length)==5
     and (.tsc.spread|type=="number") and any(.tsc.sources[]; .method=="stall")'
check "core clock and timer overhead recorded" json_true "$j" \
    '.core_clock.core_per_tsc>0 and .core_clock.core_hz>0 and .tsc.overhead_ticks>0'
check "QEMU's TSC is not invariant, and the console warns" \
    grep -q 'NOT invariant: timings may drift' "$WORK/../cpumax/out/0001/console.txt"

# ---- faults inside a window: recorded, the run goes on, QEMU still powers off
for kind in page_fault general_protection; do
    boot "fault-$kind" "${quick[@]}" --set fault_test=$kind
    j=$RUN_DIR/run.json
    first=$(jq -r '.config.experiments[0]' "$j")
    case $kind in
    page_fault) what='page fault (#PF, vector 14) at RIP 0x' detail='CR2 0x7f0000000000' ;;
    *) what='general protection fault (#GP, vector 13) at RIP 0x' detail='error code 0x' ;;
    esac
    check "$kind: QEMU powered off cleanly" test "$BOOT_RC" = 0
    check "$kind: run.json marks the first experiment failed with vector, RIP and details" \
        json_true "$j" ".experiments[\"$first\"] | startswith(\"failed: point \") and
            contains(\"$what\") and contains(\"$detail\")"
    check "$kind: the console shows the fault" grep -qF "FAILED: $what" "$RUN_DIR/console.txt"
    # One processor, one node here: the multi-processor experiments and numa are skipped, and
    # say why.
    check "$kind: the other experiments still ran, and are ok" json_true "$j" \
        "[.experiments | to_entries[] | select(.key != \"$first\") | .value] |
         length >= 1 and all(. == \"ok\" or startswith(\"skipped: needs two processors\") or
             startswith(\"skipped: needs two memory nodes\")) and
         any(. == \"ok\")"
done

# ---- a fault outside any window: the panic screen, what was finished is saved, clean stop
boot fault-outside "${quick[@]}" --set fault_test=outside_window
j=$RUN_DIR/run.json
first=$(jq -r '.config.experiments[0]' "$j")
second=$(jq -r '.config.experiments[1]' "$j")
check "outside a window: the panic screen names vector, error code, RIP, CR2, CR3 and the experiment" \
    sh -c "grep -q 'CPU exception outside a measurement window' '$SERIAL' &&
           grep -q 'page fault (#PF), vector 14, error code 0x' '$SERIAL' &&
           grep -qE 'RIP 0x[0-9a-f]{16}  CR2 0x00007f0000000000  CR3 0x[0-9a-f]{16}' '$SERIAL' &&
           grep -q 'while: running $second' '$SERIAL'"
check "outside a window: then a clean shutdown as on_exit says (no reboot, no hang)" \
    sh -c "test $BOOT_RC = 0 && grep -q 'chase: shutting down' '$SERIAL'"
check "outside a window: run.json says panic, the finished experiment is ok and saved" \
    json_true "$j" ".status==\"panic\" and .experiments[\"$first\"]==\"ok\" and
        (.experiments[\"$second\"] | startswith(\"failed: panic: page fault\"))"
check "outside a window: the finished experiment's files are complete" \
    csv_positive "$RUN_DIR/$first.csv" ns_median

# ---- return to the firmware: the UEFI shell runs probe.efi, chase twice, probe.efi again
nsh="$TEST_TMP/startup.nsh"
# bandwidth's AVX kernels (-cpu max) make every window enable CR4.OSXSAVE and XCR0 and put them back
run='chase\chase.efi profile=quick on_exit=return experiments=random,bandwidth random.max=64K'
run="$run bandwidth.max=8K bandwidth.kernels=read"
printf '%s\r\n' 'echo chase-test: shell started' 'fs0:' 'chase\probe.efi' \
    "$run" \
    'echo chase-test: first returned' \
    "$run" \
    'echo chase-test: second returned' 'chase\probe.efi' 'reset -s' >"$nsh"
"$ROOT/tools/mkimage.sh" --shell "$nsh" --add "$ROOT/build/probe.efi" "$TEST_TMP/shell.img" \
    "$ROOT/build/chase.efi" "$ROOT/tools/chase.cfg.example"
IMAGE="$TEST_TMP/shell.img" boot shell
check "shell: chase returned to the firmware twice and the shell went on" \
    grep -q 'chase-test: second returned' "$SERIAL"
check "shell: each chase says it left CR3, IDT, GDT, IF and all memory as it found them" \
    test "$(grep -c 'chase: leaving the machine as it was' "$SERIAL")" = 2
probes=$(grep -a 'probe: cr3=' "$SERIAL" | tr -d '\r')
check "shell: a second EFI program (probe.efi) runs after chase" \
    test "$(echo "$probes" | grep -c .)" = 2
check "shell: probe sees the same CR3, IDTR, GDTR, interrupt flag, CR4 and XCR0 before and after" \
    test "$(echo "$probes" | sed 's/ free_pages.*//' | sort -u | grep -c .)" = 1
check "shell: probe reads CR4 and XCR0 (chase's bandwidth windows enable AVX state in between)" \
    test "$(echo "$probes" | grep -cE ' cr4=[0-9a-f]+ xcr0=([0-9a-f]+|-) ')" = 2
# The firmware's FAT driver keeps ~12 pages per new folder and files (the shell's own
# mkdir and echo do the same); a leaked buffer (>= 512 pages) or table would show.
before=$(echo "$probes" | sed -n '1s/.*free_pages=//p')
after=$(echo "$probes" | sed -n '2s/.*free_pages=//p')
check "shell: free memory after two runs within 64 pages of before ($before -> $after)" \
    test $((before - after)) -le 64 -a $((before - after)) -ge -64
for n in 0001 0002; do
    mkdir -p "$WORK/pulled/$n"
    mcopy -s -n -i "$WORK/vm/disk.img@@1M" "::/chase/runs/$n/*" "$WORK/pulled/$n/" 2>/dev/null
    check "shell: run $n is complete" json_true "$WORK/pulled/$n/run.json" \
        '.status=="complete" and .experiments.random=="ok" and .experiments.bandwidth=="ok" and
         .config.on_exit=="return"'
done
