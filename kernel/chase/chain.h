// SPDX-License-Identifier: MIT
// Chain builders: lay out slots in the buffer, each holding the address of the next slot.
#ifndef CHASE_CHAIN_H
#define CHASE_CHAIN_H

#include <stdint.h>

/*
 * Where a chain's slots lie: slot i is at base + offset_bytes + i * stride_bytes, moved
 * (i * stagger_bytes) mod stride_bytes further when stagger_bytes is set (one slot per
 * page then lies in a different cache line of each page, so the slots do not all fall into
 * one cache set).
 */
struct chain_layout {
    uint8_t *base;
    uint64_t offset_bytes;
    uint64_t stride_bytes;  /* a multiple of 8, at least 8 */
    uint64_t slots;         /* at least 1 */
    uint64_t stagger_bytes; /* 0, or a multiple of 8 below stride_bytes */
};

static inline void **chain_slot(const struct chain_layout *l, uint64_t i)
{
    uint64_t at = l->offset_bytes + i * l->stride_bytes;
    if (l->stagger_bytes)
        at += (i * l->stagger_bytes) % l->stride_bytes;
    return (void **)(l->base + at);
}

/* Bytes of buffer the layout touches, from base (offset plus the last slot's end). */
static inline uint64_t chain_span_bytes(const struct chain_layout *l)
{
    if (l->stagger_bytes)
        return l->offset_bytes + l->slots * l->stride_bytes;
    return l->offset_bytes + (l->slots - 1) * l->stride_bytes + sizeof(void *);
}

/*
 * Build one random cycle through every slot (Sattolo's algorithm, generator seeded
 * with seed), so a chase visits each slot once per lap in an order the prefetchers
 * cannot guess. Returns slot 0, where a chase starts.
 */
void **chain_build_random(const struct chain_layout *l, uint64_t seed);

/*
 * chain_build_random, and *sum gets the cycle's link checksum (chain_link_sum),
 * computed while the links are written: nothing more is read.
 */
void **chain_build_random_sum(const struct chain_layout *l, uint64_t seed, uint64_t *sum);

/*
 * Build one cycle through every slot that visits them group by group: the slots are
 * taken in groups of group_slots consecutive slots (the last group may be smaller), the
 * groups are visited in a random cyclic order, and inside each group the slots are
 * visited in a random order before the chase moves on to the next group (multichase's
 * TLB locality: the page walks of a large chain without the cost of a random order
 * across pages). group_slots >= slots gives one random cycle; 1 gives a random cycle of
 * single slots. Returns the first slot of group 0, where a chase starts.
 */
void **chain_build_random_local(const struct chain_layout *l, uint64_t group_slots, uint64_t seed);

/* chain_build_random_local, and *sum gets the cycle's link checksum (chain_link_sum). */
void **chain_build_random_local_sum(const struct chain_layout *l, uint64_t group_slots,
                                    uint64_t seed, uint64_t *sum);

/* Slot i points to slot i + 1, the last slot back to slot 0. Returns slot 0. */
void **chain_build_linear(const struct chain_layout *l);

/*
 * lat_mem_rd's backward ring: slot i points to slot i - 1 (one stride backward), slot 0 to
 * the last slot. Returns the last slot, where a chase starts.
 */
void **chain_build_backward(const struct chain_layout *l);

/*
 * n linear chains (chain_build_linear) in n disjoint equal parts of the size_bytes from
 * base, chain j in the j-th part, at stride_bytes: independent constant-stride streams.
 * Writes the heads to heads[0..n-1]; returns the slots per chain (0 when a part cannot
 * hold one slot).
 */
uint64_t chain_build_streams(uint8_t *base, uint64_t size_bytes, uint64_t stride_bytes, unsigned n,
                             void **heads[]);

/*
 * n disjoint random cycles that together cover every slot of l: cycle j holds the slots
 * j, j + n, j + 2n, ... (each spread over the whole region), built with
 * chain_build_random(seed + j). Writes the heads to heads[0..n-1]; returns the slots of
 * the longest cycle.
 */
uint64_t chain_build_disjoint(const struct chain_layout *l, unsigned n, uint64_t seed,
                              void **heads[]);

/* The slot reached from p after `hops` hops. */
void **chain_walk(void **p, uint64_t hops);

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

/*
 * The checksum of every link of l's slots as slot indices, independent of where the
 * buffer lies: the sum over slots i of a 64-bit mix of (i, the index of the slot i points
 * to). A cycle's links fix its order, so equal sums mean the same chain (but for a
 * collision of 64-bit sums) on every platform. One pass in address order, no chase.
 */
uint64_t chain_link_sum(const struct chain_layout *l);

#endif
