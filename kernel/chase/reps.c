// SPDX-License-Identifier: MIT
// How many repetitions a point needs: disturbed ones set aside, the median's precision, stopping.
#include "chase/reps.h"

#include "lib/kstring.h"

const char *const reps_stop_names[] = {"", "fixed", "precision", "time", "max_reps", NULL};

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
