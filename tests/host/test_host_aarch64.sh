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
check "check_loops_aarch64 ran all its 45 checks" \
    test "$(grep -c '^ok - ' "$TEST_TMP/check-loops-aarch64.log")" = 45

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
check "run.json: the processor from MIDR_EL1, the caches from sysfs" json_true "$dir/run.json" \
    '(.cpu.brand|test("\\(MIDR 0x[0-9a-f]{8}\\)$")) and .cache_source=="sysfs"'
check "run.json: the counter's frequency from CNTFRQ_EL0, calibrated against Linux's clock" \
    json_true "$dir/run.json" '.tsc.cpuid_leaf=="CNTFRQ_EL0" and .tsc.cpuid_hz>0
        and .tsc.method=="clock_monotonic_raw" and .tsc.hz>0 and .tsc.invariant==true'
check "run.json: x86-only records say not on this architecture" json_true "$dir/run.json" \
    '(.memory_types.why|startswith("not on this architecture"))
     and (.prefetch.documented|startswith("not on this architecture"))
     and (.windows.lfence|startswith("not on this architecture"))'
check "console: the counter's rate from CNTFRQ_EL0, not from a CPUID leaf" \
    grep -q '^             [0-9.]* MHz from CNTFRQ_EL0$' "$dir/console.txt"
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
check "run.json: complete, every experiment ok (or skipped, saying why: bandwidth's loops are not written for AArch64 yet)" \
    json_true "$dir/run.json" '.arch=="aarch64" and .status=="complete"
     and (.experiments|length==15) and all(.experiments[]; startswith("ok")
         or startswith("skipped: needs two processors")
         or startswith("skipped: needs two memory nodes")
         or startswith("skipped: no bandwidth kernels for this architecture yet"))'
validate_experiments "$dir"
rep=$(fresh_dir host-aarch64-report)
"$ROOT/build/chase-report" --out "$rep" "$dir" >"$TEST_TMP/host-aarch64-report.log" 2>&1
rc=$?
check "chase-report reads the AArch64 run and names its processor by MIDR" sh -c "
    test $rc = 0 && test -s '$rep/report.md' &&
    grep -q '^run 0001: .*(MIDR 0x[0-9a-f]*)' '$TEST_TMP/host-aarch64-report.log'"

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
