// SPDX-License-Identifier: MIT
// Where the sparse model reports a level's size: the gap between two points in which the curve
// leaves the level, found from the fitted model and then corrected by the points themselves.
#include "analysis/levels_model_int.h"
#include "lib/kmath.h"

/* A step starts where the model has made this share of its ln rise (10%, as in a rise time). */
#define STEP_START_FRACTION 0.1

/* Where the model has risen fraction of the way (ln) from level i to the next, by bisection. */
static double step_at(const struct model *m, size_t i, double fraction)
{
    double target = kln(m->l[i]) + fraction * kln(m->l[i + 1] / m->l[i]);
    double lo = m->s[i], hi = i + 1 < m->k ? m->s[i + 1] : m->s[i] + 8;
    for (int it = 0; it < 40; it++) {
        double mid = 0.5 * (lo + hi);
        if (model_ln(m, mid) < target)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Where point j of p lies against level i of m: 1 risen off it beyond what noise and printing
 * allow (more than one print step, q's resolution, since two rounded readings of one value can
 * differ by that much, and three noise deviations, tol in ln: a one-sided test at 0.1%, since
 * each level tests up to two points), -1 on it, 0 unknown (left out of
 * the fit as wild, not in q). */
static int against_level(const struct lpoints *p, const struct lpoints *q, const struct model *m,
                         size_t i, size_t j, double tol)
{
    bool fitted = false;
    for (size_t k = 0; k < q->n && !fitted; k++)
        fitted = q->x[k] == p->x[j];
    if (!fitted)
        return 0;
    return p->ns[j] - m->l[i] > q->quantum_ns + m->l[i] * (kexp(tol) - 1) ? 1 : -1;
}

/* Where level i's size is reported: the middle (log2) of the gap between two points of p, the
 * last still on the level and the first risen off it. At one point per octave the data show the
 * octave in which the curve leaves a plateau, not where in it, so the gap's middle, at most
 * sqrt(2) from any place in it, is the least wrong. The gap starts as the one where the model
 * leaves the level (has made STEP_START_FRACTION of its rise: the start of the rise, since a
 * soft step's later points can lie an octave past it), and the points then correct it, since
 * which gap that is follows from the fitted sharpness, which one or two points on a step hardly
 * determine: it moves down while the point before it has risen off the level (q's noise and
 * print step apart, against_level), up while the point after it has not, within the level. */
double model_step_place(const struct lpoints *p, const struct lpoints *q, const struct model *m,
                        size_t i)
{
    double x = step_at(m, i, STEP_START_FRACTION);
    size_t j = p->n;
    for (size_t k = 0; k + 1 < p->n; k++)
        if (p->x[k] <= x && x < p->x[k + 1])
            j = k;
    if (j == p->n)
        return x;
    double tol = 3 * ksqrt(model_noise_variance(m, q->n));
    double below = i > 0 ? m->s[i - 1] : -KM_INF, above = i + 1 < m->k ? m->s[i + 1] : KM_INF;
    while (j > 0 && p->x[j - 1] > below && against_level(p, q, m, i, j, tol) > 0)
        j--;
    while (j + 2 < p->n && p->x[j + 2] <= above && against_level(p, q, m, i, j + 1, tol) < 0)
        j++;
    return 0.5 * (p->x[j] + p->x[j + 1]);
}
