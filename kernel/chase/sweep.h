// SPDX-License-Identifier: MIT
// Size sweeps: geometric steps with a fixed number of points per doubling.
#ifndef CHASE_SWEEP_H
#define CHASE_SWEEP_H

#include <stdint.h>

/*
 * Sizes from min to max, points_per_octave per doubling (min * 2^(k/ppo)), each
 * rounded down to a multiple of align (and at least align), without repeats; max is
 * always the last size. Writes at most cap sizes to out; returns how many there are
 * in total (which may exceed cap).
 */
unsigned sweep_sizes(uint64_t min, uint64_t max, unsigned points_per_octave, uint64_t align,
                     uint64_t *out, unsigned cap);

#endif
