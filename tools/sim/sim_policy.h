// SPDX-License-Identifier: MIT
// Replacement policies of chase-sim: names, and the hooks every cache operation dispatches to.
#ifndef SIM_POLICY_H
#define SIM_POLICY_H

#include "sim_cache.h"
#include "sim_duel.h"
#include "sim_policy_lru.h"
#include "sim_policy_plru.h"
#include "sim_policy_rrip.h"

/*
 * A policy keeps its own state in the cache's flat arrays and answers four hooks: hit (a
 * lookup found way), miss (a lookup found nothing), victim (which way of a full set goes)
 * and fill (a line was just installed in way). The cache finds tags and fills empty ways
 * first itself. The hooks are inline and dispatched on the kind, so that the model's inner
 * loop has no indirect calls; each family's hooks live in its own header.
 */
static inline void sim_policy_hit(struct sim_cache *c, uint32_t set, unsigned way)
{
    switch (c->p.policy) {
    case SIM_LRU:
    case SIM_BIP:
    case SIM_DIP:
        stamp_mru(c, set, way);
        break;
    case SIM_PLRU:
        plru_touch(c, set, way);
        break;
    case SIM_NRU:
    case SIM_SRRIP:
    case SIM_BRRIP:
    case SIM_DRRIP:
        rrip_hit(c, set, way);
        break;
    case SIM_FIFO:   /* insertion order only */
    case SIM_RANDOM: /* no state */
    case SIM_POLICY_COUNT:
        break;
    }
}

static inline void sim_policy_miss(struct sim_cache *c, uint32_t set)
{
    if (c->p.policy == SIM_DIP || c->p.policy == SIM_DRRIP)
        sim_duel_miss(c, set);
}

static inline unsigned sim_policy_victim(struct sim_cache *c, uint32_t set)
{
    switch (c->p.policy) {
    case SIM_LRU:
    case SIM_FIFO:
    case SIM_BIP:
    case SIM_DIP:
        return stamp_victim(c, set);
    case SIM_PLRU:
        return plru_victim(c, set);
    case SIM_NRU:
    case SIM_SRRIP:
    case SIM_BRRIP:
    case SIM_DRRIP:
        return rrip_victim(c, set);
    case SIM_RANDOM:
    case SIM_POLICY_COUNT:
        break;
    }
    return (unsigned)(sim_cache_random(c) % c->ways);
}

static inline void sim_policy_fill(struct sim_cache *c, uint32_t set, unsigned way)
{
    switch (c->p.policy) {
    case SIM_LRU:
    case SIM_FIFO:
        stamp_mru(c, set, way);
        break;
    case SIM_BIP:
        bip_fill(c, set, way);
        break;
    case SIM_DIP:
        dip_fill(c, set, way);
        break;
    case SIM_PLRU:
        plru_touch(c, set, way);
        break;
    case SIM_NRU:
        nru_fill(c, set, way);
        break;
    case SIM_SRRIP:
        srrip_fill(c, set, way);
        break;
    case SIM_BRRIP:
        brrip_fill(c, set, way);
        break;
    case SIM_DRRIP:
        drrip_fill(c, set, way);
        break;
    case SIM_RANDOM:
    case SIM_POLICY_COUNT:
        break;
    }
}

/* The policy called name ("lru", "plru", ..., any case), as a kind; -1 when there is none. */
int sim_policy_parse(const char *name, unsigned len);
/* Name of a policy kind. */
const char *sim_policy_name(enum sim_policy_kind kind);
/* Whether a kind duels (DIP, DRRIP). */
bool sim_policy_duels(enum sim_policy_kind kind);
/* Whether a kind inserts bimodally (BIP, BRRIP, and DIP and DRRIP through them). */
bool sim_policy_bimodal(enum sim_policy_kind kind);

#endif
