// SPDX-License-Identifier: MIT
// Policy names, and the layout work of two policies: set dueling's leaders, PLRU's tree paths.
#include "sim_policy.h"

#include <string.h>
#include <strings.h>

static const char *const policy_names[SIM_POLICY_COUNT] = {
    [SIM_LRU] = "lru",     [SIM_PLRU] = "plru",   [SIM_FIFO] = "fifo", [SIM_RANDOM] = "random",
    [SIM_NRU] = "nru",     [SIM_BIP] = "bip",     [SIM_DIP] = "dip",   [SIM_SRRIP] = "srrip",
    [SIM_BRRIP] = "brrip", [SIM_DRRIP] = "drrip",
};

const char *sim_policy_name(enum sim_policy_kind kind)
{
    return policy_names[kind];
}

int sim_policy_parse(const char *name, unsigned len)
{
    for (int k = 0; k < SIM_POLICY_COUNT; k++)
        if (strlen(policy_names[k]) == len && !strncasecmp(policy_names[k], name, len))
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

/* The way the victim search reaches from the root over tree bits (node n is bit n). */
static unsigned plru_walk(uint64_t bits, unsigned depth)
{
    unsigned node = 1;
    for (unsigned level = 0; level < depth; level++)
        node = 2 * node + (unsigned)((bits >> node) & 1);
    return node - (1u << depth);
}

void sim_plru_init(struct sim_cache *c)
{
    unsigned depth = 0;
    while ((1u << depth) < c->ways)
        depth++;
    c->tree_depth = depth;
    for (unsigned way = 0; way < c->ways; way++) {
        uint64_t path = 0, away = 0;
        unsigned node = 1;
        for (unsigned level = depth; level > 0; level--) {
            unsigned right = (way >> (level - 1)) & 1;
            path |= 1ULL << node;
            if (!right)
                away |= 1ULL << node;
            node = 2 * node + right;
        }
        c->tree_path[way] = path;
        c->tree_away[way] = away;
    }
    /* Nodes 1..7 (up to 8 ways) are bits 1..7: the table is indexed by bits >> 1. */
    if (depth <= 3)
        for (unsigned i = 0; i < sizeof(c->tree_victim); i++) {
            unsigned victim = plru_walk((uint64_t)i << 1, depth);
            uint64_t after = ((uint64_t)i << 1 & ~c->tree_path[victim]) | c->tree_away[victim];
            c->tree_victim[i] = (uint8_t)victim;
            c->tree_refilled[i] = (uint8_t)(after >> 1);
        }
}
