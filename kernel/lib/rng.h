// SPDX-License-Identifier: MIT
// Seeded pseudo-random numbers (xoshiro256**, seeded by splitmix64): runs are reproducible.
#ifndef CHASE_RNG_H
#define CHASE_RNG_H

#include <stdint.h>

struct rng {
    uint64_t s[4];
};

/* Seed the generator; every seed (0 included) gives a valid, distinct stream. */
void rng_seed(struct rng *r, uint64_t seed);
/* Next 64 random bits. */
uint64_t rng_next(struct rng *r);
/* Uniform integer in [0, bound) without modulo bias; bound must be > 0. */
uint64_t rng_below(struct rng *r, uint64_t bound);
/* Uniform in (0, 1), never 0 or 1 (safe under a logarithm); lib/rng_gauss.c. */
double rng_uniform(struct rng *r);
/* A standard normal draw (mean 0, variance 1); lib/rng_gauss.c. */
double rng_gauss(struct rng *r);

#endif
