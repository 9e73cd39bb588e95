// SPDX-License-Identifier: MIT
// The linear experiment's report side: which constant strides the prefetchers follow; its plot.
#include "analysis/judge.h"
#include "lib/fmt.h"
#include "lib/kmath.h"

/* Below these fractions of the unprefetched latency a stride counts as (partly) prefetched. */
#define PREFETCHED 0.5
#define PARTLY 0.8

static const char *prefetch_word(double ratio)
{
    return ratio < PREFETCHED ? "prefetched"
           : ratio < PARTLY   ? "partly prefetched"
                              : "not prefetched";
}

/* The unprefetched latency at a buffer size: the random chase's, else the slowest stride's.
 * *from_random says which. */
static double reference_ns(const struct an_judge *j, double size, bool *from_random)
{
    const struct csv *t = j->t;
    int cs = csv_col(t, "size_bytes"), cn = csv_col(t, "ns_median");
    double ref = judge_random_at(j, size), worst = 0;
    for (size_t i = 0; i < t->nrows; i++)
        if (csv_num(t, i, cs) == size || cs < 0)
            worst = kfmax(worst, csv_num(t, i, cn));
    *from_random = kisfinite(ref);
    return *from_random ? ref : worst;
}

/* One buffer size: ranges of strides with the same verdict. Returns whether the reference
 * came from the random chase. */
static bool linear_size(const struct an_judge *j, struct verdict *v, double size, double best[2])
{
    const struct csv *t = j->t;
    int cs = csv_col(t, "size_bytes"), cst = csv_col(t, "stride_bytes");
    int cn = csv_col(t, "ns_median");
    bool from_random;
    double ref = reference_ns(j, size, &from_random), first = 0, last = 0;
    double line = j->in->line_bytes;
    char sz[32];
    fmt_size(sz, sizeof(sz), size);
    const char *prev = NULL;
    for (size_t i = 0; i <= t->nrows; i++) {
        bool row = i < t->nrows;
        double st = row ? csv_num(t, i, cst) : KM_NAN, ns = row ? csv_num(t, i, cn) : KM_NAN;
        bool mine = row && (cs < 0 || csv_num(t, i, cs) == size) && kisfinite(st) && kisfinite(ns);
        if (row && !mine)
            continue;
        const char *w = mine ? prefetch_word(ns / ref) : NULL;
        if (prev && (w != prev || !mine)) {
            verdict_line(v, "| %s | %.0f-%.0f | %s%s |", sz, first, last, prev,
                         last < line ? " (several loads per line)" : "");
            prev = NULL;
        }
        if (!mine)
            continue;
        if (!prev) {
            prev = w;
            first = st;
        }
        last = st;
        if (st >= line && ns / ref < PREFETCHED)
            best[0] = kfmax(best[0], st);
        if (st >= line && ns / ref < PARTLY)
            best[1] = kfmax(best[1], st);
    }
    return from_random;
}

static void linear_headline(const struct an_judge *j, struct verdict *v, const double best[2],
                            const char *basis)
{
    double widest = 0;
    for (size_t i = 0; i < j->t->nrows; i++)
        widest = kfmax(widest, csv_num(j->t, i, csv_col(j->t, "stride_bytes")));
    if (best[0] > 0 && best[0] >= widest)
        verdict_headline(v, "every stride tried, up to %.0f bytes, is prefetched (%.100s)", widest,
                         basis);
    else if (best[1] > best[0])
        verdict_headline(v,
                         "constant strides up to %.0f bytes are prefetched, up to %.0f "
                         "partly (%.100s)",
                         best[0], best[1], basis);
    else if (best[0] > 0)
        verdict_headline(v, "constant strides up to %.0f bytes are prefetched (%.100s)", best[0],
                         basis);
    else
        verdict_headline(v, "no stride of a line or more is prefetched (%.100s)", basis);
}

static void judge_linear(const struct an_judge *j, struct verdict *v)
{
    const struct csv *t = j->t;
    if (!t)
        return;
    v->present = true;
    if (csv_col(t, "stride_bytes") < 0 || csv_col(t, "ns_median") < 0) {
        verdict_headline(v, "linear.csv lacks stride_bytes or ns_median");
        return;
    }
    double sizes[JUDGE_MAX_VALUES], best[2] = {0, 0}; /* largest stride prefetched, partly */
    size_t ns = judge_values(t, csv_col(t, "size_bytes"), sizes, JUDGE_MAX_VALUES);
    verdict_line(v, "| buffer | strides (bytes) | verdict |");
    verdict_line(v, "|---|---|---|");
    bool from_random = true;
    for (size_t i = 0; i < (ns ? ns : 1); i++)
        from_random &= linear_size(j, v, ns ? sizes[i] : KM_NAN, best);
    verdict_number(v, "prefetched_max_stride_bytes", best[0], "bytes",
                   "the largest stride under half the random latency (0: none)");
    verdict_number(v, "partly_prefetched_max_stride_bytes", best[1], "bytes",
                   "the largest stride measurably below the random latency (0: none)");
    linear_headline(j, v, best,
                    from_random ? "compared with the random chase at the same size"
                                : "compared with the slowest stride");
}

const struct an_experiment analysis_linear = {
    .name = "linear",
    .plot = {.stem = "linear",
             .x = "stride_bytes",
             .y = "ns_median",
             .group = "size_bytes",
             .label = AN_LABEL_BUFFER,
             .xlabel = "stride (bytes, log2 scale)",
             .ylabel = "ns per load",
             .x_size = true,
             .logy = true,
             .what = "linear chase: latency against constant stride",
             .caption = "Latency of a chase that steps a constant stride forward, one curve per "
                        "buffer size: where it stays low, the prefetchers follow the stride."},
    .judge = judge_linear,
};
