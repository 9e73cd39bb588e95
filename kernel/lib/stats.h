// SPDX-License-Identifier: MIT
// Order statistics over repetitions: minimum, median and percentiles.
#ifndef CHASE_STATS_H
#define CHASE_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* Sort n doubles ascending in place. */
void stats_sort(double *v, size_t n);
/* Sort n keys ascending in place, moving a[i] and b[i] (either may be NULL) with key[i]: the
 * points of a curve by size. The same sort as stats_sort (equal keys keep no order). */
void stats_sort_by(double *key, double *a, double *b, size_t n);

/*
 * The q-quantile (0 <= q <= 1) of n sorted values, interpolating linearly between
 * the two nearest ranks (q = 0.5 is the median, averaging the middle pair when n is
 * even). Returns 0 for n == 0.
 */
double stats_quantile_sorted(const double *sorted, size_t n, double q);

/* The median of n values (the mean of the middle two when n is even), v unchanged; NaN when
 * n == 0 or no memory for a copy of more than STATS_MEDIAN_STACK values. The one median of the
 * project: callers with their own values to sort use stats_sort and stats_quantile_sorted. */
#define STATS_MEDIAN_STACK 64
double stats_median(const double *v, size_t n);

struct stats_summary {
    double min, median, p90, max;
};

/* Summary of n values (they are not modified); all zero when n == 0. */
void stats_summarize(const double *v, size_t n, struct stats_summary *out);

/* The coverage the median's confidence interval must reach (stats_median_ci_ranks). */
#define STATS_MEDIAN_CI_COVERAGE 0.95

/*
 * The distribution-free confidence interval of the median of n values, from order
 * statistics: with the values sorted, [sorted[*lo], sorted[*hi]] holds the true median
 * with probability at least STATS_MEDIAN_CI_COVERAGE whatever the distribution (the
 * count of values below the median is Binomial(n, 1/2)); the narrowest symmetric pair of
 * ranks that does (lo + hi == n - 1). False when n is too small for any pair to reach it
 * (n < 6).
 */
bool stats_median_ci_ranks(size_t n, size_t *lo, size_t *hi);

/*
 * The median absolute deviation from m of n sorted values: the median of |v - m|,
 * found in one pass from where m lies. 0 for n == 0.
 */
double stats_mad_sorted(const double *sorted, size_t n, double m);

#endif
