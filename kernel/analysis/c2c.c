// SPDX-License-Identifier: MIT
// The c2c experiment's report side: the groups core-to-core latency reveals.
#include "analysis/interpret.h"
#include "analysis/judge.h"
#include "lib/kmath.h"
#include "lib/kstring.h"

/* The groups c2c.c writes, nearest first. */
static const char *const c2c_groups[] = {"same_core", "shared_l2", "shared_l3", "same_package",
                                         "other_package"};
#define C2C_GROUPS (sizeof(c2c_groups) / sizeof(c2c_groups[0]))

/* Median one-way ns of the pairs of group g; how many pairs in *n (NaN when none). */
static double group_median(const struct csv *t, const char *g, size_t *n, double *lo, double *hi)
{
    int cg = csv_col(t, "group"), cn = csv_col(t, "ns_median");
    double v[JUDGE_MAX_VALUES];
    size_t k = 0;
    *lo = KM_INF;
    *hi = -KM_INF;
    for (size_t i = 0; i < t->nrows && k < JUDGE_MAX_VALUES; i++) {
        const char *s = csv_text(t, i, cg);
        double x = csv_num(t, i, cn);
        if (s && kstrcmp(s, g) == 0 && kisfinite(x)) {
            v[k++] = x;
            *lo = kfmin(*lo, x);
            *hi = kfmax(*hi, x);
        }
    }
    *n = k;
    return k ? judge_median(v, k) : KM_NAN;
}

static void judge_c2c(const struct an_judge *j, struct verdict *v)
{
    const struct csv *t = j->t;
    if (!t || t->nrows == 0)
        return; /* skipped: run.json says why */
    v->present = true;
    if (csv_col(t, "group") < 0 || csv_col(t, "ns_median") < 0) {
        verdict_headline(v, "c2c.csv lacks the group or ns_median column");
        return;
    }
    char head[VERDICT_CHARS] = "";
    verdict_line(v, "| group | pairs | one-way ns (median) | min | max |");
    verdict_line(v, "|---|---|---|---|---|");
    for (size_t g = 0; g < C2C_GROUPS; g++) {
        size_t n;
        double lo, hi, m = group_median(t, c2c_groups[g], &n, &lo, &hi);
        if (!n)
            continue;
        verdict_line(v, "| %s | %zu | %.1f | %.1f | %.1f |", c2c_groups[g], n, m, lo, hi);
        verdict_item(v, c2c_groups[g], m);
        judge_append(head, sizeof(head), "%s%s %.0f ns (%zu pairs)", head[0] ? ", " : "",
                     c2c_groups[g], m, n);
    }
    if (!head[0])
        verdict_headline(v, "core-to-core: no pair came back");
    else
        verdict_headline(v, "core-to-core one-way latency by group: %s", head);
}

const struct an_experiment analysis_c2c = {
    .name = "c2c",
    .plot = {.stem = "c2c",
             .x = "cpu_a",
             .y = "cpu_b",
             .z = "ns_median",
             .xlabel = "answering processor",
             .ylabel = "timing processor",
             .zlabel = "one-way ns (median)",
             .what = "core-to-core latency",
             .caption = "One-way latency of handing a cache line between two processors (half a "
                        "round trip timed on the timing processor), every ordered pair: blocks "
                        "of one colour are processors that share a core, cache or package."},
    .judge = judge_c2c,
};
