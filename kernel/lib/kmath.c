// SPDX-License-Identifier: MIT
// The little floating-point math the kernel needs, without libm.
#include "lib/kmath.h"

#include <stdint.h>

#define LN2 0.69314718055994530942

/* The bits of a double and back (memcpy: no aliasing through pointers; the builtin, inlined, not
 * kmemcpy, a call on kexp2's and klog2's hot path). */
static uint64_t bits_of(double d)
{
    uint64_t b;
    __builtin_memcpy(&b, &d, sizeof(b));
    return b;
}

static double of_bits(uint64_t b)
{
    double d;
    __builtin_memcpy(&d, &b, sizeof(d));
    return d;
}

/* 2^k exactly, for -1022 <= k <= 1023 (a normal number: the exponent field alone). */
static double pow2_normal(int k)
{
    return of_bits((uint64_t)(k + 1023) << 52);
}

/* 2^(j/32), j = 0..31, correctly rounded (from 60-digit decimal arithmetic). */
static const double exp2_table[] = {
    0x1.0000000000000p+0, /* 2^(0/32) */
    0x1.059b0d3158574p+0, /* 2^(1/32) */
    0x1.0b5586cf9890fp+0, /* 2^(2/32) */
    0x1.11301d0125b51p+0, /* 2^(3/32) */
    0x1.172b83c7d517bp+0, /* 2^(4/32) */
    0x1.1d4873168b9aap+0, /* 2^(5/32) */
    0x1.2387a6e756238p+0, /* 2^(6/32) */
    0x1.29e9df51fdee1p+0, /* 2^(7/32) */
    0x1.306fe0a31b715p+0, /* 2^(8/32) */
    0x1.371a7373aa9cbp+0, /* 2^(9/32) */
    0x1.3dea64c123422p+0, /* 2^(10/32) */
    0x1.44e086061892dp+0, /* 2^(11/32) */
    0x1.4bfdad5362a27p+0, /* 2^(12/32) */
    0x1.5342b569d4f82p+0, /* 2^(13/32) */
    0x1.5ab07dd485429p+0, /* 2^(14/32) */
    0x1.6247eb03a5585p+0, /* 2^(15/32) */
    0x1.6a09e667f3bcdp+0, /* 2^(16/32) */
    0x1.71f75e8ec5f74p+0, /* 2^(17/32) */
    0x1.7a11473eb0187p+0, /* 2^(18/32) */
    0x1.82589994cce13p+0, /* 2^(19/32) */
    0x1.8ace5422aa0dbp+0, /* 2^(20/32) */
    0x1.93737b0cdc5e5p+0, /* 2^(21/32) */
    0x1.9c49182a3f090p+0, /* 2^(22/32) */
    0x1.a5503b23e255dp+0, /* 2^(23/32) */
    0x1.ae89f995ad3adp+0, /* 2^(24/32) */
    0x1.b7f76f2fb5e47p+0, /* 2^(25/32) */
    0x1.c199bdd85529cp+0, /* 2^(26/32) */
    0x1.cb720dcef9069p+0, /* 2^(27/32) */
    0x1.d5818dcfba487p+0, /* 2^(28/32) */
    0x1.dfc97337b9b5fp+0, /* 2^(29/32) */
    0x1.ea4afa2a490dap+0, /* 2^(30/32) */
    0x1.f50765b6e4540p+0, /* 2^(31/32) */
};

double kexp2(double x)
{
    if (x != x)
        return x;
    if (x > 1024)
        return KM_INF;
    if (x < -1075)
        return 0;
    /* x = ip + j/32 + r with t = 32 ip + j the nearest integer to 32x, |r| <= 1/64 (exact: x
     * and t/32 are that close); 2^r = e^f, f = r ln 2, |f| <= 0.011, whose series is below an
     * ulp from its term in f^8 on, summed by Horner's rule from the last term. */
    double t = kfloor(x * 32 + 0.5), f = (x - t / 32) * LN2;
    double ipd = kfloor(t / 32);
    int ip = (int)ipd, j = (int)(t - 32 * ipd);
    double p = 1.0 / 5040;
    p = p * f + 1.0 / 720;
    p = p * f + 1.0 / 120;
    p = p * f + 1.0 / 24;
    p = p * f + 1.0 / 6;
    p = p * f + 1.0 / 2;
    p = p * f + 1;
    p = p * f + 1;
    double sum = exp2_table[j] * p;
    if (ip > 1023) /* 2^1024 itself is no double: two factors, the product may overflow */
        return sum * 2 * pow2_normal(ip - 1);
    if (ip < -1022) /* below the normal range: scaled down in two steps, rounded once */
        return sum * pow2_normal(ip + 64) * pow2_normal(-64);
    return sum * pow2_normal(ip);
}

/* log2(j/64), j = 45..91, correctly rounded (from 60-digit decimal arithmetic). */
static const double log2_table[] = {
    -0x1.042bd4b9a7c99p-1, /* log2(45/64) */
    -0x1.e7df5fe538ab3p-2, /* log2(46/64) */
    -0x1.c819dc2d45fe4p-2, /* log2(47/64) */
    -0x1.a8ff971810a5ep-2, /* log2(48/64) */
    -0x1.8a8980abfbd32p-2, /* log2(49/64) */
    -0x1.6cb0f6865c8eap-2, /* log2(50/64) */
    -0x1.4f6fbb2cec598p-2, /* log2(51/64) */
    -0x1.32bfee370ee68p-2, /* log2(52/64) */
    -0x1.169c05363f158p-2, /* log2(53/64) */
    -0x1.f5fd8a9063e35p-3, /* log2(54/64) */
    -0x1.bfc67a7fff4ccp-3, /* log2(55/64) */
    -0x1.8a8980abfbd32p-3, /* log2(56/64) */
    -0x1.563dc29ffacb2p-3, /* log2(57/64) */
    -0x1.22dadc2ab3497p-3, /* log2(58/64) */
    -0x1.e0b1ae8f2fd56p-4, /* log2(59/64) */
    -0x1.7d60496cfbb4cp-4, /* log2(60/64) */
    -0x1.1bb32a600549dp-4, /* log2(61/64) */
    -0x1.77394c9d958d5p-5, /* log2(62/64) */
    -0x1.743ee861f3556p-6, /* log2(63/64) */
    0x0.0p+0,              /* log2(64/64) */
    0x1.6e79685c2d22ap-6,  /* log2(65/64) */
    0x1.6bad3758efd87p-5,  /* log2(66/64) */
    0x1.0eb389fa29f9bp-4,  /* log2(67/64) */
    0x1.663f6fac91316p-4,  /* log2(68/64) */
    0x1.bc84240adabbap-4,  /* log2(69/64) */
    0x1.08c588cda79e4p-3,  /* log2(70/64) */
    0x1.32ae9e278ae1ap-3,  /* log2(71/64) */
    0x1.5c01a39fbd688p-3,  /* log2(72/64) */
    0x1.84c2bd02f03b3p-3,  /* log2(73/64) */
    0x1.acf5e2db4ec94p-3,  /* log2(74/64) */
    0x1.d49ee4c325970p-3,  /* log2(75/64) */
    0x1.fbc16b902680ap-3,  /* log2(76/64) */
    0x1.11307dad30b76p-2,  /* log2(77/64) */
    0x1.24407ab0e073ap-2,  /* log2(78/64) */
    0x1.37124cea4cdedp-2,  /* log2(79/64) */
    0x1.49a784bcd1b8bp-2,  /* log2(80/64) */
    0x1.5c01a39fbd688p-2,  /* log2(81/64) */
    0x1.6e221cd9d0cdep-2,  /* log2(82/64) */
    0x1.800a563161c54p-2,  /* log2(83/64) */
    0x1.91bba891f1709p-2,  /* log2(84/64) */
    0x1.a33760a7f6051p-2,  /* log2(85/64) */
    0x1.b47ebf73882a1p-2,  /* log2(86/64) */
    0x1.c592fad295b56p-2,  /* log2(87/64) */
    0x1.d6753e032ea0fp-2,  /* log2(88/64) */
    0x1.e726aa1e754d2p-2,  /* log2(89/64) */
    0x1.f7a8568cb06cfp-2,  /* log2(90/64) */
    0x1.03fda8b97997fp-1,  /* log2(91/64) */
};

double klog2(double x)
{
    if (x <= 0)
        return -1e300;
    if (!kisfinite(x))
        return x;
    int e = 0;
    if (x < pow2_normal(-1022)) { /* subnormal: made normal first */
        x *= pow2_normal(54);
        e = -54;
    }
    uint64_t b = bits_of(x);
    e += (int)(b >> 52 & 0x7ff) - 1023;
    double m = of_bits((b & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL); /* 1 <= m < 2 */
    if (m > 1.4142135623730951) { /* 1/sqrt(2) <= m <= sqrt(2): log2(m) is small near 1 */
        m /= 2;
        e++;
    }
    /* c = j/64 the nearest: log2(m) = log2(c) + ln(m/c) / ln 2, ln(m/c) = 2 atanh(y) with
     * y = (m - c)/(m + c) (m - c exact), |y| <= 0.0056: 2 (y + y^3/3 + y^5/5 + y^7/7) is within
     * an ulp. */
    int j = (int)kfloor(m * 64 + 0.5);
    double c = j / 64.0, y = (m - c) / (m + c), y2 = y * y;
    double atanh2 = 2 * y * (1 + y2 * (1.0 / 3 + y2 * (1.0 / 5 + y2 * (1.0 / 7))));
    return e + (log2_table[j - 45] + atanh2 / LN2);
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
