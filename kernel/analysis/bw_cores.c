// SPDX-License-Identifier: MIT
// The bw_cores experiment's report side: how bandwidth scales with processors, and the peak.
#include "analysis/judge.h"
#include "analysis/interpret.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"

/* The scaling rows: processors against total GB/s; the first and the last (most) into *one,
 *all and *n_all. Returns how many rows. */
static size_t scaling(const struct csv *t, struct verdict *v, double *one, double *all,
                      double *n_all, const char **kernel)
{
    int ct = csv_col(t, "table"), cn = csv_col(t, "processors"), cg = csv_col(t, "gbs_total");
    int ck = csv_col(t, "kernel");
    size_t rows = 0;
    *one = *all = *n_all = KM_NAN;
    for (size_t r = 0; r < t->nrows; r++) {
        double n = csv_num(t, r, cn), g = csv_num(t, r, cg);
        if (kstrcmp(csv_text(t, r, ct), "scaling") != 0 || !kisfinite(n) || !kisfinite(g))
            continue;
        if (rows++ == 0) {
            *one = g;
            *kernel = csv_text(t, r, ck);
            verdict_line(v, "| processors | GB/s | per processor | vs one |");
            verdict_line(v, "|---|---|---|---|");
        }
        verdict_line(v, "| %.0f | %.2f | %.2f | %.2fx |", n, g, g / n, g / *one);
        if (!(n < *n_all))
            *all = g, *n_all = n;
    }
    return rows;
}

/* The peak table's rows into v's data and lines. */
static void peak(const struct csv *t, struct verdict *v)
{
    int ct = csv_col(t, "table"), cg = csv_col(t, "gbs_total"), ck = csv_col(t, "kernel");
    struct verdict_data *d = &v->data;
    for (size_t r = 0; r < t->nrows && d->nbw_peaks < VERDICT_BW_PEAKS; r++) {
        double g = csv_num(t, r, cg);
        if (kstrcmp(csv_text(t, r, ct), "peak") != 0 || !kisfinite(g))
            continue;
        if (d->nbw_peaks == 0) {
            verdict_line(v, "| mix (reads:writes), all processors | GB/s |");
            verdict_line(v, "|---|---|");
        }
        struct verdict_bw_peak *p = &d->bw_peak[d->nbw_peaks++];
        kstrlcpy(p->mix, csv_text(t, r, ck), sizeof(p->mix));
        p->gbs = g;
        verdict_line(v, "| %s | %.2f |", p->mix, g);
    }
    d->fields |= VD_BW_PEAK;
}

static void judge_bw_cores(const struct an_judge *j, struct verdict *v)
{
    const struct csv *t = j->t;
    if (!t || t->nrows == 0)
        return; /* skipped: run.json says why */
    v->present = true;
    if (csv_col(t, "table") < 0 || csv_col(t, "processors") < 0 || csv_col(t, "gbs_total") < 0 ||
        csv_col(t, "kernel") < 0) {
        verdict_headline(v, "bw_cores.csv lacks table, processors, kernel or gbs_total");
        return;
    }
    double one, all, n_all;
    const char *kernel = "?";
    size_t rows = scaling(t, v, &one, &all, &n_all, &kernel);
    peak(t, v);
    if (rows == 0) {
        verdict_headline(v, "no scaling rows in bw_cores.csv");
        return;
    }
    verdict_item(v, "one_gbs", one);
    verdict_item(v, "all_gbs", all);
    char text[VERDICT_CHARS] = "";
    if (rows == 1)
        ksnprintf(text, sizeof(text), "%s on one processor (the only one): %.2f GB/s", kernel, one);
    else
        ksnprintf(text, sizeof(text), "%s: %.2f GB/s on one processor, %.2f on all %.0f (%.2fx)",
                  kernel, one, all, n_all, all / one);
    for (size_t i = 0; i < v->data.nbw_peaks; i++)
        judge_append(text, sizeof(text), "%s%s %.1f",
                     i ? ", " : "; peak GB/s: ", v->data.bw_peak[i].mix, v->data.bw_peak[i].gbs);
    verdict_headline(v, "%s", text);
}

const struct an_experiment analysis_bw_cores = {
    .name = "bw_cores",
    .plot = {.stem = "bw_cores",
             .x = "processors",
             .y = "gbs_total",
             .split = "kernel",
             .xlabel = "processors streaming at once",
             .ylabel = "GB/s, all processors (1e9 bytes moved per second)",
             .what = "bandwidth against processor count, and the all-processor peak mixes",
             .caption = "Total bytes moved per second by 1, 2, 4 ... all processors, each "
                        "streaming its own buffer (one line for the scaling kernel), and the "
                        "all-processor peak with read:write mixes (one point each)."},
    .judge = judge_bw_cores,
};
