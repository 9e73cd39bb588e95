#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-report on a chase result folder with every experiment (tests/report/data/run-synth,
# made from the latency model by gen-data.sh): levels against CPUID, every plot drawn, the
# report's sections, the default output folder, several inputs, damaged input, no gnuplot.
set -u
cd "$(dirname "$0")/../.."
. tests/report/lib.sh
tmp=$(fresh_dir run-folder)
run=$DATA/run-synth
out=$tmp/out

check "run folder: report made" "$REPORT" --out "$out" "$run"
for plot in random ring tlb dual linear fused scan offset parallel; do
    check "run folder: $plot.png drawn" is_png "$out/$plot.png"
    check "run folder: report.md shows $plot.png" grep -q "^!\[$plot.png\]($plot.png)" "$out/report.md"
done
for section in "Cache levels" "Latency model" "Against the machine's cache description (CPUID)" \
    "Plots" linear fused dual scan ring offset parallel tlb Configuration; do
    check "report.md has a $section section" grep -q "^#### $section\$" "$out/report.md"
done
check "report.md names the machine" grep -q "Synthetic Test CPU @ 3.00GHz" "$out/report.md"
check "report.md shows the configuration" grep -q "^random.points_per_octave = 4\$" "$out/report.md"

json=$tmp/run.json
"$REPORT" --json "$run" >"$json" 2>/dev/null
check "run folder: JSON is valid" json_valid "$json"
check "run folder: three levels" test "$(top_levels "$json")" = 3
check "run folder: L1 near CPUID's 48K" in_range "$(level_value "$json" 1 size_bytes)" 40000 60000
check "run folder: L2 near CPUID's 2M" in_range "$(level_value "$json" 2 size_bytes)" 1.7e6 2.6e6
check "run folder: L3 near CPUID's 32M" in_range "$(level_value "$json" 3 size_bytes)" 27e6 40e6
check "run folder: L3 latency near 18 ns" in_range "$(level_value "$json" 3 latency_ns)" 16 20
check "run folder: L2 in core cycles" in_range "$(level_value "$json" 2 core_cycles)" 12 14
check "run folder: CPUID size beside L2" in_range "$(level_value "$json" 2 cpuid_size_bytes)" 2097152 2097152
check "run folder: DRAM near 92 ns" in_range "$(top_value "$json" dram_latency_ns)" 85 100
check "run folder: the fit agrees" grep -q '"agrees_with_detection": true' "$json"
check "run folder: prefetch verdict" grep -q '"prefetched_max_stride_bytes": 256' "$json"
check "run folder: 4 streams tracked" grep -q '"streams_tracked": 4,\?$' "$json"
check "run folder: dual verdict" grep -q '"verdict": "above the last cache dual costs .*no sign of adaptive insertion' "$json"
check "run folder: TLB penalty for 4K pages" grep -q '"penalty_ns_4K"' "$json"

# Without --out the report goes beside the run, in report/.
cp -r "$run" "$tmp/0001"
check "default output folder" "$REPORT" "$tmp/0001"
check "default output folder: report.md" test -s "$tmp/0001/report/report.md"

# Several inputs: prefixed plots and one comparison.
check "two inputs: report made" "$REPORT" --out "$tmp/two" "$run" "$DATA/multichase.txt"
check "two inputs: comparison drawn" is_png "$tmp/two/compare.png"
check "two inputs: prefixed plots" is_png "$tmp/two/run-synth-random.png"
check "two inputs: both in report.md" grep -q "^## multichase.txt (multichase)" "$tmp/two/report.md"

# A simulated run beside the measured one: one plot of both, titled so.
sim=$tmp/sim
cp -r "$run" "$sim"
sed -e 's/"simulated": false/"simulated": true, "hierarchy": "L1 48K 12-way LRU, L2 2M, L3 32M DRRIP"/' \
    -e 's/"status": "complete"/"status": "running"/' "$run/run.json" >"$sim/run.json"
check "measured and simulated: report made" "$REPORT" --out "$tmp/ms" "$run" "$sim"
check "measured and simulated: one plot of both" grep -q "^set title 'measured and simulated" \
    "$tmp/ms/gnuplot/compare.gp"
check "measured and simulated: the hierarchy names the simulated machine" \
    grep -q "^| machine | simulated L1 48K 12-way LRU, L2 2M, L3 32M DRRIP |" "$tmp/ms/report.md"
check "measured and simulated: the curves are labelled" \
    grep -q "title 'simulated, run sim: random'" "$tmp/ms/gnuplot/compare.gp"
check "an unfinished run is pointed out" grep -q "did not finish" "$tmp/ms/report.md"

# A damaged run: broken run.json, a half-written CSV, a CSV without the needed columns.
bad=$tmp/bad
cp -r "$run" "$bad"
head -c 300 "$run/run.json" >"$bad/run.json"
head -n 20 "$run/random.csv" >"$bad/random.csv"
printf 'x,y\n1,2\n' >"$bad/linear.csv"
printf 'size_bytes,lag_slots,ns_median\n1,2\n' >"$bad/dual.csv"
check "damaged run: still reported" "$REPORT" --out "$tmp/badout" "$bad"
check "damaged run: the warning is in the report" grep -q "run.json is not a JSON object" "$tmp/badout/report.md"
check "damaged run: the missing columns are said" grep -q "linear.csv lacks" "$tmp/badout/report.md"

# Without gnuplot the report is still written and says why the plots are missing.
# The same machine as a guest whose host backs its 2M pages with 4K pages: the random curve
# pays the 4K DTLB's misses from 256K (where the tlb experiment measured that reach and CPUID
# has no cache; 1.6x, a step under the step rule): a TLB step, named so in every output, and the
# caches keep their numbers.
guest=$tmp/guest
cp -r "$run" "$guest"
jq '.hypervisor = true' "$run/run.json" >"$guest/run.json"
awk -F, -v OFS=, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^(tsc|ns)_(min|median|p90)$/ ||
        $i == "core_cycles_median") c[i] = 1; print; next }
    $1 > 300000 && $1 < 1600000 { for (i in c) $i = sprintf("%.4f", $i * 1.6) } { print }' \
    "$run/random.csv" >"$guest/random.csv"
"$REPORT" --json --out "$guest/report" "$guest" >"$tmp/guest.json" 2>/dev/null
check "guest: four levels, the second a TLB step named TLB" test "$(jq -r \
    '[.levels[] | "\(.name):\(.kind)"] | join(" ")' "$tmp/guest.json")" = "L1:cache TLB:tlb L2:cache L3:cache"
check "guest: the TLB step at the 4K DTLB's reach" in_range "$(level_value "$tmp/guest.json" 2 size_bytes)" 2.0e5 3.4e5
check "guest: the summary says why" grep -q "the tlb experiment measured (256K" <(jq -r .summary "$tmp/guest.json")
check "guest: report.md's level table names it" grep -q "^| TLB | " "$guest/report/report.md"
check "guest: the plot marks it apart" grep -q "^set label 'TLB " "$guest/report/gnuplot/random.gp"
check "guest: random's headline counts it apart" grep -q "3 cache levels, 1 TLB step" "$guest/report/report.md"
"$REPORT" --out "$guest/report" "$guest" >"$tmp/guest.txt" 2>/dev/null
check "guest: chase-report's own listing names it, its kind beside it" \
    test "$(awk '$1 ~ /^(L[0-9]|TLB)$/ { printf "%s%s ", $1, $5 ? ":" $5 : "" }' "$tmp/guest.txt")" \
    = "L1 TLB:tlb L2 L3 "

# A last cache found well below CPUID's largest (other cores or guests hold the rest): the same
# run with CPUID's L3 said to be 256M. The level is that cache's share: on its CPUID row, its
# CPUID size beside it in --json, marked shared; a last cache near CPUID's size is not.
check "run folder: an L3 near CPUID's is not marked shared" test "$(level_value "$json" 3 shared)" = false
share=$tmp/share
cp -r "$run" "$share"
jq '(.caches[] | select(.level == 3) | .size_bytes) = 268435456' "$run/run.json" >"$share/run.json"
"$REPORT" --json --out "$share/report" "$share" >"$tmp/share.json" 2>/dev/null
check "shared L3: its CPUID size beside it" test "$(level_value "$tmp/share.json" 3 cpuid_size_bytes)" = 268435456
check "shared L3: marked shared, L2 not" test "$(jq -r '[.levels[].shared] | join(" ")' "$tmp/share.json")" = "false false true"
check "shared L3: on CPUID's L3 row in report.md, as a share" \
    grep -q "^| L3 unified | 256M | .* | 3[0-9.]*M (shared: this chase's share) | 0.1[0-9] | " "$share/report/report.md"
check "shared L3: no level left without a CPUID row" \
    test "$(grep -c '^| (none) |' "$share/report/report.md")" = 0
# The Zen 3 guest of issue 15, a full default run of chase-host (corpus/real): its L3 read
# 8.49M of CPUID's 32M.
zen3=$ROOT/tests/report/corpus/real/zen3-kvm-full
"$REPORT" --json --out "$tmp/zen3" "$zen3" >"$tmp/zen3.json" 2>/dev/null
check "zen3 guest: L1, L2, L3 against CPUID's 32K, 512K, 32M" test "$(jq -r \
    '[.levels[] | "\(.name):\(.cpuid_size_bytes):\(.shared)"] | join(" ")' "$tmp/zen3.json")" = \
    "L1:32768:false L2:524288:false L3:33554432:true"
check "zen3 guest: the L3 row of report.md is its share" \
    grep -q "^| L3 unified | 32M | .* (shared: this chase's share) | 0\.[0-9]* | " "$tmp/zen3/report.md"

CHASE_GNUPLOT=/nonexistent/gnuplot "$REPORT" --out "$tmp/noplot" "$run" >/dev/null 2>"$tmp/err"
check "no gnuplot: status 0" test $? = 0
check "no gnuplot: warned" grep -q "gnuplot was not found" "$tmp/err"
check "no gnuplot: report.md says so" grep -q "not drawn: gnuplot was not found" "$tmp/noplot/report.md"
finish
