// SPDX-License-Identifier: MIT
// Unit tests of the kernel's math (kexp2, klog2 and what builds on them) against the C library's.
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

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

/* Bit-exact equality, so that -0 differs from +0 and NaN equals NaN. */
static bool same(double a, double b)
{
    return memcmp(&a, &b, sizeof(a)) == 0 || (isnan(a) && isnan(b));
}

static void test_edges(void **state)
{
    (void)state;
    assert_true(isnan(kexp2(KM_NAN)));
    assert_true(isinf(kexp2(1024)) && kexp2(1024) > 0);
    assert_true(isinf(kexp2(1e300)) && isinf(kexp2(KM_INF)) && isinf(kexp2(DBL_MAX)));
    assert_true(kexp2(-1076) == 0 && kexp2(-1e300) == 0 && kexp2(-KM_INF) == 0);
    assert_true(kexp2(-DBL_MAX) == 0);
    assert_true(kexp2(-1074) == DBL_TRUE_MIN);
    assert_true(kexp2(0) == 1 && kexp2(-0.0) == 1 && kexp2(DBL_TRUE_MIN) == 1);
    assert_true(close_to(kexp2(1023.5), exp2(1023.5)));
    assert_true(klog2(0) == -1e300 && klog2(-0.0) == -1e300 && klog2(-3) == -1e300);
    assert_true(klog2(-KM_INF) == -1e300 && klog2(-DBL_MAX) == -1e300);
    assert_true(isinf(klog2(KM_INF)) && isnan(klog2(KM_NAN)));
    assert_true(klog2(DBL_TRUE_MIN) == -1074 && klog2(DBL_MIN) == -1022);
    assert_true(close_to(klog2(DBL_MAX), log2(DBL_MAX)));
}

/* kln, kexp and ksqrt at the edges: what each header comment promises. */
static void test_edges_built_on_them(void **state)
{
    (void)state;
    assert_true(kln(0) == -1e300 && kln(-0.0) == -1e300 && kln(-KM_INF) == -1e300);
    assert_true(isnan(kln(KM_NAN)) && isinf(kln(KM_INF)));
    assert_true(close_to(kln(DBL_MAX), log(DBL_MAX)) && close_to(kln(DBL_MIN), log(DBL_MIN)));
    assert_true(fabs(kln(DBL_TRUE_MIN) - log(DBL_TRUE_MIN)) < 1e-12 * 745);
    assert_true(isnan(kexp(KM_NAN)) && isinf(kexp(KM_INF)) && kexp(-KM_INF) == 0);
    assert_true(isinf(kexp(DBL_MAX)) && kexp(-DBL_MAX) == 0 && kexp(-0.0) == 1);
    assert_true(same(ksqrt(0), 0) && same(ksqrt(-0.0), -0.0));
    assert_true(isnan(ksqrt(-1)) && isnan(ksqrt(-KM_INF)) && isnan(ksqrt(KM_NAN)));
    assert_true(isnan(ksqrt(-DBL_MAX)) && isnan(ksqrt(-DBL_TRUE_MIN)));
    assert_true(isinf(ksqrt(KM_INF)));
    assert_true(close_to(ksqrt(DBL_MAX), sqrt(DBL_MAX)));
    assert_true(close_to(ksqrt(DBL_MIN), sqrt(DBL_MIN)));
    assert_true(close_to(ksqrt(DBL_TRUE_MIN), sqrt(DBL_TRUE_MIN)));
}

/* kfloor for every kind of double: as C's floor, bit for bit. The reader's largest values (2^52
 * bytes, 2^62 counts: tools/report/inputs/rbounds.c) and the finding of issue 38 (8.9e30 ns,
 * where the conversion through long long was undefined) are among them. */
static void test_floor_everywhere(void **state)
{
    (void)state;
    const double x[] = {0.0,          -0.0,          0.5,        -0.5,       1.0,
                        -1.0,         2.5,           -2.5,       0x1p52,     -0x1p52,
                        0x1p52 - 0.5, -0x1p52 + 0.5, 0x1p53 + 2, 0x1p62,     -0x1p62,
                        0x1p63,       -0x1p63,       0x1p64,     8.88889e32, 1e300,
                        -1e300,       DBL_MAX,       -DBL_MAX,   DBL_MIN,    -DBL_MIN,
                        DBL_TRUE_MIN, -DBL_TRUE_MIN, KM_INF,     -KM_INF,    KM_NAN};
    for (size_t i = 0; i < sizeof(x) / sizeof(x[0]); i++) {
        if (!same(kfloor(x[i]), floor(x[i])))
            print_error("kfloor(%a) = %a, libm %a\n", x[i], kfloor(x[i]), floor(x[i]));
        assert_true(same(kfloor(x[i]), floor(x[i])));
    }
    uint64_t s = 5;
    for (int i = 0; i < SWEEP; i++) {
        double v = ldexp(uniform(&s) - 0.5, (int)(uniform(&s) * 130) - 64);
        assert_true(same(kfloor(v), floor(v)));
    }
}

/* kfmin and kfmax as C's fmin and fmax, NaN on either side included. */
static void test_min_max(void **state)
{
    (void)state;
    assert_true(kfmin(KM_NAN, 2) == 2 && kfmin(2, KM_NAN) == 2 && isnan(kfmin(KM_NAN, KM_NAN)));
    assert_true(kfmax(KM_NAN, 2) == 2 && kfmax(2, KM_NAN) == 2 && isnan(kfmax(KM_NAN, KM_NAN)));
    assert_true(kfmin(-KM_INF, DBL_MAX) == -KM_INF && kfmax(KM_INF, -DBL_MAX) == KM_INF);
    assert_true(kfabs(-0.0) == 0 && kfabs(-KM_INF) == KM_INF && isnan(kfabs(KM_NAN)));
    assert_true(kisfinite(DBL_MAX) && !kisfinite(KM_INF) && !kisfinite(KM_NAN));
    assert_true(kisnan(KM_NAN) && !kisnan(KM_INF));
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
        cmocka_unit_test(test_edges_built_on_them),
        cmocka_unit_test(test_floor_everywhere),
        cmocka_unit_test(test_min_max),
        cmocka_unit_test(test_built_on_them),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
