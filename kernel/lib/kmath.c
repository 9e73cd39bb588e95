// SPDX-License-Identifier: MIT
// The little floating-point math the kernel needs, without libm.
#include "lib/kmath.h"

#include <stdint.h>

#define LN2 0.69314718055994530942

double kexp2(double x)
{
    if (x != x)
        return x;
    if (x > 1024)
        return KM_INF;
    if (x < -1075)
        return 0;
    int ip = (int)x;
    if ((double)ip > x)
        ip--;
    double f = (x - ip) * LN2; /* 0 <= f < ln 2: the series converges quickly */
    double term = 1, sum = 1;
    for (int k = 1; k < 24; k++) {
        term *= f / k;
        sum += term;
    }
    double scale = 1;
    for (int i = 0; i < (ip < 0 ? -ip : ip); i++)
        scale *= 2;
    return ip < 0 ? sum / scale : sum * scale;
}

double klog2(double x)
{
    if (x <= 0)
        return -1e300;
    if (!kisfinite(x))
        return x;
    int e = 0;
    while (x >= 2) {
        x /= 2;
        e++;
    }
    while (x < 1) {
        x *= 2;
        e--;
    }
    /* ln(x) = 2 atanh((x-1)/(x+1)), 1 <= x < 2 */
    double y = (x - 1) / (x + 1), y2 = y * y, term = y, sum = 0;
    for (int k = 1; k < 80; k += 2) {
        sum += term / k;
        term *= y2;
    }
    return e + 2 * sum / LN2;
}

double kln(double x)
{
    return x <= 0 ? -1e300 : klog2(x) * LN2;
}

double kexp(double x)
{
    return kexp2(x / LN2);
}

double ksqrt(double x)
{
    if (x != x || x < 0)
        return KM_NAN;
    if (x == 0 || !kisfinite(x))
        return x;
    /* Start from 2^(e/2), then Newton's iteration doubles the correct bits each step. */
    double r = kexp2(0.5 * (double)(int)klog2(x));
    for (int i = 0; i < 8; i++)
        r = 0.5 * (r + x / r);
    return r;
}
