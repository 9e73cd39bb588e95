// SPDX-License-Identifier: MIT
// Order statistics over repetitions: minimum, median and percentiles.
#include "lib/stats.h"

#include "lib/kmath.h"
#include "platform.h"

void stats_sort_by(double *key, double *a, double *b, size_t n)
{
    /* Shell sort: no recursion, no allocation, fast enough for repetition counts and curves. */
    static const size_t gaps[] = {1750, 701, 301, 132, 57, 23, 10, 4, 1};
    for (size_t g = 0; g < sizeof(gaps) / sizeof(gaps[0]); g++) {
        size_t gap = gaps[g];
        for (size_t i = gap; i < n; i++) {
            double x = key[i], xa = a ? a[i] : 0, xb = b ? b[i] : 0;
            size_t j = i;
            for (; j >= gap && key[j - gap] > x; j -= gap) {
                key[j] = key[j - gap];
                if (a)
                    a[j] = a[j - gap];
                if (b)
                    b[j] = b[j - gap];
            }
            key[j] = x;
            if (a)
                a[j] = xa;
            if (b)
                b[j] = xb;
        }
    }
}

void stats_sort(double *v, size_t n)
{
    stats_sort_by(v, NULL, NULL, n);
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

double stats_median(const double *v, size_t n)
{
    double small[STATS_MEDIAN_STACK];
    double *tmp = n <= STATS_MEDIAN_STACK ? small : plat_alloc(n * sizeof(double));
    if (n == 0 || !tmp)
        return KM_NAN;
    for (size_t i = 0; i < n; i++)
        tmp[i] = v[i];
    stats_sort(tmp, n);
    double m = stats_quantile_sorted(tmp, n, 0.5);
    if (tmp != small)
        plat_free(tmp);
    return m;
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

/* A share of the binomial total too small to change a comparison with the coverage. */
#define STATS_NEGLIGIBLE 1e-15

/* C(n, i - 1) from C(n, i): weights relative to the central one, so that 2^-n never underflows. */
static double binomial_step_down(double w, size_t i, size_t n)
{
    return w * (double)i / (double)(n - i + 1);
}

bool stats_median_ci_ranks(size_t n, size_t *lo, size_t *hi)
{
    size_t mid = n / 2;
    double total = 0, central = 0, w = 1;
    if (n < 2)
        return false;
    /* term i and its mirror n - i, counted once where they meet */
    for (size_t i = mid;; i--) {
        total += 2 * i == n ? w : 2 * w;
        /* the i terms left on each side are each below w: stop once they cannot count */
        if (i == 0 || 2 * w * (double)i < STATS_NEGLIGIBLE * total)
            break;
        w = binomial_step_down(w, i, n);
    }
    /*
     * Widen [i, n - i] from the middle until B, the count of values below the true median,
     * falls in it with the coverage: the median then lies between the i-th and the
     * (n - i + 1)-th smallest values, sorted[i - 1] and sorted[n - i].
     */
    w = 1;
    for (size_t i = mid; i > 0; i--) {
        central += 2 * i == n ? w : 2 * w;
        if (central >= STATS_MEDIAN_CI_COVERAGE * total) {
            *lo = i - 1;
            *hi = n - i;
            return true;
        }
        w = binomial_step_down(w, i, n);
    }
    return false; /* only the whole real line covers enough */
}

double stats_mad_sorted(const double *sorted, size_t n, double m)
{
    if (n == 0)
        return 0;
    /* |v - m| falls, then rises, along the sorted values: merge the two runs from m. */
    size_t right = 0;
    while (right < n && sorted[right] < m)
        right++;
    size_t left = right; /* the next one down is left - 1 */
    size_t want_hi = n / 2, want_lo = (n - 1) / 2;
    double lo_val = 0, d = 0;
    for (size_t taken = 0; taken <= want_hi; taken++) {
        bool take_left = left > 0 && (right >= n || m - sorted[left - 1] <= sorted[right] - m);
        d = take_left ? m - sorted[--left] : sorted[right++] - m;
        if (taken == want_lo)
            lo_val = d;
    }
    return (lo_val + d) / 2;
}
