#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Interleaved passes in dual and ring (issue 18): chase-host measures their sweeps in passes,
# writes one row per point in the sweep's order, chases the same chains as one pass (dual's
# lag per point, ring's slots), and ring names each stride once, before its rows; bandwidth and
# bw_cores (issue 41) in passes too. Whole laps (warm_laps=0) longer than a window are timed in
# several windows, every hop a lap.
set -u
. "$(dirname "$0")/../lib.sh"

one=$(fresh_dir host-passes1)
three=$(fresh_dir host-passes3)
"$ROOT/build/chase-host" --out "$one" profile=quick experiments=dual,ring passes=1 \
    >"$TEST_TMP/passes1.log" 2>&1
check "dual,ring passes=1 exits 0" test "$?" = 0
"$ROOT/build/chase-host" --out "$three" profile=quick experiments=dual,ring passes=3 \
    >"$TEST_TMP/passes3.log" 2>&1
check "dual,ring passes=3 exits 0" test "$?" = 0
a=$one/0001
b=$three/0001

# passes_ok CSV: rows in order of the first column, then size (ascending within the first),
# small points (up to 64K) in 2 or 3 passes, every point in 1 to 3, and one pass everywhere in
# the passes=1 run.
passes_ok() {
    awk -F, '
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        { key = $1; size = $c["size_bytes"] }
        key == last_key && size <= last_size { bad = 1 }
        $c["passes"] < (size <= 65536 ? 2 : 1) || $c["passes"] > 3 { bad = 1 }
        { last_key = key; last_size = size }
        END { exit bad || NR < 4 }' "$1"
}
check "dual passes=3: rows in size order, small points in 2-3 passes" passes_ok "$b/dual.csv"
check "ring passes=3: rows by stride then size, small points in 2-3 passes" passes_ok "$b/ring.csv"
check "dual passes=1: every point in one pass" awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["passes"] != 1 { bad = 1 }
    END { exit bad }' "$a/dual.csv"
check "dual passes=3: each point's own lag (half a lap below the lag), as in one pass" test \
    "$(cut -d, -f1,2,4 "$b/dual.csv")" = "$(cut -d, -f1,2,4 "$a/dual.csv")"
lag=$(sed -n 's/.*lag auto = \([0-9]*\) slots.*/\1/p' "$TEST_TMP/passes3.log")
check "dual: each point's lag is the auto lag, or half its slots when that is a lap or more" \
    awk -F, -v lag="$lag" 'NR > 1 && $2 != ($4 <= lag ? int($4 / 2) : lag) { bad = 1 }
        END { exit bad || lag == "" }' "$b/dual.csv"
check "ring passes=3: the same rings (stride, size, slots) as one pass" test \
    "$(cut -d, -f1-3 "$b/ring.csv")" = "$(cut -d, -f1-3 "$a/ring.csv")"
# The console: each stride= line once, right before that stride's first row.
stride_lines() {
    sed -n '/^== ring/,/^(ring took/p' "$1" | awk '
        /^stride=/ { split($0, s, "="); if (seen[s[2]]++) bad = 1; cur = s[2]; n++; next }
        /^ +[0-9.]+[KMG]? +[0-9.]+ +[0-9]+ / { if (cur == "") bad = 1; rows++ }
        END { printf "%d %d %d\n", n, rows, bad }'
}
check "ring passes=3 console: one stride= line per stride, every row under one" test \
    "$(stride_lines "$TEST_TMP/passes3.log")" = "2 $(($(wc -l <"$b/ring.csv") - 1)) 0"
check "ring console: the same stride and row lines with passes=1 and 3" test \
    "$(grep -E '^stride=|^ +[0-9.]+[KMG]? +[0-9.]+ +[0-9]+ ' "$TEST_TMP/passes3.log" |
        awk '{ print $1, $2, $3 }')" = \
    "$(grep -E '^stride=|^ +[0-9.]+[KMG]? +[0-9.]+ +[0-9]+ ' "$TEST_TMP/passes1.log" |
        awk '{ print $1, $2, $3 }')"

# Whole laps split by window_max_ms: a 4M lap (65536 hops) cannot fit the first window (4096
# hops before the pace is known), so the point says how many windows more it took.
split=$(fresh_dir host-split)
"$ROOT/build/chase-host" --out "$split" experiments=random random.min=4M random.max=4M \
    warm_laps=0 precision=0 reps=3 window_max_ms=1 >"$TEST_TMP/split.log" 2>&1
check "warm_laps=0 window_max_ms=1 exits 0" test "$?" = 0
check "the console says the whole laps took more windows" \
    grep -qE "note: whole laps longer than window_max_ms were timed in [0-9]+ windows more" \
    "$TEST_TMP/split.log"
check "each of the 3 repetitions is one whole lap (65536 hops), positive" awk -F, '
    NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    !($c["hops"] == 65536 && $c["tsc_per_access"] > 0) { bad = 1 } END { exit bad || NR != 4 }' \
    "$split/0001/random.samples.csv"
# bandwidth and bw_cores in passes (issue 41): every point (size x kernel; a bw_cores row) in 2
# or 3 interleaved passes (a warm-up lap of 64K at most is far below 15% of a slice, so none
# takes its slices in one visit), the rows in the order of one pass, each repetition's pass in
# the samples; passes=1 keeps one pass.
bw_run() {
    "$ROOT/build/chase-host" --out "$1" profile=quick experiments=bandwidth,bw_cores \
        bandwidth.max=64K bandwidth.kernels=read,copy,rep_stosb bw_cores.level=L1 point_max_ms=100 \
        passes="$2" >"$TEST_TMP/bw-passes$2.log" 2>&1
}
bw1=$(fresh_dir host-bw-passes1)
bw3=$(fresh_dir host-bw-passes3)
bw_run "$bw1" 1
check "bandwidth,bw_cores passes=1 exits 0" test "$?" = 0
bw_run "$bw3" 3
check "bandwidth,bw_cores passes=3 exits 0, both ok" json_true "$bw3/0001/run.json" \
    '.status == "complete" and .experiments.bandwidth == "ok" and .experiments.bw_cores == "ok"'
# in_passes CSV LO HI: every row's passes column within [LO, HI].
in_passes() {
    awk -F, -v lo="$2" -v hi="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        !($c["passes"] >= lo && $c["passes"] <= hi) { bad = 1 } END { exit bad || NR < 3 }' "$1"
}
check "bandwidth passes=3: said in the plan line" \
    grep -q '^   plan: .* one core in 3 interleaved passes' "$TEST_TMP/bw-passes3.log"
check "bandwidth passes=3: every size x kernel in 2 or 3 passes" in_passes "$bw3/0001/bandwidth.csv" 2 3
# (A team's warm-up run waits for every processor's thread: on a busy machine it can cost more
# than 15% of a slice, and that row then takes its slices in one visit.)
check "bw_cores passes=3: said; every row in 1 to 3 passes, the total more than one a row" sh -c "
    grep -q '^the rows in 3 interleaved passes' '$TEST_TMP/bw-passes3.log' &&
    $(declare -f in_passes); in_passes '$bw3/0001/bw_cores.csv' 1 3 &&
    test $(csv_sum "$bw3/0001/bw_cores.csv" passes) -gt $(csv_rows "$bw3/0001/bw_cores.csv")"
check "bandwidth, bw_cores passes=1: every point in one pass" sh -c "
    $(declare -f in_passes); in_passes '$bw1/0001/bandwidth.csv' 1 1 &&
    in_passes '$bw1/0001/bw_cores.csv' 1 1"
check "bandwidth passes=3: the rows (size, kernel) in the order of one pass" test \
    "$(cut -d, -f1,2 "$bw3/0001/bandwidth.csv")" = "$(cut -d, -f1,2 "$bw1/0001/bandwidth.csv")"
check "bw_cores passes=3: the rows (table, processors, kernel) in the order of one pass" test \
    "$(cut -d, -f1,2,4 "$bw3/0001/bw_cores.csv")" = "$(cut -d, -f1,2,4 "$bw1/0001/bw_cores.csv")"
check "bandwidth.samples.csv passes=3: each point's repetitions come from as many passes as its row says" \
    test "$(awk -F, 'NR > 1 { seen[$1 "," $2 "," $4] = 1 } END { print length(seen) }' \
        "$bw3/0001/bandwidth.samples.csv")" = "$(csv_sum "$bw3/0001/bandwidth.csv" passes)"
# width auto: every point measured at every width this CPU and Linux allow, widest first, the
# fastest kept; a string kernel (rep_stosb) is the same code at every width: one measurement.
width_rule() {
    local want=sse2=128
    grep -qw avx2 /proc/cpuinfo && want="avx2=256 $want"
    grep -qw avx512f /proc/cpuinfo && want="avx512=512 $want"
    # shellcheck disable=SC2086 # one argument a width
    bw_fastest_kept "$1" $want && grep -q '^[0-9]*,rep_stosb,0,' "$1"
}
check "bandwidth width=auto: each row the fastest of every width, each width's median beside" \
    width_rule "$bw1/0001/bandwidth.csv"
check "bandwidth width=auto in passes: the same rule" width_rule "$bw3/0001/bandwidth.csv"
finish
