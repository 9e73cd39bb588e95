// SPDX-License-Identifier: MIT
// Unit tests of the tail's statistics: log bins and their edges, percentiles, the slow batches'
// train against the median and its spread, and stalls far beyond any memory latency.
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "point/tail_stats.h"

static void test_bins(void **state)
{
    (void)state;
    struct tail_hist h;
    tail_hist_init(&h, 1.0, 1000.0);
    assert_int_equal(h.nbins, 31); /* three decades of ten, and the bin from 1000 */
    assert_true(fabs(tail_bin_low_ns(&h, 10) - 10.0) < 1e-9);
    assert_true(fabs(tail_bin_low_ns(&h, 20) - 100.0) < 1e-9);
    double edges[] = {1.0, 10.0, 100.0, 1000.0};
    for (unsigned i = 0; i < 4; i++)
        tail_hist_add(&h, edges[i]);
    assert_int_equal(h.count[0], 1);
    assert_int_equal(h.count[10], 1);
    assert_int_equal(h.count[20], 1);
    assert_int_equal(h.count[30], 1);
    tail_hist_add(&h, 0.5);
    tail_hist_add(&h, 1e9);
    tail_hist_add(&h, 12.0); /* 10^(1.079): bin 10 */
    assert_int_equal(h.below, 1);
    assert_int_equal(h.above, 1);
    assert_int_equal(h.count[10], 2);
    /* every bin's own low edge falls in it, and just under it in the one before */
    for (unsigned i = 1; i < h.nbins; i++) {
        struct tail_hist g;
        tail_hist_init(&g, 1.0, 1000.0);
        double lo = tail_bin_low_ns(&g, i);
        tail_hist_add(&g, lo);
        tail_hist_add(&g, lo * (1 - 1e-12));
        assert_int_equal(g.count[i], 1);
        assert_int_equal(g.count[i - 1], 1);
    }
    tail_hist_init(&h, 1.0, 1e12);
    assert_int_equal(h.nbins, TAIL_BINS_MAX);
}

static void test_percentiles(void **state)
{
    (void)state;
    static double v[10000];
    for (unsigned i = 0; i < 10000; i++)
        v[i] = (double)((i * 7919u) % 10000u) + 1; /* 1..10000, shuffled */
    struct tail_percentiles p;
    tail_percentiles(v, 10000, &p);
    assert_true(fabs(p.p50_ns - 5000.5) < 1e-6);
    assert_true(fabs(p.p90_ns - 9000.1) < 1e-6);
    assert_true(fabs(p.p99_ns - 9900.01) < 1e-6);
    assert_true(fabs(p.p999_ns - 9990.001) < 1e-6);
    assert_true(p.max_ns == 10000);
    tail_percentiles(v, 0, &p);
    assert_true(p.p50_ns == 0 && p.max_ns == 0);
}

static void test_slow_and_stalls(void **state)
{
    (void)state;
    uint64_t start[8], slow_start[8];
    double ns[8] = {400, 401, 399, 700, 402, 20400, 430, 400}, excess[8];
    for (unsigned i = 0; i < 8; i++)
        start[i] = 1000ULL * i; /* 1 GHz: a batch every microsecond */
    /* spread 1 ns, hop 100 ns: slow beyond 425 ns */
    size_t m = tail_slow_train(start, ns, 8, 400, 1, 100, slow_start, excess);
    assert_int_equal(m, 3);
    assert_int_equal(slow_start[0], 3000);
    assert_true(excess[0] == 300 && excess[1] == 20000 && excess[2] == 30);
    /* a wide spread (10 ns: beyond 440) leaves the 430 ns batch out */
    assert_int_equal(tail_slow_train(start, ns, 8, 400, 10, 100, slow_start, excess), 2);
    struct tail_stalls st;
    tail_stalls_find(start, ns, 8, 1e9, 400, &st);
    assert_int_equal(st.count, 1);
    assert_true(st.longest_ns == 20000 && st.total_ns == 20000);
    /* one stall in 7.4 us of batches */
    assert_true(fabs(st.per_minute - 60e9 / 7400.0) < 1e-3);
    tail_stalls_find(start, ns, 0, 1e9, 400, &st);
    assert_int_equal(st.count, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bins),
        cmocka_unit_test(test_percentiles),
        cmocka_unit_test(test_slow_and_stalls),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
