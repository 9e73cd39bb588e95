// SPDX-License-Identifier: MIT
// The level detector's preparation: clean, sort and bin the curve, smooth it, estimate noise.
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/levels_int.h"

struct raw_point {
    double x, ns, cyc;
};

static int cmp_raw(const void *a, const void *b)
{
    double u = ((const struct raw_point *)a)->x, v = ((const struct raw_point *)b)->x;
    return (u > v) - (u < v);
}

static int cmp_double(const void *a, const void *b)
{
    double u = *(const double *)a, v = *(const double *)b;
    return (u > v) - (u < v);
}

double lpoints_median(const double *v, size_t n)
{
    double small[64];
    double *tmp = n <= 64 ? small : malloc(n * sizeof(double));
    if (!tmp)
        return v[n / 2];
    memcpy(tmp, v, n * sizeof(double));
    qsort(tmp, n, sizeof(double), cmp_double);
    double m = n % 2 ? tmp[n / 2] : 0.5 * (tmp[n / 2 - 1] + tmp[n / 2]);
    if (tmp != small)
        free(tmp);
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
        if (nc < 64 && isfinite(raw[i].cyc))
            cyc[nc++] = raw[i].cyc;
    }
    p->x[k] = xs / (double)(b - a);
    p->ns[k] = lpoints_median(ns, n);
    p->cyc[k] = nc ? lpoints_median(cyc, nc) : NAN;
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
    return fmax(fmin(a, b), fmin(fmax(a, b), c));
}

void lpoints_build(struct lpoints *p, const double *size, const double *ns, const double *cycles,
                   size_t n, double offset)
{
    p->n = 0;
    struct raw_point *raw = malloc((n ? n : 1) * sizeof(*raw));
    if (!raw)
        return;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        double v = ns[i] + offset;
        if (!isfinite(size[i]) || size[i] < 1 || size[i] > 1e19 || !isfinite(v) || v <= 0)
            continue;
        double c = cycles && isfinite(cycles[i]) && cycles[i] > 0 ? cycles[i] : NAN;
        raw[m++] = (struct raw_point){log2(size[i]), v, c};
    }
    qsort(raw, m, sizeof(*raw), cmp_raw);
    size_t k = group(p, raw, m, 1e-9);
    if (k >= LEVELS_MAX_POINTS && m > 0) {
        /* Too many points for the O(n^2) segmentation: medians of narrow log2 bins instead. */
        double width = (raw[m - 1].x - raw[0].x) / (LEVELS_MAX_POINTS / 2);
        k = group(p, raw, m, width);
    }
    free(raw);
    p->n = k;
    for (size_t i = 0; i < k; i++)
        p->y[i] = log(p->ns[i]);
    for (size_t i = 0; i < k; i++) {
        if (k < 3) {
            p->z[i] = p->y[i];
        } else if (i == 0 || i + 1 == k) {
            /* Tukey's end rule: the end point, its neighbour, and the line through the next
             * two continued to the end, so one wild end point cannot fake a step. */
            size_t a = i == 0 ? 1 : k - 2, b = i == 0 ? 2 : k - 3;
            p->z[i] = median3(p->y[i], p->y[a], 2 * p->y[a] - p->y[b]);
        } else {
            p->z[i] = median3(p->y[i - 1], p->y[i], p->y[i + 1]);
        }
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
        d[m++] = fabs(p->y[i] - mid);
    }
    if (m == 0)
        return 0.05;
    /* The 30th percentile, not the median: with few points per octave the steps and ramps
     * bend a large share of them. |N(0,1)| has its 30th percentile at 0.385. */
    qsort(d, m, sizeof(double), cmp_double);
    double sigma = d[(m * 3) / 10] / 0.385 / sqrt(1.5);
    return fmin(fmax(sigma, 0.01), 0.25);
}
