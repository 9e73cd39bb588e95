#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase.efi's bandwidth kernels under TCG (behaviour only, timings never judged): -cpu max picks
# the widest width TCG offers (QEMU 7.2, Debian 12's: AVX2, no AVX-512) and says so, enabling
# its state in the windows; -cpu qemu64 falls back to SSE2; a width the CPU lacks is a
# configuration error naming what it supports; bw_cores gives rows for 1, 2, 4 processors with
# -smp 4 and one row with -smp 1, and alone at -smp 4 each processor streams a buffer of the
# whole size (the plan holds one for each processor), and with 2 processors in 128M a dram-sized
# buffer each is lowered to the largest that fits, said; the theoretical DRAM peak from SMBIOS
# type 17 (channels x transfer rate x 8 bytes) is said and written beside every row, and said
# unknown without speeds; passes=2 measures both in interleaved passes. (CR4 and XCR0 after
# chase returns: test_machine.sh's probe.)
set -u
. "$(dirname "$0")/lib.sh"

# lowered_said DIR: the console says 2 processors' dram buffers did not fit and were lowered,
# the size each streams is the one said, and every bw_cores.csv row's size_note says it too.
lowered_said() {
    local head="^note: 2 processors. buffers of [0-9.]*[KMG] (dram) do not fit in memory"
    local tail="(the buffer can be at most [0-9.]*[KMG]): each streams \\(.*\\), the largest"
    tail="$tail that fits\$"
    local each said
    each=$(sed -n "s/$head $tail/\\1/p" "$1/console.txt")
    said="each processor streams its own $each (dram: lowered to fit memory)"
    [ -n "$each" ] && grep -q "^vector width: .*; $said\$" "$1/console.txt" &&
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            $c["size_note"] != "lowered to fit memory" { bad = 1 } END { exit bad || NR < 2 }' \
            "$1/bw_cores.csv"
}

# one_size_within DIR N: every bw_cores.csv row on one size, N of which fit the chase buffer.
one_size_within() {
    local b
    b=$(jq .buffer.size_bytes "$1/run.json") &&
        awk -F, -v b="$b" -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
            { v = $c["size_bytes"]; if (!(v in s)) k++; s[v] = 1 }
            END { exit k != 1 || n * v > b || v < 1024 }' "$1/bw_cores.csv"
}

SMALL=(--set profile=quick --set on_exit=shutdown --set experiments=bandwidth,bw_cores
    --set bandwidth.max=16K --set bandwidth.kernels=read,copy,nt_write --set bw_cores.level=L1)

# One memory device (QEMU lists one per 16 GiB) at 3200 MT/s: one channel, 3200e6 x 8 = 25.6 GB/s.
boot bw-max --cpu max --smp 4 --timeout 240 "${SMALL[@]}" \
    --qemu -smbios --qemu "type=17,speed=3200"
check "-cpu max: qemu-run exits 0 and copies the run folder" \
    sh -c "test $BOOT_RC = 0 && test -d '$RUN_DIR'"
check "-cpu max: both experiments ok, every file written" sh -c "
    jq -e '.status == \"complete\" and .experiments.bandwidth == \"ok\" and
        .experiments.bw_cores == \"ok\"' '$RUN_DIR/run.json' >/dev/null &&
    for f in bandwidth.csv bandwidth.samples.csv bw_cores.csv bw_cores.samples.csv console.txt; do
        test -s '$RUN_DIR/'\$f || exit 1; done"
check "-cpu max: the widest width TCG offers (AVX2), said on the console" \
    grep -q '^vector width: avx2 (256-bit), the widest this CPU and platform allow' \
    "$RUN_DIR/console.txt"
check "-cpu max: each point also with SSE2, said; each row the faster of AVX2 and SSE2" sh -c "
    grep -q '^each point also with sse2, the fastest kept' '$RUN_DIR/console.txt' &&
    $(declare -f bw_fastest_kept); bw_fastest_kept '$RUN_DIR/bandwidth.csv' avx2=256 sse2=128"
check "-cpu max: the theoretical DRAM peak from SMBIOS type 17, said and in every row" sh -c "
    grep -q '^DRAM peak: 25.6 GB/s, theoretical: 1 channel x transfer rate x bus bytes' \
        '$RUN_DIR/console.txt' &&
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
        \$c[\"dram_peak_gbs\"] != 25.6 { bad = 1 } END { exit bad || NR < 2 }' \
        '$RUN_DIR/bandwidth.csv'"
validate_experiments "$RUN_DIR"
check "-smp 4: bw_cores scales over 1, 2, 4 processors" test \
    "$(awk -F, 'NR > 1 && $1 == "scaling" { printf "%s ", $2 }' "$RUN_DIR/bw_cores.csv")" \
    = "1 2 4 "
"$ROOT/build/chase-report" --out "$WORK/report" "$RUN_DIR" >/dev/null 2>&1
check "-smp 4: chase-report draws the peak table as bars, one per mix, and shows it" sh -c "
    test -s '$WORK/report/bw_cores_peak.png' &&
    test \$(wc -l < '$WORK/report/gnuplot/bw_cores_peak.dat') = 5 &&
    grep -q '^!\[bw_cores_peak.png\](bw_cores_peak.png)' '$WORK/report/report.md'"

# bw_cores alone: its plan holds a buffer for each of the 4 processors, so each streams all of
# its 1M (a plan of one 1M buffer, rounded up to 2 MiB, would hold 4 x 512K only).
boot bw-alone --smp 4 --timeout 240 --set profile=quick --set on_exit=shutdown \
    --set experiments=bw_cores --set bw_cores.size=1M
check "bw_cores alone, -smp 4: complete and ok" json_true "$RUN_DIR/run.json" \
    '.status == "complete" and .experiments.bw_cores == "ok"'
check "bw_cores alone, -smp 4: the chase buffer holds 4 x 1M" \
    grep -q '^  buffer     4M at physical' "$RUN_DIR/console.txt"
check "bw_cores alone, -smp 4: each processor streams its own 1M, not a share" sh -c "
    f='$RUN_DIR/console.txt'
    grep -q '^vector width: .*; each processor streams its own 1M (size)\$' \"\$f\" &&
    ! grep -q 'share of the buffer' \"\$f\""
check "bw_cores alone, -smp 4: every row at 1M a processor, scaling over 1, 2, 4, the peak on 4" \
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["size_bytes"] != 1048576 || $c["size_note"] != "" { bad = 1 }
        $c["table"] == "scaling" { s = s $c["processors"] " " }
        $c["table"] == "peak" && $c["processors"] != 4 { bad = 1 }
        END { exit bad || s != "1 2 4 " }' "$RUN_DIR/bw_cores.csv"

# A plan larger than memory: 128M has room for one dram-sized buffer, not for one on each of 2
# processors; with size auto each streams the largest that fits for both, said.
boot bw-fit --mem 128M --smp 2 --timeout 240 --set profile=quick --set on_exit=shutdown \
    --set experiments=bw_cores --set bw_cores.level=dram
check "bw_cores beyond memory: complete and ok" json_true "$RUN_DIR/run.json" \
    '.status == "complete" and .experiments.bw_cores == "ok"'
check "bw_cores beyond memory: the level's size lowered to the largest that fits, said" \
    lowered_said "$RUN_DIR"
check "bw_cores beyond memory: every row on one size, 2 of them within the chase buffer" \
    one_size_within "$RUN_DIR" 2

boot bw-qemu64 --cpu qemu64 --smp 1 --timeout 240 "${SMALL[@]}" --set passes=2
check "-cpu qemu64: both experiments ok" json_true "$RUN_DIR/run.json" \
    '.status == "complete" and .experiments.bandwidth == "ok" and .experiments.bw_cores == "ok"'
check "-cpu qemu64: SSE2, said on the console" \
    grep -q '^vector width: sse2 (128-bit), the widest this CPU and platform allow' \
    "$RUN_DIR/console.txt"
check "-cpu qemu64: bandwidth.csv rows at 128 bits" awk -F, \
    'NR > 1 && $3 != 128 { bad = 1 } NR > 1 { n++ } END { exit bad || !n }' \
    "$RUN_DIR/bandwidth.csv"
check "no memory speeds in QEMU's own type 17: the DRAM peak is said unknown, its column empty" \
    sh -c "grep -q '^DRAM peak: not known (SMBIOS type 17 gives no memory speeds)' \
        '$RUN_DIR/console.txt' &&
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
        \$c[\"dram_peak_gbs\"] != \"\" { bad = 1 } END { exit bad || NR < 2 }' \
        '$RUN_DIR/bandwidth.csv'"
check "passes=2: bandwidth and bw_cores in 2 interleaved passes, said; every row in 1 or 2" sh -c "
    grep -q '^   plan: .* one core in 2 interleaved passes' '$RUN_DIR/console.txt' &&
    grep -q '^the rows in 2 interleaved passes' '$RUN_DIR/console.txt' &&
    for f in bandwidth bw_cores; do
        awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next }
            !(\$c[\"passes\"] == 1 || \$c[\"passes\"] == 2) { bad = 1 }
            END { exit bad || NR < 2 }' '$RUN_DIR/'\$f.csv || exit 1; done"
check "passes=2: each bandwidth point's repetitions come from as many passes as its row says" \
    test "$(awk -F, 'NR > 1 { seen[$1 "," $2 "," $4] = 1 } END { print length(seen) }' \
        "$RUN_DIR/bandwidth.samples.csv")" = "$(csv_sum "$RUN_DIR/bandwidth.csv" passes)"
check "-smp 1: bw_cores says one processor and gives one scaling row" sh -c "
    grep -q '^one processor: one row per table' '$RUN_DIR/console.txt' &&
    test \$(awk -F, 'NR > 1 && \$1 == \"scaling\"' '$RUN_DIR/bw_cores.csv' | wc -l) = 1"

boot bw-bad-width --cpu qemu64 --timeout 120 "${SMALL[@]}" --set bandwidth.width=avx2
check "a width the CPU lacks: config_error, nothing run" sh -c "
    jq -e '.status == \"config_error\"' '$RUN_DIR/run.json' >/dev/null &&
    ! ls '$RUN_DIR' | grep -q '\\.csv$'"
check "a width the CPU lacks: the error names what this machine supports" grep -q \
    "key 'bandwidth.width': avx2 is not usable here (the CPU lacks it); this machine supports sse2" \
    "$RUN_DIR/errors.txt"
finish
