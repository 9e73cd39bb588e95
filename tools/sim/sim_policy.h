// SPDX-License-Identifier: MIT
// Replacement policies of chase-sim: one small table of hooks per policy, driven by sim_cache.
#ifndef SIM_POLICY_H
#define SIM_POLICY_H

#include "sim_cache.h"

/* The policy of a kind; never NULL for a valid kind. */
const struct sim_policy *sim_policy_get(enum sim_policy_kind kind);
/* The policy called name ("lru", "plru", ...), as a kind; -1 when there is none. */
int sim_policy_parse(const char *name, unsigned len);
/* Name of a policy kind. */
const char *sim_policy_name(enum sim_policy_kind kind);
/* Whether a kind duels (DIP, DRRIP) or inserts bimodally (BIP, BRRIP, and those two). */
bool sim_policy_duels(enum sim_policy_kind kind);
bool sim_policy_bimodal(enum sim_policy_kind kind);

/* Stamp-ordered policies (sim_policy_lru.c). */
extern const struct sim_policy sim_policy_lru, sim_policy_fifo, sim_policy_bip, sim_policy_dip;
/* Tree pseudo-LRU (sim_policy_plru.c); needs a power-of-two number of ways. */
extern const struct sim_policy sim_policy_plru;
/* Precompute the tree-PLRU paths of c's ways (done for every cache; cheap). */
void sim_plru_init(struct sim_cache *c);
/* Random victim (sim_policy_random.c). */
extern const struct sim_policy sim_policy_random;
/* Re-reference prediction (sim_policy_rrip.c): NRU is the 1-bit member of the family. */
extern const struct sim_policy sim_policy_nru, sim_policy_srrip, sim_policy_brrip, sim_policy_drrip;

/* Set dueling (sim_policy_duel.c): lay out leader sets and centre the selector. */
void sim_duel_init(struct sim_cache *c);
/* A miss in a leader set moves the selector towards the other policy. */
void sim_duel_miss(struct sim_cache *c, uint32_t set);
/* Whether set uses policy B now (its own if a leader, the selector's if a follower). */
static inline bool sim_duel_use_b(const struct sim_cache *c, uint32_t set)
{
    uint8_t r = c->role[set];
    if (r != SIM_FOLLOWER)
        return r == SIM_LEADER_B;
    return c->psel > c->psel_max / 2;
}

/* The lowest stamp in a set of stamp-ordered ways, and its way (empty ways ignored). */
unsigned sim_stamp_oldest(const struct sim_cache *c, uint32_t set, uint64_t *oldest);

#endif
