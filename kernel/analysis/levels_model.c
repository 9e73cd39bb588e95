// SPDX-License-Identifier: MIT
// The level detector for sparse curves: the latency model fitted with k levels, k by a test.
//
// With about one point per octave (tinymembench, multichase) a plateau is one or two points and
// a soft step never flattens between two levels, so straight pieces cannot tell a plateau from
// a step: any two points make an exact piece. Here the curve is explained instead by the
// latency model E(N) = sum_i l_i (h_i - h_(i-1)) + l_mem (1 - h_k) r(N), h_i = min(1, S_i/N)^p_i,
// r(N) memory's contention ramp, whose soft steps approach each plateau as the data do; each
// level has its own sharpness p_i (a sharp LRU L1 and a soft random-replacement L3). Models
// with k = 0, 1, ... levels are fitted forward (one level added at a time) and then backward
// (each refitted from the next with one level removed). A level costs the same however few
// points it has: 3 ln n in units of the noise variance (its latency, and its size counted
// twice: a change point chosen among many places); the count with the lowest
// rss / sigma^2 + 3 k ln n is then pruned by a likelihood-ratio test whose null distribution is
// simulated (levels_null.c). Wild points (off both neighbours the same way; levels_wild.c) are
// left out first; sizes are searched on a grid, then refined off it. The level count is chosen
// from the fits polished further (model_polish: each size also slid along the curved valley in
// which one partly risen point holds its size and sharpness), the places from the fits before:
// a sharp step stuck on the valley's side looked like a misfit that a spare level mended, while
// the polished fits run to extreme sharpness, which one point per octave leaves free, and move
// where chase-sim's steps are read (twelfth pass in docs/report.md).
#include "analysis/levels_model_int.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "platform.h"

/* The size grid the search walks (log2 bytes). */
#define GRID_OCTAVES 0.25
/* Sharpness values tried: 1 is random replacement, larger the sharp steps of LRU-like caches. */
static const double sharpness[] = {1.0, 1.5, 2.0, 3.0, 4.5, 7.0};
#define NSHARP (sizeof(sharpness) / sizeof(sharpness[0]))
/* Memory's rise per octave tried (ln): flat, and the few % per octave of a contended host. */
static const double ramps[] = {0.0, 0.03};
#define NRAMP (sizeof(ramps) / sizeof(ramps[0]))
#define RAMP_MAX 0.15
#define SHARPNESS_MIN 1.0
#define SHARPNESS_MAX 12.0
/* Memory is at least this much slower than the last cache (levels.c's MEMORY_FACTOR): a
 * "level" closer to memory's latency is memory seen through noise or contention. */
#define MEMORY_OVER_CACHE 1.3
/* MODEL_PARAMS_PER_LEVEL (levels_model_int.h) does not count a level's own sharpness: at one
 * point per octave a step has one or two points on it, which leave its sharpness nearly free (it
 * trades off against the size) rather than fitting noise away; counting it too made the noise
 * estimate larger and merged true levels (tune: multichase 97% -> 93%). */
/* A step starts where the model has made this share of its ln rise (10%, as in a rise time). */
#define STEP_START_FRACTION 0.1
/* Coordinate-descent sweeps per fit. */
#define MAX_SWEEPS 8

/* Solve the n x n system a x = b in place (Gaussian elimination, partial pivoting). */
static bool solve(double a[][MODEL_MAX_LEVELS + 1], double *b, size_t n)
{
    for (size_t c = 0; c < n; c++) {
        size_t piv = c;
        for (size_t r = c + 1; r < n; r++)
            if (kfabs(a[r][c]) > kfabs(a[piv][c]))
                piv = r;
        if (kfabs(a[piv][c]) < 1e-12)
            return false;
        for (size_t j = 0; j < n; j++) {
            double t = a[c][j];
            a[c][j] = a[piv][j];
            a[piv][j] = t;
        }
        double t = b[c];
        b[c] = b[piv];
        b[piv] = t;
        for (size_t r = c + 1; r < n; r++) {
            double f = a[r][c] / a[c][c];
            for (size_t j = c; j < n; j++)
                a[r][j] -= f * a[c][j];
            b[r] -= f * b[c];
        }
    }
    for (size_t c = n; c-- > 0;) {
        for (size_t j = c + 1; j < n; j++)
            b[c] -= a[c][j] * b[j];
        b[c] /= a[c][c];
    }
    return true;
}

/* Shares of each level (and memory, last) in the chase of 2^x bytes. */
static void shares(const struct model *m, double x, double *w)
{
    double prev = 0;
    for (size_t i = 0; i < m->k; i++) {
        double h = m->s[i] >= x ? 1 : kexp2((m->s[i] - x) * m->p[i]);
        w[i] = h - prev;
        prev = h;
    }
    double beyond = m->k ? x - m->s[m->k - 1] : 0;
    w[m->k] = (1 - prev) * (beyond > 0 ? kexp(m->ramp * beyond) : 1);
}

/* Latencies for m's sizes and sharpness by least squares on relative errors. A model whose levels
 * are not each at least min_step (ln) slower than the one before is not valid: a cache is faster
 * than what is behind it. */
static bool fit_latencies(const struct lpoints *p, struct model *m, double min_step)
{
    size_t q = m->k + 1;
    double a[MODEL_MAX_LEVELS + 1][MODEL_MAX_LEVELS + 1] = {{0}}, b[MODEL_MAX_LEVELS + 1] = {0};
    double w[MODEL_MAX_LEVELS + 1];
    for (size_t j = 0; j < p->n; j++) {
        double inv = 1 / p->ns[j]; /* relative errors: each share over the point's latency */
        shares(m, p->x[j], w);
        for (size_t r = 0; r < q; r++)
            w[r] *= inv;
        for (size_t r = 0; r < q; r++) {
            for (size_t c = 0; c <= r; c++)
                a[r][c] += w[r] * w[c];
            b[r] += w[r];
        }
    }
    for (size_t r = 0; r < q; r++) /* the normal equations are symmetric */
        for (size_t c = r + 1; c < q; c++)
            a[r][c] = a[c][r];
    if (!solve(a, b, q))
        return false;
    for (size_t i = 0; i < q; i++) {
        if (!(b[i] > 0) || (i > 0 && kln(b[i] / b[i - 1]) < min_step))
            return false;
        /* Rounding to the printed resolution moves a plateau by up to half of it: two levels
         * less than one resolution apart may be one level, rounded. */
        if (i > 0 && b[i] - b[i - 1] < 2 * p->quantum_ns)
            return false;
        if (i == m->k && i > 0 && b[i] < MEMORY_OVER_CACHE * b[i - 1])
            return false;
        m->l[i] = b[i];
    }
    return true;
}

/* Squared ln residual of point j under m. */
static double residual2(const struct lpoints *p, const struct model *m, size_t j)
{
    double w[MODEL_MAX_LEVELS + 1], e = 0;
    shares(m, p->x[j], w);
    for (size_t i = 0; i <= m->k; i++)
        e += w[i] * m->l[i];
    double r = p->y[j] - kln(e);
    return r * r;
}

/* Fit m's latencies and score it: the sum of squared ln residuals. */
static void evaluate(const struct lpoints *p, struct model *m, double min_step)
{
    m->rss = KM_INF;
    if (!fit_latencies(p, m, min_step))
        return;
    double rss = 0;
    for (size_t j = 0; j < p->n; j++)
        rss += residual2(p, m, j);
    m->rss = rss;
}

/* Whether m's sizes leave a point on every level and on memory: a level without a point of its
 * own is not seen by the curve. */
static bool sizes_valid(const struct lpoints *p, const struct model *m)
{
    size_t j = 0;
    for (size_t i = 0; i <= m->k; i++) {
        double top = i < m->k ? m->s[i] : KM_INF;
        double bottom = i > 0 ? m->s[i - 1] : -KM_INF;
        while (j < p->n && p->x[j] <= bottom)
            j++;
        if (j >= p->n || p->x[j] > top)
            return false;
    }
    return true;
}

/* Evaluate m with its own sharpness per level and with each sharpness of the grid for all
 * levels, then each level's sharpness in turn over the grid (a sharp L1 and a soft L3 are far
 * apart for the pattern search's small steps), keeping the best. */
double model_fit_sharpness(const struct lpoints *p, struct model *m, double min_step)
{
    struct model best = *m;
    if (!sizes_valid(p, m)) {
        m->rss = KM_INF;
        return KM_INF;
    }
    evaluate(p, &best, min_step);
    for (size_t i = 0; i < NSHARP * NRAMP; i++) {
        struct model t = *m;
        for (size_t j = 0; j < t.k; j++)
            t.p[j] = sharpness[i % NSHARP];
        t.ramp = ramps[i / NSHARP];
        evaluate(p, &t, min_step);
        if (t.rss < best.rss)
            best = t;
    }
    for (size_t j = 0; j < best.k; j++)
        for (size_t i = 0; i < NSHARP; i++) {
            struct model t = best;
            t.p[j] = sharpness[i];
            evaluate(p, &t, min_step);
            if (t.rss < best.rss)
                best = t;
        }
    *m = best;
    return best.rss;
}

/* Move each size in turn to its best place on the grid until nothing improves. */
static void descend(const struct lpoints *p, struct model *m, double min_step)
{
    double lo = p->x[0], hi = p->x[p->n - 1];
    for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
        bool moved = false;
        for (size_t i = 0; i < m->k; i++) {
            double from = i > 0 ? m->s[i - 1] : lo, to = i + 1 < m->k ? m->s[i + 1] : hi;
            for (double s = from; s < to; s += GRID_OCTAVES) {
                struct model t = *m;
                t.s[i] = s;
                if (model_fit_sharpness(p, &t, min_step) < m->rss * (1 - 1e-9)) {
                    *m = t;
                    moved = true;
                }
            }
        }
        if (!moved)
            return;
    }
}

/* Try one changed parameter of m; keep it when the fit improves. */
static bool try_change(const struct lpoints *p, struct model *m, const struct model *t,
                       double min_step)
{
    struct model c = *t;
    if (!sizes_valid(p, &c))
        return false;
    for (size_t i = 0; i < c.k; i++)
        if (c.p[i] < SHARPNESS_MIN || c.p[i] > SHARPNESS_MAX)
            return false;
    evaluate(p, &c, min_step);
    if (!(c.rss < m->rss * (1 - 1e-9)))
        return false;
    *m = c;
    return true;
}

/* m with parameter i moved one step in direction dir: sizes 0..k-1, each level's sharpness
 * k..2k-1, all sharpness together 2k, memory's ramp 2k+1. */
static void nudge(struct model *t, size_t i, int dir, double step)
{
    double f = dir > 0 ? 1 + 2 * step : 1 / (1 + 2 * step);
    if (i < t->k)
        t->s[i] += dir * step;
    else if (i < 2 * t->k)
        t->p[i - t->k] *= f;
    else if (i == 2 * t->k)
        for (size_t j = 0; j < t->k; j++)
            t->p[j] *= f;
    else
        t->ramp = kfmin(kfmax(t->ramp + dir * step / 8, 0), RAMP_MAX);
}

/* m with level i's size moved by d (log2) along its valley: its sharpness changed so that its
 * share at the first point past it stays, (S/x)^p, which one point on a step pins down; false
 * when the move would cross that point. */
static bool slide(const struct lpoints *p, struct model *t, size_t i, double d)
{
    size_t j = 0;
    while (j < p->n && p->x[j] <= t->s[i])
        j++;
    if (j >= p->n || t->s[i] + d >= p->x[j])
        return false;
    t->p[i] *= (p->x[j] - t->s[i]) / (p->x[j] - t->s[i] - d);
    t->s[i] += d;
    return true;
}

/* Refine sizes and sharpness off the grid by a pattern search with shrinking steps: the grid
 * alone leaves transition points misfit, which a spurious level would then explain. With
 * valley, each size is also slid along its valley (slide). */
static void refine(const struct lpoints *p, struct model *m, double min_step, bool valley)
{
    for (double step = GRID_OCTAVES / 2; step > GRID_OCTAVES / 16; step /= 2) {
        for (int sweep = 0; sweep < MAX_SWEEPS; sweep++) {
            bool moved = false;
            for (size_t i = 0; i <= 2 * m->k + 1; i++) {
                for (int dir = -1; dir <= 1; dir += 2) {
                    struct model t = *m;
                    nudge(&t, i, dir, step);
                    moved |= try_change(p, m, &t, min_step);
                    t = *m;
                    if (valley && i < m->k && slide(p, &t, i, dir * step))
                        moved |= try_change(p, m, &t, min_step);
                }
            }
            if (!moved)
                break;
        }
    }
}

/* The best model with one level more than m: each grid place for the new size, then descent. */
void model_add_level(const struct lpoints *p, const struct model *m, struct model *out,
                     double min_step)
{
    out->k = m->k + 1;
    out->rss = KM_INF;
    for (double s = p->x[0]; s < p->x[p->n - 1]; s += GRID_OCTAVES) {
        struct model t = {.k = m->k + 1, .ramp = m->ramp};
        size_t i = 0, o = 0;
        for (; i < m->k && m->s[i] < s; i++, o++) {
            t.s[o] = m->s[i];
            t.p[o] = m->p[i];
        }
        t.s[o] = s;
        t.p[o++] = m->k ? m->p[i < m->k ? i : m->k - 1] : sharpness[0];
        for (; i < m->k; i++, o++) {
            t.s[o] = m->s[i];
            t.p[o] = m->p[i];
        }
        if (model_fit_sharpness(p, &t, min_step) < out->rss)
            *out = t;
    }
    if (kisfinite(out->rss)) {
        descend(p, out, min_step);
        refine(p, out, min_step, false);
    }
}

/* Refit m from its sizes: the best sharpness, then each size on the grid, then off the grid. */
void model_refit(const struct lpoints *p, struct model *m, double min_step)
{
    model_fit_sharpness(p, m, min_step);
    if (kisfinite(m->rss)) {
        descend(p, m, min_step);
        refine(p, m, min_step, false);
    }
}

void model_drop_level(struct model *m, size_t i)
{
    for (size_t j = i; j + 1 < m->k; j++) {
        m->s[j] = m->s[j + 1];
        m->p[j] = m->p[j + 1];
    }
    m->k--;
}

void model_polish(const struct lpoints *p, struct model *m, double min_step)
{
    if (kisfinite(m->rss))
        refine(p, m, min_step, true);
}

size_t model_fit_all(const struct lpoints *q, double min_step, struct model *all)
{
    struct model cur = {.k = 0};
    model_fit_sharpness(q, &cur, min_step);
    size_t nall = 0, kmax = q->n / 3 < MODEL_MAX_LEVELS ? q->n / 3 : MODEL_MAX_LEVELS;
    all[nall++] = cur;
    while (cur.k < kmax) {
        struct model next;
        model_add_level(q, &cur, &next, min_step);
        if (!kisfinite(next.rss))
            break;
        all[nall++] = next;
        cur = next;
    }
    /* Backward: each model with one level fewer, refitted from the richer one's other levels,
     * replaces the forward one when it fits better. Adding levels one at a time can trap a
     * level in a wrong place (a sharp step a gap late) that a further level then makes up for;
     * without this the extra level looked needed (tune: a 3-level curve read as 4). */
    for (size_t k = nall - 1; k-- > 1;)
        for (size_t i = 0; i <= k; i++) {
            struct model t = all[k + 1];
            model_drop_level(&t, i);
            model_refit(q, &t, min_step);
            if (t.rss < all[k].rss * (1 - 1e-9))
                all[k] = t;
        }
    return nall;
}

/* ln of the model's latency at 2^x bytes. */
double model_ln(const struct model *m, double x)
{
    double w[MODEL_MAX_LEVELS + 1], e = 0;
    shares(m, x, w);
    for (size_t i = 0; i <= m->k; i++)
        e += w[i] * m->l[i];
    return kln(e);
}

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

/* Where level i's size is reported: the middle (log2) of the gap between the two points around
 * the place where the model leaves the level (has made STEP_START_FRACTION of its rise). At one
 * point per octave the data show the octave in which the curve leaves a plateau, not where in
 * it: that follows from the fitted sharpness, which one or two points on a step hardly determine
 * (a sharper step further in fits them as well: chase-sim's LRU caches read 1.4x low at the
 * gap's first point), so the gap's middle, at most sqrt(2) from any place in it, is the least
 * wrong. The start of the rise rather than its 30% point (dense curves): a soft step's 30% point
 * can fall an octave past the gap where the cache starts to miss. */
double model_step_place(const struct lpoints *p, const struct model *m, size_t i)
{
    double x = step_at(m, i, STEP_START_FRACTION);
    for (size_t j = 0; j + 1 < p->n; j++)
        if (p->x[j] <= x && x < p->x[j + 1])
            return 0.5 * (p->x[j] + p->x[j + 1]);
    return x;
}

/* The level count with the lowest known-variance criterion: rss / sigma^2 plus, per level, ln n
 * for its latency and twice that for its size, a change point chosen among many places
 * (modified BIC); *cost gets its cost. */
static size_t criterion_choice(const struct model *all, size_t nall, size_t n, double var,
                               double *cost)
{
    size_t bi = 0;
    *cost = KM_INF;
    for (size_t i = 0; i < nall; i++) {
        double c = all[i].rss / var + LEVEL_PENALTY * (double)all[i].k * kln((double)n);
        if (c < *cost) {
            *cost = c;
            bi = i;
        }
    }
    return bi;
}

/* The criterion's lowest cost among all[0..nall) with noise variance var. */
double model_criterion_cost(const struct model *all, size_t nall, size_t n, double var)
{
    double cost;
    criterion_choice(all, nall, n, var, &cost);
    return cost;
}

size_t lpoints_model_plateaus(const struct lpoints *p, double min_step, struct plateau *pl,
                              double ns_offset, struct detection *d)
{
    struct model all[MODEL_MAX_LEVELS + 1];
    struct lpoints *q = plat_alloc(sizeof(*q));
    if (!q || p->n < 4) {
        plat_free(q);
        pl[0] = (struct plateau){0, p->n ? p->n - 1 : 0, p->n ? p->z[0] : 0, KM_NAN, KM_NAN};
        return p->n ? 1 : 0;
    }
    size_t nall = model_fit_without_wild(p, q, min_step, all);
    model_note_wild(p, q, ns_offset, d);
    /* The count from the polished fits (and so the noise estimate and the test); the places
     * from all[], whose sharpness stays near the grid's. */
    struct model sure[MODEL_MAX_LEVELS + 1];
    for (size_t k = 0; k < nall; k++) {
        sure[k] = all[k];
        model_polish(q, &sure[k], min_step);
    }
    double cost;
    size_t bi =
        criterion_choice(sure, nall, q->n, model_residual_variance(sure, nall, q->n), &cost);
    /* The criterion's noise estimate comes from the richest models and is too small on noisy
     * curves: a level it keeps must also pass the simulated likelihood-ratio test. */
    while (bi > 0 && (!model_resolved(q, &all[bi], min_step) ||
                      !model_level_significant(q, &sure[bi - 1], &sure[bi], min_step)))
        bi--;
    struct model best = all[bi];
    /* Each level's plateau: its points, above the size before it and up to its own. */
    size_t m = 0, j = 0;
    for (size_t i = 0; i <= best.k; i++) {
        double top = i < best.k ? best.s[i] : KM_INF;
        size_t a = j;
        while (j < p->n && p->x[j] <= top)
            j++;
        if (j > a)
            pl[m++] = (struct plateau){a, j - 1, lpoints_median(p->z + a, j - a),
                                       i < best.k ? model_step_place(p, &best, i) : KM_NAN,
                                       i < best.k ? model_level_confidence(p, q, &best, i, min_step)
                                                  : KM_NAN};
    }
    plat_free(q);
    return m;
}
