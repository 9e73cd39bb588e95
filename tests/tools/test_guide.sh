#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# docs/adding-an-experiment.md followed word for word: its blocks marked with a file are applied
# to a copy of the working tree, which then builds chase-host and runs the new experiment, lists
# it in help, passes check-experiments.sh, and passes the tests that count the experiments (one
# more now) with none of them edited.
set -u
. "$(dirname "$0")/../lib.sh"

GUIDE=$ROOT/docs/adding-an-experiment.md
GUIDE_NAME=example # the name the guide's steps use: "put your name where it says example"
tree=$(fresh_dir guide-tree)
blocks=$(fresh_dir guide-blocks)

# The working tree as it is (tracked and untracked files, not the ignored ones), in a new git
# repository so that the scripts reading `git ls-files` see it whole.
(cd "$ROOT" && git ls-files -co --exclude-standard -z |
    while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
    tar --null -T - -cf -) | tar -xf - -C "$tree"
git -C "$tree" init -q .

# The guide's blocks with a file=PATH: blocks/N holds block N's text (less the fence's indent),
# the manifest one line per block: N, path, after, before, append (tab-separated; "" if unset).
attr() { # attr NAME INFO: the value of NAME="..." (or NAME=word for file) in a fence's info
    awk -v n="$1" -v s="$2" 'BEGIN {
        if (match(s, n "=\"[^\"]*\"")) print substr(s, RSTART + length(n) + 2, RLENGTH - length(n) - 3)
        else if (match(s, n "=[^ \"]+")) print substr(s, RSTART + length(n) + 1, RLENGTH - length(n) - 1) }'
}
awk -v dir="$blocks" '
    !inb && /^[ \t]*```[a-z]* file=/ { inb = 1; n++; ind = match($0, /[^ \t]/) - 1
        info = $0; sub(/^[ \t]*```/, "", info); print n "\t" info; next }
    inb && /^[ \t]*```[ \t]*$/ { inb = 0; close(dir "/" n); next }
    inb { line = $0; for (i = 0; i < ind && substr(line, 1, 1) == " "; i++) line = substr(line, 2)
          print line > (dir "/" n) }' "$GUIDE" >"$blocks/infos"
check "the guide marks its files and lines to add (two files, four lines, one word)" \
    test "$(wc -l <"$blocks/infos")" = 7
# The name: the guide's, or, in a tree where someone followed the guide under that very name, a
# name of the test's own put where the guide says example (as a user puts theirs).
NAME=$GUIDE_NAME
if [ -e "$tree/kernel/experiments/$NAME.c" ]; then
    NAME=${GUIDE_NAME}_guide
    for f in "$blocks"/*; do sed -i "s/$GUIDE_NAME/$NAME/g" "$f"; done
fi

# apply FILE AFTER BEFORE APPEND TEXTFILE: the text goes after the line starting with AFTER
# (then before the next line starting with BEFORE), before the line starting with BEFORE, or at
# the end of the line starting with APPEND (leading blanks of the file's lines ignored); with
# none of them it is the whole new file. Fails when a line is not found or the file is missing.
apply() {
    local file=$tree/$1
    if [ -z "$2$3$4" ]; then
        [ ! -e "$file" ] && mkdir -p "$(dirname "$file")" && cp "$5" "$file"
        return
    fi
    [ -f "$file" ] || return 1
    awk -v after="$2" -v before="$3" -v append="$4" -v text="$5" '
        function starts(l, p) { sub(/^[ \t]+/, "", l); return p != "" && index(l, p) == 1 }
        BEGIN { while ((getline l < text) > 0) body = body l "\n"; look = after == "" }
        done { print; next }
        !look { print; if (starts($0, after)) { if (before == "" && append == "") {
                    printf "%s", body; done = 1 } else look = 1 }; next }
        before != "" && starts($0, before) { printf "%s", body; print; done = 1; next }
        append != "" && starts($0, append) { sub(/\n$/, "", body); print $0 " " body
                                             done = 1; next }
        { print }
        END { exit !done }' "$file" >"$file.guide" && mv "$file.guide" "$file"
}
applied=0 changed=()
while IFS=$'\t' read -r n info; do
    path=$(attr file "$info")
    if apply "$path" "$(attr after "$info")" "$(attr before "$info")" "$(attr append "$info")" \
        "$blocks/$n"; then
        applied=$((applied + 1))
        changed+=("$path")
    else
        echo "# block $n ($info) could not be applied"
    fi
done <"$blocks/infos"
check "every step of the guide applies to the tree ($applied of 7)" test "$applied" = 7
mapfile -t cfiles < <(printf '%s\n' "${changed[@]}" | grep '\.c$' | sort -u)

# make format on the files the guide touched: the new files must come as they are laid out,
# the tables laid out again (as the guide says).
cf=$(command -v clang-format-14 || command -v clang-format)
check "the guide's new files are laid out as .clang-format says" \
    "$cf" --dry-run -Werror "$tree/kernel/experiments/$NAME.c" "$tree/kernel/analysis/$NAME.c"
(cd "$tree" && "$cf" -i "${cfiles[@]}")

# The copy's own make, not a part of the make that runs this test.
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$tree" -j2 build/chase-host \
    build/tests/config/test_config_errors >"$TEST_TMP/guide-build.log" 2>&1
# The top Makefile includes every build/**/*.d: the copy's must not rule the real tree's build.
find "$tree/build" -name '*.d' -delete 2>/dev/null
check "the tree with the guide's experiment builds chase-host and the configuration test" \
    test -x "$tree/build/chase-host" -a -x "$tree/build/tests/config/test_config_errors"

host=$tree/build/chase-host
"$host" --help >"$TEST_TMP/guide-help.log" 2>&1
check "help lists the new experiment and its keys" sh -c "
    grep -q '^$NAME: ' '$TEST_TMP/guide-help.log' && grep -q '^  $NAME\\.min ' '$TEST_TMP/guide-help.log'"
out=$(fresh_dir guide-runs)
"$host" --out "$out" experiments=$NAME profile=quick >"$TEST_TMP/guide-run.log" 2>&1
check "chase-host runs experiments=$NAME profile=quick and exits 0" test "$?" = 0
dir=$out/0001
check "run.json: complete, $NAME ok" \
    json_true "$dir/run.json" ".status==\"complete\" and .experiments==({\"$NAME\": \"ok\"})"
check "$NAME.csv: the header and a row per size, each with a latency" sh -c "
    $(declare -f csv_has_columns csv_rows csv_positive) &&
    csv_has_columns '$dir/$NAME.csv' size_bytes slots ns_median && test \$(csv_rows '$dir/$NAME.csv') -ge 2 &&
    csv_positive '$dir/$NAME.csv' size_bytes ns_median && test -s '$dir/$NAME.samples.csv'"
check "the console summary gives its verdict's headline" grep -q "^$NAME: .* ns at " \
    "$dir/console.txt"

# What counts or lists the experiments reads the table: these pass with one more, unedited.
"$tree/tools/check-experiments.sh" >"$TEST_TMP/guide-check-experiments.log" 2>&1
check "check-experiments.sh passes with the new experiment" test "$?" = 0
# The layers and sizes: the new files break no rule (what the tree breaks already is its own
# test's business).
for s in check-layers check-sizes; do
    "$ROOT/tools/$s.sh" 2>&1 | grep -v '^ok' >"$TEST_TMP/guide-$s.before"
    "$tree/tools/$s.sh" 2>&1 | grep -v '^ok' >"$TEST_TMP/guide-$s.log"
    check "$s.sh finds nothing more with the new experiment" \
        diff "$TEST_TMP/guide-$s.before" "$TEST_TMP/guide-$s.log"
done
check "check-experiments.sh checked the new experiment" \
    grep -q "^ok - experiment $NAME is named only" "$TEST_TMP/guide-check-experiments.log"
"$tree/build/tests/config/test_config_errors" >"$TEST_TMP/guide-config-errors.log" 2>&1
check "the configuration error tests pass with the new experiment" sh -c "test $? = 0 &&
    grep -q 'PASSED' '$TEST_TMP/guide-config-errors.log'"
env -u TEST_TMP bash "$tree/tests/host/test_quick.sh" >"$TEST_TMP/guide-quick.log" 2>&1
check "tests/host/test_quick.sh passes with the new experiment" sh -c "test $? = 0 &&
    grep -q '^ok' '$TEST_TMP/guide-quick.log' && ! grep -q '^not ok' '$TEST_TMP/guide-quick.log'"
check "test_quick.sh ran the new experiment" \
    test -s "$tree/build/test-tmp/host/test_quick/host-quick/0001/$NAME.csv"

# One experiment more in the tables than the Makefile's EXPERIMENTS list names (the guide's rows
# once more, under another name) overflows the room the list gives: the build stops, naming it.
count=$(make -C "$tree" -s -p -n 2>/dev/null | sed -n 's/^EXPERIMENTS := //p' | head -n 1 | wc -w)
while IFS=$'\t' read -r n info; do
    case $(attr file "$info") in */table.c) ;; *) continue ;; esac
    sed "s/\b$NAME\b/${NAME}_more/; s/_$NAME\b/_${NAME}_more/" "$blocks/$n" >"$blocks/$n.more"
    apply "$(attr file "$info")" "$(attr after "$info")" "$(attr before "$info")" "" "$blocks/$n.more"
done <"$blocks/infos"
for t in "experiments/table.c:EXPERIMENTS_MAX: name the new one in the Makefile EXPERIMENTS list" \
    "analysis/table.c:AN_EXP_MAX: name the new one in the Makefile EXPERIMENTS list"; do
    (cd "$tree" && gcc -std=gnu11 -Ikernel -DCHASE_EXPERIMENTS="$count" -fsyntax-only \
        "kernel/${t%%:*}") >"$TEST_TMP/guide-17.log" 2>&1
    check "an experiment beyond the Makefile's $count stops the build of kernel/${t%%:*}, saying: ${t#*:}" sh -c "
        test $? != 0 && grep -q '${t#*:}' '$TEST_TMP/guide-17.log' &&
        test \$(grep -c '${NAME}_more' '$tree/kernel/${t%%:*}') = 2"
done
finish
