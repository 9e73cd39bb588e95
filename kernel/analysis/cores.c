// SPDX-License-Identifier: MIT
// The cores experiment's report side: each processor's latency at each size, side by side.
#include "analysis/interpret.h"
#include "analysis/judge.h"
#include "lib/kmath.h"

/* Processor cpu's ns_median at size (NaN when it has no such row). */
static double cores_at(const struct csv *t, double cpu, double size)
{
    int cc = csv_col(t, "cpu"), cs = csv_col(t, "size_bytes"), cn = csv_col(t, "ns_median");
    for (size_t i = 0; i < t->nrows; i++)
        if (csv_num(t, i, cc) == cpu && csv_num(t, i, cs) == size)
            return csv_num(t, i, cn);
    return KM_NAN;
}

/* One line per size: every processor's latency, and the largest relative spread. */
static double cores_table(struct verdict *v, const struct csv *t, const double *cpus, size_t nc,
                          const double *sizes, size_t ns, double *worst_size)
{
    double worst = 0;
    char row[VERDICT_CHARS], sz[32];
    row[0] = 0;
    judge_append(row, sizeof(row), "| size |");
    for (size_t c = 0; c < nc; c++)
        judge_append(row, sizeof(row), " cpu %.0f |", cpus[c]);
    verdict_line(v, "%s spread |", row);
    verdict_line(v, "|---|%s", "---|---|");
    for (size_t s = 0; s < ns; s++) {
        double lo = KM_INF, hi = 0;
        analysis_size(sz, sizeof(sz), sizes[s]);
        row[0] = 0;
        judge_append(row, sizeof(row), "| %s |", sz);
        for (size_t c = 0; c < nc; c++) {
            double x = cores_at(t, cpus[c], sizes[s]);
            judge_append(row, sizeof(row), " %.1f |", x);
            if (kisfinite(x)) {
                lo = kfmin(lo, x);
                hi = kfmax(hi, x);
            }
        }
        double spread = hi > 0 && lo > 0 ? hi / lo - 1 : 0;
        verdict_line(v, "%s %.0f%% |", row, spread * 100);
        if (spread > worst) {
            worst = spread;
            *worst_size = sizes[s];
        }
    }
    return worst;
}

static void judge_cores(const struct an_judge *j, struct verdict *v)
{
    const struct csv *t = j->t;
    if (!t || t->nrows == 0)
        return; /* skipped: run.json says why */
    v->present = true;
    int cc = csv_col(t, "cpu"), cs = csv_col(t, "size_bytes");
    if (cc < 0 || cs < 0 || csv_col(t, "ns_median") < 0) {
        verdict_headline(v, "cores.csv lacks cpu, size_bytes or ns_median");
        return;
    }
    double cpus[JUDGE_MAX_VALUES], sizes[JUDGE_MAX_VALUES], worst_size = KM_NAN;
    size_t nc = judge_values(t, cc, cpus, JUDGE_MAX_VALUES);
    size_t ns = judge_values(t, cs, sizes, JUDGE_MAX_VALUES);
    double worst = cores_table(v, t, cpus, nc, sizes, ns, &worst_size);
    char sz[32];
    analysis_size(sz, sizeof(sz), worst_size);
    verdict_item(v, "processors", (double)nc);
    verdict_item(v, "largest_spread", worst);
    verdict_headline(v,
                     "%zu processors measured; they differ most at %s (%.0f%% between the "
                     "fastest and the slowest)",
                     nc, sz, worst * 100);
}

const struct an_experiment analysis_cores = {
    .name = "cores",
    .plot = {.stem = "cores",
             .x = "size_bytes",
             .y = "ns_median",
             .group = "cpu",
             .label = AN_LABEL_GROUP_VALUE,
             .xlabel = "chain size",
             .ylabel = "ns per access",
             .x_size = true,
             .logy = true,
             .mark_cpuid = true,
             .what = "latency on each processor",
             .caption = "The random sweep run on each processor in turn, one curve per "
                        "processor: processors of another core type or cluster show other "
                        "levels."},
    .judge = judge_cores,
};
