#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# chase-host cross-built for AArch64 runs the quick profile under qemu-aarch64 (user mode): the
# AArch64 chase loops, counter reads and the ID-register and sysfs descriptions in place of
# CPUID, with the same files as on x86. Behaviour only: TCG timings are never judged.
set -u
. "$(dirname "$0")/../lib.sh"
. "$ROOT/tests/lib_run.sh"

HOST="$ROOT/build/chase-host-aarch64"
check "chase-host-aarch64 is an AArch64 executable" sh -c "file -b '$HOST' | grep -q 'ARM aarch64'"
check "qemu-aarch64 is installed (make deps)" command -v qemu-aarch64

# The loops themselves: each chase ends where its hops lead, lock-step and serialized heads
# included, and the counter and add chain behave (tests/host/check_loops_aarch64.c).
qemu-aarch64 "$ROOT/build/check_loops_aarch64" >"$TEST_TMP/check-loops-aarch64.log" 2>&1
check "the AArch64 chase loops end where their chains lead (check_loops_aarch64)" test "$?" = 0
check "check_loops_aarch64 ran all its 50 checks" \
    test "$(grep -c '^ok - ' "$TEST_TMP/check-loops-aarch64.log")" = 50

# The bandwidth kernels: each reads and writes exactly its bytes, NEON on a core without SVE,
# NEON and SVE at the shortest, a middle and the longest vector length (the longest leaves a
# tail after whole 8-vector groups; tests/host/check_bw_aarch64.c).
for c in cortex-a72 max,sve-default-vector-length=16 max,sve-default-vector-length=64 \
    max,sve-default-vector-length=256; do
    log="$TEST_TMP/check-bw-aarch64-${c//[,=]/_}.log"
    qemu-aarch64 -cpu "$c" "$ROOT/build/check_bw_aarch64" >"$log" 2>&1
    check "the AArch64 bandwidth kernels move exactly their bytes (-cpu $c)" test "$?" = 0
    want=50
    [ "$c" = cortex-a72 ] && want=25
    check "check_bw_aarch64 ran all its $want checks (-cpu $c)" \
        test "$(grep -c '^ok - ' "$log")" = "$want"
done
check "check_bw_aarch64: the SVE vector length is the one asked for (256 bytes)" \
    grep -q '^# SVE vector length 256 bytes$' "$TEST_TMP/check-bw-aarch64-max_sve-default-vector-length_256.log"

out=$(fresh_dir host-aarch64)
timeout 600 qemu-aarch64 "$HOST" --out "$out" profile=quick experiments=random \
    >"$TEST_TMP/host-aarch64.log" 2>&1
rc=$?
check "chase-host-aarch64 runs the quick profile's random experiment and exits 0" test "$rc" = 0
dir="$out/0001"
check "it made run folder 0001" test -d "$dir"
validate_run_json "$dir"
check "run.json says aarch64, linux, complete, random ok" json_true "$dir/run.json" \
    '.arch=="aarch64" and .platform=="linux" and .status=="complete"
     and .experiments.random=="ok"'
check "run.json: the processor from MIDR_EL1, the caches from the PPTT or else sysfs (saying why)" \
    json_true "$dir/run.json" '(.cpu.brand|test("\\(MIDR 0x[0-9a-f]{8}\\)$"))
        and (.cache_source=="PPTT" or (.cache_source|startswith("sysfs; PPTT: ")))'
check "run.json: the counter's frequency from CNTFRQ_EL0, calibrated against Linux's clock" \
    json_true "$dir/run.json" '.tsc.cpuid_leaf=="CNTFRQ_EL0" and .tsc.cpuid_hz>0
        and .tsc.method=="clock_monotonic_raw" and .tsc.hz>0 and .tsc.invariant==true'
check "run.json: x86-only records say not on this architecture" json_true "$dir/run.json" \
    '(.memory_types.why|startswith("not on this architecture"))
     and (.prefetch.documented|startswith("not on this architecture"))
     and (.windows.lfence|startswith("not on this architecture"))
     and (.windows.de_cfg|startswith("not on this architecture"))
     and (.boost.why|startswith("not on this architecture"))
     and (.processor_msrs.note|startswith("not on this architecture"))
     and (.tsc.smi|startswith("not on this architecture"))
     and (.tsc.adds_end_why|startswith("not on this architecture"))
     and .tsc.end_fence=="dsb sy; isb; mrs cntvct_el0; isb"'
check "console: the counter's rate from CNTFRQ_EL0, not from a CPUID leaf" \
    grep -q '^             [0-9.]* MHz from CNTFRQ_EL0$' "$dir/console.txt"
check "console: the add chain ends with the ordered counter read, not LFENCE" \
    grep -q '^  add chain  ends with dsb sy; isb; mrs cntvct_el0; isb (no LFENCE on this architecture)$' \
        "$dir/console.txt"
check "console: SMIs, memory types and boost are not on this architecture" sh -c "
    grep -q '^  SMIs       not on this architecture' '$dir/console.txt' &&
    grep -q '^  memtypes   not on this architecture' '$dir/console.txt' &&
    grep -q '^  boost      not on this architecture' '$dir/console.txt'"
check "run.json: the add-chain core clock was estimated" json_true "$dir/run.json" \
    '.core_clock.core_per_tsc>0 and .core_clock.method=="dependent add chain"'
validate_random "$dir"
check "random.csv: every chain checksum is a 64-bit hex value" awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) if ($i == "chain_checksum") c = i; next }
    $c !~ /^0x[0-9a-f]+$/ { bad = 1 } END { exit bad || !c || NR < 2 }' "$dir/random.csv"

# The whole quick profile: every experiment runs (or is skipped for want of a second memory
# node or huge pages, saying so) and writes files in the x86 runs' format.
full=$(fresh_dir host-aarch64-quick)
timeout 600 qemu-aarch64 "$HOST" --out "$full" profile=quick \
    >"$TEST_TMP/host-aarch64-quick.log" 2>&1
check "chase-host-aarch64 runs the whole quick profile and exits 0" test "$?" = 0
dir="$full/0001"
exps=$(table_experiments qemu-aarch64 "$HOST") # the table's, as its help lists them
check "run.json: complete, every experiment of the table ok (or skipped for want of a second node), bandwidth and bw_cores ok" \
    json_true "$dir/run.json" '.arch=="aarch64" and .status=="complete" and '"$exps"' != []
     and .config.experiments=='"$exps"' and (.experiments|keys)==('"$exps"'|sort)
     and all(.experiments[]; startswith("ok")
         or startswith("skipped: needs two processors")
         or startswith("skipped: needs two memory nodes"))
     and .experiments.bandwidth=="ok" and .experiments.bw_cores=="ok"'
validate_experiments "$dir"
vl=$(sed -n 's/^# SVE vector length \([0-9]*\) bytes$/\1/p' \
    "$TEST_TMP/check-bw-aarch64-max_sve-default-vector-length_64.log")
check "bandwidth.csv: SVE (qemu-aarch64's default -cpu max has it) at its vector length, and NEON; the faster kept" \
    sh -c "test '$vl' = 64 && $(declare -f bw_fastest_kept) &&
        bw_fastest_kept '$dir/bandwidth.csv' sve=$((8 * ${vl:-0})) neon=128"
check "console: the width chosen is SVE, the widest here" \
    grep -q '^vector width: sve (512-bit), the widest this CPU and platform allow$' \
        "$dir/console.txt"
rep=$(fresh_dir host-aarch64-report)
"$ROOT/build/chase-report" --out "$rep" "$dir" >"$TEST_TMP/host-aarch64-report.log" 2>&1
rc=$?
check "chase-report reads the AArch64 run and names its processor by MIDR" sh -c "
    test $rc = 0 && test -s '$rep/report.md' &&
    grep -q '^run 0001: .*(MIDR 0x[0-9a-f]*)' '$TEST_TMP/host-aarch64-report.log'"
"$ROOT/build/chase-report" --json "$dir" >"$TEST_TMP/host-aarch64-report.json" 2>/dev/null
check "chase-report --json names the AArch64 run's cache description (sysfs or PPTT)" json_true \
    "$TEST_TMP/host-aarch64-report.json" '.sources[0].cache_description|test("^(sysfs|PPTT)$")'
check "report.md compares the levels with the machine's cache description (sysfs or PPTT)" \
    grep -Eq "^#### Against the machine's cache description \((sysfs|PPTT)\)$" "$rep/report.md"
check "report.md: the described caches' rows and the bandwidth table of the AArch64 run" sh -c "
    grep -q '^| L1 data | ' '$rep/report.md' && grep -qi 'bandwidth' '$rep/report.md'"

# A core without SVE gets NEON; x86's widths and string kernels are configuration errors that
# name what this machine has.
nosve=$(fresh_dir host-aarch64-a72)
timeout 600 qemu-aarch64 -cpu cortex-a72 "$HOST" --out "$nosve" profile=quick \
    experiments=bandwidth,bw_cores bandwidth.max=64K >"$TEST_TMP/host-aarch64-a72.log" 2>&1
check "on a Cortex-A72 (no SVE) bandwidth and bw_cores run with NEON, 128-bit" sh -c "
    test $? = 0 && grep -q '^vector width: neon (128-bit), the widest' '$nosve/0001/console.txt' &&
    awk -F, 'NR > 1 && \$3 != 128 { bad = 1 } END { exit bad || NR < 2 }' \
        '$nosve/0001/bandwidth.csv'"
bad=$(fresh_dir host-aarch64-bad)
qemu-aarch64 -cpu cortex-a72 "$HOST" --out "$bad" profile=quick bandwidth.width=sve \
    bw_cores.width=avx2 bandwidth.kernels=read,rep_movsb >"$TEST_TMP/host-aarch64-bad.log" 2>&1
check "an unsupported width or kernel is a configuration error (exit 2) naming what is here" sh -c "
    test $? = 2 && log='$TEST_TMP/host-aarch64-bad.log' &&
    grep -q \"key 'bandwidth.width': sve is not usable here (the CPU lacks it); this machine supports neon\" \"\$log\" &&
    grep -q \"key 'bw_cores.width': avx2 is not usable here (the CPU lacks it); this machine supports neon\" \"\$log\" &&
    grep -q \"key 'bandwidth.kernels': rep_movsb is not on this architecture\" \"\$log\""

# Measured and simulated side by side: the AArch64 run with chase-sim's Cortex-A72 model, in one
# report, each compared with its own cache description.
sim=$(fresh_dir host-aarch64-sim)
"$ROOT/build/chase-sim" --hierarchy cortex-a72 --out "$sim" profile=quick experiments=random \
    >"$TEST_TMP/host-aarch64-sim.log" 2>&1
both=$(fresh_dir host-aarch64-both)
"$ROOT/build/chase-report" --out "$both" "$dir" "$sim/0001" >"$TEST_TMP/host-aarch64-both.log" 2>&1
check "chase-report reads the AArch64 run beside a chase-sim run of a Cortex-A72 model" sh -c "
    test $? = 0 && grep -q '^run 0001: .*(MIDR 0x[0-9a-f]*)' '$TEST_TMP/host-aarch64-both.log' &&
    grep -q '^run 0001: simulated ' '$TEST_TMP/host-aarch64-both.log' &&
    grep -q \"^#### Against the machine's cache description (simulated)\" '$both/report.md' &&
    grep -Eq \"^#### Against the machine's cache description \\((sysfs|PPTT)\\)\" '$both/report.md'"

# prefetch=off cannot be honoured on AArch64 (its controls are implementation-defined): a
# configuration error saying so, before anything runs.
pf=$(fresh_dir host-aarch64-prefetch)
qemu-aarch64 "$HOST" --out "$pf" prefetch=off >"$TEST_TMP/host-aarch64-prefetch.log" 2>&1
check "prefetch=off is a configuration error (exit 2) naming why on AArch64" sh -c "
    test $? = 2 && grep -q \"key 'prefetch': not on this architecture: AArch64's prefetcher controls are implementation-defined registers\" '$TEST_TMP/host-aarch64-prefetch.log'"

# The x86-64 chase-host, with the same seed, builds the same chains: the checksums agree.
dir="$out/0001"
x86=$(fresh_dir host-aarch64-x86)
"$ROOT/build/chase-host" --out "$x86" profile=quick experiments=random \
    >"$TEST_TMP/host-aarch64-x86.log" 2>&1
check "the same chains on AArch64 and x86-64 (random.csv's chain_checksum column)" sh -c "
    cut -d, -f1,7 '$dir/random.csv' | sort >'$TEST_TMP/a64.sums' &&
    cut -d, -f1,7 '$x86/0001/random.csv' | sort >'$TEST_TMP/x86.sums' &&
    test -s '$TEST_TMP/a64.sums' && cmp -s '$TEST_TMP/a64.sums' '$TEST_TMP/x86.sums'"
finish
