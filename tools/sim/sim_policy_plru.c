// SPDX-License-Identifier: MIT
// Tree pseudo-LRU: one bit per inner node of a binary tree over the ways points at the victim.
#include "sim_policy.h"

/*
 * Nodes are numbered from 1 (the root) as in a heap; node n has children 2n and 2n+1 and
 * the ways are the leaves, in order. A node's bit 0 sends the victim search left, 1 right.
 * An access points every node on the way's path away from it: with the path's nodes and
 * their new values precomputed per way, that is one mask and one or.
 */
void sim_plru_init(struct sim_cache *c)
{
    unsigned depth = 0;
    while ((1u << depth) < c->ways)
        depth++;
    c->tree_depth = depth;
    for (unsigned way = 0; way < c->ways; way++) {
        uint64_t path = 0, away = 0;
        unsigned node = 1;
        for (unsigned level = depth; level > 0; level--) {
            unsigned right = (way >> (level - 1)) & 1;
            path |= 1ULL << node;
            if (!right)
                away |= 1ULL << node;
            node = 2 * node + right;
        }
        c->tree_path[way] = path;
        c->tree_away[way] = away;
    }
}

static void plru_touch(struct sim_cache *c, uint32_t set, unsigned way)
{
    c->tree[set] = (c->tree[set] & ~c->tree_path[way]) | c->tree_away[way];
}

static unsigned plru_victim(struct sim_cache *c, uint32_t set)
{
    uint64_t bits = c->tree[set];
    unsigned node = 1;
    for (unsigned level = 0; level < c->tree_depth; level++)
        node = 2 * node + (unsigned)((bits >> node) & 1);
    return node - (1u << c->tree_depth);
}

const struct sim_policy sim_policy_plru = {
    .name = "plru", .hit = plru_touch, .victim = plru_victim, .fill = plru_touch};
