// SPDX-License-Identifier: MIT
// Re-reference interval prediction (Jaleel et al., ISCA 2010): NRU, SRRIP, BRRIP and DRRIP.
#ifndef SIM_POLICY_RRIP_H
#define SIM_POLICY_RRIP_H

#include "sim_duel.h"

/*
 * Each line has a re-reference prediction value (RRPV) from 0 (soon) to rrpv_max
 * (distant): 2 bits for the RRIP family, 1 bit for NRU. A hit predicts "soon" (hit
 * priority). The victim is the first way, from way 0, whose RRPV is distant; when there
 * is none, every line of the set ages until one is.
 */
static inline void rrip_hit(struct sim_cache *c, uint32_t set, unsigned way)
{
    c->rrpv[(uint64_t)set * c->ways + way] = 0;
}

static inline unsigned rrip_victim(struct sim_cache *c, uint32_t set)
{
    uint8_t *r = c->rrpv + (uint64_t)set * c->ways;
    unsigned first = 0;
    uint8_t high = r[0];
    for (unsigned w = 1; w < c->ways; w++) {
        bool higher = r[w] > high;
        high = higher ? r[w] : high;
        first = higher ? w : first;
    }
    uint8_t age = (uint8_t)(c->rrpv_max - high);
    if (age)
        for (unsigned w = 0; w < c->ways; w++)
            r[w] = (uint8_t)(r[w] + age);
    return first;
}

static inline void rrip_set(struct sim_cache *c, uint32_t set, unsigned way, unsigned v)
{
    c->rrpv[(uint64_t)set * c->ways + way] = (uint8_t)v;
}

/* NRU: a new line is predicted "soon" like a hit; one bit per line. */
static inline void nru_fill(struct sim_cache *c, uint32_t set, unsigned way)
{
    rrip_set(c, set, way, 0);
}

/* SRRIP: a new line is predicted "long" (rrpv_max - 1). */
static inline void srrip_fill(struct sim_cache *c, uint32_t set, unsigned way)
{
    rrip_set(c, set, way, c->rrpv_max - 1);
}

/* BRRIP: a new line is predicted "distant", "long" once in eps fills. */
static inline void brrip_fill(struct sim_cache *c, uint32_t set, unsigned way)
{
    rrip_set(c, set, way, sim_cache_bimodal(c) ? c->rrpv_max - 1 : c->rrpv_max);
}

/* DRRIP: SRRIP (A) and BRRIP (B) leader sets duel; followers insert as the selector says. */
static inline void drrip_fill(struct sim_cache *c, uint32_t set, unsigned way)
{
    if (sim_duel_use_b(c, set))
        brrip_fill(c, set, way);
    else
        srrip_fill(c, set, way);
}

#endif
