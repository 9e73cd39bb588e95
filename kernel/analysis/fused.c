// SPDX-License-Identifier: MIT
// The fused experiment's report side: how many interleaved streams the prefetchers track.
#include "analysis/judge.h"
#include "lib/kmath.h"
#include "lib/stats.h"

/* A streams count is tracked while bandwidth is within this fraction of its best. */
#define BANDWIDTH_NEAR_BEST 0.95

/* The streams count with the best bandwidth (the first within 5% of it) for one stride. */
static double tracked_streams(const struct csv *t, double stride, double *best_gib)
{
    int cst = csv_col(t, "stride_bytes"), ck = csv_col(t, "streams");
    int cg = csv_col(t, "gib_per_s");
    double best = 0, k_best = KM_NAN;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < t->nrows; i++) {
            double k = csv_num(t, i, ck), g = csv_num(t, i, cg);
            if (csv_num(t, i, cst) != stride || !kisfinite(k) || !kisfinite(g))
                continue;
            if (pass == 0)
                best = kfmax(best, g);
            else if (g >= BANDWIDTH_NEAR_BEST * best && !(k >= k_best))
                k_best = k;
        }
    *best_gib = best;
    return k_best;
}

static void judge_fused(const struct an_judge *j, struct verdict *v)
{
    const struct csv *t = j->t;
    if (!t)
        return;
    v->present = true;
    if (csv_col(t, "streams") < 0 || csv_col(t, "gib_per_s") < 0 ||
        csv_col(t, "stride_bytes") < 0) {
        verdict_headline(v, "fused.csv lacks streams, stride_bytes or gib_per_s");
        return;
    }
    double strides[JUDGE_MAX_VALUES], counts[JUDGE_MAX_VALUES];
    size_t n = judge_values(t, csv_col(t, "stride_bytes"), strides, JUDGE_MAX_VALUES), k = 0;
    verdict_line(v, "| stride (bytes) | streams at best bandwidth | best GiB/s |");
    verdict_line(v, "|---|---|---|");
    for (size_t i = 0; i < n; i++) {
        double gib, tracked = tracked_streams(t, strides[i], &gib);
        if (!kisfinite(tracked))
            continue;
        counts[k++] = tracked;
        verdict_line(v, "| %.0f | %.0f | %.2f |", strides[i], tracked, gib);
    }
    if (k == 0) {
        verdict_headline(v, "no usable rows in fused.csv");
        return;
    }
    /* The median over strides: a few strides the prefetchers ignore should not decide it. */
    double median = stats_median(counts, k);
    verdict_number(v, "streams_median", median, "streams",
                   "the median over strides of the streams at the best bandwidth");
    verdict_number(v, "streams_tracked", kfloor(median + 0.5), "streams",
                   "interleaved streams the prefetchers track, rounded");
    verdict_headline(v,
                     "the prefetchers track about %.0f interleaved streams: bandwidth stops "
                     "growing beyond that many (median over %zu strides)",
                     median, k);
}

const struct an_experiment analysis_fused = {
    .name = "fused",
    .plot = {.stem = "fused",
             .x = "stride_bytes",
             .y = "gib_per_s",
             .group = "streams",
             .label = AN_LABEL_STREAMS,
             .xlabel = "stride (bytes, log2 scale)",
             .ylabel = "aggregate GiB/s",
             .x_size = true,
             .what = "fused linear chases: bandwidth against stride",
             .caption = "Bandwidth of 1..n interleaved constant-stride chains, one curve per "
                        "count: bandwidth grows with the count while the prefetchers track "
                        "every stream."},
    .judge = judge_fused,
};
