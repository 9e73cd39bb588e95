// SPDX-License-Identifier: MIT
// Unit tests of the summary's judgements: cache levels, dual versus random, scan resistance.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "run/summary.h"

#define KIB 1024ull
#define MIB (1024ull * 1024)

/* 4 points per octave from 4K: size of point i. */
static uint64_t size_at(unsigned i)
{
    static const double steps[4] = {1.0, 1.189207, 1.414214, 1.681793};
    return (uint64_t)((double)(4 * KIB << (i / 4)) * steps[i % 4]);
}

/* L1 to 32K (1 ns), L2 to 1M (4 ns) rising gently at its end, L3 to 8M (20 ns), memory. */
static double latency(uint64_t size)
{
    if (size <= 32 * KIB)
        return 1.0;
    if (size <= 768 * KIB)
        return 4.0;
    if (size <= 1 * MIB)
        return 5.1; /* a gentle rise split off by the 25% rule: still L2 */
    if (size <= 8 * MIB)
        return 20.0;
    if (size <= 12 * MIB)
        return 45.0; /* one point of transition */
    return 90.0;
}

static void test_levels_merge_gentle_rises_and_drop_memory(void **state)
{
    (void)state;
    enum { N = 40 };
    uint64_t size[N];
    double ns[N], cyc[N];
    for (unsigned i = 0; i < N; i++) {
        size[i] = size_at(i);
        ns[i] = latency(size[i]);
        cyc[i] = ns[i] * 3;
    }
    struct plateau p[SUMMARY_MAX_LEVELS];
    unsigned n = summary_levels(size, ns, cyc, N, 8 * MIB, p, SUMMARY_MAX_LEVELS);
    assert_int_equal(n, 3);
    assert_true(p[0].last_size <= 32 * KIB);
    assert_float_equal(p[0].ns, 1.0, 1e-9);
    assert_true(p[1].last_size <= 1 * MIB && p[1].last_size > 768 * KIB);
    assert_float_equal(p[1].ns, 4.0, 1e-9);
    assert_float_equal(p[2].ns, 20.0, 1e-9);
    assert_float_equal(p[2].cycles, 60.0, 1e-9);
}

static void test_dual_ratio_beyond_llc(void **state)
{
    (void)state;
    uint64_t size[4] = {4 * MIB, 16 * MIB, 32 * MIB, 64 * MIB};
    double ns[4] = {10, 100, 100, 100};
    struct curve dual = {{0}, {0}, {0}, 0};
    curve_add(&dual, 4 * MIB, 10, 30);
    curve_add(&dual, 16 * MIB, 55, 165);
    curve_add(&dual, 32 * MIB + 100, 60, 180); /* sizes within 2% are the same point */
    curve_add(&dual, 64 * MIB, 65, 195);
    double ratio;
    assert_int_equal(summary_dual_ratio(&dual, size, ns, 4, 8 * MIB, &ratio), 3);
    assert_float_equal(ratio, 0.60, 1e-9);
    assert_int_equal(summary_dual_ratio(&dual, size, ns, 4, 128 * MIB, &ratio), 0);
}

static void test_scan_loss(void **state)
{
    (void)state;
    struct curve scan = {{0}, {0}, {0}, 0};
    curve_add(&scan, 1 * MIB, 50, 150);
    curve_add(&scan, 2 * MIB, 52, 156);
    curve_add(&scan, 4 * MIB, 70, 210);
    curve_add(&scan, 8 * MIB, 98, 294);
    assert_int_equal(summary_scan_loss(&scan), 8 * MIB); /* 1.5 times the first point */
    scan.n = 2;
    assert_int_equal(summary_scan_loss(&scan), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_levels_merge_gentle_rises_and_drop_memory),
        cmocka_unit_test(test_dual_ratio_beyond_llc),
        cmocka_unit_test(test_scan_loss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
