// SPDX-License-Identifier: MIT
// Real-valued draws from the project's generator (lib/rng.c): uniform in (0, 1) and Gaussian.
//
// Kept beside rng.c rather than in it so that the chain code, which needs only integers, does
// not pull in lib/kmath.c wherever it is linked.
#include "lib/kmath.h"
#include "lib/rng.h"

/* 2^-53: one step of a double's 53-bit mantissa in [0, 1). */
#define TWO_POW_MINUS_53 (1.0 / 9007199254740992.0)

/* Uniform in (0, 1): the top 53 bits of the next draw, centred in their step (never 0 or 1). */
double rng_uniform(struct rng *r)
{
    return ((double)(rng_next(r) >> 11) + 0.5) * TWO_POW_MINUS_53;
}

/* A standard normal draw (Marsaglia's polar method: a point uniform in the unit disc, scaled). */
double rng_gauss(struct rng *r)
{
    for (;;) {
        double u = 2 * rng_uniform(r) - 1, v = 2 * rng_uniform(r) - 1, s = u * u + v * v;
        if (s > 0 && s < 1)
            return u * ksqrt(-2 * kln(s) / s);
    }
}
