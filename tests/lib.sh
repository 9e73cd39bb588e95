# SPDX-License-Identifier: MIT
# The common part of the script tests: ROOT, TEST_TMP, check, and JSON, CSV and number peeks.
# Every tests/*/test_*.sh sources it (directly or through its folder's helper). A check prints
# "ok - what" or "not ok - what" (tests/run-tests.sh counts them); finish exits non-zero when
# one failed. Run folders are checked by tests/lib_run.sh, QEMU boots by tests/qemu/lib.sh.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Each script works in build/test-tmp/FOLDER/SCRIPT (its own: make test runs scripts side by
# side); what it leaves is kept for a look.
TEST_TMP=${TEST_TMP:-$ROOT/build/test-tmp/$(basename "$(cd "$(dirname "$0")" && pwd)")/$(
    basename "$0" .sh)}
mkdir -p "$TEST_TMP"
failures=0

# check DESCRIPTION COMMAND...: run the command quietly, report ok / not ok.
check() {
    local what=$1
    shift
    if "$@" >/dev/null 2>&1; then
        echo "ok - $what"
    else
        echo "not ok - $what"
        failures=$((failures + 1))
    fi
}

# finish: the script's status, 0 when every check passed.
finish() {
    [ "$failures" = 0 ]
}

# fresh_dir NAME: an empty $TEST_TMP/NAME (emptied first); prints its path.
fresh_dir() {
    rm -rf "${TEST_TMP:?}/$1"
    mkdir -p "$TEST_TMP/$1"
    echo "$TEST_TMP/$1"
}

# json_true FILE JQ-EXPRESSION: the expression holds for the document (an empty or missing file
# fails: jq -e answers 0 on empty input).
json_true() {
    [ -s "$1" ] && jq -e "$2" "$1" >/dev/null
}

# json_valid FILE: a JSON syntax check with python3 when it is there (else trusted).
json_valid() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1"
    fi
}

# csv_has_columns FILE COL...: the header names every column.
csv_has_columns() {
    local file=$1 col
    shift
    local header
    header=$(head -n 1 "$file" | tr -d '\r')
    for col in "$@"; do
        echo ",$header," | grep -q ",$col," || { echo "missing column $col" >&2; return 1; }
    done
}

# csv_rows FILE: data rows (without the header).
csv_rows() {
    tail -n +2 "$1" | grep -c .
}

# csv_positive FILE COL...: every row has a number > 0 in each column.
csv_positive() {
    local file=$1
    shift
    awk -F, -v cols="$*" '
        NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; n = split(cols, want, " ");
                  for (k = 1; k <= n; k++) if (!(want[k] in idx)) exit 2; next }
        { for (k = 1; k <= n; k++) { v = $(idx[want[k]]);
              if (v !~ /^[0-9.eE+-]+$/ || v + 0 <= 0) { bad = 1 } } }
        END { exit bad }' "$file"
}

# csv_sum FILE COL: the sum of a column over the data rows (0 when there are none).
csv_sum() {
    awk -F, -v col="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
        { s += $c } END { if (!c) exit 2; printf "%d\n", s }' "$1"
}

# csv_at_least FILE COL MIN: every row has at least MIN in the column.
csv_at_least() {
    awk -F, -v col="$2" -v min="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i;
        next } $c + 0 < min + 0 { bad = 1 } END { exit bad || !c }' "$1"
}

# csv_at FILE KEYCOL KEY COL: the COL value of the row whose KEYCOL is KEY (first match).
csv_at() {
    awk -F, -v k="$2" -v key="$3" -v c="$4" '
        NR == 1 { for (i = 1; i <= NF; i++) idx[$i] = i; next }
        $(idx[k]) == key { print $(idx[c]); exit }' "$1"
}

# in_range VALUE LO HI: LO <= VALUE <= HI (numbers; "null" is never in range).
in_range() {
    awk -v v="$1" -v lo="$2" -v hi="$3" \
        'BEGIN { exit !(v != "null" && v + 0 >= lo && v + 0 <= hi) }'
}

# between V LO HI: LO < V < HI (numbers).
between() {
    awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(lo < v && v < hi) }'
}

# near A B TOLERANCE: |A - B| <= TOLERANCE.
near() {
    awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'
}

# below A B: A < B (numbers).
below() {
    awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'
}

# bw_fastest_kept FILE NAME=BITS...: bandwidth.csv's width rule (width auto): every vector row
# measured at exactly the widths named, in that order (widths_gbs "name:GB/s ..."), its
# width_bits that of the fastest and its median the fastest's; a string kernel's row (width_bits
# 0) one measurement. At least one vector row.
bw_fastest_kept() {
    local file=$1
    shift
    awk -F, -v widths="$*" '
        BEGIN { n = split(widths, w, " "); for (i = 1; i <= n; i++) { split(w[i], nb, "=")
                    want = want nb[1] " "; bits[nb[1]] = nb[2] } }
        NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; if (!("widths_gbs" in c)) exit 2; next }
        { m = split($c["widths_gbs"], part, " "); names = ""; max = -1; kept = -1
          for (j = 1; j <= m; j++) { split(part[j], kv, ":"); names = names kv[1] " "
              if (kv[2] + 0 > max) max = kv[2] + 0
              if (bits[kv[1]] == $c["width_bits"]) kept = kv[2] + 0 } }
        $c["width_bits"] == 0 { if (m != 1) bad = 1; next }
        { vector = 1 }
        # Two widths may print the same median (3 decimals): the kept one must be one of the fastest.
        names != want || kept != max || $c["gbs_median"] + 0 != max { bad = 1 }
        END { exit bad || !vector }' "$file"
}
