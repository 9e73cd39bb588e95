// SPDX-License-Identifier: MIT
// A machine for the experiments' unit tests: a Linux host of three cache levels the test sizes,
// 16 GiB of memory and 4 GiB of buffer room.
#ifndef CHASE_TEST_FAKE_MACHINE_H
#define CHASE_TEST_FAKE_MACHINE_H

#include <stdint.h>
#include <string.h>

#include "machine/machine.h"

/* m zeroed, then an L1d of l1d bytes, an L2 of l2 and an L3 of l3 (64-byte lines), no vector
   unit named (the test sets m->cpu.simd), no other processor counted. */
static inline void fake_machine(struct machine *m, uint64_t l1d, uint64_t l2, uint64_t l3)
{
    memset(m, 0, sizeof(*m));
    strcpy(m->platform, "linux");
    m->cpu.ncaches = 3;
    m->cpu.caches[0] = (struct cache_info){
        .level = 1, .type = CACHE_DATA, .size_bytes = l1d, .ways = 8, .line_bytes = 64};
    m->cpu.caches[1] = (struct cache_info){
        .level = 2, .type = CACHE_UNIFIED, .size_bytes = l2, .ways = 16, .line_bytes = 64};
    m->cpu.caches[2] = (struct cache_info){
        .level = 3, .type = CACHE_UNIFIED, .size_bytes = l3, .ways = 16, .line_bytes = 64};
    m->memory_total_bytes = 16ull << 30;
    m->buffer_limit_bytes = 4ull << 30;
}

#endif
