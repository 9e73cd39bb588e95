// SPDX-License-Identifier: MIT
// Order statistics over repetitions: minimum, median and percentiles.
#include "stats.h"

#include "platform.h"

void stats_sort(double *v, size_t n)
{
    /* Shell sort: no recursion, no allocation, fast enough for repetition counts. */
    static const size_t gaps[] = {701, 301, 132, 57, 23, 10, 4, 1};
    for (size_t g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++) {
        size_t gap = gaps[g];
        for (size_t i = gap; i < n; i++) {
            double x = v[i];
            size_t j = i;
            while (j >= gap && v[j - gap] > x) {
                v[j] = v[j - gap];
                j -= gap;
            }
            v[j] = x;
        }
    }
}

double stats_quantile_sorted(const double *sorted, size_t n, double q)
{
    if (n == 0)
        return 0;
    if (q <= 0)
        return sorted[0];
    if (q >= 1)
        return sorted[n - 1];
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)pos;
    double frac = pos - (double)lo;
    if (lo + 1 >= n)
        return sorted[n - 1];
    return sorted[lo] + (sorted[lo + 1] - sorted[lo]) * frac;
}

void stats_summarize(const double *v, size_t n, struct stats_summary *out)
{
    out->min = out->median = out->p90 = out->max = 0;
    if (n == 0)
        return;
    double *tmp = plat_alloc(n * sizeof(double));
    if (!tmp)
        return;
    for (size_t i = 0; i < n; i++)
        tmp[i] = v[i];
    stats_sort(tmp, n);
    out->min = tmp[0];
    out->max = tmp[n - 1];
    out->median = stats_quantile_sorted(tmp, n, 0.5);
    out->p90 = stats_quantile_sorted(tmp, n, 0.9);
    plat_free(tmp);
}
