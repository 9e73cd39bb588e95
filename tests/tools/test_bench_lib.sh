#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make bench's helpers that judge nothing by timing: capacity_note names a key size that sits at
# a physically indexed cache's capacity (sets spanning more than a 4K page), and only there;
# spread_pct and judge compute and weigh a spread.
set -u
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tools/bench_lib.sh"
dir=$(fresh_dir bench-lib)
# An L1d of 48K (64 sets: one page), an L1i of 64K whose 128 sets span two pages (named only
# if the type were not looked at), an L2 of 2M (2048 sets: 32 colours), an L3 of 32M.
cat >"$dir/run.json" <<'JSON'
{"caches": [
 {"level": 1, "type": "data", "size_bytes": 49152, "line_bytes": 64, "sets": 64},
 {"level": 1, "type": "instruction", "size_bytes": 65536, "line_bytes": 64, "sets": 128},
 {"level": 2, "type": "unified", "size_bytes": 2097152, "line_bytes": 64, "sets": 2048},
 {"level": 3, "type": "unified", "size_bytes": 33554432, "line_bytes": 64, "sets": 32768}]}
JSON
note() { capacity_note "$1" "$dir/run.json"; }
check "2M at the L2's capacity is named, with its 32 page colours" \
    grep -q "at the L2's capacity (2048K, 32 page colours)" <(note 2097152)
check "1.6M and 2.5M are within 1.25x of the L2" \
    test -n "$(note 1677722)" -a -n "$(note 2621440)"
check "32M names the L3" grep -q "at the L3's capacity" <(note 33554432)
check "the L1's capacity is not named: its sets lie within one page" test -z "$(note 49152)"
check "the L1i is not a data cache" test -z "$(note 65536)"
check "16K, 256K, 3M and 256M are at no capacity" \
    test -z "$(note 16384)$(note 262144)$(note 3145728)$(note 268435456)"
check "a run.json without caches names nothing" \
    test -z "$(echo '{}' >"$dir/none.json"; capacity_note 2097152 "$dir/none.json")"
check "spread_pct is (max - min) / median" test "$(spread_pct 10 11 12.1)" = "19.09%"
check "judge weighs a spread against its target" \
    test "$(judge 3.0% 3)/$(judge 3.1% 3)" = "met/MISSED"
finish
