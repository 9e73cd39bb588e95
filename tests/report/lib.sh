# SPDX-License-Identifier: MIT
# Helpers for chase-report's script tests: TAP-like "ok"/"not ok" lines and JSON peeks.
REPORT=${CHASE_REPORT:-build/chase-report}
DATA=tests/report/data
failures=0

# check WHAT COMMAND...: run COMMAND quietly, print ok or not ok.
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

# is_png FILE: exists, non-empty, PNG signature, and at least 100x100 pixels.
is_png() {
    [ -s "$1" ] || return 1
    [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || return 1
    local w h
    w=$(od -An -tu1 -j16 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
    h=$(od -An -tu1 -j20 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
    [ "$w" -ge 100 ] && [ "$h" -ge 100 ]
}

# top_levels JSON_FILE: the number of entries of the document's top-level "levels" array.
top_levels() {
    awk '/^  "levels": \[/ { on = 1; next } on && /^  \]/ { on = 0 }
         on && /^      "name": "L[0-9]+"/ { n++ } END { print n + 0 }' "$1"
}

# top_value JSON_FILE KEY: a top-level member's value as printed ("null", "12.300", "\"x\"").
top_value() {
    sed -n "s/^  \"$2\": \\(.*\\),\$/\\1/p; s/^  \"$2\": \\(.*\\)\$/\\1/p" "$1" | head -n 1
}

# level_value JSON_FILE INDEX KEY: a member of the INDEX-th (from 1) top-level level.
level_value() {
    awk -v want="$2" -v key="\"$3\":" '/^  "levels": \[/ { on = 1; next } on && /^  \]/ { on = 0 }
         on && /^    \{/ { i++ } on && i == want && $1 == key { v = $2; sub(/,$/, "", v); print v; exit }' "$1"
}

# json_valid FILE: a JSON syntax check with python3 when it is there (else trusted).
json_valid() {
    if command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$1"
    fi
}

# in_range VALUE LO HI
in_range() {
    awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v != "null" && v + 0 >= lo && v + 0 <= hi) }'
}

finish() {
    [ "$failures" = 0 ]
}
