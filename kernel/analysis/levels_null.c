// SPDX-License-Identifier: MIT
// Whether one more level in the sparse model is real: a likelihood-ratio test whose null is
// simulated.
//
// A level's size is a change point chosen among many places, and at one point per octave its
// sharpness trades off against that place, so the drop in rss an extra level buys from noise
// alone has no textbook distribution (it is not chi-squared), and a fixed penalty (3 ln n) with
// a noise estimate taken from the richest model lets noise pay for a level an octave from a true
// one. Here the statistic F = (rss_fewer - rss_more) / (rss_more / dof_more), which does not
// depend on the noise's scale, is compared with its distribution when `fewer` is the truth:
// curves drawn from `fewer` with its own residual noise (Gaussian in ln latency) and the
// curve's print resolution, each fitted with the same search as the data (the null model
// refitted and polished, then one level added and polished). The level is kept when at most
// NULL_ALPHA of the simulated drops reach the observed one. Reproducible: the generator's seed is
// fixed (lib/rng.c's, one seed per level count).
#include "analysis/levels_model_int.h"
#include "lib/kmath.h"
#include "lib/rng.h"
#include "platform.h"

/* Simulated curves per test, and the share of them allowed to reach the observed statistic: a
 * test at 5% (p = (1 + count) / (NULL_DRAWS + 1) <= 0.05 keeps the level). */
#define NULL_DRAWS 39
#define NULL_ALPHA 0.05
#define NULL_SEED 0x6c6576656c73ULL

/* Residual degrees of freedom: n less each level's size and latency and the model's three. */
double model_dof(const struct model *m, size_t n)
{
    return (double)n - (double)(MODEL_PARAMS_PER_LEVEL * m->k + 3);
}

double model_residual_variance(const struct model *all, size_t nall, size_t n)
{
    double var = KM_INF;
    for (size_t i = 0; i < nall; i++) {
        double dof = model_dof(&all[i], n);
        if (dof >= 2)
            var = kfmin(var, all[i].rss / dof);
    }
    return kfmax(var, RESIDUAL_FLOOR_LN * RESIDUAL_FLOOR_LN);
}

double model_noise_variance(const struct model *m, size_t n)
{
    double dof = model_dof(m, n);
    double v = dof >= 1 ? m->rss / dof : KM_INF;
    return kfmax(v, RESIDUAL_FLOOR_LN * RESIDUAL_FLOOR_LN);
}

/* F of a pair of fits; 0 when the richer one is not valid. */
static double statistic(const struct model *fewer, const struct model *more, size_t n)
{
    if (!kisfinite(more->rss) || !kisfinite(fewer->rss))
        return 0;
    return kfmax(fewer->rss - more->rss, 0) / model_noise_variance(more, n);
}

/* A curve drawn from m at p's sizes: ln-normal noise of variance var, then printed with p's
 * resolution (on the same grid as p's latencies). */
static void draw(const struct lpoints *p, const struct model *m, double var, struct rng *r,
                 struct lpoints *out)
{
    double sd = ksqrt(var), qn = p->quantum_ns;
    double phase = qn > 0 ? p->ns[0] - qn * kfloor(p->ns[0] / qn) : 0;
    out->n = p->n;
    out->quantum_ns = qn;
    for (size_t j = 0; j < p->n; j++) {
        double v = kexp(model_ln(m, p->x[j]) + sd * rng_gauss(r));
        if (qn > 0)
            v = kfmax(phase + qn * kfloor((v - phase) / qn + 0.5), qn);
        out->x[j] = p->x[j];
        out->ns[j] = v;
        out->y[j] = kln(v);
        out->z[j] = out->y[j];
        out->cyc[j] = KM_NAN;
    }
}

bool model_level_significant(const struct lpoints *p, const struct model *fewer,
                             const struct model *more, double min_step)
{
    double observed = statistic(fewer, more, p->n);
    if (!(observed > 0))
        return false;
    struct lpoints *sim = plat_alloc(sizeof(*sim));
    if (!sim)
        return true; /* no memory to test with: keep the criterion's choice */
    struct rng r;
    rng_seed(&r, NULL_SEED + fewer->k);
    double var = model_noise_variance(fewer, p->n);
    size_t reach = 0, limit = (size_t)(NULL_ALPHA * (NULL_DRAWS + 1)) - 1;
    for (size_t b = 0; b < NULL_DRAWS && reach <= limit; b++) {
        draw(p, fewer, var, &r, sim);
        struct model null = *fewer, alt;
        model_refit(sim, &null, min_step);
        if (!kisfinite(null.rss))
            continue;
        model_polish(sim, &null, min_step);
        model_add_level(sim, &null, &alt, min_step);
        model_polish(sim, &alt, min_step);
        if (statistic(&null, &alt, sim->n) >= observed)
            reach++;
    }
    plat_free(sim);
    return reach <= limit;
}

/* The resolution the latencies were printed with: the coarsest decimal step (1, 0.1, ...,
 * 1e-6 ns) of which every latency is a multiple (tinymembench prints 0.1 ns, which is 10% of a
 * relative curve's nominal L1). Not the smallest difference between two latencies: a curve with
 * few distinct values (0.0, 11.0, 66.0, 72.8 ns) would make that a plateau's own step. */
double lpoints_print_resolution(const struct lpoints *p)
{
    for (double r = 1; r > 1e-6; r /= 10) {
        bool all = true;
        for (size_t i = 0; i < p->n && all; i++) {
            double t = p->ns[i] / r, f = kfloor(t + 0.5);
            all = kfabs(t - f) < 1e-6 * kfmax(1, t);
        }
        if (all)
            return r;
    }
    return 0;
}

/* Whether m's plateaus are told apart by the points themselves: the medians of two neighbouring
 * plateaus' points at least twice the print resolution and min_step (ln) apart. fit_latencies
 * holds the fitted latencies to the same, but a fit can stretch them apart with a sharpness that
 * puts a step's first point on the upper level: 0.0 and 0.1 ns read as two levels, 1.0 and 1.25
 * fitted; a plateau rising by 8% over four points (3.67 ns, then 3.86 and 4.11) cut in two. */
bool model_resolved(const struct lpoints *p, const struct model *m, double min_step)
{
    double prev = KM_NAN;
    size_t j = 0;
    for (size_t i = 0; i <= m->k; i++) {
        double top = i < m->k ? m->s[i] : KM_INF;
        size_t a = j;
        while (j < p->n && p->x[j] <= top)
            j++;
        if (j == a)
            continue;
        double med = lpoints_median(p->ns + a, j - a);
        if (i < m->k && kisfinite(prev) &&
            (med - prev < 2 * p->quantum_ns || kln(med / prev) < min_step))
            return false;
        prev = med;
    }
    return true;
}
