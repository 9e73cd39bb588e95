// SPDX-License-Identifier: MIT
// Re-reference interval prediction (Jaleel et al., ISCA 2010): NRU, SRRIP, BRRIP and DRRIP.
#include "sim_policy.h"

/*
 * Each line has a re-reference prediction value (RRPV) from 0 (soon) to rrpv_max
 * (distant): 2-bit for the RRIP family, 1-bit for NRU. A hit predicts "soon" (hit
 * priority). The victim is the first way, from way 0, whose RRPV is distant; when
 * there is none, every line of the set ages until one is.
 */
static void rrip_hit(struct sim_cache *c, uint32_t set, unsigned way)
{
    c->rrpv[(uint64_t)set * c->ways + way] = 0;
}

static unsigned rrip_victim(struct sim_cache *c, uint32_t set)
{
    uint8_t *r = c->rrpv + (uint64_t)set * c->ways;
    unsigned first = 0;
    uint8_t high = r[0];
    for (unsigned w = 1; w < c->ways; w++) {
        if (r[w] > high) {
            high = r[w];
            first = w;
        }
    }
    uint8_t age = (uint8_t)(c->rrpv_max - high);
    if (age)
        for (unsigned w = 0; w < c->ways; w++)
            r[w] = (uint8_t)(r[w] + age);
    return first;
}

/* NRU: a new line is predicted "soon" like a hit; one bit per line. */
static void nru_fill(struct sim_cache *c, uint32_t set, unsigned way)
{
    c->rrpv[(uint64_t)set * c->ways + way] = 0;
}

/* SRRIP: a new line is predicted "long" (rrpv_max - 1). */
static void srrip_fill(struct sim_cache *c, uint32_t set, unsigned way)
{
    c->rrpv[(uint64_t)set * c->ways + way] = (uint8_t)(c->rrpv_max - 1);
}

/* BRRIP: a new line is predicted "distant", "long" once in eps fills. */
static void brrip_fill(struct sim_cache *c, uint32_t set, unsigned way)
{
    uint8_t v = (uint8_t)(sim_cache_bimodal(c) ? c->rrpv_max - 1 : c->rrpv_max);
    c->rrpv[(uint64_t)set * c->ways + way] = v;
}

/* DRRIP: SRRIP and BRRIP leader sets duel; followers insert as the selector says. */
static void drrip_fill(struct sim_cache *c, uint32_t set, unsigned way)
{
    if (sim_duel_use_b(c, set))
        brrip_fill(c, set, way);
    else
        srrip_fill(c, set, way);
}

const struct sim_policy sim_policy_nru = {
    .name = "nru", .hit = rrip_hit, .victim = rrip_victim, .fill = nru_fill};

const struct sim_policy sim_policy_srrip = {
    .name = "srrip", .hit = rrip_hit, .victim = rrip_victim, .fill = srrip_fill};

const struct sim_policy sim_policy_brrip = {
    .name = "brrip", .hit = rrip_hit, .victim = rrip_victim, .fill = brrip_fill};

const struct sim_policy sim_policy_drrip = {.name = "drrip",
                                            .hit = rrip_hit,
                                            .miss = sim_duel_miss,
                                            .victim = rrip_victim,
                                            .fill = drrip_fill};
