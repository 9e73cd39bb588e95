// SPDX-License-Identifier: MIT
// A cache with its policy: built (rows laid out for the policy's state), emptied, accessed.
#include "sim_access.h"

#include <string.h>

/* What the policy hooks branch on (family, kind, insertion), from the policy. */
static void set_policy_traits(struct sim_cache *c)
{
    enum sim_policy_kind k = c->p.policy;
    c->family = k == SIM_LRU || k == SIM_FIFO || k == SIM_BIP || k == SIM_DIP ? SIM_FAMILY_RANK
                : k == SIM_PLRU                                               ? SIM_FAMILY_PLRU
                : k == SIM_RANDOM                                             ? SIM_FAMILY_RANDOM
                                                                              : SIM_FAMILY_RRIP;
    c->hit_touch = k != SIM_FIFO;
    c->always_b = k == SIM_BIP || k == SIM_BRRIP;
    c->duels = k == SIM_DIP || k == SIM_DRRIP;
    c->rrpv_max = k == SIM_NRU ? 1 : 3;
    c->rrpv_fill = (uint8_t)(k == SIM_NRU ? 0 : c->rrpv_max - 1);
    c->kind = c->ways > 16                    ? SIM_KIND_OTHER
              : k == SIM_LRU                  ? SIM_KIND_LRU
              : k == SIM_PLRU && c->ways <= 8 ? SIM_KIND_PLRU
              : c->family == SIM_FAMILY_RRIP  ? SIM_KIND_RRIP
                                              : SIM_KIND_OTHER;
    for (unsigned w = 0; w < 16; w++)
        c->lanes[w] = w < c->ways ? 0xff : 0;
}

/* Bytes of policy state per set: a byte per way in groups of 16, or the PLRU tree. */
static size_t state_bytes(const struct sim_cache *c)
{
    if (c->family == SIM_FAMILY_RANK || c->family == SIM_FAMILY_RRIP)
        return sim_align_up(c->ways, 16);
    return c->family == SIM_FAMILY_PLRU ? 16 : 0;
}

int sim_cache_init(struct sim_cache *c, const struct sim_cache_params *p)
{
    memset(c, 0, sizeof(*c));
    c->p = *p;
    c->ways = p->ways;
    c->ways_pow2 = !(p->ways & (p->ways - 1));
    c->way_mask = p->ways == 64 ? ~0ULL : (1ULL << p->ways) - 1;
    c->set_bits = sim_log2(p->sets_per_slice);
    c->slice_bits = sim_log2(p->slices);
    c->set_mask = p->sets_per_slice - 1;
    c->sets = p->sets_per_slice * p->slices;
    c->eps_pow2 = p->eps && !(p->eps & (p->eps - 1));
    sim_cache_set_line_shift(c, p->line_shift);
    set_policy_traits(c);
    if (sim_cache_alloc_rows(c, state_bytes(c)) != 0)
        return -1;
    sim_cache_flush(c);
    return 0;
}

/* Every way empty, ranked in way order (LRU family) or distant (RRIP family). */
static void flush_row(const struct sim_cache *c, uint8_t *row)
{
    uint32_t *t = (uint32_t *)(void *)row;
    uint8_t *st = row + c->state_at;
    for (unsigned w = 0; w < c->state_at / sizeof(uint32_t); w++)
        t[w] = SIM_TAG_INVALID;
    memset(st, SIM_BYTE_PAD, c->row_bytes - c->state_at);
    if (c->p.policy == SIM_PLRU)
        memset(st, 0, sizeof(uint64_t));
    for (unsigned w = 0; w < c->ways; w++) {
        if (c->family == SIM_FAMILY_RANK)
            st[w] = (uint8_t)w;
        else if (c->family == SIM_FAMILY_RRIP)
            st[w] = (uint8_t)c->rrpv_max;
    }
}

void sim_cache_flush(struct sim_cache *c)
{
    for (uint32_t set = 0; set < c->sets; set++)
        flush_row(c, c->rows + (size_t)set * c->row_bytes);
    c->rng = c->p.seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    if (!c->rng)
        c->rng = 1;
    c->hits = c->misses = 0;
    c->empty_ways = (uint64_t)c->sets * c->ways;
    sim_duel_init(c);
    sim_plru_init(c);
}

bool sim_cache_access(struct sim_cache *c, uint32_t set, uint32_t tag)
{
    int way = sim_cache_find(c, set, tag);
    if (way >= 0) {
        sim_cache_hit(c, set, (unsigned)way);
        return true;
    }
    sim_cache_miss(c, set);
    sim_cache_insert(c, set, tag);
    return false;
}
