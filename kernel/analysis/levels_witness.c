// SPDX-License-Identifier: MIT
// A witness for a sparse curve's wild points: the same sizes measured apart (tinymembench's dual
// random read beside its single one).
//
// A second curve measured in a loop of its own has noise and wild points of its own, and its ratio
// to the first changes only slowly from level to level (the dual read costs 1.1..1.8 times the
// single one over L1). Where the ratio at one point leaves its neighbours' ratio by more than
// WITNESS_LN, one of the two curves is wild there: the point is disputed. A disputed point's
// witness value is the witness times the ratio at its nearest undisputed neighbours (two wild
// points side by side pull each other's neighbours off, so the dispute is judged twice, the
// second time without the points disputed the first). The curve takes the witness values of the
// fewest disputed points that leave it falling least against the rise (a random chase's latency
// never falls as its buffer grows), and then of those its own wild rule (levels_wild.c) flags
// where the witness's does not (a spike or a dip at an end). Left out instead, as without a
// witness, a wild point could no longer say where its step is, and beside a step it made its
// neighbour look wild too (a pair the fit had to guess). Otherwise the curve is left as it is: a
// wild point on one of the two points that decide where a step is lies between its neighbours (a
// plateau's last point read 2.5x, a step's first read 0.35x), and which of the two curves has it
// the points cannot say.
#include "analysis/interpret.h"
#include "analysis/levels_model_int.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
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

/* The reference ratio at point j: the median of r (n points) at the nearest WITNESS_REACH points
 * on each side with a ratio that are not in skip (NULL: none skipped); NaN with fewer than two. */
static double reference(const double *r, size_t n, size_t j, const bool *skip)
{
    double v[2 * WITNESS_REACH];
    size_t nv = 0;
    for (int dir = -1; dir <= 1; dir += 2) {
        size_t found = 0;
        for (size_t i = j; found < WITNESS_REACH;) {
            if (dir < 0 ? i == 0 : i + 1 >= n)
                break;
            i = dir < 0 ? i - 1 : i + 1;
            if (kisfinite(r[i]) && !(skip && skip[i])) {
                v[nv++] = r[i];
                found++;
            }
        }
    }
    return nv >= 2 ? lpoints_median(v, nv) : KM_NAN;
}

/* Disputed points searched for the mends that leave the curve falling least (2^n subsets). */
#define WITNESS_SEARCH_MAX 12

/* Of the points with a witness value (cand finite), set in fixed the fewest whose witness values
 * leave p falling least against the rise (p's print step q); none when more than
 * WITNESS_SEARCH_MAX have one. Of sets as few that fall as little, the first in the search's
 * order wins (of single points, the smallest size): two wild points side by side, one in each
 * read, leave no fall either way, and the points cannot say which is which (docs/report.md,
 * seventeenth pass). */
static void least_fall(const struct lpoints *p, const double *cand, double q, double *fixed)
{
    size_t idx[WITNESS_SEARCH_MAX], nd = 0;
    for (size_t j = 0; j < p->n; j++)
        if (kisfinite(cand[j])) {
            if (nd == WITNESS_SEARCH_MAX)
                return;
            idx[nd++] = j;
        }
    double y[LEVELS_MAX_POINTS], least = KM_INF;
    unsigned best = 0;
    int fewest = 0;
    for (unsigned mask = 0; mask < 1u << nd; mask++) {
        kmemcpy(y, p->y, p->n * sizeof(*y));
        int count = 0;
        for (size_t k = 0; k < nd; k++)
            if (mask >> k & 1) {
                y[idx[k]] = cand[idx[k]];
                count++;
            }
        double fall = lpoints_fall(y, p->n, q);
        if (fall < least - 1e-9 || (fall < least + 1e-9 && count < fewest)) {
            least = fall;
            best = mask;
            fewest = count;
        }
    }
    for (size_t k = 0; k < nd; k++)
        if (best >> k & 1)
            fixed[idx[k]] = cand[idx[k]];
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

/* The witness's value at each disputed point of p (NaN elsewhere) into cand: the witness times
 * the ratio at the nearest points on each side not disputed, at least ns_offset (a time over L1
 * is never negative), on p's print grid q. A point is disputed when its ratio leaves the median
 * of its neighbours' by more than WITNESS_LN, and again when it does so with the points disputed
 * the first time left out of the median: two wild points side by side pull each other's median
 * off. */
static void witness_values(const struct lpoints *p, const struct lpoints *w, const size_t *at,
                           double ns_offset, double q, double *cand)
{
    double r[LEVELS_MAX_POINTS];
    bool first[LEVELS_MAX_POINTS], disputed[LEVELS_MAX_POINTS];
    for (size_t j = 0; j < p->n; j++)
        r[j] = at[j] < w->n ? p->y[j] - w->y[at[j]] : KM_NAN;
    for (int pass = 0; pass < 2; pass++)
        for (size_t j = 0; j < p->n; j++) {
            double ref = kisfinite(r[j]) ? reference(r, p->n, j, pass ? first : NULL) : KM_NAN;
            bool off = kisfinite(ref) && kfabs(r[j] - ref) > WITNESS_LN;
            if (pass)
                disputed[j] = first[j] || off;
            else
                first[j] = off;
        }
    for (size_t j = 0; j < p->n; j++) {
        double ref = disputed[j] ? reference(r, p->n, j, disputed) : KM_NAN;
        cand[j] =
            kisfinite(ref) ? kln(kfmax(on_grid(kexp(w->y[at[j]] + ref), q), ns_offset)) : KM_NAN;
    }
}

void lpoints_apply_witness(struct lpoints *p, const struct lpoints *w, double ns_offset,
                           struct detection *d)
{
    double cand[LEVELS_MAX_POINTS], fixed[LEVELS_MAX_POINTS], was[LEVELS_MAX_POINTS];
    size_t at[LEVELS_MAX_POINTS];
    double q = lpoints_print_resolution(p);
    for (size_t j = 0; j < p->n; j++) {
        at[j] = match(w, p->x[j]);
        fixed[j] = KM_NAN; /* the mended ln latency, NaN: the point is kept as it is */
        was[j] = p->ns[j];
    }
    witness_values(p, w, at, ns_offset, q, cand);
    least_fall(p, cand, q, fixed);
    for (size_t j = 0; j < p->n; j++)
        if (kisfinite(fixed[j])) {
            p->y[j] = fixed[j];
            p->ns[j] = kexp(fixed[j]);
        }
    bool wild[LEVELS_MAX_POINTS];
    for (size_t j = 0; j < p->n; j++)
        wild[j] = kisfinite(cand[j]) && !kisfinite(fixed[j]) && curve_is_wild(p, j, w, at[j]);
    char list[LEVELS_NOTE_CHARS] = "";
    size_t len = 0;
    for (size_t j = 0; j < p->n; j++) {
        if (wild[j])
            fixed[j] = cand[j];
        if (!kisfinite(fixed[j]))
            continue;
        list_point(list, sizeof(list), &len, p, j, kexp(fixed[j]) - ns_offset, was[j] - ns_offset);
        p->y[j] = fixed[j];
        p->ns[j] = kexp(fixed[j]);
    }
    if (len) { /* the first mended point always fits the list */
        lpoints_smooth(p);
        levels_note(d, "wild where the curve measured apart disagrees, taken from it: %s", list);
    }
}
