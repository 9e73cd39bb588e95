// SPDX-License-Identifier: MIT
// Stamp-ordered policies: LRU, FIFO, BIP (LRU with bimodal insertion) and DIP (LRU vs BIP).
#include "sim_policy.h"

unsigned sim_stamp_oldest(const struct sim_cache *c, uint32_t set, uint64_t *oldest)
{
    const uint64_t *s = c->stamp + (uint64_t)set * c->ways;
    const uint32_t *t = c->tags + (uint64_t)set * c->ways;
    unsigned best = 0;
    uint64_t low = UINT64_MAX;
    for (unsigned w = 0; w < c->ways; w++) {
        if (t[w] != SIM_TAG_INVALID && s[w] < low) {
            low = s[w];
            best = w;
        }
    }
    *oldest = low;
    return best;
}

/* Most recently used: a stamp above every other in the cache. */
static void stamp_mru(struct sim_cache *c, uint32_t set, unsigned way)
{
    c->stamp[(uint64_t)set * c->ways + way] = ++c->clock;
}

/* Least recently used: a stamp below every other line of the set, so it goes next. */
static void stamp_lru(struct sim_cache *c, uint32_t set, unsigned way)
{
    const uint64_t *s = c->stamp + (uint64_t)set * c->ways;
    const uint32_t *t = c->tags + (uint64_t)set * c->ways;
    uint64_t low = UINT64_MAX;
    for (unsigned w = 0; w < c->ways; w++)
        if (w != way && t[w] != SIM_TAG_INVALID && s[w] < low)
            low = s[w];
    c->stamp[(uint64_t)set * c->ways + way] = low == UINT64_MAX ? c->clock : low - 1;
}

static unsigned stamp_victim(struct sim_cache *c, uint32_t set)
{
    uint64_t oldest;
    return sim_stamp_oldest(c, set, &oldest);
}

static void nothing_on_hit(struct sim_cache *c, uint32_t set, unsigned way)
{
    (void)c;
    (void)set;
    (void)way;
}

/* BIP: insert at the LRU position, at the MRU position once in eps fills. */
static void bip_fill(struct sim_cache *c, uint32_t set, unsigned way)
{
    if (sim_cache_bimodal(c))
        stamp_mru(c, set, way);
    else
        stamp_lru(c, set, way);
}

static void dip_fill(struct sim_cache *c, uint32_t set, unsigned way)
{
    if (sim_duel_use_b(c, set))
        bip_fill(c, set, way);
    else
        stamp_mru(c, set, way);
}

const struct sim_policy sim_policy_lru = {
    .name = "lru", .hit = stamp_mru, .victim = stamp_victim, .fill = stamp_mru};

const struct sim_policy sim_policy_fifo = {
    .name = "fifo", .hit = nothing_on_hit, .victim = stamp_victim, .fill = stamp_mru};

const struct sim_policy sim_policy_bip = {
    .name = "bip", .hit = stamp_mru, .victim = stamp_victim, .fill = bip_fill};

const struct sim_policy sim_policy_dip = {.name = "dip",
                                          .hit = stamp_mru,
                                          .miss = sim_duel_miss,
                                          .victim = stamp_victim,
                                          .fill = dip_fill};
