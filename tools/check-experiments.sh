#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# An experiment is one file and one row: outside tests/ and docs/, the only C sources and build
# files that name an experiment are its kernel file, its analysis (report) file and the two
# tables. Scripts that run chase with an experiment's keys (tools/bench*.sh) are its users.
# The same word used for something else is listed in ALLOWED with why.
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
for n in $names; do
    N=$(echo "$n" | tr a-z A-Z)
    # A string that is the name or a key or file of it, or an identifier built on it.
    pat="\"$n(\\.[a-z_]*)?\"|\\b$n\\.(samples\\.)?csv\\b|\\b(experiment|analysis|verdict|plot|point)_$n\\b|\\b${n}_params\\b|\\bEXP_$N\\b|(->|\\.)$n\\."
    found=$(git ls-files -co --exclude-standard -- '*.c' '*.h' '*.S' '*.mk' Makefile |
        grep -vE '^(tests|docs)/' |
        grep -vxE "kernel/experiments/($n|table)\\.c|kernel/analysis/($n|table)\\.c" |
        xargs -r grep -lE "$pat" 2>/dev/null | while read -r f; do allowed "$f" "$n" || echo "$f"; done)
    if [ -z "$found" ]; then
        echo "ok - experiment $n is named only by its own files and the tables"
    else
        echo "not ok - experiment $n is named outside its own files and the tables"
        echo "$found" | sed 's/^/#   /'
        failed=1
    fi
done
exit $failed
