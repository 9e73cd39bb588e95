#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-sim's command line: presets, descriptions, files, errors at their field, and a run
# folder in chase's format marked simulated.
set -u
. "$(dirname "$0")/lib.sh"

presets=$("$SIM" --list-presets)
check "--list-presets names an Intel client, the EPYC Zen 4 and an Arm core" \
    sh -c "echo '$presets' | grep -q '^ivybridge ' && echo '$presets' | grep -q '^epyc-zen4 ' &&
           echo '$presets' | grep -q '^neoverse-n1 '"
all_describe=ok
for p in $(echo "$presets" | awk '/^[a-z]/ { print $1 }'); do
    "$SIM" --hierarchy "$p" --describe >/dev/null 2>&1 || all_describe="$p"
done
check "every preset parses (--describe)" test "$all_describe" = ok
check "the Ivy Bridge preset has a 12-way L3 of 4 slices" \
    sh -c "'$SIM' --hierarchy ivybridge --describe | grep -E 'L3 +6M 12-way.*4 slices'"

"$SIM" --hierarchy "L1:32K:8w:4c:lru,L2:256K:8x:12c:plru,DRAM:200c" --describe \
    >"$TEST_TMP/bad.out" 2>"$TEST_TMP/bad.err"
rc=$?
check "a malformed hierarchy exits with status 2" test "$rc" = 2
check "the error names the field and what it accepts" \
    grep -q -- "--hierarchy:1:26: bad hierarchy: ways must look like 8w" "$TEST_TMP/bad.err"
check "a caret marks the bad field under the description" \
    sh -c "sed -n 3p '$TEST_TMP/bad.err' | grep -qx '                           ^^'"

cat >"$TEST_TMP/machine.txt" <<'H'
# a machine in a file: one level a line, comments allowed
L1:32K:8w:4c:lru
L2:512K:8w:14c:plru:incl   # inclusive of L1
L3:4M:16w:40c:srrip
DRAM:180c
H
check "a hierarchy file with comments parses" \
    sh -c "'$SIM' --hierarchy '$TEST_TMP/machine.txt' --describe | grep -q 'L2:512K:8w:14c:plru:incl'"
sed 's/srrip/srip/' "$TEST_TMP/machine.txt" >"$TEST_TMP/bad-machine.txt"
"$SIM" --hierarchy "$TEST_TMP/bad-machine.txt" --describe 2>"$TEST_TMP/bad-file.err" >/dev/null
check "an error in a file names file, line and column" \
    grep -q "bad-machine.txt:4:15: bad hierarchy: unknown policy" "$TEST_TMP/bad-file.err"
"$SIM" --hierarchy nosuchmachine --describe 2>"$TEST_TMP/none.err" >/dev/null
check "an unknown name is neither preset, description nor file" \
    grep -q "is not a preset" "$TEST_TMP/none.err"
check "--help shows the usage and chase's keys" \
    sh -c "'$SIM' --help | grep -q 'usage: chase-sim' && '$SIM' --help | grep -q 'random.max'"

sim run --hierarchy ivybridge profile=quick experiments=random
check "a quick random run exits 0" test "$SIM_RC" = 0
validate_run_json "$RUN_DIR"
validate_random "$RUN_DIR"
check "run.json is marked simulated and holds the hierarchy" json_true "$RUN_DIR/run.json" \
    '.simulated == true and (.hierarchy | startswith("L1:32K:8w:4c:plru,L2:256K"))
     and .platform == "sim" and .tsc.method == "simulated"'
check "run.json's caches are the modelled ones" json_true "$RUN_DIR/run.json" \
    '(.caches | length) == 3 and .caches[2].size_bytes == 6291456 and .caches[2].ways == 12
     and .caches[0].type == "data" and .cache_source == "simulated"'
check "sim_levels.csv has a row per point and hit rates per level" \
    sh -c "head -1 '$RUN_DIR/sim_levels.csv' | grep -q 'L1_hit_rate,L2_hit_rate,L3_hit_rate' &&
           test \$(csv_rows '$RUN_DIR/sim_levels.csv') = \$(csv_rows '$RUN_DIR/random.csv')"
check "console.txt has the summary" grep -q "== summary" "$RUN_DIR/console.txt"

"$SIM" --hierarchy ivybridge --out "$TEST_TMP/run" profile=quick experiments=random \
    random.max=64K >/dev/null 2>&1
check "a second run gets folder 0002" test -s "$TEST_TMP/run/0002/random.csv"
sim badkey --hierarchy ivybridge profile=quick random.mxa=1M
check "an unknown key stops chase-sim with status 2 and errors.txt" \
    sh -c "test $SIM_RC = 2 && test -s '$RUN_DIR/errors.txt' && ! test -e '$RUN_DIR/random.csv'"

pf="L1:32K:8w:4c:lru,L2:256K:8w:12c:lru,PF:16:degree=2:into=L2,DRAM:200c"
check "a PF item describes the stride prefetcher and keeps its keys in the canonical form" \
    sh -c "'$SIM' --hierarchy '$pf' --describe | grep -q 'PF     16 streams, 4 strides ahead, 2 lines each, into L2' &&
           '$SIM' --hierarchy '$pf' --describe | grep -q 'PF:16:distance=4:degree=2:into=L2:region=4K,DRAM'"
"$SIM" --hierarchy "L1:32K:8w:4c:lru,PF:8:into=L3,DRAM:200c" --describe 2>"$TEST_TMP/pf.err" >/dev/null
check "a PF into a level that is not the first or second says which it may be" \
    grep -q -- "--hierarchy:1:28: bad hierarchy: into= names the first or second cache level (L1)" \
    "$TEST_TMP/pf.err"
check "--prefetch adds a PF item to a preset (before DRAM)" \
    sh -c "'$SIM' --hierarchy ivybridge --prefetch 16:into=L2 --describe |
           grep -q 'psel=10,PF:16:distance=4:degree=1:into=L2:region=4K,DRAM:200c'"
"$SIM" --hierarchy ivybridge --prefetch 16:degree=0 --describe 2>"$TEST_TMP/pf2.err" >/dev/null
check "a bad --prefetch field is shown in the option's own text" \
    grep -q -- "--prefetch:1:11: bad hierarchy: degree must be a number from 1 to 16" \
    "$TEST_TMP/pf2.err"

# Stalls in time on the DRAM item (issue 52): described, written back in ns, errors at the field.
st="L1:32K:8w:4c:lru,DRAM:250c:refresh=3.9us/350ns:smi=1ms/100us"
check "refresh= and smi= are described and kept in the canonical form (ns)" \
    sh -c "'$SIM' --hierarchy '$st' --describe | grep -q 'refresh every 3900 ns, 350 ns' &&
           '$SIM' --hierarchy '$st' --describe |
           grep -q 'DRAM:250c:mlp=10:refresh=3900ns/350ns:smi=1000000ns/100000ns\$'"
"$SIM" --hierarchy "L1:32K:8w:4c:lru,DRAM:250c:refresh=350ns/3.9us" --describe \
    2>"$TEST_TMP/refresh.err" >/dev/null
check "a refresh whose stall outlasts its period is refused at its field" \
    grep -q -- "--hierarchy:1:28: bad hierarchy: a stall is PERIOD/STALL in ns, us or ms" \
    "$TEST_TMP/refresh.err"
