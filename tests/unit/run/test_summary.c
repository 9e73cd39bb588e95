// SPDX-License-Identifier: MIT
// Unit tests of the summary's plateau finder on synthetic latency curves.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "run/summary.h"

static void test_three_plateaus(void **state)
{
    (void)state;
    uint64_t size[12];
    double ns[12], cyc[12];
    /* 4K..8M one per octave: L1 (1 ns) to 32K, L2 (4 ns) to 1M, then memory (80 ns) */
    for (int i = 0; i < 12; i++) {
        size[i] = 4096ull << i;
        ns[i] = size[i] <= 32768 ? 1.0 + 0.01 * i : size[i] <= (1 << 20) ? 4.0 : 80.0;
        cyc[i] = ns[i] * 3;
    }
    struct plateau p[8];
    unsigned n = summary_plateaus(size, ns, cyc, 12, p, 8);
    assert_int_equal(n, 3);
    assert_int_equal(p[0].last_size, 32768);
    assert_int_equal(p[1].first_size, 65536);
    assert_int_equal(p[1].last_size, 1 << 20);
    assert_float_equal(p[1].ns, 4.0, 1e-9);
    assert_float_equal(p[2].cycles, 240.0, 1e-9);
}

static void test_single_spike_is_not_a_level(void **state)
{
    (void)state;
    uint64_t size[6] = {1, 2, 3, 4, 5, 6};
    double ns[6] = {1, 1, 5, 1, 1, 1}, cyc[6] = {1, 1, 5, 1, 1, 1};
    struct plateau p[8];
    assert_int_equal(summary_plateaus(size, ns, cyc, 6, p, 8), 1);
    assert_int_equal(summary_plateaus(size, ns, cyc, 0, p, 8), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_plateaus),
        cmocka_unit_test(test_single_spike_is_not_a_level),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
