# SPDX-License-Identifier: MIT
# Helpers for chase-sim's script tests: run the simulator, find where a curve crosses a level.
# Builds on tests/lib.sh (check, JSON, CSV and number peeks) and tests/lib_run.sh (run folders).

. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
. "$ROOT/tests/lib_run.sh"
SIM="$ROOT/build/chase-sim"

# sim NAME ARGS...: run chase-sim into $TEST_TMP/NAME (emptied first); sets SIM_RC, RUN_DIR, LOG.
sim() {
    local name=$1
    shift
    LOG="$TEST_TMP/$name.log"
    SIM_RC=0
    "$SIM" --out "$(fresh_dir "$name")" "$@" >"$LOG" 2>&1 || SIM_RC=$?
    RUN_DIR="$TEST_TMP/$name/0001"
}

# crossing FILE SIZECOL VALCOL LEVEL: the first size whose value reaches LEVEL ("" if none).
crossing() {
    awk -F, -v s="$2" -v c="$3" -v lv="$4" '
        NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
        $(idx[c]) + 0 >= lv + 0 { print $(idx[s]); exit }' "$1"
}
