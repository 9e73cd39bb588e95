// SPDX-License-Identifier: MIT
// The operations on a cache that consult its policy: hit, miss, install, drop, access.
#ifndef SIM_ACCESS_H
#define SIM_ACCESS_H

#include "sim_cache.h"
#include "sim_policy.h"

/* Count a hit on way of set and update the policy. */
static inline void sim_cache_hit(struct sim_cache *c, uint32_t set, unsigned way)
{
    c->hits++;
    sim_policy_hit(c, set, way);
}

/* Count a miss in set (set dueling learns from it). */
static inline void sim_cache_miss(struct sim_cache *c, uint32_t set)
{
    c->misses++;
    sim_policy_miss(c, set);
}

/*
 * Install tag in set: an empty way if there is one, else the policy's victim.
 * Returns the tag evicted, or SIM_TAG_INVALID when an empty way was used.
 */
static inline uint32_t sim_cache_insert(struct sim_cache *c, uint32_t set, uint32_t tag)
{
    uint32_t *t = c->tags + (uint64_t)set * c->ways;
    uint64_t empty = c->free_ways[set];
    uint32_t evicted = SIM_TAG_INVALID;
    unsigned way;
    if (empty) {
        way = (unsigned)__builtin_ctzll(empty);
        c->free_ways[set] = empty & (empty - 1);
    } else {
        way = sim_policy_victim(c, set);
        evicted = t[way];
    }
    t[way] = tag;
    sim_policy_fill(c, set, way);
    return evicted;
}

/* Empty way of set (its line leaves the cache). */
static inline void sim_cache_drop(struct sim_cache *c, uint32_t set, unsigned way)
{
    c->tags[(uint64_t)set * c->ways + way] = SIM_TAG_INVALID;
    c->free_ways[set] |= 1ULL << way;
}

/* Remove tag from set if it is there; returns whether it was. */
static inline bool sim_cache_invalidate(struct sim_cache *c, uint32_t set, uint32_t tag)
{
    int way = sim_cache_find(c, set, tag);
    if (way < 0)
        return false;
    sim_cache_drop(c, set, (unsigned)way);
    return true;
}

/*
 * The one interface every policy is tested through: look tag up in set; on a hit update
 * the policy, on a miss install it (evicting the victim). Returns whether it hit.
 */
bool sim_cache_access(struct sim_cache *c, uint32_t set, uint32_t tag);

#endif
