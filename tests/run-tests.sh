#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Run every test and end with one line CI reads: "N passed, N failed".
#   run-tests.sh [--unit-parallel BIN...] [--unit BIN...] [--script SCRIPT...]
# Unit tests are cmocka binaries: their "[  PASSED  ]" and "[  FAILED  ]" counts are added up.
# --unit-parallel ones (long, pure computation: nothing timed) run side by side before the next
# group, the first given on a core of its own (run_parallel); their results are reported in the
# order given.
# Script tests print "ok - what" or "not ok - what" per check (TAP-like); a script that
# exits non-zero without printing a "not ok" line counts as one failure.
set -u
passed=0
failed=0
failures=()
mode=
log_dir=${TEST_LOG_DIR:-build/test-logs}
mkdir -p "$log_dir"

parallel=()

# run_unit BIN [RC]: run BIN and count its results; with RC, BIN has run already (its log is
# written) and exited with RC.
run_unit() {
    local bin=$1 name out rc p f
    name=$(basename "$bin")
    out="$log_dir/$name.log"
    if [ $# -ge 2 ]; then
        rc=$2
    else
        CMOCKA_MESSAGE_OUTPUT=stdout "$bin" >"$out" 2>&1
        rc=$?
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

run_script() {
    local script=$1 name out rc p f
    name=$(basename "$script")
    out="$log_dir/$name.log"
    echo "----  $name"
    "$script" 2>&1 | tee "$out" | grep -E '^(ok|not ok)|^#' 
    rc=${PIPESTATUS[0]}
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

# Run the collected --unit-parallel binaries side by side, then count each in order. The first
# one (the longest) has a core to itself; the others take turns on the remaining cores, one lane
# per core, so no core runs two of them at once.
run_parallel() {
    local lanes i lane name pids=()
    lanes=$(nproc 2>/dev/null || echo 2)
    ((lanes >= 2)) || lanes=2
    for ((lane = 0; lane < lanes; lane++)); do
        (
            for i in "${!parallel[@]}"; do
                # lane 0 runs the first binary; lanes 1.. share the rest round-robin
                ((lane == (i == 0 ? 0 : (i - 1) % (lanes - 1) + 1))) || continue
                name=$(basename "${parallel[$i]}")
                CMOCKA_MESSAGE_OUTPUT=stdout "${parallel[$i]}" >"$log_dir/$name.log" 2>&1
                echo $? >"$log_dir/$name.rc"
            done
        ) &
        pids+=($!)
    done
    wait "${pids[@]}"
    local rcf
    for i in "${!parallel[@]}"; do
        rcf="$log_dir/$(basename "${parallel[$i]}").rc"
        run_unit "${parallel[$i]}" "$(cat "$rcf" 2>/dev/null || echo 1)"
        rm -f "$rcf"
    done
    parallel=()
}

for arg in "$@"; do
    case "$arg" in
    --unit-parallel) mode=parallel ;;
    --unit)
        run_parallel
        mode=unit
        ;;
    --script)
        run_parallel
        mode=script
        ;;
    *)
        case "$mode" in
        parallel) parallel+=("$arg") ;;
        unit) run_unit "$arg" ;;
        script) run_script "$arg" ;;
        *) echo "run-tests: say --unit-parallel, --unit or --script before $arg" >&2; exit 2 ;;
        esac
        ;;
    esac
done

run_parallel

if [ ${#failures[@]} -gt 0 ]; then
    echo
    echo "failed:"
    for f in "${failures[@]}"; do echo "  $f"; done
fi
echo
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
