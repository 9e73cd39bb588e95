// SPDX-License-Identifier: MIT
// Seeded noise for the level-detection tests: a 64-bit LCG, uniform in (0, 1) and Gaussian.
#ifndef TEST_NOISE_H
#define TEST_NOISE_H

#include <math.h>
#include <stdint.h>

static uint64_t rng_state; /* set by the test before drawing */

/* Uniform in (0, 1), never 0 (log-safe). */
static inline double uniform(void)
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return ((double)(rng_state >> 11) + 0.5) / 9007199254740992.0;
}

/* Standard normal (Box-Muller). */
static inline double gauss(void)
{
    return sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
}

#endif
