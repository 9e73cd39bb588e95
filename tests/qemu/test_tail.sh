#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The tail experiment in QEMU (behaviour only, TCG): quick profile, its three files with their
# columns, the largest size under 4K and 2M pages, run.json's stalls, the time estimate up front,
# the refresh line in the summary beside what SMBIOS says of the memory, and one serial_log point
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
# The largest size's two last rows: 4K, then 2M pages (quick's page sizes), each measured.
largest=$(awk -F, 'NR > 1 { print $1 }' "$RUN_DIR/tail.csv" | sort -n | tail -1)
pages=$(awk -F, -v z="$largest" 'NR > 1 && $1 == z { printf "%s ", $2 }' "$RUN_DIR/tail.csv")
check "tail.csv: the largest size ($largest) under 4K then 2M pages, got: $pages" \
    test "$pages" = "4096 2097152 "
check "tail.csv: every row's dram_type as SMBIOS type 17 names QEMU's memory" \
    awk -F, 'NR > 1 && $NF !~ /^[A-Za-z0-9]+$/ { bad = 1 } END { exit bad }' "$RUN_DIR/tail.csv"
check "tail.hist.csv: its columns and a bin row for every point (size and page size)" \
    awk -F, -v rows="$rows" 'NR == 1 { ok = $0 == "size_bytes,page_bytes,bin_low_ns,bin_high_ns,count"; next }
        !(($1 "," $2) in s) { s[$1 "," $2] = 1; k++ } END { exit !(ok && k == rows) }' \
    "$RUN_DIR/tail.hist.csv"
check "tail.samples.csv: its columns" \
    sh -c "head -1 '$RUN_DIR/tail.samples.csv' | tr -d '\r' | grep -qx 'size_bytes,page_bytes,tsc_offset,time_us,excess_ns'"
check "run.json: stalls over every point's batches, SMIs counted or null, a note when any" \
    json_true "$RUN_DIR/run.json" ".stalls.batches == $rows * 16384 and .stalls.beyond_ns == 10000
        and (.stalls.count | type) == \"number\" and (.stalls.per_minute | type) == \"number\"
        and (.stalls.smi_counting | not) == (.stalls.smi_count == null)
        and (.stalls.not_memory == (.stalls.count > 0)) and ((.stalls.note == null) == (.stalls.count == 0))"
check "the plan line states the time up front and the page sizes" \
    grep -qE 'plan: [0-9]+ sizes, 16384 batches of 4 hops each; about [0-9]+ ms; the largest under 4K,2M pages' \
    "$RUN_DIR/console.txt"
type=$(awk -F, 'NR == 2 { print $NF }' "$RUN_DIR/tail.csv" | tr -d '\r')
check "the summary's refresh line beside what the memory type ($type) implies, or why not" \
    grep -qE "^tail: DRAM refresh: (every .* us, about .* ns|no period stands out) \(($type implies every|SMBIOS gives the memory type as $type|the DIMMs' type is unknown)" \
    "$RUN_DIR/console.txt"
check "serial log: one tail point line per row of tail.csv ($rows)" \
    test "$(grep -ac 'CHASE-LOG v=1 .* kind=point exp=tail ' "$SERIAL")" = "$rows"
took=$(grep -oE '^\(tail took [0-9.]+ s\)' "$RUN_DIR/console.txt")
check "the experiment's time is on the console: $took" test -n "$took"
# chase-report: the firmware's run beside a chase-host run (tests/report/test_tail_report.sh has
# the rest): the histogram plot, one table with both, and what the host adds over the firmware.
both=$(fresh_dir both)
"$ROOT/build/chase-host" --out "$both/host" experiments=tail profile=quick >"$both/host.log" 2>&1
"$ROOT/build/chase-report" --out "$both/report" "$RUN_DIR" "$both/host/0001" >"$both/log" 2>&1
check "chase-report: the firmware run's histogram plot" test -s "$both/report/0001-tail-hist.png"
check "chase-report: firmware and host rows in one table" sh -c "grep -q '^| L1 | firmware: ' \
    '$both/report/report.md' && grep -q '^| L1 | host: ' '$both/report/report.md'"
line=$(sed -n 's/^tail: \(DRAM refresh: \)/\1/p' "$RUN_DIR/console.txt" | tr -d '\r' | head -n 1)
check "chase-report: the firmware run's refresh line is its console's ($line)" \
    grep -qxF "Refresh line: **$line**." "$both/report/report.md"
check "chase-report: what the host adds at L1" grep -qE \
    '^- L1 \(firmware [0-9]+K.*, host [0-9]+K.*\): p50 [-+][0-9.]+ ns, p99 ' \
    "$both/report/report.md"
finish
