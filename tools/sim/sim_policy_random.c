// SPDX-License-Identifier: MIT
// Random replacement: the victim is drawn from the cache's own seeded generator.
#include "sim_policy.h"

static void random_nothing(struct sim_cache *c, uint32_t set, unsigned way)
{
    (void)c;
    (void)set;
    (void)way;
}

static unsigned random_victim(struct sim_cache *c, uint32_t set)
{
    (void)set;
    return (unsigned)(sim_cache_random(c) % c->ways);
}

const struct sim_policy sim_policy_random = {
    .name = "random", .hit = random_nothing, .victim = random_victim, .fill = random_nothing};
