#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# loaded's family of read:write mixes on this machine (chase-host, one chase and the other CPUs
# generating): every default mix from idle to flat out, read and write bandwidth apart; then
# chase-report over that real run folder: the family plot with one curve per mix, each from the
# idle point, the table per mix in report.md and --json, and the theoretical DRAM line where
# run.json has SMBIOS's figures. No timing is judged.
set -u
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../lib_loaded.sh"
tmp=$(fresh_dir run)
MIXES="100:0 75:25 50:50 25:75 0:100 50:50nt 0:100nt"

if [ "$(nproc)" -lt 2 ]; then
    echo "# one CPU: loaded needs a second to generate traffic"
    check "chase-host skips loaded on one CPU" true
    finish
fi
"$ROOT/build/chase-host" --out "$tmp/out" profile=quick experiments=loaded loaded.size=16M \
    loaded.traffic=16M loaded.delays=2000,0 >"$tmp/host.log" 2>&1
dir=$tmp/out/0001
gens=$(($(nproc) - 1))
[ "$gens" -gt 63 ] && gens=63
check "loaded ran ok" json_true "$dir/run.json" '.experiments.loaded == "ok"'
check "loaded.csv: idle, then the 7 default mixes at both delays, read and write apart" \
    loaded_family "$dir/loaded.csv" "$gens" "$MIXES" 2
check "the console: the estimate up front, a progress line and table per mix" sh -c "
    grep -q 'in 7 read:write mixes at 2 injection delays each (15 points, estimated ' '$tmp/host.log' &&
    test \$(grep -c '^mix [1-7] of 7, ' '$tmp/host.log') = 7 &&
    grep -q '^mix 7 of 7, 0:100nt: of each block.s 4 streams 0 read, 4 store (non-temporal)' \
        '$tmp/host.log'"

# chase-report over the run folder: one curve per mix, each beginning at the idle point.
rep=$tmp/report
check "chase-report makes the report" "$ROOT/build/chase-report" --out "$rep" "$dir"
check "loaded.png drawn" sh -c "test -s '$rep/loaded.png' && head -c 8 '$rep/loaded.png' | grep -q PNG"
gp=$rep/gnuplot/loaded.gp
check "the family plot has one curve per mix, named after it" sh -c "
    test \$(grep -c \"with linespoints .* title '\" '$gp') = 7 &&
    for m in $MIXES; do grep -q \"title '\$m'\" '$gp' || exit 1; done"
check "its latency axis starts at 0" grep -q '^set yrange \[0:\*\]$' "$gp"
check "each curve begins at the idle point (0 GB/s), then the mix's two points" \
    awk 'BEGIN {RS = ""} {n++; k = split(points($0), l, "\n"); if (l[1] + 0 != 0 || k != 3) bad = 1}
         function points(b) { gsub(/#[^\n]*\n/, "", b); return b }
         END {exit bad || n != 7}' "$rep/gnuplot/loaded.dat"
json=$tmp/report.json
"$ROOT/build/chase-report" --json "$dir" >"$json" 2>/dev/null
want=$(printf '"%s",' $MIXES)
check "--json: per mix, in order, the peak bandwidth and the latency there" json_true "$json" \
    "[.verdicts.loaded.mixes[] | select(.peak_gb_per_s > 0 and .peak_ns > 0) | .mix] ==
     [${want%,}]"
check "report.md: the table per mix and each mix's points" sh -c "
    grep -q '^| mix | idle_ns | peak_gb_per_s | peak_read_gb_per_s | peak_write_gb_per_s | peak_ns |' '$rep/report.md' &&
    test \$(grep -c '^| [0-9:]*\(nt\)\? | [0-9.]*:[0-9.]* (2000), ' '$rep/report.md') = 7"
check "no DRAM line without SMBIOS figures" sh -c "! grep -q 'theoretical DRAM' '$gp'"

# The same run with SMBIOS's memory figures written into run.json (this machine's firmware may
# give none): the line stands at channels x MT/s x width, named in the key with its source.
cp -r "$dir" "$tmp/smbios"
jq '.machine_identity.smbios = {found: true, channels: 2, dram_bandwidth_bytes_per_s: 51200000000,
    memory_devices: [{installed: true, configured_speed_mts: 3200, data_width_bits: 64}]}' \
    "$dir/run.json" >"$tmp/smbios/run.json"
"$ROOT/build/chase-report" --out "$tmp/smbios-report" "$tmp/smbios" >/dev/null 2>&1
check "with SMBIOS figures: the DRAM line at 51.2 GB/s, its source in the key" \
    grep -q "title 'theoretical DRAM 51.2 GB/s (SMBIOS)'" \
    "$tmp/smbios-report/gnuplot/loaded.gp"
check "with SMBIOS figures: the line's two ends stand at 51.2 GB/s" \
    awk 'BEGIN {RS = ""} {last = $0} END {gsub(/#[^\n]*\n/, "", last); k = split(last, l, "\n")
         exit !(k == 2 && l[1] + 0 == 51.2 && l[2] + 0 == 51.2)}' \
    "$tmp/smbios-report/gnuplot/loaded.dat"
finish
