// SPDX-License-Identifier: MIT
// The level detector's segmentation: the optimal cut of a curve into straight pieces.
//
// Dynamic programming over all cuts minimises the squared error of a least-squares line per
// piece (in units of the noise variance) plus a penalty per piece, so more noise gives fewer,
// longer pieces.

#include "analysis/levels_int.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "platform.h"

/* Penalty per straight piece, in units of the noise variance, times ln(points). */
#define PIECE_PENALTY 2.0

struct sums {
    double n, x, y, xx, xy, yy;
};

/* Squared error of the least-squares line through points a..b, from prefix sums. */
static double line_sse(const struct sums *s, size_t a, size_t b, double *slope)
{
    struct sums d = {s[b + 1].n - s[a].n,   s[b + 1].x - s[a].x,   s[b + 1].y - s[a].y,
                     s[b + 1].xx - s[a].xx, s[b + 1].xy - s[a].xy, s[b + 1].yy - s[a].yy};
    double sxx = d.xx - d.x * d.x / d.n, sxy = d.xy - d.x * d.y / d.n, syy = d.yy - d.y * d.y / d.n;
    if (d.n < 2 || sxx <= 1e-12) {
        *slope = 0;
        return 0;
    }
    *slope = sxy / sxx;
    return kfmax(syy - sxy * sxy / sxx, 0);
}

/* Optimal cut of the smoothed curve into straight pieces; returns the number of pieces. */
size_t lpoints_segment(const struct lpoints *p, double sigma, struct piece *out)
{
    size_t n = p->n;
    struct sums *s = plat_alloc((n + 1) * sizeof(*s));
    double *best = plat_alloc((n + 1) * sizeof(double));
    size_t *from = plat_alloc((n + 1) * sizeof(size_t));
    size_t count = 0;
    if (!s || !best || !from)
        goto out;
    for (size_t i = 0; i < n; i++) {
        double x = p->x[i], y = p->z[i];
        s[i + 1] = (struct sums){s[i].n + 1,      s[i].x + x,      s[i].y + y,
                                 s[i].xx + x * x, s[i].xy + x * y, s[i].yy + y * y};
    }
    double penalty = PIECE_PENALTY * kln((double)n + 1.0);
    best[0] = 0;
    for (size_t j = 1; j <= n; j++) {
        best[j] = KM_INF;
        for (size_t i = 0; i < j; i++) {
            double slope, c = best[i] + line_sse(s, i, j - 1, &slope) / (sigma * sigma) + penalty;
            if (c < best[j]) {
                best[j] = c;
                from[j] = i;
            }
        }
    }
    /* Walk back, then reverse into out. */
    for (size_t j = n; j > 0; j = from[j])
        out[count++] = (struct piece){from[j], j - 1, false};
    for (size_t i = 0; i < count / 2; i++) {
        struct piece t = out[i];
        out[i] = out[count - 1 - i];
        out[count - 1 - i] = t;
    }
out:
    plat_free(s);
    plat_free(best);
    plat_free(from);
    return count;
}

/* Noise seen around the straight pieces: robust spread of the raw points about their lines. */
double lpoints_residual_noise(const struct lpoints *p, const struct piece *pc, size_t npc)
{
    double *r = plat_alloc(p->n * sizeof(double));
    size_t k = 0, params = 0;
    if (!r)
        return KM_INF;
    for (size_t i = 0; i < npc; i++) {
        double sx = 0, sy = 0, sxx = 0, sxy = 0, n = (double)(pc[i].b - pc[i].a + 1);
        for (size_t j = pc[i].a; j <= pc[i].b; j++) {
            sx += p->x[j];
            sy += p->z[j];
            sxx += p->x[j] * p->x[j];
            sxy += p->x[j] * p->z[j];
        }
        double den = sxx - sx * sx / n, slope = den > 1e-12 ? (sxy - sx * sy / n) / den : 0;
        for (size_t j = pc[i].a; j <= pc[i].b; j++)
            r[k++] = kfabs(p->y[j] - (sy / n + slope * (p->x[j] - sx / n)));
        params += pc[i].b > pc[i].a ? 2 : 1;
    }
    double sigma = KM_INF;
    if (k > params + 2)
        sigma = 1.4826 * lpoints_median(r, k) * ksqrt((double)k / (double)(k - params));
    plat_free(r);
    return kfmin(kfmax(sigma, 0.01), 0.25);
}

/* Slope of a piece in ln latency per octave (a single point: the slope across it). */
double lpoints_piece_slope(const struct lpoints *p, const struct piece *q)
{
    size_t a = q->a, b = q->b;
    if (a == b) {
        a = a > 0 ? a - 1 : a;
        b = b + 1 < p->n ? b + 1 : b;
    }
    if (a == b)
        return 0;
    double sx = 0, sy = 0, sxx = 0, sxy = 0, n = (double)(b - a + 1);
    for (size_t i = a; i <= b; i++) {
        sx += p->x[i];
        sy += p->z[i];
        sxx += p->x[i] * p->x[i];
        sxy += p->x[i] * p->z[i];
    }
    double den = sxx - sx * sx / n;
    return den > 1e-12 ? (sxy - sx * sy / n) / den : 0;
}
