#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run every test and end with one line CI reads: "N passed, N failed".
#   run-tests.sh [--unit-parallel BIN...] [--unit BIN...] [--script SCRIPT...]
#                [--script-parallel SCRIPT...]
# Unit tests are cmocka binaries: their "[  PASSED  ]" and "[  FAILED  ]" counts are added up.
# --unit-parallel ones (long, pure computation: nothing timed) run side by side before the next
# group, the first given on a core of its own (run_parallel); their results are reported in the
# order given.
# Script tests print "ok - what" or "not ok - what" per check (TAP-like); a script that
# exits non-zero without printing a "not ok" line counts as one failure. --script ones run one
# at a time, alone; --script-parallel ones (independent of each other: QEMU boots, chase-sim,
# chase-report, nothing that times the host) run TEST_JOBS at a time (default 2: under TCG a
# boot keeps a core busy, and CI has two), each into its own log, and are reported in the
# order given, each as soon as it and the ones before it are done: the output and the count
# are the same whichever finishes first. List the longest first: they start in that order.
# Every test is timed; the ten slowest are listed before the last line.
set -u
passed=0
failed=0
failures=()
times=() # "SECONDS NAME" per test
mode=
log_dir=${TEST_LOG_DIR:-build/test-logs}
mkdir -p "$log_dir"
# QEMU boots that several scripts ask for alike are booted once a run (tests/qemu/lib.sh's boot),
# in a folder of this run's own (each script keeps a copy of what it read). Its name is as long
# in every run: the environment's size moves the stack, and the fuzzers' paths follow addresses.
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$root/build/test-tmp"
BOOT_SHARE=$(mktemp -d "$root/build/test-tmp/shared-boots.XXXXXX")
export BOOT_SHARE

parallel=()
pool=()

# now: seconds since the epoch, with microseconds (bash 5's EPOCHREALTIME).
now() {
    echo "${EPOCHREALTIME/,/.}"
}

# took START NAME: record NAME's wall time since START.
took() {
    times+=("$(awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') $2")
}

# run_unit BIN [RC]: run BIN and count its results; with RC, BIN has run already (its log is
# written) and exited with RC.
run_unit() {
    local bin=$1 name out rc p f start
    name=$(basename "$bin")
    out="$log_dir/$name.log"
    if [ $# -ge 2 ]; then
        rc=$2
    else
        start=$(now)
        CMOCKA_MESSAGE_OUTPUT=stdout "$bin" >"$out" 2>&1
        rc=$?
        took "$start" "$name"
    fi
    p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -n 1)
    f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$out" | tail -n 1)
    p=${p:-0}
    f=${f:-0}
    if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
        f=1 # crashed or a sanitizer stopped it
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    if [ "$f" != 0 ]; then
        failures+=("$name (log: $out)")
        echo "FAIL  $name: $p passed, $f failed"
        grep -E '^\[  (ERROR|FAILED|  FAIL) |ERROR: |runtime error|Sanitizer' "$out" | head -n 20
    else
        echo "ok    $name: $p passed"
    fi
}

# count_script NAME LOG RC: count a finished script's checks from its log.
count_script() {
    local name=$1 out=$2 rc=$3 p f
    p=$(grep -c '^ok ' "$out")
    f=$(grep -c '^not ok ' "$out")
    if [ "$rc" != 0 ] && [ "$f" = 0 ]; then
        f=1
        echo "not ok - $name exited with status $rc (log: $out)"
        tail -n 15 "$out"
    fi
    passed=$((passed + p))
    failed=$((failed + f))
    [ "$f" != 0 ] && failures+=("$name (log: $out)")
}

run_script() {
    local script=$1 name out rc start
    name=$(basename "$script")
    out="$log_dir/$name.log"
    echo "----  $name"
    start=$(now)
    "$script" 2>&1 | tee "$out" | grep -E '^(ok|not ok)|^#'
    rc=${PIPESTATUS[0]}
    took "$start" "$name"
    count_script "$name" "$out" "$rc"
}

# Run the collected --unit-parallel binaries side by side, then count each in order. The first
# one (the longest) has a core to itself; the others take turns on the remaining cores, one lane
# per core, so no core runs two of them at once.
run_parallel() {
    local lanes i lane name start pids=()
    [ ${#parallel[@]} -gt 0 ] || return 0
    lanes=$(nproc 2>/dev/null || echo 2)
    ((lanes >= 2)) || lanes=2
    for ((lane = 0; lane < lanes; lane++)); do
        (
            for i in "${!parallel[@]}"; do
                # lane 0 runs the first binary; lanes 1.. share the rest round-robin
                ((lane == (i == 0 ? 0 : (i - 1) % (lanes - 1) + 1))) || continue
                name=$(basename "${parallel[$i]}")
                start=$(now)
                CMOCKA_MESSAGE_OUTPUT=stdout "${parallel[$i]}" >"$log_dir/$name.log" 2>&1
                echo $? >"$log_dir/$name.rc"
                awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.1f\n", b - a }' \
                    >"$log_dir/$name.time"
            done
        ) &
        pids+=($!)
    done
    wait "${pids[@]}"
    local base
    for i in "${!parallel[@]}"; do
        name=$(basename "${parallel[$i]}")
        base="$log_dir/$name"
        run_unit "${parallel[$i]}" "$(cat "$base.rc" 2>/dev/null || echo 1)"
        times+=("$(cat "$base.time" 2>/dev/null || echo 0) $name")
        rm -f "$base.rc" "$base.time"
    done
    parallel=()
}

# report_pooled I: print and count the I-th --script-parallel script (finished: its log, .rc and
# .time are written).
report_pooled() {
    local name out
    name=$(basename "${pool[$1]}")
    out="$log_dir/$name.log"
    echo "----  $name"
    grep -E '^(ok|not ok)|^#' "$out"
    times+=("$(cat "$out.time") $name")
    count_script "$name" "$out" "$(cat "$out.rc")"
    rm -f "$out.rc" "$out.time"
}

# stop_pool: end the --script-parallel scripts still running, and what they started (each runs
# in a process group of its own: an interrupt reaches only the one in front).
stop_pool() {
    local f
    for f in "$log_dir"/*.log.pid; do
        [ -e "$f" ] && kill -TERM -- "-$(cat "$f")" 2>/dev/null
    done
}
trap 'stop_pool; exit 130' INT
trap 'stop_pool; exit 143' TERM
trap 'rm -rf "$BOOT_SHARE"' EXIT

# Run the collected --script-parallel scripts TEST_JOBS at a time, starting them in the order
# given; report them in that order as they finish.
run_pool() {
    local jobs=${TEST_JOBS:-2} i name out
    pool_next=0
    pool_running=0
    [ ${#pool[@]} -gt 0 ] || return 0
    ((jobs >= 1)) || jobs=1
    for i in "${!pool[@]}"; do
        rm -f "$log_dir/$(basename "${pool[$i]}").log.rc"
    done
    for i in "${!pool[@]}"; do
        while ((pool_running >= jobs)); do
            pool_wait
        done
        name=$(basename "${pool[$i]}")
        out="$log_dir/$name.log"
        (
            start=$(now)
            setsid "${pool[$i]}" >"$out" 2>&1 &
            echo $! >"$out.pid"
            wait $!
            rc=$?
            rm -f "$out.pid"
            awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.1f\n", b - a }' >"$out.time"
            echo "$rc" >"$out.rc" # last: the script's results are complete
        ) &
        pool_running=$((pool_running + 1))
    done
    while ((pool_running > 0)); do
        pool_wait
    done
    pool=()
}

# pool_wait: wait for one pooled script to end, then report those that can be, in order.
pool_wait() {
    wait -n
    (($? == 127)) && pool_running=1 # no job left to wait for
    pool_running=$((pool_running - 1))
    while ((pool_next < ${#pool[@]})) &&
        [ -e "$log_dir/$(basename "${pool[$pool_next]}").log.rc" ]; do
        report_pooled "$pool_next"
        pool_next=$((pool_next + 1))
    done
}

# run_groups: run what was collected for the parallel groups.
run_groups() {
    run_parallel
    run_pool
}

for arg in "$@"; do
    case "$arg" in
    --unit-parallel)
        run_pool
        mode=parallel
        ;;
    --script-parallel)
        run_parallel
        mode=pool
        ;;
    --unit)
        run_groups
        mode=unit
        ;;
    --script)
        run_groups
        mode=script
        ;;
    *)
        case "$mode" in
        parallel) parallel+=("$arg") ;;
        pool) pool+=("$arg") ;;
        unit) run_unit "$arg" ;;
        script) run_script "$arg" ;;
        *)
            echo "run-tests: say --unit-parallel, --unit, --script or --script-parallel" \
                "before $arg" >&2
            exit 2
            ;;
        esac
        ;;
    esac
done

run_groups

printf '%s\n' "${times[@]}" | sort -k1,1nr -k2 >"$log_dir/times.txt"
echo
echo "slowest ten (seconds; every test's in $log_dir/times.txt):"
head -n 10 "$log_dir/times.txt" | awk '{ printf "  %7.1f  %s\n", $1, $2 }'
if [ ${#failures[@]} -gt 0 ]; then
    echo
    echo "failed:"
    for f in "${failures[@]}"; do echo "  $f"; done
fi
echo
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
