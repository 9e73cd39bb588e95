// SPDX-License-Identifier: MIT
// How many repetitions a point needs: disturbed ones set aside, the median's precision, stopping.
#include "chase/reps.h"

#include "lib/kmath.h"
#include "lib/kstring.h"

const char *const reps_stop_names[] = {"",         "fixed",  "precision", "time",
                                       "max_reps", "passes", NULL};

void reps_insert_sorted(double *sorted, unsigned n, double v)
{
    /* Binary search for the first value above v, then shift the rest up by one. */
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (sorted[mid] <= v)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (unsigned i = n; i > lo; i--)
        sorted[i] = sorted[i - 1];
    sorted[lo] = v;
}

double reps_outlier_threshold(const double *sorted, unsigned n)
{
    if (n == 0)
        return 0;
    double median = stats_quantile_sorted(sorted, n, 0.5);
    double spread = REPS_OUTLIER_MADS * REPS_MAD_TO_SIGMA * stats_mad_sorted(sorted, n, median);
    double floor = REPS_OUTLIER_FLOOR * (median < 0 ? -median : median);
    return median + (spread > floor ? spread : floor);
}

/* How many of the n ascending values are at most limit. */
static unsigned count_at_most(const double *sorted, unsigned n, double limit)
{
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = lo + (hi - lo) / 2;
        if (sorted[mid] <= limit)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void reps_assess(const double *sorted, unsigned n, struct reps_verdict *v)
{
    kmemset(v, 0, sizeof(*v));
    v->n = n;
    if (n == 0)
        return;
    v->threshold = reps_outlier_threshold(sorted, n);
    /* Outliers are above the threshold only, so the kept ones are the first `kept`. */
    unsigned kept = count_at_most(sorted, n, v->threshold);
    v->kept = kept;
    v->kept_stats.min = sorted[0];
    v->kept_stats.max = sorted[kept - 1];
    v->kept_stats.median = stats_quantile_sorted(sorted, kept, 0.5);
    v->kept_stats.p90 = stats_quantile_sorted(sorted, kept, 0.9);
    size_t lo, hi;
    if (stats_median_ci_ranks(kept, &lo, &hi) && v->kept_stats.median > 0) {
        v->ci_valid = true;
        v->ci_lo = sorted[lo];
        v->ci_hi = sorted[hi];
        v->precision = (v->ci_hi - v->ci_lo) / 2 / v->kept_stats.median;
    }
}

enum reps_stop reps_should_stop(const struct reps_rule *rule, const struct reps_verdict *v,
                                uint64_t elapsed_ticks)
{
    if (v->n < rule->min_reps)
        return v->n >= rule->max_reps ? REPS_STOP_CAPACITY : REPS_GO_ON;
    if (rule->precision <= 0)
        return REPS_STOP_FIXED;
    if (v->ci_valid && v->precision <= rule->precision)
        return REPS_STOP_PRECISION;
    if (rule->max_ticks && elapsed_ticks >= rule->max_ticks)
        return REPS_STOP_TIME;
    if (v->n >= rule->max_reps)
        return REPS_STOP_CAPACITY;
    return REPS_GO_ON;
}

/* 1.4826 x the MAD of the ascending v[0..n): a standard deviation robust to a few far values. */
static double robust_sigma(const double *sorted, unsigned n)
{
    if (n == 0)
        return 0;
    double m = stats_quantile_sorted(sorted, n, 0.5);
    return REPS_MAD_TO_SIGMA * stats_mad_sorted(sorted, n, m);
}

/* Whether the ascending v[0..n) falls in two clusters with a wide gap between them. */
static bool has_modes(const double *sorted, unsigned n, double median)
{
    unsigned side = (unsigned)(REPS_MODE_SIDE * n + 0.999);
    if (side < 2 || 2 * side > n)
        return false;
    unsigned at = side - 1;
    for (unsigned i = side - 1; i + side < n; i++) {
        if (sorted[i + 1] - sorted[i] > sorted[at + 1] - sorted[at])
            at = i;
    }
    double gap = sorted[at + 1] - sorted[at];
    double lo = robust_sigma(sorted, at + 1), hi = robust_sigma(sorted + at + 1, n - at - 1);
    double sigma = lo > hi ? lo : hi;
    return gap > REPS_MODE_GAP_SIGMAS * sigma && gap > REPS_MODE_GAP_FLOOR * median;
}

/* Whether the first and last thirds of v (in the order taken) differ beyond their noise. */
static bool has_drift(const double *in_order, unsigned n, double *scratch, double median)
{
    unsigned k = n / 3;
    double m[2], s[2];
    for (unsigned part = 0; part < 2; part++) {
        const double *v = part ? in_order + n - k : in_order;
        kmemcpy(scratch, v, k * sizeof(double));
        stats_sort(scratch, k);
        m[part] = stats_quantile_sorted(scratch, k, 0.5);
        s[part] = robust_sigma(scratch, k);
    }
    /* The median's standard error is about 1.2533 sigma / sqrt(k) for normal noise. */
    double se = 1.2533 * ksqrt((s[0] * s[0] + s[1] * s[1]) / k);
    double d = m[1] > m[0] ? m[1] - m[0] : m[0] - m[1];
    return d > REPS_DRIFT_SIGMAS * se && d > REPS_DRIFT_FLOOR * median;
}

unsigned reps_disturbance(const double *in_order, unsigned n, double *scratch)
{
    if (n < REPS_DISTURB_MIN)
        return 0;
    kmemcpy(scratch, in_order, n * sizeof(double));
    stats_sort(scratch, n);
    double median = stats_quantile_sorted(scratch, n, 0.5);
    double above = reps_outlier_threshold(scratch, n);
    unsigned bits = 0;
    if (n - count_at_most(scratch, n, above) > REPS_TAIL_SHARE * n)
        bits |= REPS_DISTURB_TAIL;
    if (has_modes(scratch, n, median))
        bits |= REPS_DISTURB_MODES;
    if (has_drift(in_order, n, scratch, median))
        bits |= REPS_DISTURB_DRIFT;
    return bits;
}

void reps_disturbance_text(unsigned bits, char *buf, unsigned cap)
{
    static const char *const names[] = {"tail", "modes", "drift"};
    unsigned len = 0;
    if (cap)
        buf[0] = 0;
    for (unsigned i = 0; i < 3; i++) {
        if (!(bits & (1u << i)))
            continue;
        for (const char *c = len ? "+" : ""; *c && len + 1 < cap; c++)
            buf[len++] = *c;
        for (const char *c = names[i]; *c && len + 1 < cap; c++)
            buf[len++] = *c;
        buf[len] = 0;
    }
}
