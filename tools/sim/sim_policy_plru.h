// SPDX-License-Identifier: MIT
// Tree pseudo-LRU: one bit per inner node of a binary tree over the ways points at the victim.
#ifndef SIM_POLICY_PLRU_H
#define SIM_POLICY_PLRU_H

#include <string.h>

#include "sim_cache.h"

/*
 * Nodes are numbered from 1 (the root) as in a heap; node n has children 2n and 2n+1 and
 * the ways are the leaves, in order. A node's bit 0 sends the victim search left, 1 right.
 * An access points every node on the way's path away from it: with the path's nodes and
 * their new values precomputed per way (sim_plru_init), that is one mask and one or. Up to
 * 8 ways (7 nodes) the victim of every tree is precomputed too, and the tree once that
 * victim is refilled: a fill of a full set is then two lookups. The bits are a uint64_t
 * at the start of the set's state. Needs a power-of-two number of ways.
 */

/* Precompute the tree paths of c's ways (cheap; done for every cache). */
void sim_plru_init(struct sim_cache *c);

SIM_INLINE uint64_t plru_bits(const uint8_t *st)
{
    uint64_t bits;
    memcpy(&bits, st, sizeof(bits));
    return bits;
}

SIM_INLINE void plru_touch(const struct sim_cache *c, uint8_t *st, unsigned way)
{
    uint64_t bits = (plru_bits(st) & ~c->tree_path[way]) | c->tree_away[way];
    memcpy(st, &bits, sizeof(bits));
}

/* plru_victim and plru_touch of it, up to 8 ways: two lookups by the tree. */
SIM_INLINE unsigned plru_refill8(const struct sim_cache *c, uint8_t *st)
{
    unsigned tree = (unsigned)(plru_bits(st) >> 1) & 0x7f;
    uint64_t bits = (uint64_t)c->tree_refilled[tree] << 1;
    memcpy(st, &bits, sizeof(bits));
    return c->tree_victim[tree];
}

SIM_INLINE unsigned plru_victim(const struct sim_cache *c, const uint8_t *st)
{
    uint64_t bits = plru_bits(st);
    if (c->tree_depth <= 3)
        return c->tree_victim[(bits >> 1) & 0x7f];
    unsigned node = 1;
    for (unsigned level = 0; level < c->tree_depth; level++)
        node = 2 * node + (unsigned)((bits >> node) & 1);
    return node - (1u << c->tree_depth);
}

#endif
