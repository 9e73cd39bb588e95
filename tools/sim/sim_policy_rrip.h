// SPDX-License-Identifier: MIT
// Re-reference interval prediction (Jaleel et al., ISCA 2010): NRU, SRRIP, BRRIP and DRRIP.
#ifndef SIM_POLICY_RRIP_H
#define SIM_POLICY_RRIP_H

#include "sim_duel.h"

/*
 * Each line has a re-reference prediction value (RRPV) from 0 (soon) to rrpv_max
 * (distant), a byte per way: 2 bits' worth for the RRIP family, 1 for NRU. A hit predicts
 * "soon" (hit priority). The victim is the first way, from way 0, whose RRPV is distant;
 * when there is none, every line of the set ages until one is: the ways holding the
 * highest RRPV present, the first of them goes, and every line ages by its distance to
 * rrpv_max.
 */
SIM_INLINE void rrip_hit(uint8_t *st, unsigned way)
{
    st[way] = 0;
}

SIM_INLINE unsigned rrip_victim(const struct sim_cache *c, uint8_t *st)
{
    unsigned age = 0;
    uint64_t first;
    while (!(first = sim_cache_match_state(c, st, (uint8_t)(c->rrpv_max - age))))
        age++;
    if (age && c->ways <= 16)
        sim_simd_add(st, 16, (uint8_t)age);
    else if (age)
        sim_simd_add(st, c->ways, (uint8_t)age);
    return (unsigned)__builtin_ctzll(first);
}

/*
 * rrip_victim of a cache of up to 16 ways: a line already distant when there is one (one
 * compare: the common case once BRRIP inserts), else the aging without a branch.
 */
SIM_INLINE unsigned rrip_victim16(const struct sim_cache *c, uint8_t *st)
{
    uint64_t distant = sim_simd_match8(st, 16, (uint8_t)c->rrpv_max); /* padding never matches */
    if (distant)
        return (unsigned)__builtin_ctzll(distant);
    return (unsigned)__builtin_ctzll(sim_simd_age16(st, c->lanes, (uint8_t)c->rrpv_max));
}

/* BRRIP: a new line is predicted "distant", "long" once in eps fills: its RRPV. */
SIM_INLINE uint8_t brrip_value(struct sim_cache *c)
{
    return (uint8_t)(sim_cache_bimodal(c) ? c->rrpv_max - 1 : c->rrpv_max);
}

#endif
