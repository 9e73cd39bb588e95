#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-host runs every experiment of the table in the quick profile; every CSV is checked against
# the configuration in run.json (header, one row per planned point, positive values), and bad
# configurations stop it before anything runs. Timings are never judged.
set -u
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/lib_run.sh"

HOST="$ROOT/build/chase-host"
out=$(fresh_dir host-quick)

"$HOST" --out "$out" profile=quick >"$TEST_TMP/host-quick.log" 2>&1
rc=$?
check "chase-host runs the quick profile and exits 0" test "$rc" = 0
dir="$out/0001"
check "chase-host made run folder 0001" test -d "$dir"
validate_run_json "$dir"
# The experiments of the table (its help lists them): how many is never written here.
exps=$(table_experiments "$HOST")
check "run.json: status complete, every experiment of the table ok (or, with one CPU or node, skipped)" \
    json_true "$dir/run.json" '.status=="complete" and '"$exps"' != [] and .config.experiments=='"$exps"'
     and (.experiments|keys)==('"$exps"'|sort)
     and all(.experiments[]; startswith("ok") or startswith("skipped: needs two processors")
         or startswith("skipped: needs two memory nodes"))'
validate_experiments "$dir"
if [ "$(ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l)" -le 1 ]; then
    check "numa: skipped on this one-node machine, saying so; run.json lists the node" \
        json_true "$dir/run.json" '.experiments.numa == "skipped: needs two memory nodes or "
            + "more: one node here (/sys/devices/system/node)" and
            (.memory_nodes.nodes | length) == 1 and (.memory_nodes.nodes[0].processors | length) > 0'
else
    check "numa: ran on this machine's nodes" json_true "$dir/run.json" '.experiments.numa == "ok"'
fi
check "tlb.csv: 4K pages measured on Linux" grep -q '^4096,' "$dir/tlb.csv"

check "console: a header with what and why for each experiment" \
    test "$(grep -c '^   why: ' "$dir/console.txt")" = "$(echo "$exps" | jq length)"
check "console: the summary with levels, DRAM, the TLB and other verdicts and the folder" sh -c "
    grep -q '^levels of \"random, ' '$dir/console.txt' && grep -q '^      L1 ' '$dir/console.txt' &&
    grep -q '^DRAM latency: ' '$dir/console.txt' && grep -q '^tlb: ' '$dir/console.txt' &&
    grep -q '^dual: ' '$dir/console.txt' && grep -q '^scan: ' '$dir/console.txt' &&
    grep -q '^results: $dir' '$dir/console.txt'"
check "console.txt keeps no progress line" sh -c "! grep -q 'points, about' '$dir/console.txt'"

# The help names every key of every experiment, with defaults and units.
"$HOST" --help >"$TEST_TMP/host-help.log" 2>&1
for key in random.locality random.page linear.step fused.max_fuse dual.lag scan.small_max \
    ring.strides offset.offset_max parallel.max_chains tlb.pages; do
    check "help lists $key" grep -q "^  $key " "$TEST_TMP/host-help.log"
done
check "help shows auto values with what they come to" grep -q "^  dual.lag  *auto (" \
    "$TEST_TMP/host-help.log"

# A bad configuration file: every error named with file and line, nothing run.
bad="$TEST_TMP/bad.cfg"
printf '%s\n' '[ring]' 'strides = 64, 100' '[linear]' 'min_stride = 256' 'max_stride = 64' \
    '[random]' 'max = 64T' >"$bad"
"$HOST" --out "$out" --config "$bad" profile=quick >"$TEST_TMP/host-bad-cfg.log" 2>&1
rc=$?
check "a bad configuration file stops chase-host with status 2" test "$rc" = 2
check "errors name file, line, key and what is accepted" sh -c "
    grep -q '$bad:2: key .ring.strides.: stride 100 is not a multiple of 8' \
        '$TEST_TMP/host-bad-cfg.log' &&
    grep -q '$bad:4: key .linear.min_stride.: min_stride (256) is larger than max_stride (64)' \
        '$TEST_TMP/host-bad-cfg.log' &&
    grep -q '$bad:7: key .random.max.: bad value .64T. (out of range); expected a size' \
        '$TEST_TMP/host-bad-cfg.log'"
check "the bad run wrote errors.txt, status config_error and no experiment files" sh -c "
    test -s '$out/0002/errors.txt' && ! ls '$out/0002/'*.csv >/dev/null 2>&1 &&
    jq -e '.status==\"config_error\"' '$out/0002/run.json' >/dev/null"

"$HOST" --out "$out" profile=quick random.max=1T >"$TEST_TMP/host-bad-plan.log" 2>&1
check "a plan beyond memory names the key and the largest value that fits" grep -q \
    "load options:2: key 'random.max': the plan needs a 1T buffer but at most .* fits in \
memory; the largest random.max that fits is" "$TEST_TMP/host-bad-plan.log"
check "the earlier run folder is untouched" test "$(csv_rows "$dir/random.csv")" -gt 5
finish
