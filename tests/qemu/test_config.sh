#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Configuration errors on the real firmware path: a bad \chase\chase.cfg and bad load options
# each stop chase before anything runs, name where and what, write errors.txt and run.json
# (config_error) to a new folder, and leave earlier run folders untouched. With on_exit=wait
# chase waits 30 s for a key, then returns to the firmware.
set -u
. "$(dirname "$0")/lib.sh"

# A disk that already holds a good run, then a bad configuration on the same disk.
boot cfg-good --set profile=quick --set on_exit=shutdown --set experiments=random
disk="$WORK/vm/disk.img"
check "a first, good run on the disk" json_true "$RUN_DIR/run.json" '.status=="complete"'
volume_manifest "$disk" /chase/ >"$TEST_TMP/cfg.before"
rm -rf "$TEST_TMP/cfg-0001" "$TEST_TMP/cfg-0001-after" # copies of an earlier make test
mcopy -s -n -i "$disk@@1M" ::/chase/runs/0001 "$TEST_TMP/cfg-0001" 2>/dev/null
printf '%s\n' '# a configuration with mistakes' 'profile = quick' 'on_exit = shutdown' \
    '[random]' 'mn = 4K' 'stride = 12' 'max = lots' >"$TEST_TMP/bad.cfg"
mcopy -o -i "$disk@@1M" "$TEST_TMP/bad.cfg" ::/chase/chase.cfg
IMAGE="$disk" boot cfg-bad --in-place
j=$RUN_DIR/run.json
check "bad file: QEMU powered off without waiting (on_exit=shutdown)" test "$BOOT_RC" = 0
check "bad file: a new folder 0002 with run.json status config_error" \
    sh -c "test '$(basename "$RUN_DIR")' = 0001 && jq -e '.status==\"config_error\"' '$j' >/dev/null &&
           mdir -i '$disk@@1M' -b ::/chase/runs | grep -q 0002"
check "bad file: errors.txt names file, line and key, suggests the nearest key" \
    grep -q "\\\\chase\\\\chase.cfg:5: unknown key 'random.mn' (did you mean 'random.min'?)" \
    "$RUN_DIR/errors.txt"
check "bad file: a malformed size says what is accepted" \
    grep -q "chase.cfg:7: key 'random.max': bad value 'lots'; expected a size" "$RUN_DIR/errors.txt"
check "bad file: a stride not a multiple of 8 is named" \
    grep -q "chase.cfg:6: key 'random.stride'" "$RUN_DIR/errors.txt"
check "bad file: the console shows the errors" grep -q "unknown key 'random.mn'" "$SERIAL"
check "bad file: no experiment ran, no experiment files" \
    sh -c "! ls '$RUN_DIR' | grep -q '\\.csv$' && ! grep -q '== random' '$SERIAL'"
mkdir -p "$TEST_TMP/cfg-0001-after"
mcopy -s -n -i "$disk@@1M" ::/chase/runs/0001 "$TEST_TMP/cfg-0001-after" 2>/dev/null
check "bad file: the earlier run folder 0001 is untouched" \
    diff -r "$TEST_TMP/cfg-0001" "$TEST_TMP/cfg-0001-after/0001"

# Bad load options from the UEFI shell, with on_exit=wait: 30 s, then back to the shell.
nsh="$TEST_TMP/badopts.nsh"
printf '%s\r\n' 'fs0:' 'chase\chase.efi profile=quick reps=0 random.mxa=1M' \
    'echo chase-test: returned after the wait' 'reset -s' >"$nsh"
"$ROOT/tools/mkimage.sh" --shell "$nsh" "$TEST_TMP/badopts.img" "$ROOT/build/chase.efi" \
    "$ROOT/tools/chase.cfg.example"
start=$(date +%s)
IMAGE="$TEST_TMP/badopts.img" BOOT_TIMEOUT=180 boot cfg-options
took=$(( $(date +%s) - start ))
check "bad options: errors name the load option and the key" \
    sh -c "grep -q \"load options:4: unknown key 'random.mxa' (did you mean 'random.max'?)\" '$SERIAL' &&
           grep -q \"load options:3: key 'reps': \" '$SERIAL'"
check "bad options: no experiment ran" sh -c "! grep -q '== random' '$SERIAL'"
check "bad options: the errors are written to the run folder" \
    sh -c "mtype -i '$WORK/vm/disk.img@@1M' ::/chase/runs/0001/errors.txt | grep -q 'random.mxa' &&
           mtype -i '$WORK/vm/disk.img@@1M' ::/chase/runs/0001/run.json | grep -q config_error"
check "bad options: chase waited for a key (30 s) and then returned to the shell (${took} s)" \
    sh -c "grep -q 'press a key (or wait 30 s)' '$SERIAL' &&
           grep -q 'chase-test: returned after the wait' '$SERIAL' && test $took -ge 30"
