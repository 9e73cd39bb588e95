#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Media: a read-only volume, a nearly full volume and an unwritable \chase each give one clear
# message, the console still has every table and the summary, and nothing else on the volume
# changes. A normal run writes only under \chase\runs\.
set -u
. "$(dirname "$0")/lib.sh"

settings=("profile=quick" "on_exit=shutdown" "experiments=random" "random.max=256K")

# ---- a normal run touches nothing outside its new run folder
img=$(image_with_config normal "${settings[@]}")
volume_manifest "$img" >"$TEST_TMP/normal.before"
boot normal --image "$img"
volume_manifest "$WORK/vm/disk.img" /chase/runs/0001/ >"$TEST_TMP/normal.after"
check "normal run: every other file on the volume is unchanged" \
    diff "$TEST_TMP/normal.before" "$TEST_TMP/normal.after"
check "normal run: its files are in \\chase\\runs\\0001" test -s "$RUN_DIR/random.csv"

# ---- read-only volume: no folder, a message, the console has everything
img=$(image_with_config readonly "${settings[@]}")
sum_before=$(md5sum <"$img")
boot readonly --image "$img" --readonly
check "read-only: QEMU powered off cleanly" grep -q 'chase: shutting down' "$SERIAL"
check "read-only: one clear message says nothing can be written and why" \
    grep -qE 'cannot create .* on the boot volume: the volume is write-protected' "$SERIAL"
check "read-only: the console says where the results are" \
    grep -q 'every table and the summary are on this console' "$SERIAL"
check "read-only: the random table and the summary are on the console" \
    sh -c "grep -qE '^ +(4K|4096) ' '$SERIAL' && grep -q '== summary' '$SERIAL'"
check "read-only: no warning per file (said once)" \
    sh -c "! grep -q 'could not write' '$SERIAL'"
check "read-only: the disk is bit for bit unchanged" test "$(md5sum <"$WORK/vm/disk.img")" = "$sum_before"

# ---- too little free space: some files fail, none is left half-written, nothing else changes
img=$(image_with_config full "${settings[@]}")
free=$(mdir -i "$img@@1M" :: 2>/dev/null | sed -n 's/ *\([0-9 ]*\) bytes free.*/\1/p' | tr -d ' ')
leave=$((12 * 1024))
head -c $((free - leave)) /dev/zero >"$TEST_TMP/filler.bin"
mcopy -i "$img@@1M" "$TEST_TMP/filler.bin" ::/filler.bin
volume_manifest "$img" >"$TEST_TMP/full.before"
boot full --image "$img"
check "full volume: QEMU powered off cleanly" grep -q 'chase: shutting down' "$SERIAL"
check "full volume: the console names the files that could not be written" \
    grep -qE 'could not write [a-z.]+ to \\chase\\runs\\0001 \(the volume may be full' "$SERIAL"
check "full volume: the summary is on the console" grep -q '== summary' "$SERIAL"
volume_manifest "$WORK/vm/disk.img" /chase/runs/ >"$TEST_TMP/full.after"
check "full volume: every earlier file is unchanged" diff "$TEST_TMP/full.before" "$TEST_TMP/full.after"
pulled="$WORK/pulled"
mkdir -p "$pulled"
mcopy -s -n -i "$WORK/vm/disk.img@@1M" "::/chase/runs/0001/*" "$pulled/" 2>/dev/null
complete=1
for f in "$pulled"/*.csv; do
    [ -e "$f" ] || continue
    # a CSV that exists is whole: header, then rows that all have the header's field count
    awk -F, 'NR==1 {n=NF} NF!=n {bad=1} END {exit bad || NR<1}' "$f" || complete=0
done
[ -e "$pulled/run.json" ] && { jq . "$pulled/run.json" >/dev/null 2>&1 || complete=0; }
check "full volume: every file that was written is complete" test "$complete" = 1

# ---- \chase cannot hold run folders: \chase\runs is a file, or \chase is read-only
img=$(image_with_config runsfile "${settings[@]}")
echo "not a folder" >"$TEST_TMP/runs.txt"
mcopy -i "$img@@1M" "$TEST_TMP/runs.txt" ::/chase/runs
volume_manifest "$img" >"$TEST_TMP/runsfile.before"
boot runsfile --image "$img"
check "\\chase\\runs is a file: one clear message, results on the console" \
    grep -qE 'cannot create \\chase\\runs on the boot volume: .*status' "$SERIAL"
check "\\chase\\runs is a file: the run still completes on the console" \
    grep -q '== summary' "$SERIAL"
volume_manifest "$WORK/vm/disk.img" >"$TEST_TMP/runsfile.after"
check "\\chase\\runs is a file: the volume is unchanged" \
    diff "$TEST_TMP/runsfile.before" "$TEST_TMP/runsfile.after"

img=$(image_with_config readonlydir "${settings[@]}")
mattrib -i "$img@@1M" +r ::/chase
volume_manifest "$img" >"$TEST_TMP/readonlydir.before"
boot readonlydir --image "$img"
check "read-only \\chase: a clear message or a run folder, never a hang" \
    grep -qE 'cannot create .* on the boot volume|== summary' "$SERIAL"
check "read-only \\chase: the summary is on the console" grep -q '== summary' "$SERIAL"
volume_manifest "$WORK/vm/disk.img" /chase/runs/ >"$TEST_TMP/readonlydir.after"
check "read-only \\chase: every earlier file is unchanged" \
    diff "$TEST_TMP/readonlydir.before" "$TEST_TMP/readonlydir.after"
