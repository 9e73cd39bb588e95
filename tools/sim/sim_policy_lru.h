// SPDX-License-Identifier: MIT
// Recency-ordered policies: LRU, FIFO, BIP (LRU with bimodal insertion) and DIP (LRU vs BIP).
#ifndef SIM_POLICY_LRU_H
#define SIM_POLICY_LRU_H

#include "sim_duel.h"

/*
 * The ways of a set are kept in an order, as a rank per way: 0 the newest, ways - 1 the
 * oldest, the ranks of a set always a permutation. The victim of a full set is the oldest.
 * LRU makes a line the newest on every hit and fill; FIFO only on fill. BIP (Qureshi et
 * al., ISCA 2007) fills at the LRU position, below every other line of the set, and at
 * MRU once in eps fills; DIP duels LRU against BIP. Empty ways keep a rank, which never
 * matters: a way is ranked again when it is filled, and only full sets need a victim.
 * (This is the order a per-line time stamp gives, in a byte per way instead of eight.)
 */

/* The way of a full set ranked oldest. */
SIM_INLINE unsigned rank_victim(const struct sim_cache *c, const uint8_t *st)
{
    return (unsigned)__builtin_ctzll(sim_cache_match_state(c, st, (uint8_t)(c->ways - 1)));
}

/* rank_victim of a cache of up to 16 ways. */
SIM_INLINE unsigned rank_victim16(const struct sim_cache *c, const uint8_t *st)
{
    return (unsigned)__builtin_ctzll(sim_simd_match8(st, 16, (uint8_t)(c->ways - 1)));
}

/*
 * rank_victim16 and rank_newest16 of it in one vector step: the oldest becomes the newest,
 * every other way ages by one (no read of the victim's rank back, no byte written after).
 */
SIM_INLINE unsigned rank_refill16(const struct sim_cache *c, uint8_t *st)
{
    return sim_simd_rank_refill16(st, (uint8_t)(c->ways - 1));
}

/* rank_newest of a cache of up to 16 ways. */
SIM_INLINE void rank_newest16(uint8_t *st, unsigned way)
{
    sim_simd_inc_below(st, 16, st[way]);
    st[way] = 0;
}

/* Most recently used: way moves to rank 0, the ways that were newer age by one. */
SIM_INLINE void rank_newest(const struct sim_cache *c, uint8_t *st, unsigned way)
{
    if (c->ways <= 16)
        sim_simd_inc_below(st, 16, st[way]);
    else
        sim_simd_inc_below(st, c->ways, st[way]);
    st[way] = 0;
}

/* Least recently used: way moves to the last rank, the ways that were older move up. */
SIM_INLINE void rank_oldest(const struct sim_cache *c, uint8_t *st, unsigned way)
{
    if (c->ways <= 16)
        sim_simd_dec_above(st, 16, st[way]);
    else
        sim_simd_dec_above(st, c->ways, st[way]);
    st[way] = (uint8_t)(c->ways - 1);
}

#endif
