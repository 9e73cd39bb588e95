// SPDX-License-Identifier: MIT
// The level detector's preparation: clean, sort and bin the curve, fit it monotone.

#include "analysis/levels_int.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "lib/stats.h"
#include "platform.h"

/* The cleaned curve before grouping: log2 size, latency + offset, cycles (NaN when unknown). */
struct raw_curve {
    double *x, *ns, *cyc;
};

/* Median of the latencies (and of the known cycles) of raw[a, b) into point k of p. */
static void put_group(struct lpoints *p, size_t k, const struct raw_curve *raw, size_t a, size_t b)
{
    double ns[64] = {0}, cyc[64] = {0}, xs = 0;
    size_t n = 0, nc = 0;
    for (size_t i = a; i < b; i++) {
        xs += raw->x[i];
        if (n < 64)
            ns[n++] = raw->ns[i];
        if (nc < 64 && kisfinite(raw->cyc[i]))
            cyc[nc++] = raw->cyc[i];
    }
    p->x[k] = xs / (double)(b - a);
    p->ns[k] = stats_median(ns, n);
    p->cyc[k] = nc ? stats_median(cyc, nc) : KM_NAN;
}

/* Group sorted points whose x differ by less than width (0: equal sizes only). */
static size_t group(struct lpoints *p, const struct raw_curve *raw, size_t m, double width)
{
    size_t k = 0, a = 0;
    while (a < m && k < LEVELS_MAX_POINTS) {
        size_t b = a + 1;
        while (b < m && raw->x[b] - raw->x[a] <= width)
            b++;
        put_group(p, k++, raw, a, b);
        a = b;
    }
    return k;
}

void lpoints_build(struct lpoints *p, const double *size, const double *ns, const double *cycles,
                   size_t n, double offset)
{
    p->n = 0;
    size_t cap = n ? n : 1;
    double *mem = plat_alloc(3 * cap * sizeof(double));
    if (!mem)
        return;
    struct raw_curve raw = {mem, mem + cap, mem + 2 * cap};
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        double v = ns[i] + offset;
        if (!kisfinite(size[i]) || size[i] < 1 || size[i] > 1e19 || !kisfinite(v) || v <= 0)
            continue;
        raw.x[m] = klog2(size[i]);
        raw.ns[m] = v;
        raw.cyc[m++] = cycles && kisfinite(cycles[i]) && cycles[i] > 0 ? cycles[i] : KM_NAN;
    }
    stats_sort_by(raw.x, raw.ns, raw.cyc, m);
    size_t k = group(p, &raw, m, 1e-9);
    if (k >= LEVELS_MAX_POINTS && m > 0) {
        /* More points than the detector holds: medians of narrow log2 bins instead. */
        double width = (raw.x[m - 1] - raw.x[0]) / (LEVELS_MAX_POINTS / 2);
        k = group(p, &raw, m, width);
    }
    plat_free(mem);
    p->n = k;
    /* A cache's latency is fixed in core cycles: where every point has them, they are what is
     * fitted, so a clock change that moves ns alone makes no step. */
    bool all_cycles = k > 0;
    for (size_t i = 0; i < k; i++)
        all_cycles = all_cycles && kisfinite(p->cyc[i]);
    for (size_t i = 0; i < k; i++)
        p->y[i] = kln(all_cycles ? p->cyc[i] : p->ns[i]);
    lpoints_fit_monotone(p);
}

/* The two middle values of y[a..b] (inclusive), equal for an odd count. */
static void block_middles(const double *y, size_t a, size_t b, double *lo, double *hi)
{
    double tmp[LEVELS_MAX_POINTS];
    size_t n = b - a + 1;
    kmemcpy(tmp, y + a, n * sizeof(double));
    stats_sort(tmp, n);
    *lo = tmp[(n - 1) / 2];
    *hi = tmp[n / 2];
}

void lpoints_fit_monotone(struct lpoints *p)
{
    size_t start[LEVELS_MAX_POINTS + 1], nb = 0; /* blocks: start[i] .. start[i + 1] - 1 */
    double level[LEVELS_MAX_POINTS], lo, hi;
    for (size_t i = 0; i < p->n; i++) {
        start[nb] = i;
        level[nb++] = p->y[i];
        /* Pool the last two blocks while they violate the order; the pool takes their median. */
        while (nb > 1 && level[nb - 2] > level[nb - 1]) {
            nb--;
            block_middles(p->y, start[nb - 1], i, &lo, &hi);
            level[nb - 1] = 0.5 * (lo + hi);
        }
    }
    start[nb] = p->n;
    /* A block of an even count fits as well anywhere between its two middle values (two points
     * pooled: the wild one and its neighbour); it takes the one nearer a neighbouring block. */
    for (size_t b = 0; b < nb; b++) {
        block_middles(p->y, start[b], start[b + 1] - 1, &lo, &hi);
        double dlo = KM_INF, dhi = KM_INF;
        if (b > 0) {
            dlo = kfabs(lo - level[b - 1]);
            dhi = kfabs(hi - level[b - 1]);
        }
        if (b + 1 < nb) {
            dlo = kfmin(dlo, kfabs(lo - level[b + 1]));
            dhi = kfmin(dhi, kfabs(hi - level[b + 1]));
        }
        if (lo < hi && nb > 1)
            level[b] = dlo <= dhi ? lo : hi;
        if (b > 0)
            level[b] = kfmax(level[b], level[b - 1]);
        if (b + 1 < nb)
            level[b] = kfmin(level[b], level[b + 1]);
        for (size_t i = start[b]; i < start[b + 1]; i++)
            p->f[i] = level[b];
    }
}

double lpoints_fit_at(const struct lpoints *p, double x)
{
    if (!p->n)
        return KM_NAN;
    if (x <= p->x[0])
        return p->f[0];
    for (size_t j = 0; j + 1 < p->n; j++)
        if (x <= p->x[j + 1]) {
            double t = (x - p->x[j]) / (p->x[j + 1] - p->x[j]);
            return p->f[j] + t * (p->f[j + 1] - p->f[j]);
        }
    return p->f[p->n - 1];
}

double lpoints_per_octave(const struct lpoints *p)
{
    if (p->n < 2 || p->x[p->n - 1] - p->x[0] <= 0)
        return 0;
    return (double)(p->n - 1) / (p->x[p->n - 1] - p->x[0]);
}
