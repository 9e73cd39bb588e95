// SPDX-License-Identifier: MIT
// Verdicts on prefetching and parallelism: linear (per stride), fused (streams), parallel (MLP).
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "inputs/rtext.h"

/* Below these fractions of the unprefetched latency a stride counts as (partly) prefetched. */
#define PREFETCHED 0.5
#define PARTLY 0.8
/* A streams count is tracked while bandwidth is within this fraction of its best. */
#define BANDWIDTH_NEAR_BEST 0.95
#define MAX_VALUES 64
/* Parallelism is reached with the fewest chains that give this share of the best. */
#define NEAR_TOP 0.9

/* Distinct finite values of a column, ascending; returns how many (<= max). */
static size_t values_of(const struct csv *t, int col, double *out, size_t max)
{
    size_t k = 0;
    for (size_t r = 0; r < t->nrows; r++) {
        double v = csv_num(t, r, col);
        bool seen = !isfinite(v);
        for (size_t i = 0; i < k && !seen; i++)
            seen = out[i] == v;
        if (seen || k >= max)
            continue;
        size_t i = k++;
        for (; i > 0 && out[i - 1] > v; i--)
            out[i] = out[i - 1];
        out[i] = v;
    }
    return k;
}

static double line_bytes(const struct source *s)
{
    for (size_t i = 0; i < s->ncaches; i++)
        if (s->cache[i].level == 1 && s->cache[i].line_bytes >= 8 && s->cache[i].line_bytes <= 4096)
            return s->cache[i].line_bytes;
    return 64;
}

static const char *prefetch_word(double ratio)
{
    return ratio < PREFETCHED ? "prefetched" : ratio < PARTLY ? "partly prefetched" : "not prefetched";
}

/* Latency of a random chase over size bytes, from the primary curve; NaN when unknown. */
static double random_at(const struct source_result *r, double size)
{
    if (r->primary < 0)
        return NAN;
    const struct curve *c = r->cr[r->primary].c;
    return interp_log2(c->size, c->ns, c->n, size);
}

/* One buffer size of the linear experiment: ranges of strides with the same verdict. Returns
 * whether the unprefetched reference came from the random chase. */
static bool linear_size(struct verdict *v, const struct source_result *r, const struct csv *t,
                        double size, double best_stride[2])
{
    int cs = csv_col(t, "size_bytes"), cst = csv_col(t, "stride_bytes"), cn = csv_col(t, "ns_median");
    double ref = random_at(r, size), worst = 0;
    for (size_t i = 0; i < t->nrows; i++)
        if (csv_num(t, i, cs) == size || cs < 0)
            worst = fmax(worst, csv_num(t, i, cn));
    bool from_random = isfinite(ref);
    if (!from_random)
        ref = worst;
    char sz[32];
    rtext_size(sz, sizeof(sz), size);
    const char *prev = NULL;
    double first = 0, last = 0, line = line_bytes(r->src);
    for (size_t i = 0; i <= t->nrows; i++) {
        double st = i < t->nrows ? csv_num(t, i, cst) : NAN, ns = i < t->nrows ? csv_num(t, i, cn) : NAN;
        bool mine = i < t->nrows && (cs < 0 || csv_num(t, i, cs) == size) && isfinite(st) && isfinite(ns);
        if (i < t->nrows && !mine)
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
            best_stride[0] = fmax(best_stride[0], st);
        if (st >= line && ns / ref < PARTLY)
            best_stride[1] = fmax(best_stride[1], st);
    }
    return from_random;
}

void verdict_linear(struct source_result *r)
{
    struct verdict *v = &r->verdict[EXP_LINEAR];
    const struct csv *t = r->src->table[EXP_LINEAR];
    if (!t)
        return;
    int cst = csv_col(t, "stride_bytes"), cn = csv_col(t, "ns_median");
    if (cst < 0 || cn < 0) {
        v->present = true;
        snprintf(v->headline, sizeof(v->headline), "linear.csv lacks stride_bytes or ns_median");
        return;
    }
    double sizes[MAX_VALUES], best[2] = {0, 0}; /* largest stride prefetched, partly prefetched */
    size_t ns = values_of(t, csv_col(t, "size_bytes"), sizes, MAX_VALUES);
    v->present = true;
    verdict_line(v, "| buffer | strides (bytes) | verdict |");
    verdict_line(v, "|---|---|---|");
    bool from_random = true;
    for (size_t i = 0; i < (ns ? ns : 1); i++)
        from_random &= linear_size(v, r, t, ns ? sizes[i] : NAN, best);
    const char *basis = from_random ? "compared with the random chase at the same size"
                                    : "compared with the slowest stride";
    verdict_item(v, "prefetched_max_stride_bytes", best[0]);
    verdict_item(v, "partly_prefetched_max_stride_bytes", best[1]);
    double widest = 0;
    for (size_t i = 0; i < t->nrows; i++)
        widest = fmax(widest, csv_num(t, i, cst));
    if (best[0] > 0 && best[0] >= widest)
        snprintf(v->headline, sizeof(v->headline), "every stride tried, up to %.0f bytes, is "
                 "prefetched (%.100s)", widest, basis);
    else if (best[1] > best[0])
        snprintf(v->headline, sizeof(v->headline), "constant strides up to %.0f bytes are "
                 "prefetched, up to %.0f partly (%.100s)", best[0], best[1], basis);
    else if (best[0] > 0)
        snprintf(v->headline, sizeof(v->headline), "constant strides up to %.0f bytes are "
                 "prefetched (%.100s)", best[0], basis);
    else
        snprintf(v->headline, sizeof(v->headline), "no stride of a line or more is prefetched "
                 "(%.100s)", basis);
}

/* The streams count with the best bandwidth (the first within 5% of it) for one stride. */
static double tracked_streams(const struct csv *t, double stride, double *best_gib)
{
    int cst = csv_col(t, "stride_bytes"), ck = csv_col(t, "streams"), cg = csv_col(t, "gib_per_s");
    double best = 0, k_best = NAN;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < t->nrows; i++) {
            double k = csv_num(t, i, ck), g = csv_num(t, i, cg);
            if (csv_num(t, i, cst) != stride || !isfinite(k) || !isfinite(g))
                continue;
            if (pass == 0)
                best = fmax(best, g);
            else if (g >= BANDWIDTH_NEAR_BEST * best && !(k >= k_best))
                k_best = k;
        }
    *best_gib = best;
    return k_best;
}

void verdict_fused(struct source_result *r)
{
    struct verdict *v = &r->verdict[EXP_FUSED];
    const struct csv *t = r->src->table[EXP_FUSED];
    if (!t)
        return;
    v->present = true;
    if (csv_col(t, "streams") < 0 || csv_col(t, "gib_per_s") < 0 || csv_col(t, "stride_bytes") < 0) {
        snprintf(v->headline, sizeof(v->headline), "fused.csv lacks streams, stride_bytes or gib_per_s");
        return;
    }
    double strides[MAX_VALUES], counts[MAX_VALUES];
    size_t n = values_of(t, csv_col(t, "stride_bytes"), strides, MAX_VALUES), k = 0;
    verdict_line(v, "| stride (bytes) | streams at best bandwidth | best GiB/s |");
    verdict_line(v, "|---|---|---|");
    for (size_t i = 0; i < n; i++) {
        double gib, tracked = tracked_streams(t, strides[i], &gib);
        if (!isfinite(tracked))
            continue;
        counts[k++] = tracked;
        verdict_line(v, "| %.0f | %.0f | %.2f |", strides[i], tracked, gib);
    }
    if (k == 0) {
        snprintf(v->headline, sizeof(v->headline), "no usable rows in fused.csv");
        return;
    }
    /* The median over strides: a few strides the prefetchers ignore should not decide it. */
    for (size_t i = 1; i < k; i++)
        for (size_t j = i; j > 0 && counts[j - 1] > counts[j]; j--) {
            double x = counts[j];
            counts[j] = counts[j - 1];
            counts[j - 1] = x;
        }
    double median = counts[k / 2];
    verdict_item(v, "streams_tracked", median);
    snprintf(v->headline, sizeof(v->headline), "the prefetchers track about %.0f interleaved "
             "streams: bandwidth stops growing beyond that many (median over %zu strides)",
             median, k);
}

/* Effective parallelism by chain count for one buffer size (any size when size is NaN):
 * the parallelism column, else n * t1 / tn with tn the time per step of every chain. */
static size_t parallel_series(const struct csv *t, double size, double *ks, double *ps)
{
    int cc = csv_col(t, "chains"), cs = csv_col(t, "size_bytes"), cp = csv_col(t, "parallelism");
    int cn = csv_col(t, "ns_per_access_per_chain");
    double t1 = NAN;
    size_t k = 0;
    for (size_t i = 0; i < t->nrows; i++)
        if (csv_num(t, i, cc) == 1 && (isnan(size) || csv_num(t, i, cs) == size))
            t1 = csv_num(t, i, cn);
    for (size_t i = 0; i < t->nrows && k < MAX_VALUES; i++) {
        if (!isnan(size) && csv_num(t, i, cs) != size)
            continue;
        double n = csv_num(t, i, cc), p = csv_num(t, i, cp), tn = csv_num(t, i, cn);
        if (!isfinite(p) && tn > 0)
            p = n * t1 / tn;
        if (isfinite(n) && isfinite(p)) {
            ks[k] = n;
            ps[k++] = p;
        }
    }
    return k;
}

void verdict_parallel(struct source_result *r)
{
    struct verdict *v = &r->verdict[EXP_PARALLEL];
    const struct csv *t = r->src->table[EXP_PARALLEL];
    if (!t)
        return;
    v->present = true;
    int cc = csv_col(t, "chains"), cs = csv_col(t, "size_bytes"), cp = csv_col(t, "parallelism");
    int cn = csv_col(t, "ns_per_access_per_chain");
    if (cc < 0 || (cp < 0 && cn < 0)) {
        snprintf(v->headline, sizeof(v->headline), "parallel.csv lacks chains, or both "
                 "parallelism and ns_per_access_per_chain");
        return;
    }
    double sizes[MAX_VALUES], best = 0, best_chains = 0, best_size = 0;
    size_t ns = values_of(t, cs, sizes, MAX_VALUES);
    verdict_line(v, "| buffer | effective parallelism by chains |");
    verdict_line(v, "|---|---|");
    for (size_t s = 0; s < (ns ? ns : 1); s++) {
        double ks[MAX_VALUES], ps[MAX_VALUES], top = 0, top_k = 0;
        size_t k = parallel_series(t, ns ? sizes[s] : NAN, ks, ps);
        char row[VERDICT_CHARS], sz[32];
        size_t o = 0;
        row[0] = 0;
        for (size_t i = 0; i < k; i++) {
            top = fmax(top, ps[i]);
            int w = snprintf(row + o, sizeof(row) - o, "%s%.0f: %.1f", o ? ", " : "", ks[i], ps[i]);
            o = w > 0 && (size_t)w < sizeof(row) - o ? o + (size_t)w : o;
        }
        for (size_t i = 0; i < k && top_k == 0; i++)
            if (ps[i] >= NEAR_TOP * top)
                top_k = ks[i];
        rtext_size(sz, sizeof(sz), ns ? sizes[s] : NAN);
        verdict_line(v, "| %s | %s |", sz, row);
        if (top > best) {
            best = top;
            best_chains = top_k;
            best_size = ns ? sizes[s] : NAN;
        }
    }
    char sz[32];
    rtext_size(sz, sizeof(sz), best_size);
    verdict_item(v, "parallelism", best);
    verdict_item(v, "chains", best_chains);
    snprintf(v->headline, sizeof(v->headline), "memory-level parallelism reaches %.1f "
             "(within 10%% of it with %.0f chains, buffer %s)", best, best_chains, sz);
}
