// SPDX-License-Identifier: MIT
// The little floating-point math the kernel needs, without libm.
#ifndef CHASE_KMATH_H
#define CHASE_KMATH_H

#include <stdbool.h>

/* Not-a-number and infinity as constants (compiler built-ins: no libm call). */
#define KM_NAN __builtin_nan("")
#define KM_INF __builtin_inf()

/* 2 raised to x; 0 below -1075, infinity from 1024; within 4 ulps (test_kmath checks it against
 * the C library's). */
double kexp2(double x);
/* Base-2 logarithm of x > 0, within 4 ulps of the result (of 1 where it is below 1); -1e300
 * for x <= 0. */
double klog2(double x);
/* Natural logarithm of x > 0 (-1e300 for x <= 0). */
double kln(double x);
/* e raised to x. */
double kexp(double x);
/* Square root of x >= 0 (NaN below 0), to the last bit or one off. */
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

/* The largest integer not above x (as C's floor, for |x| < 2^62). */
static inline double kfloor(double x)
{
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
