// SPDX-License-Identifier: MIT
// The bw_cores experiment's report side: how bandwidth scales with processors, and the peak.
#include "analysis/judge.h"
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

/* The peak table: one record a read:write mix (verdicts.bw_cores.peak in --json). */
static const struct vcolumn peak_columns[] = {{"mix", "", true}, {"gbs", "GB/s", false}};

/* The peak table's rows into v's table and lines, and the headline's text; the rows' count. */
static size_t peak(const struct csv *t, struct verdict *v, char *text, size_t cap)
{
    int ct = csv_col(t, "table"), cg = csv_col(t, "gbs_total"), ck = csv_col(t, "kernel");
    int tab =
        verdict_table(v, "peak", "all processors together, per read:write mix", peak_columns, 2);
    size_t n = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        double g = csv_num(t, r, cg);
        if (kstrcmp(csv_text(t, r, ct), "peak") != 0 || !kisfinite(g))
            continue;
        if (n++ == 0) {
            verdict_line(v, "| mix (reads:writes), all processors | GB/s |");
            verdict_line(v, "|---|---|");
        }
        struct vcell *row = verdict_row(v, tab);
        if (row) {
            vcell_text(&row[0], csv_text(t, r, ck));
            row[1].num = g;
        }
        verdict_line(v, "| %s | %.2f |", csv_text(t, r, ck), g);
        judge_append(text, cap, "%s%s %.1f", n > 1 ? ", " : "; peak GB/s: ", csv_text(t, r, ck), g);
    }
    return n;
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
    char text[VERDICT_CHARS] = "", peaks[VERDICT_CHARS] = "";
    peak(t, v, peaks, sizeof(peaks));
    if (rows == 0) {
        verdict_headline(v, "no scaling rows in bw_cores.csv");
        return;
    }
    verdict_number(v, "one_gbs", one, "GB/s", "the scaling kernel on one processor");
    verdict_number(v, "all_gbs", all, "GB/s", "the scaling kernel on every processor together");
    if (rows == 1)
        ksnprintf(text, sizeof(text), "%s on one processor (the only one): %.2f GB/s", kernel, one);
    else
        ksnprintf(text, sizeof(text), "%s: %.2f GB/s on one processor, %.2f on all %.0f (%.2fx)",
                  kernel, one, all, n_all, all / one);
    verdict_headline(v, "%s%s", text, peaks);
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
    .also = {.stem = "bw_cores_peak",
             .bar = "kernel",
             .y = "gbs_total",
             .where = "table",
             .equals = "peak",
             .xlabel = "read:write mix, every processor at once",
             .ylabel = "GB/s, all processors (1e9 bytes moved per second)",
             .what = "all-processor peak bandwidth per read:write mix",
             .caption = "MLC's peak injection table: every processor streaming its own buffer "
                        "with each read:write mix (all-read, 3:1, 2:1, 1:1, and 1:1 with "
                        "non-temporal stores), bytes read plus bytes written per second."},
    .judge = judge_bw_cores,
};
