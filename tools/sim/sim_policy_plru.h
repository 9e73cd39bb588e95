// SPDX-License-Identifier: MIT
// Tree pseudo-LRU: one bit per inner node of a binary tree over the ways points at the victim.
#ifndef SIM_POLICY_PLRU_H
#define SIM_POLICY_PLRU_H

#include "sim_cache.h"

/*
 * Nodes are numbered from 1 (the root) as in a heap; node n has children 2n and 2n+1 and
 * the ways are the leaves, in order. A node's bit 0 sends the victim search left, 1 right.
 * An access points every node on the way's path away from it: with the path's nodes and
 * their new values precomputed per way (sim_plru_init), that is one mask and one or.
 * Needs a power-of-two number of ways.
 */

/* Precompute the tree paths of c's ways (cheap; done for every cache). */
void sim_plru_init(struct sim_cache *c);

static inline void plru_touch(struct sim_cache *c, uint32_t set, unsigned way)
{
    c->tree[set] = (c->tree[set] & ~c->tree_path[way]) | c->tree_away[way];
}

static inline unsigned plru_victim(const struct sim_cache *c, uint32_t set)
{
    uint64_t bits = c->tree[set];
    unsigned node = 1;
    for (unsigned level = 0; level < c->tree_depth; level++)
        node = 2 * node + (unsigned)((bits >> node) & 1);
    return node - (1u << c->tree_depth);
}

#endif
