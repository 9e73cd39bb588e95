// SPDX-License-Identifier: MIT
// Sweeps: sizes in geometric steps with a fixed number of points per doubling; up-down sweeps.
#ifndef CHASE_SWEEP_H
#define CHASE_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Sizes from min to max, points_per_octave per doubling (min * 2^(k/ppo)), each
 * rounded down to a multiple of align (and at least align), without repeats; max is
 * always the last size. Writes at most cap sizes to out; returns how many there are
 * in total (which may exceed cap).
 */
unsigned sweep_sizes(uint64_t min, uint64_t max, unsigned points_per_octave, uint64_t align,
                     uint64_t *out, unsigned cap);

/*
 * The k-th value of a sweep up from 0 to max in steps of step, then back down to 0 (each
 * end visited once per direction): 2 * (max / step + 1) values. *up says which way.
 */
uint64_t sweep_up_down_at(uint64_t step, uint64_t max, unsigned k, bool *up);

#endif
