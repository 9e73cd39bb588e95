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
