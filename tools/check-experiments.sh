#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# An experiment is two files, two rows and a word in the Makefile: outside tests/ and docs/, the
# only C sources and build files that name an experiment are its kernel file, its analysis
# (report) file, the two tables and the Makefile's EXPERIMENTS list, which must hold exactly
# the tables' names (both tables the same). The items of its verdict (verdict_number, _bool,
# _list, _table in its analysis file) are named nowhere else either: the printers know none.
# Item names built at run time are read too (from an array of names, or a ksnprintf pattern: its
# part before the first %), and so are the column names of its tables (struct vcolumn); a name
# the check cannot read fails. Identifiers its two files use that start with its name
# (<name>_*, <NAME>_*) appear in no other source either.
# Scripts that run chase with an experiment's keys (tools/bench*.sh) are its users. The same
# word used for something else is listed in ALLOWED with why.
set -u
cd "$(dirname "$0")/.."
failed=0
# file:name pairs where the word is not the experiment.
ALLOWED=(
    "tools/sim/sim_policy.c:random"       # the random replacement policy
    "kernel/experiments/random.c:offset"  # random's own key random.offset
    "kernel/chase/chain_points.c:linear"  # the linear chain shape (chain_build_linear)
    "kernel/chase/chain_points.h:linear"  # the same
    "tools/sim/sim_hier.c:tlb"            # the simulator's TLB model (tlb_params)
    "kernel/analysis/level_kind.c:tlb"    # the level kind "tlb" (a TLB reach step)
    # chase-sim's own truth (run.json's leader_sets) set beside offset's candidates in --json
    "tools/report/outputs/report_json.c:leader_offsets_bytes"
    # the run's detected levels, a top-level key of --json, beside bandwidth's verdict item
    "tools/report/outputs/report_json.c:levels"
    "kernel/analysis/bw_cores.c:processors" # bw_cores.csv's own column, beside cores's item
    "kernel/analysis/atomics.c:processors"  # atomics.csv's own column, as bw_cores.csv's
    # Words that name a column of a verdict's table and something else in a printer: the run's
    # detected levels (--json's levels, the console's levels table, the log), beside
    # bandwidth's levels table; every curve's TLB steps and pages, beside tlb's steps
    "tools/report/outputs/report_json.c:level" "tools/report/outputs/report_json.c:size_bytes"
    "tools/report/outputs/report_json.c:latency_ns" "kernel/analysis/summary_text.c:level"
    "kernel/run/summary.c:level" "tools/report/outputs/report_json.c:penalty_ns"
    "tools/report/outputs/report_json.c:page_bytes"
    "kernel/analysis/curves.c:page_bytes"   # the CSV column that splits a table into curves
    "kernel/analysis/verdict.h:level" "kernel/analysis/verdict.h:read_gbs" # its comment's example
    "kernel/chase/reps.c:tail"            # a repetition's disturbance "tail" (beside modes, drift)
    # the tail's statistics (log bins, percentiles, slow batches, stalls), below experiments/
    "kernel/point/tail_stats.c:tail" "kernel/point/tail_stats.h:tail"
)
allowed() {
    local a
    for a in "${ALLOWED[@]}"; do [ "$a" = "$1:$2" ] && return 0; done
    return 1
}
# items_of FILE: the names of the verdict's items an analysis file fills and of its tables'
# columns, one a line: "= name" (an item), "^ prefix" (items built at run time from a pattern),
# "| name" (a column), "? expression" (a name the check cannot read). Calls may span lines.
items_of() {
    local text call id fmt
    text=$(tr '\n' ' ' <"$1")
    echo "$text" | grep -oE 'verdict_(number|bool|list|table)\( *[a-z_>.-]+, *"[a-z0-9_]+"' |
        sed -E 's/.*"([a-z0-9_]+)"/= \1/'
    echo "$text" | grep -oE 'struct vcolumn +[a-z0-9_]+\[[^]]*\] *= *\{[^;]*;' |
        grep -oE '\{ *"[a-z0-9_]+"' | sed -E 's/.*"([a-z0-9_]+)"/| \1/'
    echo "$text" | grep -oE 'verdict_(number|bool|list|table)\( *[a-z_>.-]+, *[^", ][^,]*,' |
        while read -r call; do
            id=$(echo "$call" | sed -E 's/^[^,]*, *//; s/,$//')
            if echo "$id" | grep -qE '^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?$'; then
                id=${id%%[*}
                if echo "$text" | grep -qE "\\b$id\\[[^]]*\\] *= *\\{ *\""; then
                    echo "$text" | grep -oE "\\b$id\\[[^]]*\\] *= *\\{[^}]*\\}" |
                        grep -oE '"[a-z0-9_]+"' | tr -d '"' | sed 's/^/= /'
                    continue
                fi
                fmt=$(echo "$text" | grep -oE "ksnprintf\\( *$id *, *[^,]+, *\"[^\"]*\"" |
                    sed -E 's/.*"([^"]*)"$/\1/; s/%.*//' | sort -u)
                if [ -n "$fmt" ] && ! echo "$fmt" | grep -qvE '^[a-z0-9_]+$'; then
                    echo "$fmt" | sed 's/^/^ /'
                    continue
                fi
            fi
            echo "? $id"
        done
}
# ids_of NAME FILE...: identifiers the files use (outside strings, comments and member accesses)
# that start with the name $1 (lower case or capitals).
ids_of() {
    local n=$1 up
    shift
    up=$(echo "$n" | tr a-z A-Z)
    cat "$@" | sed -E 's://.*$::; s:/\*([^*]|\*+[^*/])*\*+/::g; s/"([^"\\]|\\.)*"//g' |
        grep -oE "(^|[^.>A-Za-z0-9_])($n|$up)_[A-Za-z0-9_]*[A-Za-z0-9]\b" |
        sed -E 's/^[^A-Za-z]//' | sort -u
}
# The names: the rows of experiment_table[] in kernel/experiments/table.c.
names=$(sed -n '/experiment_table\[\] = {/,/};/p' kernel/experiments/table.c |
    grep -oE '&experiment_[a-z0-9_]+' | sed 's/&experiment_//' | sort -u)
[ -n "$names" ] || { echo "not ok - no experiment found in kernel/experiments/table.c"; exit 1; }
# The other table's rows and the Makefile's list.
analysis_names=$(sed -n '/experiments\[\] = {/,/};/p' kernel/analysis/table.c |
    grep -oE '&analysis_[a-z0-9_]+' | sed 's/&analysis_//' | sort -u)
make_names=$(sed -n 's/^EXPERIMENTS *:= *//p' Makefile | tr ' ' '\n' | grep . | sort -u)
for pair in "kernel/analysis/table.c:$analysis_names" "the Makefile's EXPERIMENTS:$make_names"; do
    if [ "${pair#*:}" = "$names" ]; then
        echo "ok - ${pair%%:*} lists the experiments of kernel/experiments/table.c"
    else
        echo "not ok - ${pair%%:*} lists other experiments than kernel/experiments/table.c"
        diff <(echo "$names") <(echo "${pair#*:}") | grep -E '^[<>] .' | sed 's/^/#   /'
        failed=1
    fi
done
# sources outside tests/ and docs/ that the checks below read, less the files of experiment $1
others() {
    git ls-files -co --exclude-standard -- '*.c' '*.h' '*.S' '*.mk' Makefile |
        grep -vE '^(tests|docs)/' |
        grep -vxE "kernel/experiments/($1|table)\\.c|kernel/analysis/($1|table)\\.c"
}
for n in $names; do
    N=$(echo "$n" | tr a-z A-Z)
    # A string that is the name or a key or file of it, or an identifier built on it.
    # ... or its files in a build list (the Makefile's EXPERIMENTS line alone names it there).
    pat="\"$n(\\.[a-z_]*)?\"|\\b$n\\.(samples\\.)?csv\\b|\\b(experiment|analysis|verdict|plot|point)_$n\\b|\\b${n}_params\\b|\\bEXP_$N\\b|(->|\\.)$n\\.|\\b(experiments|analysis)/$n\\.c\\b"
    found=$(others "$n" | xargs -r grep -lE "$pat" 2>/dev/null |
        while read -r f; do allowed "$f" "$n" || echo "$f"; done)
    if [ -z "$found" ]; then
        echo "ok - experiment $n is named only by its own files and the tables"
    else
        echo "not ok - experiment $n is named outside its own files and the tables"
        echo "$found" | sed 's/^/#   /'
        failed=1
    fi
    # Identifiers of its own files built on its name, in another source.
    ids=$(ids_of "$n" "kernel/experiments/$n.c" "kernel/analysis/$n.c")
    found=""
    if [ -n "$ids" ]; then
        found=$(others "$n" | xargs -r grep -owE "$(echo $ids | tr ' ' '|')" 2>/dev/null |
            sort -u | while IFS=: read -r f id; do
                allowed "$f" "$n" || allowed "$f" "$id" || echo "$f: $id"
            done)
    fi
    if [ -z "$found" ]; then
        echo "ok - the identifiers of $n's files built on its name ($(echo $ids | wc -w)) are used only there"
    else
        echo "not ok - identifiers of $n's files built on its name are used in other sources"
        echo "$found" | sed 's/^/#   /'
        failed=1
    fi
    # Its verdict's items and its tables' columns, as strings in the interpretation and the
    # printers (the console summary, chase-report): those print every experiment's items alike.
    items=$(items_of "kernel/analysis/$n.c" | sort -u)
    unread=$(echo "$items" | sed -n 's/^? //p')
    if [ -n "$unread" ]; then
        echo "not ok - names of $n's verdict items that the check cannot read (a string, an array of strings or a ksnprintf pattern)"
        echo "$unread" | sed 's/^/#   /'
        failed=1
    fi
    found=""
    for it in $(echo "$items" | sed -nE 's/^([=^|]) /\1/p'); do
        # A column's name is a word CSVs share (size_bytes): only the printers may not name it.
        where='^(kernel/analysis|tools/report)/|^kernel/run/summary\.c$' except='^$'
        case $it in
        =*) it=${it#=} pat="\"$it\"" show=$it ;;
        ^*) it=${it#^} pat="\"$it" show="$it*" ;;
        *) it=${it#|} pat="\"$it\"" show="$it (a column)"
           where='^(kernel/analysis|tools/report/outputs)/|^kernel/run/summary\.c$'
           except="^kernel/analysis/($(echo $names | tr ' ' '|'))\\.c$" ;;
        esac
        f=$(others "$n" | grep -E "$where" | grep -vE "$except" |
            xargs -r grep -lE "$pat" 2>/dev/null |
            while read -r g; do allowed "$g" "$it" || echo "$g: $show"; done)
        found="$found${f:+$f
}"
    done
    if [ -z "$found" ]; then
        echo "ok - the items of $n's verdict and their columns ($(echo "$items" | grep -c '^[=^|]')) are named only by its analysis file"
    else
        echo "not ok - items of $n's verdict are named outside its analysis file"
        printf '%s' "$found" | sed 's/^/#   /'
        failed=1
    fi
done
# A verdict has no field per experiment (the struct verdict_data of old, its VD_* flags).
found=$(git ls-files -co --exclude-standard -- '*.c' '*.h' | grep -vE '^(tests|docs)/' |
    xargs -r grep -lE '\bVD_[A-Z]+\b|\bstruct verdict_data\b' 2>/dev/null)
if [ -z "$found" ]; then
    echo "ok - a verdict is a list of items: no field per experiment"
else
    echo "not ok - a verdict field per experiment (VD_*, struct verdict_data)"
    echo "$found" | sed 's/^/#   /'
    failed=1
fi
exit $failed
