#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# An experiment is two files, two rows and a word in the Makefile: outside tests/ and docs/, the
# only C sources and build files that name an experiment are its kernel file, its analysis
# (report) file, the two tables and the Makefile's EXPERIMENTS list, which must hold exactly
# the tables' names (both tables the same). The items of its verdict (verdict_number, _bool,
# _list, _table in its analysis file) are named nowhere else either: the printers know none.
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
)
allowed() {
    local a
    for a in "${ALLOWED[@]}"; do [ "$a" = "$1:$2" ] && return 0; done
    return 1
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
    # Its verdict's items, as strings in the interpretation and the printers (the console
    # summary, chase-report): those print every experiment's items alike.
    items=$(grep -oE 'verdict_(number|bool|list|table)\([a-z_]+, *"[a-z0-9_]+"' \
        "kernel/analysis/$n.c" | sed -E 's/.*"([a-z0-9_]+)"/\1/' | sort -u)
    found=""
    for it in $items; do
        f=$(others "$n" | grep -E '^(kernel/analysis|tools/report)/|^kernel/run/summary\.c$' |
            xargs -r grep -lE "\"$it\"" 2>/dev/null |
            while read -r g; do allowed "$g" "$it" || echo "$g: $it"; done)
        found="$found${f:+$f
}"
    done
    if [ -z "$found" ]; then
        echo "ok - the items of $n's verdict ($(echo $items | wc -w)) are named only by its analysis file"
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
