// SPDX-License-Identifier: MIT
// A witness for a sparse curve's wild points: the same sizes measured apart (tinymembench's dual
// random read beside its single one).
//
// A second curve measured in a loop of its own has noise and wild points of its own, and its ratio
// to the first changes only slowly from level to level (the dual read costs 1.1..1.8 times the
// single one over L1). Where the ratio at one point leaves its neighbours' ratio by more than
// WITNESS_LN, one of the two curves is wild there. When the curve's own wild rule (levels_wild.c)
// flags its point and not the witness's, the curve's point is replaced by the witness times the
// neighbours' ratio: left out, as without a witness, it could no longer say where its step is,
// and beside a step it made its neighbour look wild too (a pair the fit had to guess). Otherwise
// the curve is left as it is: a wild point on one of the two points that decide where a step is
// lies between its neighbours (a plateau's last point read 2.5x, a step's first read 0.35x), and
// which of the two curves has it the points cannot say.
#include "analysis/interpret.h"
#include "analysis/levels_model_int.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "platform.h"

/* The ratio (ln) at a point this far from its neighbours' ratio marks a wild point in one of the
 * two curves: above how far the dual read's ratio moves between levels (ln 1.8 / 1.1 = 0.49 at
 * most, and a point's neighbours lie on both sides of it), below the wild points' 2.5x. */
#define WITNESS_LN 0.45
/* Neighbours on each side whose ratio is the reference. */
#define WITNESS_REACH 2

/* Index of w's point at p's size x, w->n when none. */
static size_t match(const struct lpoints *w, double x)
{
    for (size_t k = 0; k < w->n; k++)
        if (kfabs(w->x[k] - x) < 1e-9)
            return k;
    return w->n;
}

/* Whether at point j of p (k of w), where one of the two is wild, p is: its own wild rule flags
 * p's point and not w's. When it flags neither or both, the curve keeps its reading: it is right as
 * often as its witness (tried: leaving such points out cost more levels than it saved). */
static bool curve_is_wild(const struct lpoints *p, size_t j, const struct lpoints *w, size_t k)
{
    return lpoints_wild_by(p, j) > 0 && !(lpoints_wild_by(w, k) > 0);
}

/* Append "size (a for b ns)" of point j to the list at *len. */
static void list_point(char *list, size_t cap, size_t *len, const struct lpoints *p, size_t j,
                       double a, double b)
{
    char sz[32];
    analysis_size(sz, sizeof(sz), kexp2(p->x[j]));
    if (*len + 48 < cap)
        *len += (size_t)ksnprintf(list + *len, cap - *len, "%s%s (%.1f for %.1f ns)",
                                  *len ? ", " : "", sz, a, b);
}

/* ns on p's print grid of step q (0: none): a mended point printed as the curve prints, so that
 * the detector still reads the resolution off the points (levels_null.c) and does not take two
 * rounded readings of one plateau for two levels. */
static double on_grid(double ns, double q)
{
    double r = q > 0 ? kfloor(ns / q + 0.5) * q : ns;
    return r > 0 ? r : ns;
}

void lpoints_apply_witness(struct lpoints *p, const struct lpoints *w, double ns_offset,
                           struct detection *d)
{
    double r[LEVELS_MAX_POINTS], fixed[LEVELS_MAX_POINTS];
    size_t at[LEVELS_MAX_POINTS];
    double q = lpoints_print_resolution(p);
    for (size_t j = 0; j < p->n; j++) {
        at[j] = match(w, p->x[j]);
        r[j] = at[j] < w->n ? p->y[j] - w->y[at[j]] : KM_NAN;
    }
    /* fixed: the mended ln latency, NaN: the point is kept as it is. */
    for (size_t j = 0; j < p->n; j++) {
        fixed[j] = KM_NAN;
        if (!kisfinite(r[j]))
            continue;
        double v[2 * WITNESS_REACH];
        size_t nv = 0;
        for (size_t i = j >= WITNESS_REACH ? j - WITNESS_REACH : 0;
             i <= j + WITNESS_REACH && i < p->n; i++)
            if (i != j && kisfinite(r[i]))
                v[nv++] = r[i];
        double ref = nv >= 2 ? lpoints_median(v, nv) : KM_NAN;
        if (kisfinite(ref) && kfabs(r[j] - ref) > WITNESS_LN && curve_is_wild(p, j, w, at[j]))
            fixed[j] = kln(on_grid(kexp(w->y[at[j]] + ref), q));
    }
    char list[LEVELS_NOTE_CHARS] = "";
    size_t len = 0;
    for (size_t j = 0; j < p->n; j++) {
        if (!kisfinite(fixed[j]))
            continue;
        list_point(list, sizeof(list), &len, p, j, kexp(fixed[j]) - ns_offset,
                   p->ns[j] - ns_offset);
        p->y[j] = fixed[j];
        p->ns[j] = kexp(fixed[j]);
    }
    if (len) { /* the first mended point always fits the list */
        lpoints_smooth(p);
        levels_note(d, "wild where the curve measured apart disagrees, taken from it: %s", list);
    }
}
