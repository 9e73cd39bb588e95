// SPDX-License-Identifier: MIT
// How sure each level of the sparse model is: that the curve has it, and that its step lies in
// the gap it is reported in.
//
// That it is there: the model refitted without the level leaves the curve worse explained by D
// (the rise in rss over the noise variance the model leaves per degree of freedom) less the
// level's cost in the criterion (3 ln n, levels_model.c), and the odds of the level against
// none are exp(D / 2), the Bayes factor that the criterion approximates (the cost standing for the
// prior). Where: at one point per octave a step is reported in the gap between two points, and
// two gaps can fit nearly alike (a soft step, or its deciding point left out as wild). The level's
// size is moved over every place between its neighbours, 1/8 octave apart (a flat prior on log
// size), each fitted again for latencies, sharpness and ramp, and weighted by its likelihood
// exp(-(rss - rss_best) / 2 sigma^2); the share of the weight whose step lands in the reported gap
// is the chance that the gap is right. The confidence is the product of the two.
#include "analysis/levels_model_int.h"
#include "lib/kmath.h"

/* Places tried for a level's size, per octave. */
#define PLACES_PER_OCTAVE 8.0

/* The probability that level i of m is there rather than not, from the fit without it. */
static double presence(const struct lpoints *q, const struct model *m, size_t i, double var,
                       double min_step)
{
    struct model t = *m;
    model_drop_level(&t, i);
    model_refit(q, &t, min_step);
    if (!kisfinite(t.rss))
        return 1; /* no valid model without it: the curve cannot do without the level */
    double d = (t.rss - m->rss) / var - LEVEL_PENALTY * kln((double)q->n);
    return 1 / (1 + kexp(-d / 2));
}

/* The likelihood share of level i's places (between its neighbours) whose step is reported in the
 * same gap of p as m's. A running log-sum-exp: weights are kept relative to the best rss so far. */
static double place_share(const struct lpoints *p, const struct lpoints *q, const struct model *m,
                          size_t i, double var, double min_step)
{
    double lo = i > 0 ? m->s[i - 1] : q->x[0];
    double hi = i + 1 < m->k ? m->s[i + 1] : q->x[q->n - 1];
    double here = model_step_place(p, m, i), best = m->rss, all = 1, same = 1;
    for (double s = lo + 1 / PLACES_PER_OCTAVE; s < hi; s += 1 / PLACES_PER_OCTAVE) {
        struct model t = *m;
        t.s[i] = s;
        double rss = model_fit_sharpness(q, &t, min_step);
        if (!kisfinite(rss))
            continue;
        if (rss < best) { /* a better fit: what was summed so far weighs less beside it */
            double f = kexp(-(best - rss) / (2 * var));
            all *= f;
            same *= f;
            best = rss;
        }
        double w = kexp(-(rss - best) / (2 * var));
        all += w;
        if (kfabs(model_step_place(p, &t, i) - here) < 1e-9)
            same += w;
    }
    return same / all;
}

double model_level_confidence(const struct lpoints *p, const struct lpoints *q,
                              const struct model *m, size_t i, double min_step)
{
    double var = model_noise_variance(m, q->n);
    return presence(q, m, i, var, min_step) * place_share(p, q, m, i, var, min_step);
}
