// SPDX-License-Identifier: MIT
// The little floating-point math the kernel needs, without libm.
#ifndef CHASE_KMATH_H
#define CHASE_KMATH_H

/* 2 raised to x, for |x| < 60; relative error below 1e-12. */
double kexp2(double x);
/* Base-2 logarithm of x > 0; relative error below 1e-12. */
double klog2(double x);

#endif
