// SPDX-License-Identifier: MIT
// The level detector's preparation: clean, sort and bin the curve, smooth it, estimate noise.

#include "analysis/levels_int.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "lib/stats.h"
#include "platform.h"

struct raw_point {
    double x, ns, cyc;
};

/* Sort points by size: a Shell sort (no recursion, no allocation), gaps as in stats_sort. */
static void sort_raw(struct raw_point *v, size_t n)
{
    static const size_t gaps[] = {1750, 701, 301, 132, 57, 23, 10, 4, 1};
    for (size_t g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++) {
        size_t gap = gaps[g];
        for (size_t i = gap; i < n; i++) {
            struct raw_point x = v[i];
            size_t j = i;
            for (; j >= gap && v[j - gap].x > x.x; j -= gap)
                v[j] = v[j - gap];
            v[j] = x;
        }
    }
}

double lpoints_median(const double *v, size_t n)
{
    double small[64];
    double *tmp = n <= 64 ? small : plat_alloc(n * sizeof(double));
    if (!tmp)
        return v[n / 2];
    kmemcpy(tmp, v, n * sizeof(double));
    stats_sort(tmp, n);
    double m = n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
    if (tmp != small)
        plat_free(tmp);
    return m;
}

/* Median of the latencies (and of the known cycles) of raw[a, b) into point k of p. */
static void put_group(struct lpoints *p, size_t k, const struct raw_point *raw, size_t a, size_t b)
{
    double ns[64] = {0}, cyc[64] = {0}, xs = 0;
    size_t n = 0, nc = 0;
    for (size_t i = a; i < b; i++) {
        xs += raw[i].x;
        if (n < 64)
            ns[n++] = raw[i].ns;
        if (nc < 64 && kisfinite(raw[i].cyc))
            cyc[nc++] = raw[i].cyc;
    }
    p->x[k] = xs / (double)(b - a);
    p->ns[k] = lpoints_median(ns, n);
    p->cyc[k] = nc ? lpoints_median(cyc, nc) : KM_NAN;
}

/* Group sorted points whose x differ by less than width (0: equal sizes only). */
static size_t group(struct lpoints *p, const struct raw_point *raw, size_t m, double width)
{
    size_t k = 0, a = 0;
    while (a < m && k < LEVELS_MAX_POINTS) {
        size_t b = a + 1;
        while (b < m && raw[b].x - raw[a].x <= width)
            b++;
        put_group(p, k++, raw, a, b);
        a = b;
    }
    return k;
}

static double median3(double a, double b, double c)
{
    return kfmax(kfmin(a, b), kfmin(kfmax(a, b), c));
}

void lpoints_build(struct lpoints *p, const double *size, const double *ns, const double *cycles,
                   size_t n, double offset)
{
    p->n = 0;
    struct raw_point *raw = plat_alloc((n ? n : 1) * sizeof(*raw));
    if (!raw)
        return;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        double v = ns[i] + offset;
        if (!kisfinite(size[i]) || size[i] < 1 || size[i] > 1e19 || !kisfinite(v) || v <= 0)
            continue;
        double c = cycles && kisfinite(cycles[i]) && cycles[i] > 0 ? cycles[i] : KM_NAN;
        raw[m++] = (struct raw_point){klog2(size[i]), v, c};
    }
    sort_raw(raw, m);
    size_t k = group(p, raw, m, 1e-9);
    if (k >= LEVELS_MAX_POINTS && m > 0) {
        /* Too many points for the O(n^2) segmentation: medians of narrow log2 bins instead. */
        double width = (raw[m - 1].x - raw[0].x) / (LEVELS_MAX_POINTS / 2);
        k = group(p, raw, m, width);
    }
    plat_free(raw);
    p->n = k;
    for (size_t i = 0; i < k; i++)
        p->y[i] = kln(p->ns[i]);
    lpoints_smooth(p);
}

void lpoints_smooth(struct lpoints *p)
{
    size_t k = p->n;
    for (size_t i = 0; i < k; i++)
        p->z[i] =
            k < 3 || i == 0 || i + 1 == k ? p->y[i] : median3(p->y[i - 1], p->y[i], p->y[i + 1]);
    if (k >= 4) {
        /* Tukey's end rule on the smoothed neighbours: the end point, its neighbour, and the
         * line through the next two continued to the end, so one wild point at or next to
         * an end cannot fake a step. */
        p->z[0] = median3(p->y[0], p->z[1], 2 * p->z[1] - p->z[2]);
        p->z[k - 1] = median3(p->y[k - 1], p->z[k - 2], 2 * p->z[k - 2] - p->z[k - 3]);
    }
}

/* Whether point i is beyond both its neighbours by more than margin (ln): a spike or a dip. */
static bool is_extreme(const struct lpoints *p, size_t i, double margin)
{
    if (i == 0 || i + 1 >= p->n)
        return false;
    double l = p->y[i - 1], r = p->y[i + 1], y = p->y[i];
    return y - kfmax(l, r) > margin || kfmin(l, r) - y > margin;
}

/* A point beyond both its neighbours by more than margin (ln), a spike or a dip, says nothing
 * about where a step is: the running median of three gives it the nearer neighbour's value,
 * which beside a step moves the step by a whole point (a dip just past a step puts it one point
 * late). A cache hierarchy's latency does not fall with size, so such a point is noise: its
 * smoothed value becomes the line through its two neighbours instead. Not when a neighbour is
 * such a point too (a spike beside a dip): which of the two is wild is then unknown, and the
 * running median's value stays. */
void lpoints_interpolate_extremes(struct lpoints *p, double margin)
{
    for (size_t i = 1; i + 1 < p->n; i++) {
        if (!is_extreme(p, i, margin) || is_extreme(p, i - 1, margin) ||
            is_extreme(p, i + 1, margin))
            continue;
        double l = p->y[i - 1], r = p->y[i + 1];
        double t = (p->x[i] - p->x[i - 1]) / (p->x[i + 1] - p->x[i - 1]);
        p->z[i] = l + t * (r - l);
    }
}

double lpoints_noise(const struct lpoints *p)
{
    /* Deviation of each inner point from the line through its neighbours: steps touch only a
     * part of them, so a low percentile reflects the noise. var(d) = 1.5 sigma^2. */
    double d[LEVELS_MAX_POINTS];
    size_t m = 0;
    for (size_t i = 1; i + 1 < p->n; i++) {
        double t = (p->x[i] - p->x[i - 1]) / (p->x[i + 1] - p->x[i - 1]);
        double mid = p->y[i - 1] + t * (p->y[i + 1] - p->y[i - 1]);
        d[m++] = kfabs(p->y[i] - mid);
    }
    if (m == 0)
        return 0.05;
    /* The 30th percentile, not the median: with few points per octave the steps and ramps
     * bend a large share of them. |N(0,1)| has its 30th percentile at 0.385. */
    stats_sort(d, m);
    double sigma = d[(m * 3) / 10] / 0.385 / ksqrt(1.5);
    return kfmin(kfmax(sigma, 0.01), 0.25);
}

double lpoints_per_octave(const struct lpoints *p)
{
    if (p->n < 2 || p->x[p->n - 1] - p->x[0] <= 0)
        return 0;
    return (double)(p->n - 1) / (p->x[p->n - 1] - p->x[0]);
}
