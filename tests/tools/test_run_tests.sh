#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# make test's runner (tests/run-tests.sh) on scripts written here: --script-parallel ones run
# side by side, are reported in the order given whichever ends first, and are counted as alone;
# the ten slowest are listed before the last line, "N passed, N failed"; a shared-boot folder is
# the run's own and goes with it.
set -u
. "$(dirname "$0")/../lib.sh"
dir=$(fresh_dir run-tests)
RUN=$ROOT/tests/run-tests.sh

# script NAME BODY: an executable $dir/NAME.sh running BODY.
script() {
    printf '#!/usr/bin/env bash\n%s\n' "$2" >"$dir/$1.sh"
    chmod +x "$dir/$1.sh"
}
# Each of the pair waits (20 s at most) for the other to start: both pass only side by side.
script pair1 "touch '$dir/pair1.started'
for i in \$(seq 200); do [ -e '$dir/pair2.started' ] && break; sleep 0.1; done
[ -e '$dir/pair2.started' ] && echo 'ok - pair1 saw pair2 running' || echo 'not ok - pair1 alone'"
script pair2 "touch '$dir/pair2.started'
for i in \$(seq 200); do [ -e '$dir/pair1.started' ] && break; sleep 0.1; done
[ -e '$dir/pair1.started' ] && echo 'ok - pair2 saw pair1 running' || echo 'not ok - pair2 alone'
echo '# pair2 ends first'"
script slow "sleep 1; echo 'ok - slow one'; echo 'ok - slow two'"
script mixed "echo 'ok - mixed one'; echo 'not ok - mixed two'; echo 'chatter'"
script crash "echo 'ok - crash one'; exit 3"
script share "echo \"# share \$BOOT_SHARE\"; test -d \"\$BOOT_SHARE\" && echo 'ok - share exists'"

# run NAME [run-tests.sh arguments...]: the runner's output in $dir/NAME.out, its status in rc.
run() {
    local name=$1
    shift
    rm -f "$dir"/pair*.started
    (cd "$dir" && TEST_JOBS=2 TEST_LOG_DIR="$dir/logs" "$RUN" "$@") >"$dir/$name.out" 2>&1
    rc=$?
}
# without_times FILE: the output less the slowest-ten block (its seconds vary).
without_times() {
    sed '/^slowest ten/,/^$/d' "$1"
}

run two --script ./slow.sh --script-parallel ./pair2.sh ./pair1.sh ./slow.sh ./mixed.sh \
    ./crash.sh ./share.sh
check "side by side: each of a pair saw the other running" \
    sh -c "grep -q '^ok - pair1 saw pair2 running' '$dir/two.out' &&
           grep -q '^ok - pair2 saw pair1 running' '$dir/two.out'"
check "the count: every ok and not ok, a crash without one counted as one failure" \
    test "$(tail -n 1 "$dir/two.out")" = "9 passed, 2 failed"
check "a failure makes the runner's status non-zero" test "$rc" != 0
check "reported in the order given, each under its name" test \
    "$(grep '^----  ' "$dir/two.out" | tr '\n' ' ')" = "----  slow.sh ----  pair2.sh ----  \
pair1.sh ----  slow.sh ----  mixed.sh ----  crash.sh ----  share.sh "
check "the ten slowest (of seven) before the last line, the slowest first" sh -c "
    sed -n '/^slowest ten/,/^\$/p' '$dir/two.out' | grep -c '^ *[0-9.]*  [a-z0-9]*\\.sh\$' |
        grep -qx 7 &&
    sed -n '/^slowest ten/{n;p}' '$dir/two.out' | grep -qE '  (slow|pair[12])\\.sh\$' &&
    test \$(grep -n '^slowest ten' '$dir/two.out' | cut -d: -f1) -lt \$(wc -l <'$dir/two.out')"
check "every test's time in the log folder" test "$(wc -l <"$dir/logs/times.txt")" = 7
share=$(sed -n 's/^# share //p' "$dir/two.out")
check "a shared-boot folder of the run's own, gone after it" \
    sh -c "grep -q '^ok - share exists' '$dir/two.out' && test -n '$share' && test ! -e '$share'"

run again --script ./slow.sh --script-parallel ./pair2.sh ./pair1.sh ./slow.sh ./mixed.sh \
    ./crash.sh ./share.sh
check "the same output again (the seconds and the share's name aside)" \
    cmp -s <(without_times "$dir/two.out" | sed '/^# share /d') \
    <(without_times "$dir/again.out" | sed '/^# share /d')
finish
