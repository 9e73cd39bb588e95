// SPDX-License-Identifier: MIT
// Unit tests of sweeps: points per octave, rounding to the stride, the end point; up then down.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

#include <cmocka.h>

#include "chase/sweep.h"

static void test_one_per_octave(void **state)
{
    (void)state;
    uint64_t s[16];
    unsigned n = sweep_sizes(4096, 65536, 1, 64, s, 16);
    assert_int_equal(n, 5);
    assert_int_equal(s[0], 4096);
    assert_int_equal(s[2], 16384);
    assert_int_equal(s[4], 65536);
}

static void test_points_per_octave(void **state)
{
    (void)state;
    uint64_t s[64];
    unsigned n = sweep_sizes(4096, 4u << 20, 4, 64, s, 64);
    assert_int_equal(n, 10 * 4 + 1);
    for (unsigned i = 1; i < n; i++) {
        assert_true(s[i] > s[i - 1]);
        assert_int_equal(s[i] % 64, 0);
    }
    /* 4096 * 2^(1/4) = 4870.9, rounded to the nearest then down to 64 bytes */
    assert_int_equal(s[1], 4864);
    assert_int_equal(s[n - 1], 4u << 20);
}

static void test_max_not_on_the_grid(void **state)
{
    (void)state;
    uint64_t s[16];
    unsigned n = sweep_sizes(1000, 3000, 1, 8, s, 16);
    assert_int_equal(n, 3);
    assert_int_equal(s[0], 1000);
    assert_int_equal(s[1], 2000);
    assert_int_equal(s[2], 3000);
}

static void test_degenerate(void **state)
{
    (void)state;
    uint64_t s[4];
    assert_int_equal(sweep_sizes(4096, 4096, 4, 64, s, 4), 1);
    assert_int_equal(s[0], 4096);
    assert_int_equal(sweep_sizes(8192, 4096, 4, 64, s, 4), 0);
    assert_int_equal(sweep_sizes(64, 128, 32, 64, s, 4), 2); /* repeats dropped */
    /* the count is reported even when the output is too small */
    assert_int_equal(sweep_sizes(4096, 1u << 30, 1, 64, s, 0), 19);
}

static void test_up_down_sweep(void **state)
{
    (void)state;
    static const uint64_t want[] = {0, 64, 128, 192, 192, 128, 64, 0};
    for (unsigned k = 0; k < 8; k++) {
        bool up;
        assert_int_equal(sweep_up_down_at(64, 192, k, &up), want[k]);
        assert_int_equal(up, k < 4);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_per_octave),      cmocka_unit_test(test_points_per_octave),
        cmocka_unit_test(test_max_not_on_the_grid), cmocka_unit_test(test_degenerate),
        cmocka_unit_test(test_up_down_sweep),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
