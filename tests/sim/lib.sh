# SPDX-License-Identifier: MIT
# Helpers for chase-sim's script tests: run the simulator, read its CSV columns by name.
# Builds on tests/qemu/lib.sh (check, validate_run_json, validate_random, json_true).

SIM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TEST_TMP=${TEST_TMP:-$SIM_ROOT/build/sim-tests}
. "$SIM_ROOT/tests/qemu/lib.sh"
SIM="$ROOT/build/chase-sim"

# sim NAME ARGS...: run chase-sim into $TEST_TMP/NAME (emptied first); sets SIM_RC, RUN_DIR, LOG.
sim() {
    local name=$1
    shift
    rm -rf "${TEST_TMP:?}/$name"
    LOG="$TEST_TMP/$name.log"
    SIM_RC=0
    "$SIM" --out "$TEST_TMP/$name" "$@" >"$LOG" 2>&1 || SIM_RC=$?
    RUN_DIR="$TEST_TMP/$name/0001"
}

# csv_at FILE KEYCOL KEY COL: the COL value of the row whose KEYCOL is KEY (first match).
csv_at() {
    awk -F, -v k="$2" -v key="$3" -v c="$4" '
        NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
        $(idx[k]) == key { print $(idx[c]); exit }' "$1"
}

# near A B TOLERANCE: |A - B| <= TOLERANCE.
near() {
    awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}

# below A B: A < B (numbers).
below() {
    awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'
}

# crossing FILE SIZECOL VALCOL LEVEL: the first size whose value reaches LEVEL ("" if none).
crossing() {
    awk -F, -v s="$2" -v c="$3" -v lv="$4" '
        NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
        $(idx[c]) + 0 >= lv + 0 { print $(idx[s]); exit }' "$1"
}

# between V LO HI: LO < V < HI (numbers).
between() {
    awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(lo < v && v < hi) }'
}
