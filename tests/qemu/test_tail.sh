#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tail experiment in QEMU (behaviour only, TCG): quick profile, its three files with their
# columns, the time estimate up front, the refresh line in the summary, and one serial_log point
# line per row of tail.csv.
set -u
. "$(dirname "$0")/lib.sh"

boot tail --set profile=quick --set on_exit=shutdown --set experiments=tail --set serial_log=on
check "QEMU powered off by itself (exit status 0)" test "$BOOT_RC" = 0
[ -n "$RUN_DIR" ] || exit 1
check "run.json: the run completed and tail is ok" json_true "$RUN_DIR/run.json" \
    '.status=="complete" and .experiments.tail=="ok" and .config.profile=="quick"'
check "tail.csv: percentiles, refresh and stall columns" \
    grep -qE '^size_bytes,page_bytes,hops,batches,p50_ns,p90_ns,p99_ns,p999_ns,max_ns,.*refresh_period_ns,'\
'refresh_stall_ns,.*stalls,stall_longest_ns,stalls_per_minute,smi_count,dropped_windows,dram_type' "$RUN_DIR/tail.csv"
rows=$(($(wc -l <"$RUN_DIR/tail.csv") - 1))
check "tail.csv: at least two sizes (a cache and beyond the last), got $rows" test "$rows" -ge 2
check "tail.hist.csv: its columns and a bin row for every size" \
    awk -F, -v rows="$rows" 'NR == 1 { ok = $0 == "size_bytes,bin_low_ns,bin_high_ns,count"; next }
        !($1 in s) { s[$1] = 1; k++ } END { exit !(ok && k == rows) }' "$RUN_DIR/tail.hist.csv"
check "tail.samples.csv: its columns" \
    sh -c "head -1 '$RUN_DIR/tail.samples.csv' | tr -d '\r' | grep -qx 'size_bytes,tsc_offset,time_us,excess_ns'"
check "the plan line states the time up front" \
    grep -qE 'plan: [0-9]+ sizes, 16384 batches of 4 hops each; about [0-9]+ ms' "$RUN_DIR/console.txt"
check "the summary's refresh line (a period or none standing out)" \
    grep -qE '^tail: DRAM refresh: (every .* us, about .* ns|no period stands out)' \
    "$RUN_DIR/console.txt"
check "serial log: one tail point line per row of tail.csv ($rows)" \
    test "$(grep -ac 'CHASE-LOG v=1 .* kind=point exp=tail ' "$SERIAL")" = "$rows"
took=$(grep -oE '^\(tail took [0-9.]+ s\)' "$RUN_DIR/console.txt")
check "the experiment's time is on the console: $took" test -n "$took"
finish
