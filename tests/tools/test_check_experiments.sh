#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check-experiments.sh catches an experiment named outside its own files, the two tables and
# the Makefile's EXPERIMENTS, a list that differs from the tables, and an item of a verdict
# named by a printer, on a small git tree made here: clean, then with each kind of stray.
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
printf 'static void judge(struct verdict *v) { verdict_bool(v, "alpha_true", 1, NULL); }\n' \
    >>"$tree/kernel/analysis/alpha.c"
cat >"$tree/kernel/analysis/table.c" <<'C'
extern const struct an_experiment analysis_alpha, analysis_beta;
static const struct an_experiment *const experiments[] = {
    &analysis_alpha, &analysis_beta,
};
C
makefile='EXPERIMENTS := alpha beta
KERNEL_SRCS := $(EXPERIMENTS:%=kernel/experiments/%.c) kernel/run/run.c'
echo "$makefile" >"$tree/Makefile"
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

echo "$makefile kernel/analysis/beta.c" >"$tree/Makefile"
check "an experiment's file in a build list fails" flags Makefile
echo "EXPERIMENTS := alpha" >"$tree/Makefile"
check "a Makefile list without an experiment of the tables fails" flags '< beta'
echo "$makefile" >"$tree/Makefile"

printf 'json_bool(j, "alpha_true", x);\n' >"$tree/tools/report/json.c"
check "a verdict's item named by a printer fails" flags 'tools/report/json.c: alpha_true'
rm "$tree/tools/report/json.c"
printf 'if (d->fields & VD_ALPHA) return;\n' >"$tree/kernel/analysis/interpret.c"
check "a verdict field per experiment fails" flags kernel/analysis/interpret.c
rm "$tree/kernel/analysis/interpret.c"
check "clean again once the stray names are gone" run_check
finish
