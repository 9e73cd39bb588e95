// SPDX-License-Identifier: MIT
// Wild points of a sparse curve: spikes and dips off both neighbours, and points that fall against
// the curve's rise, left out of the model fit.
//
// A curve rises through a step monotonically, so a point off both its neighbours the same way is
// a spike or a dip, never a plateau of one point, and a point well under the two before it is a
// dip even where it lies between its neighbours (on a step's first risen point). Two wild points
// side by side are mostly one wild point beside a step's one point (a dip right after it makes
// the step's point look like a spike): which of the two is wild the neighbours cannot say, the
// fit does (levels_model.c). Three or more side by side are mostly one or two that made their
// neighbours look wild: the fewest of them that leave the others consistent stay flagged.
#include "analysis/interpret.h"
#include "analysis/levels_model_int.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "platform.h"

/* Wild points a note lists by size. */
#define WILD_NOTE_SIZES 4
/* A point this far (ln: 30%) off both its neighbours in the same direction is wild. */
#define WILD_LN 0.26

/* How far (ln) point j of p lies beyond both of its neighbours a and b the same way, 0 when it
 * lies between them (p->n: none, then the line through a2 and b, or a and b2, the two points on
 * the other side, stands in). */
static double off_by(const struct lpoints *p, size_t j, size_t a, size_t b, size_t a2, size_t b2)
{
    double ya, yb;
    if (a < p->n && b < p->n) {
        ya = p->y[a];
        yb = p->y[b];
    } else if (a < p->n) { /* the last point: the line through the two before it */
        ya = p->y[a];
        yb = 2 * p->y[a] - p->y[a2];
    } else { /* the first point: the line through the two after it */
        yb = p->y[b];
        ya = 2 * p->y[b] - p->y[b2];
    }
    return kfmax(kfmax(p->y[j] - kfmax(ya, yb), kfmin(ya, yb) - p->y[j]), 0);
}

/* Whether point j of p is off both of its neighbours a and b (indices; p->n: none, then the line
 * through the two points on the other side stands in) by more than WILD_LN the same way. */
static bool off_both(const struct lpoints *p, size_t j, size_t a, size_t b)
{
    return off_by(p, j, a, b, a < p->n && a > 0 ? a - 1 : p->n, b + 1 < p->n ? b + 1 : p->n) >
           WILD_LN;
}

/* A point this far (ln: 12%, the smallest step between two levels) under both of the two points
 * before it, or over both of the two after it, and by at least two print steps, goes against the
 * curve's rise: a random chase's latency never falls as its buffer grows. */
#define FALL_LN 0.113

/* How far (ln) beyond FALL_LN point j of p falls under both of the points c1 and c2 before it,
 * or over both of d1 and d2 after it, by two print steps of quantum too (p->n: none); 0 when
 * it does not go against the rise. */
static double fall_by(const struct lpoints *p, size_t j, size_t c1, size_t c2, size_t d1, size_t d2,
                      double quantum)
{
    double by = 0;
    if (c2 < p->n) {
        double below = kfmin(p->ns[c1], p->ns[c2]);
        if (below - p->ns[j] >= 2 * quantum)
            by = kfmax(by, kln(below / p->ns[j]) - FALL_LN);
    }
    if (d2 < p->n) {
        double above = kfmax(p->ns[d1], p->ns[d2]);
        if (p->ns[j] - above >= 2 * quantum)
            by = kfmax(by, kln(p->ns[j] / above) - FALL_LN);
    }
    return by;
}

double lpoints_fall(const double *y, size_t n, double quantum)
{
    double fall = 0;
    for (size_t i = 0; i + 1 < n; i++)
        if (kexp(y[i]) - kexp(y[i + 1]) >= 2 * quantum)
            fall += kfmax(y[i] - y[i + 1] - FALL_LN, 0);
    return fall;
}

/* The k-th point (1, 2) before j (dir < 0) or after it not flagged in wild; p->n: none. */
static size_t unflagged(const struct lpoints *p, const bool *wild, size_t j, int dir, int k)
{
    for (size_t i = j;;) {
        if (dir < 0 ? i == 0 : i + 1 >= p->n)
            return p->n;
        i = dir < 0 ? i - 1 : i + 1;
        if (!wild[i] && --k == 0)
            return i;
    }
}

/* How far point j of p is wild against its nearest points not flagged in wild: beyond WILD_LN
 * off both, or beyond FALL_LN against the rise; 0 when it is not. */
static double wild_by(const struct lpoints *p, const bool *wild, size_t j, double quantum)
{
    size_t a = unflagged(p, wild, j, -1, 1), b = unflagged(p, wild, j, 1, 1);
    size_t a2 = unflagged(p, wild, j, -1, 2), b2 = unflagged(p, wild, j, 1, 2);
    if ((a == p->n && b2 == p->n) || (b == p->n && a2 == p->n))
        return 0;
    return kfmax(off_by(p, j, a, b, a2, b2) - WILD_LN, fall_by(p, j, a, a2, b, b2, quantum));
}

/* Longest run of wild points judged again (2^RUN_MAX subsets are tried). */
#define RUN_MAX 8

/* With the points of run r..e-1 in mask flagged (the rest of the run not), whether none of the
 * others is wild against its nearest unflagged points; *fall gets how far (ln) the points kept,
 * from the one before the run to the one after it, fall in all, and *by how far off their
 * nearest unflagged points the flagged ones lie, summed. */
static bool run_explained(const struct lpoints *p, bool *wild, size_t r, size_t e, unsigned mask,
                          double quantum, double *fall, double *by)
{
    for (size_t i = r; i < e; i++)
        wild[i] = mask >> (i - r) & 1;
    *by = *fall = 0;
    size_t prev = unflagged(p, wild, r, -1, 1);
    for (size_t i = r; i <= e && i < p->n; i++) {
        if (i == e || !wild[i]) {
            if (prev < p->n)
                *fall += kfmax(p->y[prev] - p->y[i], 0);
            prev = i;
        }
        if (i == e)
            break;
        wild[i] = false;
        double off = wild_by(p, wild, i, quantum);
        wild[i] = mask >> (i - r) & 1;
        if (wild[i])
            *by += off;
        else if (off > 0)
            return false;
    }
    return true;
}

/* Three or more wild points side by side are mostly one or two whose neighbours were judged
 * against them: a 2.5x spike in the middle of a three-point plateau makes the first point lie
 * off the line through the next two, and the third under both the spike and the next level.
 * Such a run keeps flagged the fewest of its points that leave none of the others wild against
 * their nearest unflagged points; of equally few, those that leave the curve falling least (a
 * random chase's latency never falls: two spikes and two dips alternating leave either the
 * spikes or the dips consistent with their neighbours), then those furthest off. When only the
 * whole run does, it stays flagged. */
static void resolve_runs(const struct lpoints *p, bool *wild, double quantum)
{
    for (size_t r = 0; r < p->n;) {
        size_t e = r;
        while (e < p->n && wild[e])
            e++;
        if (e - r >= 3 && e - r <= RUN_MAX) {
            unsigned all = (1u << (e - r)) - 1, best = all;
            int fewest = (int)(e - r);
            double least = KM_INF, most = 0, fall, by;
            for (unsigned mask = 1; mask < all; mask++) {
                int count = 0;
                for (unsigned m = mask; m; m &= m - 1)
                    count++;
                if (count > fewest || !run_explained(p, wild, r, e, mask, quantum, &fall, &by))
                    continue;
                if (count < fewest || fall < least - 1e-9 || (fall < least + 1e-9 && by > most)) {
                    best = mask;
                    fewest = count;
                    least = fall;
                    most = by;
                }
            }
            for (size_t i = r; i < e; i++)
                wild[i] = best >> (i - r) & 1;
        }
        r = e > r ? e : r + 1;
    }
}

double lpoints_wild_by(const struct lpoints *p, size_t j)
{
    static const bool none[LEVELS_MAX_POINTS];
    return wild_by(p, none, j, lpoints_print_resolution(p));
}

/* Flag p's wild points in wild: off both neighbours by more than WILD_LN the same way (at an end,
 * off the line through the next two), or against the rise, each judged against all the others;
 * runs of three or more judged again. */
static void flag_wild(const struct lpoints *p, bool *wild)
{
    static const bool none[LEVELS_MAX_POINTS];
    double quantum = lpoints_print_resolution(p);
    for (size_t j = 0; j < p->n; j++)
        wild[j] = wild_by(p, none, j, quantum) > 0;
    resolve_runs(p, wild, quantum);
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

void model_note_wild(const struct lpoints *p, const struct lpoints *q, double ns_offset,
                     struct detection *d)
{
    char list[LEVELS_NOTE_CHARS] = "", sz[32];
    size_t len = 0, left = 0;
    for (size_t i = 0, j = 0; i < p->n; i++) {
        if (j < q->n && q->x[j] == p->x[i]) {
            j++;
            continue;
        }
        analysis_size(sz, sizeof(sz), kexp2(p->x[i]));
        if (left++ < WILD_NOTE_SIZES && len + 40 < sizeof(list))
            len += (size_t)ksnprintf(list + len, sizeof(list) - len, "%s%s (%.1f ns)",
                                     left > 1 ? ", " : "", sz, p->ns[i] - ns_offset);
    }
    if (left > WILD_NOTE_SIZES)
        ksnprintf(list + len, sizeof(list) - len, " and %zu more", left - WILD_NOTE_SIZES);
    if (left)
        levels_note(d,
                    "left out of the fit as wild (off both neighbours, or falling against "
                    "the rise): %s",
                    list);
}
