#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Unusual machines and interrupted runs: 1 and 4 CPUs, 128 MiB of memory, a plan too large for
# memory, and the machine dying in the middle of an experiment (QEMU killed).
set -u
. "$(dirname "$0")/lib.sh"

quick=(--set profile=quick --set on_exit=shutdown --set experiments=random)

for n in 1 4; do
    boot "smp$n" --smp "$n" "${quick[@]}"
    check "$n CPU(s): the run completes and powers off" json_true "$RUN_DIR/run.json" \
        '.status=="complete" and .experiments.random=="ok"'
done

# 128 MiB: the default (full) plan shrinks to what fits, and the banner says so
boot mem128 --mem 128M --set on_exit=shutdown --set experiments=random \
    --set random.points_per_octave=1 --set random.min=1M
j=$RUN_DIR/run.json
check "128M: the default plan fits the memory and completes" json_true "$j" \
    '.status=="complete" and .config.random.max <= .memory_total_bytes and
     .buffer.size_bytes < .memory_total_bytes'
check "128M: the banner says how large the buffer can be" \
    grep -q 'the chase buffer can be at most .*, and default sizes stop there' "$RUN_DIR/console.txt"

boot toolarge --mem 128M "${quick[@]}" --set random.max=512M
check "128M with random.max=512M: a clear stop naming the largest that fits" \
    grep -qE 'needs a 512M buffer but at most [0-9.]+[KMG] fits in memory; the largest random.max that fits is' \
    "$RUN_DIR/errors.txt"
check "128M with random.max=512M: nothing ran" json_true "$RUN_DIR/run.json" \
    '.status=="config_error"'

# killed in the middle of the second experiment: the first is complete on the volume
boot killed --set profile=quick --set on_exit=shutdown --set experiments=random,linear \
    --kill-when 'stride +slots +build ms'
j=$RUN_DIR/run.json
check "killed: QEMU was killed mid-run (not a clean shutdown)" \
    sh -c "test $BOOT_RC = 137 && ! grep -q 'chase: shutting down' '$SERIAL'"
check "killed: run.json says which experiment was running" json_true "$j" \
    '.status=="running" and .running=="linear" and .experiments.linear=="running"
     and .experiments.random=="ok"'
validate_random "$RUN_DIR"
killed_disk="$WORK/vm/disk.img"
volume_manifest "$killed_disk" >"$TEST_TMP/killed.before"

IMAGE="$killed_disk" boot after-kill --in-place
check "after the kill: the next boot gets a new run folder" \
    sh -c "test -n '$RUN_DIR' && jq -e '.status==\"complete\"' '$RUN_DIR/run.json' >/dev/null &&
           mdir -i '$killed_disk@@1M' -b ::/chase/runs | grep -q '0002'"
volume_manifest "$killed_disk" /chase/runs/0002/ >"$TEST_TMP/killed.after"
check "after the kill: the interrupted run's folder is left as it was" \
    diff "$TEST_TMP/killed.before" "$TEST_TMP/killed.after"
