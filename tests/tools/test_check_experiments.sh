#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check-experiments.sh catches an experiment named outside its own files and the two tables,
# on a small git tree made here: clean, then with each kind of stray mention.
set -u
. "$(dirname "$0")/../lib.sh"

tree=$(fresh_dir experiments-tree)
mkdir -p "$tree/tools" "$tree/kernel/experiments" "$tree/kernel/analysis" "$tree/kernel/run" \
    "$tree/tools/report" "$tree/docs" "$tree/tests"
cp "$ROOT/tools/check-experiments.sh" "$tree/tools/"
cat >"$tree/kernel/experiments/table.c" <<'C'
extern const struct experiment experiment_alpha, experiment_beta;
const struct experiment *const experiment_table[] = {
    &experiment_alpha, &experiment_beta,
};
const struct cfg_table experiment_cfg_table = {0};
C
for n in alpha beta; do
    printf 'const struct experiment experiment_%s = {.cfg = {.name = "%s"}};\n' $n $n \
        >"$tree/kernel/experiments/$n.c"
    printf 'const struct an_experiment analysis_%s = {.name = "%s"};\n' $n $n \
        >"$tree/kernel/analysis/$n.c"
done
printf 'extern const struct an_experiment analysis_alpha, analysis_beta;\n' \
    >"$tree/kernel/analysis/table.c"
printf 'See "alpha" in `alpha.csv`.\n' >"$tree/docs/alpha.md"
printf 'grep alpha.csv run/0001\n' >"$tree/tests/test_alpha.sh"
printf 'static int n; /* an alphabet, a beta version */\n' >"$tree/kernel/run/run.c"
git -C "$tree" init -q . && git -C "$tree" add -A

run_check() { "$tree/tools/check-experiments.sh" >"$TEST_TMP/experiments.out" 2>&1; }
flags() { ! run_check && grep -q "^#   $1\$" "$TEST_TMP/experiments.out"; }

check "a tree where only the own files and the tables name an experiment passes" run_check
check "each experiment of the table is checked" \
    sh -c "grep -c '^ok - experiment' '$TEST_TMP/experiments.out' | grep -qx 2"

printf 'save_file(s, "alpha.csv", &csv);\n' >>"$tree/kernel/run/run.c"
check "a file name of an experiment in another source fails, naming the file" \
    flags kernel/run/run.c
printf 'static int n; /* an alphabet, a beta version */\n' >"$tree/kernel/run/run.c"

printf 'extern const struct experiment experiment_beta;\n' >"$tree/tools/report/plot.c"
check "the experiment's row named in the report fails" flags tools/report/plot.c
rm "$tree/tools/report/plot.c"

printf 'struct beta_params p;\n' >"$tree/kernel/experiments/alpha.c"
check "one experiment's parameters named in another experiment's file fail" \
    flags kernel/experiments/alpha.c
printf 'const struct experiment experiment_alpha = {.cfg = {.name = "alpha"}};\n' \
    >"$tree/kernel/experiments/alpha.c"

printf 'if (strcmp(name, "beta") == 0) return;\n' >"$tree/kernel/run/summary.c"
check "a new, untracked file naming an experiment is checked too" flags kernel/run/summary.c
rm "$tree/kernel/run/summary.c"
check "clean again once the stray names are gone" run_check
finish
