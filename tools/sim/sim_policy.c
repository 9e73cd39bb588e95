// SPDX-License-Identifier: MIT
// The policy table of chase-sim, and set dueling (leader sets, saturating selector).
#include "sim_policy.h"

#include <string.h>
#include <strings.h>

static const struct sim_policy *const policies[SIM_POLICY_COUNT] = {
    [SIM_LRU] = &sim_policy_lru,     [SIM_PLRU] = &sim_policy_plru,
    [SIM_FIFO] = &sim_policy_fifo,   [SIM_RANDOM] = &sim_policy_random,
    [SIM_NRU] = &sim_policy_nru,     [SIM_BIP] = &sim_policy_bip,
    [SIM_DIP] = &sim_policy_dip,     [SIM_SRRIP] = &sim_policy_srrip,
    [SIM_BRRIP] = &sim_policy_brrip, [SIM_DRRIP] = &sim_policy_drrip,
};

const struct sim_policy *sim_policy_get(enum sim_policy_kind kind)
{
    return policies[kind];
}

const char *sim_policy_name(enum sim_policy_kind kind)
{
    return policies[kind]->name;
}

int sim_policy_parse(const char *name, unsigned len)
{
    for (int k = 0; k < SIM_POLICY_COUNT; k++)
        if (strlen(policies[k]->name) == len && !strncasecmp(policies[k]->name, name, len))
            return k;
    return -1;
}

bool sim_policy_duels(enum sim_policy_kind kind)
{
    return kind == SIM_DIP || kind == SIM_DRRIP;
}

bool sim_policy_bimodal(enum sim_policy_kind kind)
{
    return kind == SIM_BIP || kind == SIM_BRRIP || sim_policy_duels(kind);
}

/*
 * Leader sets as in the DIP paper's complement select, in each slice: the sets of a
 * slice form `leaders` constituencies; constituency i has its A leader at offset i and
 * its B leader at the mirrored offset from the end (modulo the constituency size).
 */
void sim_duel_init(struct sim_cache *c)
{
    memset(c->role, SIM_FOLLOWER, c->sets);
    unsigned bits = c->p.psel_bits ? c->p.psel_bits : 10;
    c->psel_max = (1u << bits) - 1;
    c->psel = c->psel_max / 2;
    uint32_t per_slice = c->p.sets_per_slice;
    uint32_t k = c->p.leaders;
    if (!sim_policy_duels(c->p.policy) || per_slice < 2 || k == 0)
        return;
    if (k > per_slice / 2)
        k = per_slice / 2;
    uint32_t size = per_slice / k;
    for (uint32_t s = 0; s < c->p.slices; s++) {
        uint8_t *role = c->role + (uint64_t)s * per_slice;
        for (uint32_t i = 0; i < k; i++) {
            role[i * size + i % size] = SIM_LEADER_A;
            role[i * size + (size - 1 - i % size)] = SIM_LEADER_B;
        }
    }
}

void sim_duel_miss(struct sim_cache *c, uint32_t set)
{
    uint8_t r = c->role[set];
    if (r == SIM_LEADER_A && c->psel < c->psel_max)
        c->psel++;
    else if (r == SIM_LEADER_B && c->psel > 0)
        c->psel--;
}
