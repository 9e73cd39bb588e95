// SPDX-License-Identifier: MIT
// Internals shared by the level detector's files: the cleaned, sorted points it works on.
#ifndef REPORT_LEVELS_INT_H
#define REPORT_LEVELS_INT_H

#include <stddef.h>

#include "levels.h"

struct lpoints {
    size_t n;
    double x[LEVELS_MAX_POINTS];   /* log2(size in bytes), ascending, distinct */
    double ns[LEVELS_MAX_POINTS];  /* latency + offset, > 0 */
    double cyc[LEVELS_MAX_POINTS]; /* core cycles or NaN */
    double y[LEVELS_MAX_POINTS];   /* ln(ns) */
    double z[LEVELS_MAX_POINTS];   /* y after a running median of three */
};

/* Fill p from the raw curve: drop bad points, sort, merge equal sizes, bin long curves. */
void lpoints_build(struct lpoints *p, const double *size, const double *ns, const double *cycles,
                   size_t n, double offset);
/* Robust estimate of the noise of p->y (standard deviation of ln latency), within [0.01, 0.25]. */
double lpoints_noise(const struct lpoints *p);
/* Median of the n values at v (n > 0); v is not changed. */
double lpoints_median(const double *v, size_t n);

#endif
