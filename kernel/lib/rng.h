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

#endif
