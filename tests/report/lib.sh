# SPDX-License-Identifier: MIT
# Helpers for chase-report's script tests: the program, its sample inputs, PNG and JSON peeks.
# Builds on tests/lib.sh (check, finish, JSON, CSV and number peeks).

. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
REPORT=${CHASE_REPORT:-$ROOT/build/chase-report}
DATA=$ROOT/tests/report/data

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
