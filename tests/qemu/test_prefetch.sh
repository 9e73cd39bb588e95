#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The prefetch key under OVMF: on an Intel family 6 CPU chase tries MSR 0x1a4 (TCG does not
# keep it: chase must say so and measure as-is), per experiment; on a CPU with no documented
# control it says that; either way run.json records the state each experiment measured in.
set -u
. "$(dirname "$0")/lib.sh"

quick=(--set profile=quick --set on_exit=shutdown)

boot prefetch-intel --cpu max,vendor=GenuineIntel,family=6,model=85 "${quick[@]}" \
    --set experiments=random,linear --set linear.prefetch=off
j=$RUN_DIR/run.json
check "Intel: the documented control, MSR 0x1a4 bits 0..3, is named" json_true "$j" \
    '.prefetch.control_msr == "0x1a4" and .prefetch.disable_bits == "0xf"'
check "Intel: linear.prefetch=off is in the effective configuration" json_true "$j" \
    '.config.linear.prefetch == "off" and .config.random.prefetch == "global" and
     .prefetch.requested == "as-is"'
check "Intel: random measured as-is, untouched" json_true "$j" '.prefetch.experiments.random == "as-is"'
check "Intel: linear off, or as-is with the reason recorded" json_true "$j" \
    '(.prefetch.experiments.linear == "off" and .prefetch.note == null) or
     (.prefetch.experiments.linear == "as-is" and (.prefetch.note | test("0x1a4")))'
check "Intel: the console says what happened to the prefetchers" \
    grep -Eq 'prefetch   (off for this experiment|cannot be turned off: MSR 0x1a4)' "$RUN_DIR/console.txt"
check "Intel: each prefetcher of the model's table (Skylake-SP: bits 0..3) and what off did to it" \
    json_true "$j" '.prefetch.model_in_table and (.prefetch.each | length) == 4 and
        ([.prefetch.each[].when_asked_off] | all(. == "off" or . == "on: write not kept"))'
check "Intel: TCG keeps no bit: after the combined write each bit was tried alone" json_true "$j" \
    '.prefetch.experiments.linear == "off" or .prefetch.written_one_at_a_time'
check "Intel: the microcode revision read the SDM's way (write 0, CPUID(1), read 0x8b)" \
    json_true "$j" '.machine_identity.microcode.read and
        (.machine_identity.microcode.how | test("write 0, CPUID\\(1\\)"))'
check "Intel: both experiments ran" json_true "$j" \
    '.status == "complete" and .experiments.random == "ok" and .experiments.linear == "ok"'
"$ROOT/build/chase-report" --out "$WORK/report" "$RUN_DIR" >/dev/null 2>&1
check "Intel: report.md says the state each curve was measured in" grep -Eq \
    '^\| prefetchers \| random as-is, linear (off|as-is) \|$' "$WORK/report/report.md"

boot prefetch-amd64 --cpu qemu64 "${quick[@]}" --set experiments=random --set prefetch=off
j=$RUN_DIR/run.json
check "qemu64 (AMD family 0xf): no documented control, said and recorded" json_true "$j" \
    '.prefetch.control_msr == null and (.prefetch.note | test("no documented")) and
     .prefetch.requested == "off" and .prefetch.experiments.random == "as-is"'
check "qemu64: the run carries on as-is" json_true "$j" \
    '.status == "complete" and .experiments.random == "ok"'
check "qemu64: SMT and boost recorded" json_true "$j" \
    '(.smt | has("threads_per_core")) and (.boost | has("supported"))'

# Per-core settings on the other processors: an AMD family 17h (EPYC) with 2 CPUs. DE_CFG[1]
# is needed there; TCG reads DE_CFG as 0 and keeps no write, on the boot CPU and on the AP
# alike: the add chain then ends with rdtscp, and the AP records, per piece of its work
# (cores runs its windows there), that the bit did not stick. No documented prefetch control
# on 17h: the AP is not asked to change one.
boot percore-epyc --cpu EPYC --smp 2 "${quick[@]}" --set experiments=random,cores \
    --set prefetch=off
j=$RUN_DIR/run.json
check "EPYC: both experiments ran on 2 processors" json_true "$j" \
    '.status == "complete" and .experiments.random == "ok" and .experiments.cores == "ok" and
     (.processors | length) == 2'
check "EPYC: DE_CFG[1] did not stick on the boot CPU, said" json_true "$j" \
    '.windows.de_cfg_read and (.windows.lfence | test("could not be set"))'
check "EPYC: so the add chain ends with rdtscp; lfence (run.json and console)" sh -c \
    "jq -e '.tsc.adds_end_fence == \"rdtscp; lfence\" and (.tsc.adds_end_why | test(\"RDTSCP\"))' \
        '$j' && grep -q '^  add chain  ends with rdtscp; lfence' '$RUN_DIR/console.txt'"
check "EPYC: the AP tried DE_CFG[1] for each piece of its work, found it clear, not kept" \
    json_true "$j" \
    '.processor_msrs.processors as $aps |
     ($aps | length) == 1 and ($aps[0].de_cfg.msr == "0xc0011029") and
     $aps[0].de_cfg.bits == "0x2" and $aps[0].de_cfg.found == "0x0" and
     $aps[0].de_cfg.work_not_kept > 0 and $aps[0].de_cfg.work_set_and_restored == 0 and
     $aps[0].de_cfg.restore_failed == 0 and $aps[0].prefetch == null'
check "EPYC: the console's end says DE_CFG was not kept on the other processor" grep -q \
    '^  per core   de_cfg (MSR 0xc0011029 bits 0x2) on the other processors: .* not kept on 1,' \
    "$RUN_DIR/console.txt"
check "EPYC: the AP is not the processor running chase" json_true "$j" \
    '[.processors[] | select(.runs_chase) | .id] as $bsp |
     ([.processor_msrs.processors[].id] - $bsp) == [.processor_msrs.processors[].id]'

# chase-host cannot write MSRs: prefetch=off is a configuration error there, named.
out=$(fresh_dir host)
"$ROOT/build/chase-host" --out "$out" profile=quick experiments=random prefetch=off \
    >"$out/stdout" 2>&1
rc=$?
check "chase-host: prefetch=off refused (exit 2) before anything runs" test "$rc" = 2
check "chase-host: the message says it cannot and what is accepted" \
    grep -q "key 'prefetch': chase-host cannot turn the hardware prefetchers off.*accepted here: as-is" \
    "$out/stdout"
"$ROOT/build/chase-host" --out "$out" profile=quick experiments=random fused.prefetch=off \
    >"$out/stdout2" 2>&1
check "chase-host: an experiment's prefetch=off refused too" \
    grep -q "key 'fused.prefetch': chase-host cannot" "$out/stdout2"
finish
