// SPDX-License-Identifier: MIT
// Chain builders: lay out slots in the buffer, each holding the address of the next slot.
#ifndef CHASE_CHAIN_H
#define CHASE_CHAIN_H

#include <stdint.h>

/* Where a chain's slots lie: slot i is at base + offset_bytes + i * stride_bytes. */
struct chain_layout {
    uint8_t *base;
    uint64_t offset_bytes;
    uint64_t stride_bytes; /* a multiple of 8, at least 8 */
    uint64_t slots;        /* at least 1 */
};

static inline void **chain_slot(const struct chain_layout *l, uint64_t i)
{
    return (void **)(l->base + l->offset_bytes + i * l->stride_bytes);
}

/* Bytes of buffer the layout touches, from base (offset plus the last slot's end). */
static inline uint64_t chain_span_bytes(const struct chain_layout *l)
{
    return l->offset_bytes + (l->slots - 1) * l->stride_bytes + sizeof(void *);
}

/*
 * Build one random cycle through every slot (Sattolo's algorithm, generator seeded
 * with seed), so a chase visits each slot once per lap in an order the prefetchers
 * cannot guess. Returns slot 0, where a chase starts.
 */
void **chain_build_random(const struct chain_layout *l, uint64_t seed);

/*
 * Follow the chain from head for at most limit hops; returns the number of hops
 * until it comes back to head, or 0 when it does not within limit.
 */
uint64_t chain_cycle_length(void **head, uint64_t limit);

/*
 * A checksum of the visiting order as slot indices (independent of where the
 * buffer lies), following `hops` hops from slot 0: the same on every platform
 * for the same layout and seed.
 */
uint64_t chain_order_checksum(const struct chain_layout *l, uint64_t hops);

#endif
