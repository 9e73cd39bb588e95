// SPDX-License-Identifier: MIT
// A cache's operations that consult its policy: build, empty, hit, miss, install, drop, access.
#ifndef SIM_ACCESS_H
#define SIM_ACCESS_H

#include "sim_cache.h"
#include "sim_policy.h"

/* Count a hit on way of set and update the policy. */
SIM_INLINE void sim_cache_hit(struct sim_cache *c, uint32_t set, unsigned way)
{
    c->hits++;
    sim_policy_hit(c, sim_cache_state(c, set), way);
}

/* Count a miss in set (set dueling learns from it). */
SIM_INLINE void sim_cache_miss(struct sim_cache *c, uint32_t set)
{
    c->misses++;
    sim_policy_miss(c, set);
}

/*
 * Install tag in set, whose row is t: the first empty way if there is one, else the
 * policy's victim. Returns the tag evicted, or SIM_TAG_INVALID when an empty way was used.
 */
SIM_INLINE uint32_t sim_cache_insert_as(struct sim_cache *c, enum sim_kind kind, uint32_t set,
                                        uint32_t *t, uint32_t tag)
{
    uint8_t *st = (uint8_t *)t + c->state_at;
    uint64_t empty = c->empty_ways ? sim_cache_match_as(c, kind, t, SIM_TAG_INVALID) : 0;
    uint32_t evicted = SIM_TAG_INVALID;
    unsigned way;
    if (empty) {
        way = (unsigned)__builtin_ctzll(empty);
        c->empty_ways--;
        sim_policy_fill_as(c, kind, set, st, way);
    } else {
        way = sim_policy_refill_as(c, kind, set, st);
        evicted = t[way];
    }
    t[way] = tag;
    return evicted;
}

/* sim_cache_insert_as with c's own kind. */
SIM_INLINE uint32_t sim_cache_insert_at(struct sim_cache *c, uint32_t set, uint32_t *t,
                                        uint32_t tag)
{
    return sim_cache_insert_as(c, c->kind, set, t, tag);
}

/* sim_cache_insert_at on set's row. */
SIM_INLINE uint32_t sim_cache_insert(struct sim_cache *c, uint32_t set, uint32_t tag)
{
    return sim_cache_insert_at(c, set, sim_cache_row(c, set), tag);
}

/* Empty way of a row (its line leaves the cache). */
SIM_INLINE void sim_cache_drop_at(struct sim_cache *c, uint32_t *row, unsigned way)
{
    row[way] = SIM_TAG_INVALID;
    c->empty_ways++;
}

/* Empty way of set. */
SIM_INLINE void sim_cache_drop(struct sim_cache *c, uint32_t set, unsigned way)
{
    sim_cache_drop_at(c, sim_cache_row(c, set), way);
}

/*
 * Remove tag from set if it is there; returns whether it was. Without a branch on the
 * answer (whether a back-invalidation finds its line is as good as random): when tag is
 * not there, the write goes to the row's first way unchanged.
 */
SIM_INLINE bool sim_cache_invalidate_as(struct sim_cache *c, enum sim_kind kind, uint32_t set,
                                        uint32_t tag)
{
    uint32_t *row = sim_cache_row(c, set);
    uint64_t match = sim_cache_match_as(c, kind, row, tag);
    uint32_t found = match != 0, all = 0u - found; /* SIM_TAG_INVALID when found, else 0 */
    unsigned way = (unsigned)__builtin_ctzll(match | 1ULL << 63) & all;
    row[way] |= all;
    c->empty_ways += found;
    return found;
}

/* sim_cache_invalidate_as with c's own kind. */
SIM_INLINE bool sim_cache_invalidate(struct sim_cache *c, uint32_t set, uint32_t tag)
{
    return sim_cache_invalidate_as(c, c->kind, set, tag);
}

/*
 * Allocate and empty a cache with parameters p (validated by the caller: powers of two,
 * ways and slices in range). Returns 0, or -1 when memory ran out.
 */
int sim_cache_init(struct sim_cache *c, const struct sim_cache_params *p);
/* Invalidate every line and reset the policy state (the selector included). */
void sim_cache_flush(struct sim_cache *c);

/*
 * The one interface every policy is tested through: look tag up in set; on a hit update
 * the policy, on a miss install it (evicting the victim). Returns whether it hit.
 */
bool sim_cache_access(struct sim_cache *c, uint32_t set, uint32_t tag);

#endif
