// SPDX-License-Identifier: MIT
// Unit tests of the order statistics: sorting, quantiles, min/median/p90 on known inputs.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "lib/stats.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void test_sort_matches_qsort(void **state)
{
    (void)state;
    srand(1);
    for (size_t n = 0; n < 1500; n += 37) {
        double *a = malloc((n + 1) * sizeof(double)), *b = malloc((n + 1) * sizeof(double));
        for (size_t i = 0; i < n; i++)
            a[i] = b[i] = (double)(rand() % 1000) / 7.0;
        stats_sort(a, n);
        qsort(b, n, sizeof(double), cmp_double);
        for (size_t i = 0; i < n; i++)
            assert_true(a[i] == b[i]);
        free(a);
        free(b);
    }
}

static void test_odd_count(void **state)
{
    (void)state;
    double v[] = {5, 1, 3};
    struct stats_summary s;
    stats_summarize(v, 3, &s);
    assert_true(s.min == 1 && s.median == 3 && s.max == 5);
    assert_true(v[0] == 5); /* the input is not reordered */
}

static void test_even_count_median_averages(void **state)
{
    (void)state;
    double v[] = {4, 2, 1, 3};
    struct stats_summary s;
    stats_summarize(v, 4, &s);
    assert_true(s.median == 2.5);
}

/* stats_sort_by moves the companions with their keys (a curve's ns and cycles with its sizes). */
static void test_sort_by(void **state)
{
    (void)state;
    double x[] = {4, 1, 3, 2}, y[] = {40, 10, 30, 20}, z[] = {400, 100, 300, 200};
    stats_sort_by(x, y, z, 4);
    for (int i = 0; i < 4; i++)
        assert_true(x[i] == i + 1 && y[i] == 10 * (i + 1) && z[i] == 100 * (i + 1));
    double k[] = {2, 1}, a[] = {20, 10};
    stats_sort_by(k, a, NULL, 2);
    assert_true(k[0] == 1 && a[0] == 10 && a[1] == 20);
}

/* stats_median leaves its input alone, on the stack's copy and on the heap's (more than
 * STATS_MEDIAN_STACK values), and has no median of nothing. */
static void test_median(void **state)
{
    (void)state;
    double v[] = {5, 1, 4, 2};
    assert_true(stats_median(v, 4) == 3);
    assert_true(stats_median(v, 3) == 4);
    assert_true(v[0] == 5 && v[1] == 1 && v[2] == 4 && v[3] == 2);
    double big[STATS_MEDIAN_STACK * 2 + 1];
    for (size_t i = 0; i < sizeof(big) / sizeof(big[0]); i++)
        big[i] = (double)((i * 37) % 129); /* a permutation of 0..128 */
    assert_true(stats_median(big, 129) == 64);
    assert_true(big[1] == 37);
    assert_true(isnan(stats_median(v, 0)));
}

static void test_p90_interpolates(void **state)
{
    (void)state;
    double v[] = {10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
    struct stats_summary s;
    stats_summarize(v, 10, &s);
    /* rank 0.9 * 9 = 8.1: between 9 and 10 */
    assert_float_equal(s.p90, 9.1, 1e-12);
    assert_float_equal(s.median, 5.5, 1e-12);
}

static void test_single_and_empty(void **state)
{
    (void)state;
    double v[] = {42};
    struct stats_summary s;
    stats_summarize(v, 1, &s);
    assert_true(s.min == 42 && s.median == 42 && s.p90 == 42 && s.max == 42);
    stats_summarize(v, 0, &s);
    assert_true(s.min == 0 && s.median == 0);
    assert_true(stats_quantile_sorted(v, 0, 0.5) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sort_matches_qsort),
        cmocka_unit_test(test_odd_count),
        cmocka_unit_test(test_median),
        cmocka_unit_test(test_sort_by),
        cmocka_unit_test(test_even_count_median_averages),
        cmocka_unit_test(test_p90_interpolates),
        cmocka_unit_test(test_single_and_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
