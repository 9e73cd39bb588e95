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
 * A policy keeps its own state in the set's row (st: sim_cache_state) and answers four
 * hooks: hit (a lookup found way), miss (a lookup found nothing), victim (which way of a
 * full set goes) and fill (a line was just installed in way). The cache finds tags and
 * fills empty ways first itself. The hooks are inline and branch on the cache's kind and
 * family (set once per cache, so the branches are predicted), so that the model's inner
 * loop has no indirect calls: the common kinds (LRU, PLRU, RRIP up to 16 ways) take
 * straight-line code, the rest their family's general hook. Each family's steps live in
 * its own header.
 */
SIM_INLINE void policy_hit_general(const struct sim_cache *c, uint8_t *st, unsigned way)
{
    if (c->family == SIM_FAMILY_RANK) {
        if (c->hit_touch) /* FIFO keeps the insertion order */
            rank_newest(c, st, way);
    } else if (c->family == SIM_FAMILY_PLRU) {
        plru_touch(c, st, way);
    } else if (c->family == SIM_FAMILY_RRIP) {
        rrip_hit(st, way);
    }
}

/*
 * Each hook has an _as form that takes the cache's kind as an argument: where the caller
 * passes a constant (the model's loop specialized for the kinds of its levels), the hook
 * is its kind's straight-line code alone.
 */
SIM_INLINE void sim_policy_hit_as(const struct sim_cache *c, enum sim_kind kind, uint8_t *st,
                                  unsigned way)
{
    if (kind == SIM_KIND_LRU)
        rank_newest16(st, way);
    else if (kind == SIM_KIND_PLRU)
        plru_touch(c, st, way);
    else if (kind == SIM_KIND_RRIP)
        rrip_hit(st, way);
    else
        policy_hit_general(c, st, way);
}

SIM_INLINE void sim_policy_hit(const struct sim_cache *c, uint8_t *st, unsigned way)
{
    sim_policy_hit_as(c, c->kind, st, way);
}

SIM_INLINE void sim_policy_miss(struct sim_cache *c, uint32_t set)
{
    if (c->duels)
        sim_duel_miss(c, set);
}

SIM_INLINE unsigned policy_victim_general(struct sim_cache *c, uint8_t *st)
{
    if (c->family == SIM_FAMILY_RANK)
        return rank_victim(c, st);
    if (c->family == SIM_FAMILY_PLRU)
        return plru_victim(c, st);
    if (c->family == SIM_FAMILY_RRIP)
        return rrip_victim(c, st);
    uint64_t r = sim_cache_random(c);
    return (unsigned)(c->ways_pow2 ? r & (c->ways - 1) : r % c->ways);
}

SIM_INLINE unsigned sim_policy_victim_as(struct sim_cache *c, enum sim_kind kind, uint8_t *st)
{
    if (kind == SIM_KIND_LRU)
        return rank_victim16(c, st);
    if (kind == SIM_KIND_PLRU)
        return c->tree_victim[(plru_bits(st) >> 1) & 0x7f];
    if (kind == SIM_KIND_RRIP)
        return rrip_victim16(c, st);
    return policy_victim_general(c, st);
}

SIM_INLINE unsigned sim_policy_victim(struct sim_cache *c, uint8_t *st)
{
    return sim_policy_victim_as(c, c->kind, st);
}

/* Whether a fill in set takes policy B's insertion: BIP, BRRIP, or the duel's choice. */
SIM_INLINE bool sim_policy_use_b(const struct sim_cache *c, uint32_t set)
{
    return c->duels ? sim_duel_use_b(c, set) : c->always_b;
}

/*
 * A: LRU, FIFO and DIP's LRU insert the newest; SRRIP "long", NRU "soon". B: BIP inserts
 * the oldest, BRRIP "distant", each the other way once in eps fills (the only fills that
 * draw a random number).
 */
SIM_INLINE void policy_fill_general(struct sim_cache *c, uint32_t set, uint8_t *st, unsigned way)
{
    if (c->family == SIM_FAMILY_RANK) {
        if (sim_policy_use_b(c, set) && !sim_cache_bimodal(c))
            rank_oldest(c, st, way);
        else
            rank_newest(c, st, way);
    } else if (c->family == SIM_FAMILY_PLRU) {
        plru_touch(c, st, way);
    } else if (c->family == SIM_FAMILY_RRIP) {
        st[way] = sim_policy_use_b(c, set) ? brrip_value(c) : c->rrpv_fill;
    }
}

SIM_INLINE void sim_policy_fill_as(struct sim_cache *c, enum sim_kind kind, uint32_t set,
                                   uint8_t *st, unsigned way)
{
    if (kind == SIM_KIND_LRU)
        rank_newest16(st, way);
    else if (kind == SIM_KIND_PLRU)
        plru_touch(c, st, way);
    else if (kind == SIM_KIND_RRIP)
        st[way] = sim_policy_use_b(c, set) ? brrip_value(c) : c->rrpv_fill;
    else
        policy_fill_general(c, set, st, way);
}

/*
 * A fill of a full set: the policy's victim, and its state once the new line is in the
 * victim's way (sim_policy_victim_as, then sim_policy_fill_as). LRU and PLRU up to 8 ways
 * take both in one step. Returns the victim's way.
 */
SIM_INLINE unsigned sim_policy_refill_as(struct sim_cache *c, enum sim_kind kind, uint32_t set,
                                         uint8_t *st)
{
    if (kind == SIM_KIND_LRU)
        return rank_refill16(c, st);
    if (kind == SIM_KIND_PLRU)
        return plru_refill8(c, st);
    unsigned way = sim_policy_victim_as(c, kind, st);
    sim_policy_fill_as(c, kind, set, st, way);
    return way;
}

SIM_INLINE void sim_policy_fill(struct sim_cache *c, uint32_t set, uint8_t *st, unsigned way)
{
    sim_policy_fill_as(c, c->kind, set, st, way);
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
