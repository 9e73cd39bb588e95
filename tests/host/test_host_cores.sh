#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-host runs cores, c2c and loaded with threads pinned to every CPU: files, the processor
# list, the 2x2 (NxN) c2c matrix and what the generators achieved; chase-sim skips them.
set -u
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/lib_run.sh"

ncpu=$(ls -d /sys/devices/system/cpu/cpu[0-9]*/topology 2>/dev/null | wc -l)
out=$(fresh_dir host-cores)
"$ROOT/build/chase-host" --out "$out" profile=quick experiments=cores,c2c,loaded \
    cores.max=256K c2c.rounds=2000 loaded.size=16M loaded.traffic=64M \
    loaded.delays=2000,0 loaded.mode=read >"$TEST_TMP/host-cores.log" 2>&1
rc=$?
dir="$out/0001"
check "chase-host exits 0" test "$rc" = 0
validate_run_json "$dir"

if [ "$ncpu" -lt 2 ]; then
    check "with one CPU the three are skipped with a reason" json_true "$dir/run.json" \
        '[.experiments.cores, .experiments.c2c, .experiments.loaded] |
         all(startswith("skipped: needs two processors"))'
    finish
fi

check "run.json lists the $ncpu processors with their locations, one runs chase" \
    json_true "$dir/run.json" "(.processors | length) == $ncpu and
        all(.processors[]; has(\"package\") and has(\"core\") and has(\"thread\") and
            has(\"node\")) and ([.processors[] | select(.runs_chase)] | length) == 1"
check "cores, c2c and loaded ran ok" json_true "$dir/run.json" \
    '.experiments.cores == "ok" and .experiments.c2c == "ok" and .experiments.loaded == "ok"'
check "cores.csv has every processor's curve over the same sizes" test \
    "$(csv_rows "$dir/cores.csv")" = \
    "$((ncpu * $(awk -F, 'NR>1 && $1==0' "$dir/cores.csv" | wc -l)))"
check "cores.csv: each of the $ncpu processors has rows" test \
    "$(awk -F, 'NR>1 {print $1}' "$dir/cores.csv" | sort -u | wc -l)" = "$ncpu"
check "c2c.csv has the $((ncpu * (ncpu - 1))) ordered pairs, each measured" \
    test "$(awk -F, 'NR>1 && $7>0 && $10>0' "$dir/c2c.csv" | wc -l)" = "$((ncpu * (ncpu - 1)))"
# Whether a->b and b->a agree is a latency figure, and this machine's other tenants move it
# (1.67x once, 2026-11-24): `make bench` prints it (tools/bench.sh, part 6), not a test.
check "the console shows the c2c matrix and its groups" \
    sh -c "grep -q 'one-way latency, ns' '$TEST_TMP/host-cores.log' &&
           grep -q '^group ' '$TEST_TMP/host-cores.log'"
check "loaded.csv: an idle point, then points with generators, reading" \
    awk -F, 'NR==2 && $3==0 {idle=1} NR>2 && $3>0 && $4=="100:0" {n++}
             END {exit !(idle && n==2)}' "$dir/loaded.csv"
# A generator waits 2000 ns after each 1 KiB block: at most 1024/2000 GB/s each, whatever the
# machine; flat out (delay 0) it must do more than that.
gens=$(awk -F, 'NR>1 && $3>0 {print $3; exit}' "$dir/loaded.csv")
check "loaded: at delay 2000 ns the $gens generator(s) stay within 0.512 GB/s each" \
    awk -F, -v g="$gens" 'NR>1 && $5==2000 && $3>0 {a=$6} END {exit !(a > 0 && a <= 0.512 * g)}' \
    "$dir/loaded.csv"
check "loaded: flat out (delay 0) the generators move more than at delay 2000" \
    awk -F, 'NR>1 && $5==2000 && $3>0 {a=$6} NR>1 && $5==0 && $3>0 {b=$6}
             END {exit !(b > a && a > 0)}' "$dir/loaded.csv"
check "the summary names the c2c groups and the loaded latency at the highest bandwidth" \
    sh -c "grep -q 'c2c: core-to-core one-way latency by group: ' '$TEST_TMP/host-cores.log' &&
           grep -q 'at the highest bandwidth' '$TEST_TMP/host-cores.log'"

# Read+write: every line read is also written back, and counted twice.
"$ROOT/build/chase-host" --out "$out" profile=quick experiments=loaded loaded.size=16M \
    loaded.traffic=64M loaded.delays=0 loaded.mode=readwrite >"$TEST_TMP/host-rw.log" 2>&1
check "loaded.mode=readwrite runs: its rows say readwrite and the generators moved data" \
    awk -F, 'NR>2 && $4=="readwrite" && $6>0 {n++} END {exit !(n==1)}' "$out/0002/loaded.csv"

# The timeout path: an answering processor that never returns is reported and left out, and
# the run goes on to the end (the experiments after it have too few processors left).
"$ROOT/build/chase-host" --out "$out" profile=quick experiments=c2c,cores c2c.hang_test=answer \
    cores.max=64K >"$TEST_TMP/host-hang.log" 2>&1
rc=$?
dir="$out/0003"
check "with a hung processor chase-host still exits 0 and writes its summary" \
    sh -c "test $rc = 0 && grep -q '^results: ' '$TEST_TMP/host-hang.log'"
check "the console reports the processor that did not come back" \
    grep -q "did not come back within 10 s: reported and left out" "$TEST_TMP/host-hang.log"
check "run.json marks it lost, c2c says pairs were left out, cores says why it skipped" \
    json_true "$dir/run.json" '([.processors[] | select(.lost)] | length) == 1 and
        (.experiments.c2c | test("pairs left out")) and
        (.experiments.cores | test("lost earlier"))'

sim_out=$(fresh_dir sim-cores)
"$ROOT/build/chase-sim" --hierarchy "L1:32K:8w:4c:lru,DRAM:200c" --out "$sim_out" \
    profile=quick experiments=cores,c2c,loaded >"$TEST_TMP/sim-cores.log" 2>&1
check "chase-sim skips them: it models one processor's caches" json_true \
    "$sim_out/0001/run.json" '[.experiments.cores, .experiments.c2c, .experiments.loaded] |
        all(startswith("skipped: needs real processors"))'
finish
