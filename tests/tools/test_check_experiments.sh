#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# check-experiments.sh catches an experiment named outside its own files, the two tables and
# the Makefile's EXPERIMENTS, a list that differs from the tables, an item of a verdict (its name
# written, taken from an array or built by a pattern) or a column of its tables named by a
# printer, and an identifier built on an experiment's name used outside its files, on a small
# git tree made here: clean, then with each kind of stray.
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
# Names built at run time, the columns of a verdict's tables and identifiers built on the name.
alpha_an=$(cat "$tree/kernel/analysis/alpha.c")
cat >>"$tree/kernel/analysis/alpha.c" <<'C'
static const char *const groups[] = {"near_ns", "far_ns"};
static void judge_groups(struct verdict *v, int g) { verdict_number(v, groups[g], 1, "ns", NULL); }
static void judge_pages(struct verdict *v, const char *pg)
{
    char key[48];
    ksnprintf(key, sizeof(key), "penalty_ns_%s", pg);
    verdict_number(v, key, 1, "ns", "per page size");
}
static const struct vcolumn cols[] = {{"reach_bytes", "bytes", false}, {"ways", "", false}};
static void judge_steps(struct verdict *v) { verdict_table(v, "steps", "", cols, 2); }
C
printf 'int cr = csv_col(t, "reach_bytes"); /* beta.csv has the column too */\n' \
    >>"$tree/kernel/analysis/beta.c"
check "names built at run time and columns of the printers' own, and the same column read by another experiment, pass" \
    run_check
printf 'json_double(j, "far_ns", x);\n' >"$tree/tools/report/json.c"
check "an item named from an array of names (c2c's groups) and named by a printer fails" \
    flags 'tools/report/json.c: far_ns'
printf 'json_double(j, "penalty_ns_4K", x);\n' >"$tree/tools/report/json.c"
check "an item named by a ksnprintf pattern (tlb's penalty_ns_<page>) and named by a printer fails" \
    flags 'tools/report/json.c: penalty_ns_\*'
rm "$tree/tools/report/json.c"
printf 'json_double(j, "reach_bytes", r);\n' >"$tree/kernel/run/summary.c"
check "a column of a verdict's table named by a printer fails" \
    flags 'kernel/run/summary.c: reach_bytes (a column)'
rm "$tree/kernel/run/summary.c"
printf 'static void f(struct verdict *v) { verdict_bool(v, item_name(3), 1, NULL); }\n' \
    >>"$tree/kernel/analysis/alpha.c"
check "an item name the check cannot read fails, naming it" flags 'item_name(3)'
echo "$alpha_an" >"$tree/kernel/analysis/alpha.c"
printf 'static void alpha_sweep(void) { n = ALPHA_POINTS_MAX; }\n' >>"$tree/kernel/experiments/alpha.c"
printf 'static int n; /* an alphabet, a beta version */\nvoid f(void) { alpha_sweep(); }\n' \
    >"$tree/kernel/run/run.c"
check "an identifier of an experiment's file built on its name, used in another source, fails" \
    flags 'kernel/run/run.c: alpha_sweep'
printf 'static int n; /* an alphabet, a beta version */\nint m = ALPHA_POINTS_MAX;\n' \
    >"$tree/kernel/run/run.c"
check "... in capitals too" flags 'kernel/run/run.c: ALPHA_POINTS_MAX'
printf 'static int n; /* an alphabet, a beta version */\n' >"$tree/kernel/run/run.c"
printf 'const struct experiment experiment_alpha = {.cfg = {.name = "alpha"}};\n' \
    >"$tree/kernel/experiments/alpha.c"
# A field of a shared struct that the experiment reads (bandwidth's m->bandwidth_bytes_per_s of
# SMBIOS) is not its own.
mkdir -p "$tree/kernel/machine"
printf 'struct machine { unsigned long alpha_bytes; };\n' >"$tree/kernel/machine/machine.h"
printf 'static unsigned long f(const struct machine *m) { return m->alpha_bytes; }\n' \
    >>"$tree/kernel/experiments/alpha.c"
check "a shared struct's field the experiment reads, named like it, passes" run_check
rm "$tree/kernel/machine/machine.h"
printf 'const struct experiment experiment_alpha = {.cfg = {.name = "alpha"}};\n' \
    >"$tree/kernel/experiments/alpha.c"

printf 'if (d->fields & VD_ALPHA) return;\n' >"$tree/kernel/analysis/interpret.c"
check "a verdict field per experiment fails" flags kernel/analysis/interpret.c
rm "$tree/kernel/analysis/interpret.c"
check "clean again once the stray names are gone" run_check
finish
