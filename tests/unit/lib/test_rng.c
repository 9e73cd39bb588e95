// SPDX-License-Identifier: MIT
// Unit tests of the seeded generator's real draws: uniform and Gaussian moments, reproducibility.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>

#include "lib/rng.h"

/* Draws per moment test: the sample mean's standard error is 1/sqrt(N) = 0.0022 sigma. */
#define DRAWS 200000
/* Bounds at 5 standard errors: a correct generator fails one in about 1.7 million seeds. */
#define SE_BOUND 5.0

struct moments {
    double mean, var, kurt, within1;
};

/* Mean, variance, kurtosis and the share within one unit of the mean of DRAWS draws. */
static struct moments gauss_moments(uint64_t seed)
{
    struct rng r;
    rng_seed(&r, seed);
    double s1 = 0, s2 = 0, s4 = 0, in = 0;
    for (int i = 0; i < DRAWS; i++) {
        double g = rng_gauss(&r);
        s1 += g;
        s2 += g * g;
        s4 += g * g * g * g;
        in += fabs(g) < 1;
    }
    struct moments m = {s1 / DRAWS, s2 / DRAWS, 0, in / DRAWS};
    m.var -= m.mean * m.mean;
    m.kurt = s4 / DRAWS / (m.var * m.var);
    return m;
}

static void test_gauss_mean_and_variance(void **state)
{
    (void)state;
    for (uint64_t seed = 0; seed < 4; seed++) {
        struct moments m = gauss_moments(seed);
        /* Standard errors: mean 1/sqrt(N), variance sqrt(2/N), kurtosis sqrt(24/N), and the
         * share within one sigma (0.6827) sqrt(p(1-p)/N). */
        assert_true(fabs(m.mean) < SE_BOUND / sqrt(DRAWS));
        assert_true(fabs(m.var - 1) < SE_BOUND * sqrt(2.0 / DRAWS));
        assert_true(fabs(m.kurt - 3) < SE_BOUND * sqrt(24.0 / DRAWS));
        assert_true(fabs(m.within1 - 0.682689) < SE_BOUND * sqrt(0.2166 / DRAWS));
    }
}

static void test_uniform_in_open_interval(void **state)
{
    (void)state;
    struct rng r;
    rng_seed(&r, 7);
    double s1 = 0, s2 = 0;
    for (int i = 0; i < DRAWS; i++) {
        double u = rng_uniform(&r);
        assert_true(u > 0 && u < 1);
        s1 += u;
        s2 += u * u;
    }
    double mean = s1 / DRAWS, var = s2 / DRAWS - mean * mean;
    /* Uniform: mean 1/2 (standard error sqrt(1/12/N)), variance 1/12 (sqrt(1/180/N)). */
    assert_true(fabs(mean - 0.5) < SE_BOUND * sqrt(1.0 / 12 / DRAWS));
    assert_true(fabs(var - 1.0 / 12) < SE_BOUND * sqrt(1.0 / 180 / DRAWS));
}

static void test_gauss_reproducible_per_seed(void **state)
{
    (void)state;
    struct rng a, b, c;
    rng_seed(&a, 42);
    rng_seed(&b, 42);
    rng_seed(&c, 43);
    int differ = 0;
    for (int i = 0; i < 100; i++) {
        double x = rng_gauss(&a), y = rng_gauss(&b), z = rng_gauss(&c);
        assert_true(x == y);
        differ += x != z;
    }
    assert_true(differ > 90);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gauss_mean_and_variance),
        cmocka_unit_test(test_uniform_in_open_interval),
        cmocka_unit_test(test_gauss_reproducible_per_seed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
