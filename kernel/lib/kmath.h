// SPDX-License-Identifier: MIT
// The little floating-point math the kernel needs, without libm.
#ifndef CHASE_KMATH_H
#define CHASE_KMATH_H

#include <stdbool.h>

/* Not-a-number and infinity as constants (compiler built-ins: no libm call). */
#define KM_NAN __builtin_nan("")
#define KM_INF __builtin_inf()

/* Every function here is total: it gives a defined result for every double, NaN, the
 * infinities, -0 and subnormals included, and never converts an out-of-range double to an
 * integer (that is undefined behaviour in C). The results outside the ordinary domain are the
 * ones written beside each function; test_kmath checks each at its edges. */

/* 2 raised to x, within 4 ulps (test_kmath checks it against the C library's); NaN for NaN, 0
 * below -1075 (and for -inf), infinity from 1024 on (and for +inf). */
double kexp2(double x);
/* Base-2 logarithm of x > 0, within 4 ulps of the result (of 1 where it is below 1), subnormals
 * included; +inf for +inf, NaN for NaN, and -1e300 for x <= 0 (-0 and -inf too): a finite stand-in
 * for minus infinity that keeps sums of logarithms finite. */
double klog2(double x);
/* Natural logarithm of x > 0; as klog2 at the edges (-1e300 for x <= 0, NaN, +inf). */
double kln(double x);
/* e raised to x; as kexp2 at the edges (0 far below, +inf far above, NaN for NaN). */
double kexp(double x);
/* Square root of x >= 0 (to the last bit or one off); -0 for -0, +inf for +inf, NaN below 0 and
 * for NaN. */
double ksqrt(double x);

/* Whether x is a finite number (neither NaN nor infinite). */
static inline bool kisfinite(double x)
{
    return __builtin_isfinite(x);
}

/* Whether x is NaN. */
static inline bool kisnan(double x)
{
    return x != x;
}

/* |x|. */
static inline double kfabs(double x)
{
    return x < 0 ? -x : x;
}

/* Beyond this magnitude every double is an integer (the 52 fraction bits are spent), and the
 * conversion through long long below would be undefined from 2^63 on. */
#define KM_INTEGRAL_FROM 0x1p52

/* The largest integer not above x, as C's floor, for every double: NaN, the infinities, +-0 and
 * every |x| >= 2^52 (already an integer) are returned as they are. */
static inline double kfloor(double x)
{
    if (!(kfabs(x) < KM_INTEGRAL_FROM) || x == 0)
        return x;
    double t = (double)(long long)x;
    return t > x ? t - 1 : t;
}

/* The smaller of a and b; when one is NaN, the other (as C's fmin). */
static inline double kfmin(double a, double b)
{
    if (a != a)
        return b;
    if (b != b)
        return a;
    return a < b ? a : b;
}

/* The larger of a and b; when one is NaN, the other (as C's fmax). */
static inline double kfmax(double a, double b)
{
    if (a != a)
        return b;
    if (b != b)
        return a;
    return a > b ? a : b;
}

#endif
