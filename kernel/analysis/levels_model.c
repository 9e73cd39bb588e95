// SPDX-License-Identifier: MIT
// A cache's capacity from the points on its step, by the latency model of a random chase.
//
// A random chase over N bytes through a cache of capacity C (N > C) finds its line there on
// about C / N of its loads, so its latency is Lh + (Lm - Lh)(1 - C / N) between the plateau
// before (Lh) and the one after (Lm). Each point of the step then says C = N (Lm - l) / (Lm - Lh)
// on its own; the capacity read is the one the step's points lie nearest to in the worst of
// them, and the model fits where no point lies a step's rise (STEP_RISE_LN) from it: one
// cache's step, however its points fall on the grid. Two caches leave a plateau between their
// steps that lies so far from any one capacity's curve. One cache's points agree on C; two caches
// give capacities that grow with N (the second plateau between them reads as a smaller share of a
// larger cache).
#include "analysis/levels_int.h"

#include "analysis/detect_params.h"
#include "lib/kmath.h"
#include "lib/stats.h"

/* Latency (linear: the model's shares are of latency, and an added offset cancels) of the fit at
 * point j. */
static double lat(const struct lpoints *p, size_t j)
{
    return kexp(p->f[j]);
}

double lmodel_plateau(const struct lpoints *p, size_t a, size_t b)
{
    double v[LEVELS_MAX_POINTS];
    size_t n = 0;
    for (size_t j = a; j <= b && j < p->n; j++)
        v[n++] = lat(p, j);
    return n ? stats_median(v, n) : KM_NAN;
}

/* The model's latency at point j for capacity cap. */
static double model_at(const struct lpoints *p, size_t j, double lh, double lm, double cap)
{
    double miss = 1 - cap / kexp2(p->x[j]);
    return lh + (lm - lh) * (miss > 0 ? miss : 0);
}

/* The largest distance (ln) of a point a..e of the fit from the model with capacity cap. */
static double misfit_of(const struct lpoints *p, size_t a, size_t e, double lh, double lm,
                        double cap)
{
    double worst = 0;
    for (size_t j = a; j <= e && j < p->n; j++)
        worst = kfmax(worst, kfabs(kln(model_at(p, j, lh, lm, cap)) - p->f[j]));
    return worst;
}

double lmodel_capacity(const struct lpoints *p, size_t a, size_t e, double lh, double lm,
                       double *misfit)
{
    *misfit = KM_NAN;
    if (!(lm > lh) || !kisfinite(lm) || !kisfinite(lh) || e <= a || e >= p->n)
        return KM_NAN;
    /* The capacity between the step's first and last points that the points lie nearest to, in
     * the worst point, searched on a grid far finer than any curve's (MODEL_GRID per octave). */
    double c = KM_NAN, worst = KM_INF;
    for (double x = p->x[a]; x <= p->x[e] + 1e-9; x += 1.0 / MODEL_GRID) {
        double w = misfit_of(p, a, e, lh, lm, kexp2(x));
        if (w < worst) {
            worst = w;
            c = kexp2(x);
        }
    }
    *misfit = worst;
    return c;
}
