// SPDX-License-Identifier: MIT
// Wild points of a sparse curve: spikes and dips off both neighbours, and points that fall against
// the curve's rise, left out of the model fit.
//
// A curve rises through a step monotonically, so a point off both its neighbours the same way is
// a spike or a dip, never a plateau of one point, and a point well under the two before it is a
// dip even where it lies between its neighbours (on a step's first risen point). Two wild points
// side by side are mostly one wild point beside a step's one point (a dip right after it makes
// the step's point look like a spike): which of the two is wild the neighbours cannot say, the
// fit does (levels_model.c).
#include "analysis/levels_model_int.h"
#include "lib/kmath.h"
#include "platform.h"

/* A point this far (ln: 30%) off both its neighbours in the same direction is wild. */
#define WILD_LN 0.26

/* Whether point j of p is off both of its neighbours a and b (indices; p->n: none, then the line
 * through the two points on the other side stands in) by more than WILD_LN the same way. */
static bool off_both(const struct lpoints *p, size_t j, size_t a, size_t b)
{
    double ya, yb;
    if (a < p->n && b < p->n) {
        ya = p->y[a];
        yb = p->y[b];
    } else if (a < p->n) { /* the last point: the line through the two before it */
        ya = p->y[a];
        yb = 2 * p->y[a] - p->y[a - 1];
    } else { /* the first point: the line through the two after it */
        yb = p->y[b];
        ya = 2 * p->y[b] - p->y[b + 1];
    }
    return p->y[j] - kfmax(ya, yb) > WILD_LN || kfmin(ya, yb) - p->y[j] > WILD_LN;
}

/* A point this far (ln: 12%, the smallest step between two levels) under both of the two points
 * before it, or over both of the two after it, and by at least two print steps, goes against the
 * curve's rise: a random chase's latency never falls as its buffer grows. */
#define FALL_LN 0.113

/* Whether point j of p falls against the rise (FALL_LN and two print steps of quantum). */
static bool against_rise(const struct lpoints *p, size_t j, double quantum)
{
    if (j >= 2) {
        double below = kfmin(p->ns[j - 1], p->ns[j - 2]);
        if (kln(below / p->ns[j]) > FALL_LN && below - p->ns[j] >= 2 * quantum)
            return true;
    }
    if (j + 2 < p->n) {
        double above = kfmax(p->ns[j + 1], p->ns[j + 2]);
        if (kln(p->ns[j] / above) > FALL_LN && p->ns[j] - above >= 2 * quantum)
            return true;
    }
    return false;
}

/* Flag p's wild points in wild: off both neighbours by more than WILD_LN the same way (at an end,
 * off the line through the next two), or against the rise. */
static void flag_wild(const struct lpoints *p, bool *wild)
{
    double quantum = lpoints_print_resolution(p);
    for (size_t j = 0; j < p->n; j++)
        wild[j] = p->n >= 3 && (off_both(p, j, j > 0 ? j - 1 : p->n, j + 1 < p->n ? j + 1 : p->n) ||
                                against_rise(p, j, quantum));
}

/* The first two neighbouring wild points that are not part of a longer run: *j and *j + 1. */
static bool wild_pair(const struct lpoints *p, const bool *wild, size_t *j)
{
    for (size_t i = 0; i + 1 < p->n; i++)
        if (wild[i] && wild[i + 1] && (i == 0 || !wild[i - 1]) && (i + 2 >= p->n || !wild[i + 2])) {
            *j = i;
            return true;
        }
    return false;
}

/* Whether point j is still wild once its neighbour `other` (j - 1 or j + 1) is left out. */
static bool wild_alone(const struct lpoints *p, size_t j, size_t other)
{
    if (p->n < 4)
        return false;
    size_t a = other < j ? (j >= 2 ? j - 2 : p->n) : (j >= 1 ? j - 1 : p->n);
    size_t b = other > j ? (j + 2 < p->n ? j + 2 : p->n) : (j + 1 < p->n ? j + 1 : p->n);
    if (a == p->n && b == p->n)
        return false;
    if (a == p->n && b + 1 >= p->n)
        return false;
    if (b == p->n && a == 0)
        return false;
    return off_both(p, j, a, b);
}

/* Copy p's points into q without those flagged in wild. */
static void keep_unflagged(const struct lpoints *p, const bool *wild, struct lpoints *q)
{
    q->n = 0;
    for (size_t j = 0; j < p->n; j++) {
        if (wild[j])
            continue;
        q->x[q->n] = p->x[j];
        q->ns[q->n] = p->ns[j];
        q->y[q->n] = p->y[j];
        q->z[q->n] = p->z[j];
        q->cyc[q->n++] = p->cyc[j];
    }
}

/* Fit the variant of p without its wild points but `keep` into all (q: its points). */
static size_t fit_variant(const struct lpoints *p, bool *wild, size_t keep, struct lpoints *q,
                          double min_step, struct model *all)
{
    bool was = keep < p->n && wild[keep];
    if (keep < p->n)
        wild[keep] = false;
    keep_unflagged(p, wild, q);
    if (keep < p->n)
        wild[keep] = was;
    q->quantum_ns = lpoints_print_resolution(q);
    return model_fit_all(q, min_step, all);
}

/* Two neighbouring wild points are mostly one wild point beside a step's one point, which would
 * go with it: each is kept in turn (when it is not wild without the other) and of the two
 * curves the one whose best model costs less (both at the smaller noise estimate) is fitted. */
size_t model_fit_without_wild(const struct lpoints *p, struct lpoints *q, double min_step,
                              struct model *all)
{
    bool wild[LEVELS_MAX_POINTS];
    size_t j, nall = 0;
    flag_wild(p, wild);
    if (!wild_pair(p, wild, &j))
        return fit_variant(p, wild, p->n, q, min_step, all);
    struct lpoints *alt = plat_alloc(sizeof(*alt));
    struct model *alt_all = plat_alloc((MODEL_MAX_LEVELS + 1) * sizeof(*alt_all));
    for (size_t keep = j; alt && alt_all && keep <= j + 1; keep++) {
        if (wild_alone(p, keep, keep == j ? j + 1 : j))
            continue;
        size_t nalt = fit_variant(p, wild, keep, alt, min_step, alt_all);
        if (nall) {
            double var = kfmin(model_residual_variance(all, nall, q->n),
                               model_residual_variance(alt_all, nalt, alt->n));
            if (model_criterion_cost(alt_all, nalt, alt->n, var) >=
                model_criterion_cost(all, nall, q->n, var))
                continue;
        }
        *q = *alt;
        for (size_t i = 0; i < nalt; i++)
            all[i] = alt_all[i];
        nall = nalt;
    }
    plat_free(alt);
    plat_free(alt_all);
    return nall ? nall : fit_variant(p, wild, p->n, q, min_step, all);
}
