#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# QEMU smoke test: the real image boots under OVMF, runs the quick profile, powers off, and
# the run folder pulled out of the FAT volume with mtools is complete and valid.
set -u
. "$(dirname "$0")/lib.sh"

boot smoke --set profile=quick --set on_exit=shutdown
check "QEMU powered off by itself (exit status 0)" test "$BOOT_RC" = 0
check "a run folder came out of the image" test -n "$RUN_DIR" -a -d "$RUN_DIR"
[ -n "$RUN_DIR" ] || exit 1

for f in run.json random.csv random.samples.csv console.txt; do
    check "run folder holds $f" test -s "$RUN_DIR/$f"
done
validate_run_json "$RUN_DIR"
check "run.json says the run completed and random is ok" json_true "$RUN_DIR/run.json" \
    '.status=="complete" and .experiments.random=="ok" and .platform=="uefi"'
check "run.json records the quick profile" json_true "$RUN_DIR/run.json" \
    '.config.profile=="quick" and .config.on_exit=="shutdown"'
exps=$(table_experiments "$ROOT/build/chase-host") # the same table, as its help lists it
check "run.json: every experiment of the table ran in the quick profile, each ok or skipped with a reason" \
    json_true "$RUN_DIR/run.json" ''"$exps"' != [] and .config.experiments=='"$exps"' and
        all(.experiments[]; .=="ok" or startswith("skipped: "))'
validate_experiments "$RUN_DIR"
check "run.json: the machine-check banks were read, nothing logged, DRAM not suspect" \
    json_true "$RUN_DIR/run.json" '.machine_checks | .read and .banks_read > 0 and .errors == 0
        and .logged == [] and (.dram_suspect | not)'
check "console.txt holds the banner" grep -q '^chase [0-9.]*: cache, TLB' "$RUN_DIR/console.txt"
check "console.txt holds the CPU and caches" grep -qE '^  caches ' "$RUN_DIR/console.txt"
check "console.txt holds the random table" grep -qE 'size +slots .*ns min +ns med' \
    "$RUN_DIR/console.txt"
check "console.txt holds the summary and the folder" \
    grep -q 'results: \\chase\\runs\\0001' "$RUN_DIR/console.txt"
check "the serial console showed the run too" grep -q '== summary' "$SERIAL"
