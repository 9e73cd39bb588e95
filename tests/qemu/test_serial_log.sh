#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# serial_log=on: the serial port carries one CHASE-LOG line per finished point, parsed back
# here and matched cell by cell against the run's CSV files, plus the run, summary and end
# lines, all with one run id; serial_log=off (the default) writes none.
set -u
. "$(dirname "$0")/lib.sh"

quick=(--set profile=quick --set on_exit=shutdown --set experiments=random,linear
    --set random.max=64K --set linear.size=64K --set linear.max_stride=256)

# log_tuples SERIAL: "exp<TAB>row<TAB>key<TAB>value" for every point line's CSV fields
log_tuples() {
    grep -ao 'CHASE-LOG v=1 .*' "$1" | tr -d '\r' | awk '
        { line = $0; n = 0; delete k; delete v
          while (match(line, / [a-z_0-9]+=/)) {
              key = substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH)
              if (substr(line, 1, 1) == "\"") {
                  val = ""; i = 2
                  while (i <= length(line) && substr(line, i, 1) != "\"") {
                      c = substr(line, i, 1); if (c == "\\") { i++; c = substr(line, i, 1) }
                      val = val c; i++ }
                  line = substr(line, i + 1)
              } else { match(line, /^[^ ]*/); val = substr(line, 1, RLENGTH); line = substr(line, RLENGTH + 1) }
              k[++n] = key; v[key] = val }
          if (v["kind"] != "point") next
          for (i = 1; i <= n; i++)
              if (k[i] != "v" && k[i] != "kind" && k[i] != "run" && k[i] != "exp" && k[i] != "row")
                  printf "%s\t%s\t%s\t%s\n", v["exp"], v["row"], k[i], v[k[i]] }' | sort
}

# csv_tuples DIR EXP...: the same tuples from DIR/EXP.csv (no quoted cells in chase's CSVs)
csv_tuples() {
    local dir=$1 e
    shift
    for e in "$@"; do
        awk -F, -v ename="$e" 'NR == 1 { for (i = 1; i <= NF; i++) h[i] = $i; next }
            /^#/ || NF == 0 { next }
            { for (i = 1; i <= NF; i++) printf "%s\t%d\t%s\t%s\n", ename, r, h[i], $i; r++ }' \
            "$dir/$e.csv"
    done | sort
}

boot serial-on "${quick[@]}" --set serial_log=on
check "serial_log=on: a complete run" json_true "$RUN_DIR/run.json" \
    '.status=="complete" and .config.serial_log=="on"'
log_tuples "$SERIAL" >"$WORK/log.tsv"
csv_tuples "$RUN_DIR" random linear >"$WORK/csv.tsv"
rows=$(($(wc -l <"$RUN_DIR/random.csv") + $(wc -l <"$RUN_DIR/linear.csv") - 2))
check "serial log: one point line per CSV row ($rows rows)" test "$(grep -ac 'CHASE-LOG v=1 .* kind=point ' "$SERIAL")" = "$rows"
check "serial log: every CSV cell comes back from the point lines, and nothing else" \
    diff "$WORK/csv.tsv" "$WORK/log.tsv"
check "serial log: the point lines are not empty" test -s "$WORK/log.tsv"
ids=$(grep -ao 'CHASE-LOG v=1 run=[^ ]*' "$SERIAL" | sort -u | wc -l)
check "serial log: one run id on every line" test "$ids" = 1
check "serial log: a run line first, an end line with the point count last" sh -c \
    "grep -ao 'CHASE-LOG v=1 .*' '$SERIAL' | tr -d '\r' | head -n 1 | grep -q ' kind=run version=' &&
     grep -ao 'CHASE-LOG v=1 .*' '$SERIAL' | tr -d '\r' | tail -n 1 | grep -q ' kind=end status=complete points=$rows\$'"
check "serial log: summary items (the levels seen)" grep -aq 'CHASE-LOG v=1 .* kind=summary item=level n=1 size_bytes=' "$SERIAL"
check "serial log: the console names the run id" grep -q '^serial log: on, run id ' \
    "$RUN_DIR/console.txt"

boot serial-off "${quick[@]}"
check "serial_log off by default: no CHASE-LOG line" sh -c "! grep -aq 'CHASE-LOG' '$SERIAL'"
check "serial_log off: the run completes" json_true "$RUN_DIR/run.json" '.status=="complete"'
finish
