// SPDX-License-Identifier: MIT
// The buffer each of n processors streams at a level (L1, L2, L3, memory), sized from the machine.
#ifndef CHASE_BW_LEVELS_H
#define CHASE_BW_LEVELS_H

#include <stdint.h>

#include "machine/machine.h"

/* The levels a team of processors streams at, nearest first. */
enum bw_level { BW_LEVEL_L1, BW_LEVEL_L2, BW_LEVEL_L3, BW_LEVEL_DRAM };

/* A processor's buffer in memory: twice the LLC, at least this, so that it leaves the caches. */
#define BW_LEVEL_DRAM_MIN_BYTES (64ULL << 20)

/*
 * A level's buffer for each of n processors streaming at once: half the L1 or L2; for the L3, half
 * each one's part of the last cache but at least twice its L2 (*part set to that part when no
 * size is both, else 0); in memory, twice the LLC (at least BW_LEVEL_DRAM_MIN_BYTES) as memory
 * allows. Aligned to BW_SIZE_ALIGN_BYTES, never 0.
 */
uint64_t bw_level_bytes(const struct machine *m, enum bw_level level, unsigned n, uint64_t *part);

#endif
