// SPDX-License-Identifier: MIT
// Order statistics over repetitions: minimum, median and percentiles.
#ifndef CHASE_STATS_H
#define CHASE_STATS_H

#include <stddef.h>

/* Sort n doubles ascending in place. */
void stats_sort(double *v, size_t n);

/*
 * The q-quantile (0 <= q <= 1) of n sorted values, interpolating linearly between
 * the two nearest ranks (q = 0.5 is the median, averaging the middle pair when n is
 * even). Returns 0 for n == 0.
 */
double stats_quantile_sorted(const double *sorted, size_t n, double q);

struct stats_summary {
    double min, median, p90, max;
};

/* Summary of n values (they are not modified); all zero when n == 0. */
void stats_summarize(const double *v, size_t n, struct stats_summary *out);

#endif
