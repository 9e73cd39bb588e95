// SPDX-License-Identifier: MIT
// Unit tests of the kernel's math (kexp2, klog2 and what builds on them) against the C library's.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <float.h>
#include <math.h>
#include <stdint.h>

#include <cmocka.h>

#include "lib/kmath.h"

/* Points of each sweep. */
#define SWEEP 200000
/* Ulps of relative error allowed against the C library (whose own results are within one). */
#define ULPS 4

/* A reproducible uniform number in [0, 1) (64-bit LCG, top 53 bits). */
static double uniform(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(*s >> 11) / 9007199254740992.0;
}

/* Whether ours is within ULPS ulps of want, or within 2 of the smallest subnormals near zero. */
static bool close_to(double ours, double want)
{
    if (fabs(want) < DBL_MIN)
        return fabs(ours - want) <= 2 * DBL_TRUE_MIN;
    return fabs(ours - want) <= ULPS * DBL_EPSILON * fabs(want);
}

static void test_exp2_against_libm(void **state)
{
    (void)state;
    uint64_t s = 1;
    int bad = 0;
    for (int i = 0; i < SWEEP; i++) {
        double x = -1075 + uniform(&s) * 2099; /* -1075 .. 1024: subnormal to overflow */
        double want = exp2(x), ours = kexp2(x);
        if (!(isinf(want) ? isinf(ours) : close_to(ours, want)) && bad++ < 5)
            print_error("kexp2(%.17g) = %.17g, libm %.17g\n", x, ours, want);
    }
    /* Integers are exact, the binade edges and the small fractions around them too. */
    for (int k = -1074; k <= 1023; k++)
        if (kexp2(k) != ldexp(1, k) && bad++ < 5)
            print_error("kexp2(%d) = %.17g\n", k, kexp2(k));
    for (int i = 0; i < SWEEP; i++) {
        double x = (uniform(&s) - 0.5) * 1e-3;
        if (!close_to(kexp2(x), exp2(x)) && bad++ < 5)
            print_error("kexp2(%.17g) = %.17g, libm %.17g\n", x, kexp2(x), exp2(x));
    }
    assert_int_equal(bad, 0);
}

static void test_log2_against_libm(void **state)
{
    (void)state;
    uint64_t s = 2;
    int bad = 0;
    for (int i = 0; i < SWEEP; i++) {
        /* A mantissa in [1, 2) times 2^e over the whole range, subnormals included. */
        int e = -1074 + (int)(uniform(&s) * 2098);
        double x = ldexp(1 + uniform(&s), e);
        double want = log2(x), ours = klog2(x);
        /* Absolute near log2 = 0 (x near 1), relative beyond. */
        if (fabs(ours - want) > ULPS * DBL_EPSILON * fmax(1, fabs(want)) && bad++ < 5)
            print_error("klog2(%.17g) = %.17g, libm %.17g\n", x, ours, want);
    }
    for (int k = -1074; k <= 1023; k++)
        if (klog2(ldexp(1, k)) != k && bad++ < 5)
            print_error("klog2(2^%d) = %.17g\n", k, klog2(ldexp(1, k)));
    /* Around 1 and around sqrt(2), where the mantissa is folded. */
    for (int i = 0; i < SWEEP; i++) {
        double x = (i & 1 ? 1 : M_SQRT2) * (1 + (uniform(&s) - 0.5) * 1e-3);
        if (fabs(klog2(x) - log2(x)) > ULPS * DBL_EPSILON && bad++ < 5)
            print_error("klog2(%.17g) = %.17g, libm %.17g\n", x, klog2(x), log2(x));
    }
    assert_int_equal(bad, 0);
}

static void test_edges(void **state)
{
    (void)state;
    assert_true(isnan(kexp2(KM_NAN)));
    assert_true(isinf(kexp2(1024)) && kexp2(1024) > 0);
    assert_true(isinf(kexp2(1e300)));
    assert_true(kexp2(-1076) == 0 && kexp2(-1e300) == 0);
    assert_true(kexp2(-1074) == DBL_TRUE_MIN);
    assert_true(close_to(kexp2(1023.5), exp2(1023.5)));
    assert_true(klog2(0) == -1e300 && klog2(-3) == -1e300);
    assert_true(isinf(klog2(KM_INF)) && isnan(klog2(KM_NAN)));
    assert_true(klog2(DBL_TRUE_MIN) == -1074);
    assert_true(close_to(klog2(DBL_MAX), log2(DBL_MAX)));
}

static void test_built_on_them(void **state)
{
    (void)state;
    uint64_t s = 3;
    int bad = 0;
    for (int i = 0; i < SWEEP / 10; i++) {
        double x = ldexp(1 + uniform(&s), -60 + (int)(uniform(&s) * 120));
        double y = (uniform(&s) - 0.5) * 1400;
        if (fabs(kln(x) - log(x)) > ULPS * DBL_EPSILON * fmax(1, fabs(log(x))) && bad++ < 5)
            print_error("kln(%.17g) = %.17g, libm %.17g\n", x, kln(x), log(x));
        if (!(isinf(exp(y)) ? isinf(kexp(y)) : fabs(kexp(y) - exp(y)) <= 1e-13 * exp(y)) &&
            bad++ < 5) /* x / ln 2 rounds: e^y is as exact as y / ln 2, about 700 ulps */
            print_error("kexp(%.17g) = %.17g, libm %.17g\n", y, kexp(y), exp(y));
        if (!close_to(ksqrt(x), sqrt(x)) && bad++ < 5)
            print_error("ksqrt(%.17g) = %.17g, libm %.17g\n", x, ksqrt(x), sqrt(x));
        /* klog2's 4 ulps of |log2 x| < 64 come back as ln 2 times as much relative error in
         * x, kexp2's 4 ulps on top. */
        double trip = (ULPS * 64 * M_LN2 + ULPS) * DBL_EPSILON * x;
        if (fabs(kexp2(klog2(x)) - x) > trip && bad++ < 5)
            print_error("kexp2(klog2(%.17g)) = %.17g\n", x, kexp2(klog2(x)));
    }
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exp2_against_libm),
        cmocka_unit_test(test_log2_against_libm),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_built_on_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
