// SPDX-License-Identifier: MIT
// Stamp-ordered policies: LRU, FIFO, BIP (LRU with bimodal insertion) and DIP (LRU vs BIP).
#ifndef SIM_POLICY_LRU_H
#define SIM_POLICY_LRU_H

#include "sim_duel.h"

/*
 * Every line has a stamp; the lowest stamp of a full set is the victim. LRU stamps a line
 * on every hit and fill with the cache's clock (most recently used); FIFO only on fill.
 * BIP (Qureshi et al., ISCA 2007) fills at the LRU position, a stamp below every other
 * line of the set, and at MRU once in eps fills; DIP duels LRU against BIP.
 */

/* The way of a full set with the lowest stamp. */
static inline unsigned stamp_victim(const struct sim_cache *c, uint32_t set)
{
    const uint64_t *s = c->stamp + (uint64_t)set * c->ways;
    unsigned best = 0;
    uint64_t low = s[0];
    for (unsigned w = 1; w < c->ways; w++) {
        bool lower = s[w] < low;
        low = lower ? s[w] : low;
        best = lower ? w : best;
    }
    return best;
}

/* Most recently used: a stamp above every other in the cache. */
static inline void stamp_mru(struct sim_cache *c, uint32_t set, unsigned way)
{
    c->stamp[(uint64_t)set * c->ways + way] = ++c->clock;
}

/* Least recently used: a stamp below every other line of the set, so it goes next. */
static inline void stamp_lru(struct sim_cache *c, uint32_t set, unsigned way)
{
    const uint64_t *s = c->stamp + (uint64_t)set * c->ways;
    uint64_t low = UINT64_MAX, empty = c->free_ways[set];
    for (unsigned w = 0; w < c->ways; w++)
        if (w != way && !(empty >> w & 1) && s[w] < low)
            low = s[w];
    c->stamp[(uint64_t)set * c->ways + way] = low == UINT64_MAX ? c->clock : low - 1;
}

/* BIP: insert at the LRU position, at the MRU position once in eps fills. */
static inline void bip_fill(struct sim_cache *c, uint32_t set, unsigned way)
{
    if (sim_cache_bimodal(c))
        stamp_mru(c, set, way);
    else
        stamp_lru(c, set, way);
}

/* DIP: the leader sets' and the selector's choice between LRU (A) and BIP (B). */
static inline void dip_fill(struct sim_cache *c, uint32_t set, unsigned way)
{
    if (sim_duel_use_b(c, set))
        bip_fill(c, set, way);
    else
        stamp_mru(c, set, way);
}

#endif
