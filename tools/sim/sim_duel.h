// SPDX-License-Identifier: MIT
// Set dueling (Qureshi et al., ISCA 2007): leader sets of two policies and a saturating selector.
#ifndef SIM_DUEL_H
#define SIM_DUEL_H

#include "sim_cache.h"

/* Lay out the leader sets of c (per slice) and centre the selector. */
void sim_duel_init(struct sim_cache *c);

/* A miss in a leader set moves the selector towards the other policy. */
SIM_INLINE void sim_duel_miss(struct sim_cache *c, uint32_t set)
{
    uint8_t r = c->role[set];
    if (r == SIM_LEADER_A && c->psel < c->psel_max)
        c->psel++;
    else if (r == SIM_LEADER_B && c->psel > 0)
        c->psel--;
}

/* Whether set uses policy B now: its own if a leader, the selector's if a follower. */
SIM_INLINE bool sim_duel_use_b(const struct sim_cache *c, uint32_t set)
{
    uint8_t r = c->role[set];
    if (r != SIM_FOLLOWER)
        return r == SIM_LEADER_B;
    return c->psel > c->psel_max / 2;
}

#endif
