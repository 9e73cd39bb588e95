// SPDX-License-Identifier: MIT
// One load through the modelled hierarchy: TLBs, lookups, fills, inclusion and victim moves.
#include <string.h>

#include "sim_access.h"
#include "sim_hier.h"

#ifndef SIM_VARIANT
#define SIM_VARIANT(name) name
#endif

/* Where a load's line lives in one level: its set, its tag, the set's row. */
struct sim_loc {
    uint32_t set, tag;
    uint32_t *row;
};

/*
 * sim_hier_load_many finds the sets of the load SIM_AHEAD places ahead and asks the host
 * for their rows, so that the model's large levels wait on the host's memory in parallel
 * rather than once per level and load; SIM_RING (a power of two above SIM_AHEAD) loads'
 * sets are kept.
 */
#define SIM_AHEAD 8
#define SIM_RING 16

/*
 * A shape is what a loop is specialized for: the kinds of the levels (enum sim_kind, 2 bits
 * a level from level 0 up, bits 0-5), so that every policy step is its kind's code alone,
 * and how the levels relate (enum sim_rel, bits 6-7), so that the steps the hierarchy
 * never takes are not there. With SIM_SHAPE_ANY each cache's own kind, and the
 * hierarchy's own masks, are read as the model runs.
 */
#define SIM_SHAPE_ANY UINT32_MAX

/*
 * PLAIN: no victim cache, no inclusive level (the evictions matter to no other level).
 * INCL_LAST: the same, but the outermost level is inclusive and every level has its line
 * size. GENERAL: anything else (the masks say what to do). TLBs may come with any.
 */
enum sim_rel { SIM_REL_GENERAL, SIM_REL_PLAIN, SIM_REL_INCL_LAST };

SIM_INLINE enum sim_kind kind_of(const struct sim_hier *h, uint32_t shape, unsigned i)
{
    return shape == SIM_SHAPE_ANY ? h->level[i].cache.kind : (enum sim_kind)(shape >> 2 * i & 3);
}

SIM_INLINE enum sim_rel rel_of(uint32_t shape)
{
    return shape == SIM_SHAPE_ANY ? SIM_REL_GENERAL : (enum sim_rel)(shape >> 6 & 3);
}

/* Whether level j's evictions matter to another level (in a hierarchy of n levels). */
SIM_INLINE bool evictions_matter(const struct sim_hier *h, unsigned j, unsigned n, uint32_t shape)
{
    switch (rel_of(shape)) {
    case SIM_REL_PLAIN:
        return false;
    case SIM_REL_INCL_LAST:
        return j == n - 1;
    case SIM_REL_GENERAL:
        break;
    }
    return h->evict_mask >> j & 1;
}

/*
 * The levels whose sets a load finds before its turn: those in ahead (whose rows are also
 * fetched ahead) in the general loop, all n in the specialized ones (a branch less per
 * level; the set of a level the load does not reach is found for nothing).
 */
SIM_INLINE unsigned found_ahead(unsigned n, unsigned ahead, uint32_t shape)
{
    return rel_of(shape) == SIM_REL_GENERAL ? ahead : (1u << n) - 1;
}

/* The levels with victim caches' bit set (the only ones that have moves waiting). */
SIM_INLINE unsigned excl_levels(const struct sim_hier *h, uint32_t shape)
{
    return rel_of(shape) == SIM_REL_GENERAL ? h->excl_mask : 0;
}

/* The set, tag and row of addr in cache c. */
SIM_INLINE void locate(const struct sim_cache *c, uint64_t addr, struct sim_loc *loc)
{
    uint64_t line = addr >> c->line_shift;
    loc->set = sim_cache_set(c, line);
    loc->tag = sim_cache_tag(c, line);
    loc->row = sim_cache_row(c, loc->set);
}

/* The TLBs in order: each one missed costs its latency; the ones missed get the page. */
static unsigned tlb_load(struct sim_hier *h, uint64_t addr)
{
    uint32_t set[SIM_MAX_TLBS], tag[SIM_MAX_TLBS];
    unsigned cost = 0, t;
    for (t = 0; t < h->ntlbs; t++) {
        struct sim_cache *c = &h->tlb[t].cache;
        uint64_t page = addr >> c->line_shift;
        set[t] = sim_cache_set(c, page);
        tag[t] = sim_cache_tag(c, page);
        int way = sim_cache_find(c, set[t], tag[t]);
        if (way >= 0) {
            sim_cache_hit(c, set[t], (unsigned)way);
            break;
        }
        sim_cache_miss(c, set[t]);
        cost += h->tlb[t].latency_cycles;
    }
    for (unsigned k = 0; k < t; k++)
        sim_cache_insert(&h->tlb[k].cache, set[k], tag[k]);
    return cost;
}

/*
 * A victim cache whose own evictions matter to no other level (sim_hier.h: defer_mask)
 * takes the inner level's victim later: the move waits in h->pend while the host fetches
 * its row, and is made before the next operation on that level. The level's operations
 * keep their order, and no other level sees the difference.
 */
SIM_INLINE void settle(struct sim_hier *h, unsigned k, uint32_t shape)
{
    struct sim_cache *o = &h->level[k].cache;
    uint32_t set = h->pend[k].set, tag = h->pend[k].tag, *row = sim_cache_row(o, set);
    h->pend_mask &= ~(1u << k);
    if (!sim_cache_match_as(o, kind_of(h, shape, k), row, tag))
        sim_cache_insert_as(o, kind_of(h, shape, k), set, row, tag);
}

/* Before anything touches level k: the move waiting for it, if any. */
SIM_INLINE void settle_level(struct sim_hier *h, unsigned k, uint32_t shape)
{
    if (h->pend_mask >> k & 1)
        settle(h, k, shape);
}

/* Remove line (of 1 << shift bytes) from level k, if it is there. */
SIM_INLINE void invalidate_in(struct sim_hier *h, unsigned k, uint64_t line, unsigned shift,
                              uint32_t shape)
{
    struct sim_cache *c = &h->level[k].cache;
    enum sim_kind kind = kind_of(h, shape, k);
    if (rel_of(shape) == SIM_REL_INCL_LAST) { /* one line size, no victim caches */
        sim_cache_invalidate_as(c, kind, sim_cache_set(c, line), sim_cache_tag(c, line));
        return;
    }
    uint64_t addr = line << shift, first = addr >> c->line_shift;
    uint64_t last = c->line_shift == shift ? first : (addr + (1ULL << shift) - 1) >> c->line_shift;
    settle_level(h, k, shape);
    for (uint64_t l = first; l <= last; l++)
        sim_cache_invalidate_as(c, kind, sim_cache_set(c, l), sim_cache_tag(c, l));
}

static void fill(struct sim_hier *h, unsigned j, uint32_t set, uint32_t tag);

/* The inner level j evicted line: it moves to the victim cache j + 1 (now or later). */
SIM_INLINE void to_victim_cache(struct sim_hier *h, unsigned j, uint64_t line, uint32_t shape)
{
    struct sim_cache *c = &h->level[j].cache, *o = &h->level[j + 1].cache;
    struct sim_loc at;
    locate(o, line << c->line_shift, &at);
    if (h->defer_mask >> (j + 1) & 1) {
        settle_level(h, j + 1, shape);
        h->pend[j + 1].set = at.set;
        h->pend[j + 1].tag = at.tag;
        h->pend_mask |= 1u << (j + 1);
        sim_cache_prefetch(o, at.row);
    } else if (!sim_cache_match_as(o, kind_of(h, shape, j + 1), at.row, at.tag)) {
        fill(h, j + 1, at.set, at.tag);
    }
}

/*
 * Level j evicted tag from set: an inclusive level takes the line out of every level
 * inside it, and a victim cache outside takes it in. Inlined where j is a constant.
 */
SIM_INLINE void evicted_inline(struct sim_hier *h, unsigned j, uint32_t set, uint32_t tag,
                               uint32_t shape)
{
    if (j >= SIM_MAX_LEVELS) /* never: tells the compiler how far the unrolled loop goes */
        return;
    struct sim_cache *c = &h->level[j].cache;
    uint64_t line = sim_cache_line(c, set, tag);
    if (rel_of(shape) == SIM_REL_INCL_LAST || h->level[j].incl == SIM_INCL) {
#pragma GCC unroll 6
        for (unsigned k = 0; k < j; k++)
            invalidate_in(h, k, line, c->line_shift, shape);
    }
    if (j + 1 < SIM_MAX_LEVELS && (excl_levels(h, shape) >> (j + 1) & 1))
        to_victim_cache(h, j, line, shape);
}

static void evicted(struct sim_hier *h, unsigned j, uint32_t set, uint32_t tag)
{
    evicted_inline(h, j, set, tag, SIM_SHAPE_ANY);
}

/* Install tag in set (row) of level j; what it evicts goes on to the levels it concerns. */
SIM_INLINE void fill_at(struct sim_hier *h, unsigned j, unsigned n, const struct sim_loc *at,
                        bool inline_j, uint32_t shape)
{
    uint32_t victim =
        sim_cache_insert_as(&h->level[j].cache, kind_of(h, shape, j), at->set, at->row, at->tag);
    if (victim == SIM_TAG_INVALID || !evictions_matter(h, j, n, shape))
        return;
    if (inline_j)
        evicted_inline(h, j, at->set, victim, shape);
    else
        evicted(h, j, at->set, victim);
}

static void fill(struct sim_hier *h, unsigned j, uint32_t set, uint32_t tag)
{
    struct sim_loc at = {set, tag, sim_cache_row(&h->level[j].cache, set)};
    fill_at(h, j, h->nlevels, &at, false, SIM_SHAPE_ANY);
}

/*
 * sim_hier_load of addr through n levels; the levels in ahead have loc found already.
 * Where the caller is specialized n is a constant: the loops over the levels unroll and
 * every level is then a constant too (hence the fills' j < hit rather than a count down
 * from the level that hit).
 */
SIM_INLINE unsigned load_at(struct sim_hier *h, unsigned n, uint64_t addr, struct sim_loc *loc,
                            unsigned ahead, uint32_t shape)
{
    unsigned cycles = h->ntlbs ? tlb_load(h, addr) : 0;
    unsigned hit = n, excl = excl_levels(h, shape);
    h->loads++;
    ahead = found_ahead(n, ahead, shape);
#pragma GCC unroll 6
    for (unsigned i = 0; i < n && i < SIM_MAX_LEVELS; i++) {
        struct sim_cache *c = &h->level[i].cache;
        if (!(ahead >> i & 1))
            locate(c, addr, &loc[i]);
        if (excl >> i & 1) /* only victim caches have moves waiting */
            settle_level(h, i, shape);
        uint64_t match = sim_cache_match_as(c, kind_of(h, shape, i), loc[i].row, loc[i].tag);
        if (match) {
            unsigned way = (unsigned)__builtin_ctzll(match);
            c->hits++;
            if (excl >> i & 1) /* a victim cache hands the line inward */
                sim_cache_drop_at(c, loc[i].row, way);
            else
                sim_policy_hit_as(c, kind_of(h, shape, i), (uint8_t *)loc[i].row + c->state_at,
                                  way);
            cycles += h->level[i].latency_cycles;
            hit = i;
            break;
        }
        sim_cache_miss(c, loc[i].set);
    }
    if (hit == n) {
        cycles += h->dram_cycles;
        h->dram_loads++;
    }
#pragma GCC unroll 6
    for (unsigned j = n; j-- > 0;)
        if (j < hit && !(excl >> j & 1))
            fill_at(h, j, n, &loc[j], true, shape);
    return cycles;
}

/*
 * Find addr's sets before its load (found_ahead), and ask the host for the rows of the
 * levels in ahead.
 */
SIM_INLINE void locate_ahead(const struct sim_hier *h, unsigned n, unsigned ahead, uint64_t addr,
                             struct sim_loc *loc, uint32_t shape)
{
    unsigned found = found_ahead(n, ahead, shape);
#pragma GCC unroll 6
    for (unsigned i = 0; i < n; i++) {
        if (!(found >> i & 1))
            continue;
        locate(&h->level[i].cache, addr, &loc[i]);
        if (ahead >> i & 1)
            sim_cache_prefetch(&h->level[i].cache, loc[i].row);
    }
}

/* The loads of addr[0..count-1] through n levels, those in ahead found SIM_AHEAD early. */
SIM_INLINE uint64_t run_levels(struct sim_hier *h, unsigned n, const uint64_t *addr, size_t count,
                               unsigned *lat, unsigned ahead, uint32_t shape)
{
    struct sim_loc ring[SIM_RING][SIM_MAX_LEVELS];
    uint64_t total = 0;
    for (size_t k = 0; k < count && k < SIM_AHEAD; k++)
        locate_ahead(h, n, ahead, addr[k], ring[k], shape);
    for (size_t k = 0; k < count; k++) {
        if (k + SIM_AHEAD < count)
            locate_ahead(h, n, ahead, addr[k + SIM_AHEAD], ring[(k + SIM_AHEAD) % SIM_RING], shape);
        unsigned cycles = load_at(h, n, addr[k], ring[k % SIM_RING], ahead, shape);
        if (lat)
            lat[k] = cycles;
        total += cycles;
    }
    return total;
}

/* Make every waiting move: after a run, the model is as the loads left it. */
static void settle_all(struct sim_hier *h)
{
    for (unsigned k = 0; h->pend_mask; k++)
        settle_level(h, k, SIM_SHAPE_ANY);
}

/* The 3-level shape of kinds K0, K1, K2 (levels 0, 1, 2) and relation REL. */
#define SIM_SHAPE3(k0, k1, k2, rel)                                                                \
    ((uint32_t)(k0) | (uint32_t)(k1) << 2 | (uint32_t)(k2) << 4 | (uint32_t)(rel) << 6)
#define SIM_CASE3(k0, k1, k2, rel)                                                                 \
    case SIM_SHAPE3(k0, k1, k2, rel):                                                              \
        return run_levels(h, 3, addr, count, lat, ahead, SIM_SHAPE3(k0, k1, k2, rel));
#define SIM_CASES3_REL(k0, k1, rel)                                                                \
    SIM_CASE3(k0, k1, SIM_KIND_LRU, rel)                                                           \
    SIM_CASE3(k0, k1, SIM_KIND_PLRU, rel)                                                          \
    SIM_CASE3(k0, k1, SIM_KIND_RRIP, rel)
#define SIM_CASES3(k0, k1)                                                                         \
    SIM_CASES3_REL(k0, k1, SIM_REL_PLAIN)                                                          \
    SIM_CASES3_REL(k0, k1, SIM_REL_INCL_LAST)

/*
 * Three levels of the straight-line kinds (the common case, and the one the speed target
 * is for) that relate as PLAIN or INCL_LAST run a loop specialized for their shape, 54 of
 * them, in the x86-64-v3 build (the portable one, run where AVX2 is missing, keeps one
 * loop and its compile time short). Victim caches keep the general loop: specialized for
 * the kinds it measured no faster (their moves wait on the host).
 */
#ifdef SIM_VARIANT_BUILD
/* How the 3 levels of h relate (enum sim_rel), as far as a specialized loop cares. */
static enum sim_rel rel3(const struct sim_hier *h)
{
    const struct sim_level *l = h->level;
    if (h->excl_mask)
        return SIM_REL_GENERAL;
    if (!h->evict_mask)
        return SIM_REL_PLAIN;
    bool one_line = l[0].cache.line_shift == l[2].cache.line_shift &&
                    l[1].cache.line_shift == l[2].cache.line_shift;
    if (h->evict_mask == 1u << 2 && l[2].incl == SIM_INCL && one_line)
        return SIM_REL_INCL_LAST;
    return SIM_REL_GENERAL;
}

static uint64_t run_shaped3(struct sim_hier *h, const uint64_t *addr, size_t count, unsigned *lat,
                            unsigned ahead)
{
    enum sim_rel rel = rel3(h);
    uint32_t shape =
        SIM_SHAPE3(h->level[0].cache.kind, h->level[1].cache.kind, h->level[2].cache.kind, rel);
    if (rel == SIM_REL_GENERAL)
        shape = SIM_SHAPE_ANY;
    switch (shape) {
#ifdef SIM_FEW_SHAPES /* the unit tests' build: each kind at each level, each relation */
        SIM_CASE3(SIM_KIND_LRU, SIM_KIND_LRU, SIM_KIND_LRU, SIM_REL_PLAIN)
        SIM_CASE3(SIM_KIND_LRU, SIM_KIND_PLRU, SIM_KIND_RRIP, SIM_REL_PLAIN)
        SIM_CASE3(SIM_KIND_PLRU, SIM_KIND_LRU, SIM_KIND_LRU, SIM_REL_PLAIN)
        SIM_CASE3(SIM_KIND_PLRU, SIM_KIND_PLRU, SIM_KIND_RRIP, SIM_REL_INCL_LAST)
        SIM_CASE3(SIM_KIND_PLRU, SIM_KIND_RRIP, SIM_KIND_LRU, SIM_REL_INCL_LAST)
        SIM_CASE3(SIM_KIND_RRIP, SIM_KIND_LRU, SIM_KIND_PLRU, SIM_REL_INCL_LAST)
#else
        SIM_CASES3(SIM_KIND_LRU, SIM_KIND_LRU)
        SIM_CASES3(SIM_KIND_LRU, SIM_KIND_PLRU)
        SIM_CASES3(SIM_KIND_LRU, SIM_KIND_RRIP)
        SIM_CASES3(SIM_KIND_PLRU, SIM_KIND_LRU)
        SIM_CASES3(SIM_KIND_PLRU, SIM_KIND_PLRU)
        SIM_CASES3(SIM_KIND_PLRU, SIM_KIND_RRIP)
        SIM_CASES3(SIM_KIND_RRIP, SIM_KIND_LRU)
        SIM_CASES3(SIM_KIND_RRIP, SIM_KIND_PLRU)
        SIM_CASES3(SIM_KIND_RRIP, SIM_KIND_RRIP)
#endif
    default:
        return run_levels(h, 3, addr, count, lat, ahead, SIM_SHAPE_ANY);
    }
}
#else
static uint64_t run_shaped3(struct sim_hier *h, const uint64_t *addr, size_t count, unsigned *lat,
                            unsigned ahead)
{
    return run_levels(h, 3, addr, count, lat, ahead, SIM_SHAPE_ANY);
}
#endif

uint64_t SIM_VARIANT(sim_hier_run)(struct sim_hier *h, const uint64_t *addr, size_t count,
                                   unsigned *lat, unsigned ahead)
{
    uint64_t total;
    switch (h->nlevels) { /* the common depths with their loops unrolled */
    case 1:
        total = run_levels(h, 1, addr, count, lat, ahead, SIM_SHAPE_ANY);
        break;
    case 2:
        total = run_levels(h, 2, addr, count, lat, ahead, SIM_SHAPE_ANY);
        break;
    case 3:
        total = run_shaped3(h, addr, count, lat, ahead);
        break;
    case 4:
        total = run_levels(h, 4, addr, count, lat, ahead, SIM_SHAPE_ANY);
        break;
    default:
        total = run_levels(h, h->nlevels, addr, count, lat, ahead, SIM_SHAPE_ANY);
        break;
    }
    settle_all(h);
    return total;
}

#ifndef SIM_VARIANT_BUILD /* the entry points, once, in the portable build */
unsigned sim_hier_load(struct sim_hier *h, uint64_t addr)
{
    struct sim_loc loc[SIM_MAX_LEVELS];
    uint64_t dram = h->dram_loads;
    unsigned cycles = load_at(h, h->nlevels, addr, loc, 0, SIM_SHAPE_ANY);
    settle_all(h);
    if (sim_clock_timed(&h->clock))
        cycles = sim_clock_load(&h->clock, cycles, h->dram_loads != dram);
    return cycles;
}

bool sim_hier_fill_ahead(struct sim_hier *h, unsigned into, uint64_t addr)
{
    struct sim_loc loc[SIM_MAX_LEVELS];
    unsigned n = h->nlevels, hit = n;
    for (unsigned i = into; i < n; i++) {
        struct sim_cache *c = &h->level[i].cache;
        settle_level(h, i, SIM_SHAPE_ANY);
        locate(c, addr, &loc[i]);
        uint64_t match = sim_cache_match(c, loc[i].row, loc[i].tag);
        if (match) {
            if (h->excl_mask >> i & 1) /* a victim cache hands the line inward */
                sim_cache_drop_at(c, loc[i].row, (unsigned)__builtin_ctzll(match));
            hit = i;
            break;
        }
    }
    for (unsigned j = hit; j-- > into;)
        if (!(h->excl_mask >> j & 1))
            fill(h, j, loc[j].set, loc[j].tag);
    settle_all(h);
    return hit != into;
}

/*
 * The levels worth fetching ahead for the next loads: those too large for the host's inner
 * caches that more than one load in SIM_PREFETCH_SHARE reached since the last call (a
 * level the loads seldom reach would cost the search for its set and nothing more).
 */
#define SIM_PREFETCH_SHARE 16

static unsigned prefetch_mask(struct sim_hier *h)
{
    unsigned mask = 0;
    uint64_t loads = h->loads - h->ahead_loads;
    for (unsigned i = 0; i < h->nlevels; i++) {
        const struct sim_cache *c = &h->level[i].cache;
        uint64_t reached = c->hits + c->misses;
        if (h->level[i].prefetch && (reached - h->ahead_reached[i]) * SIM_PREFETCH_SHARE > loads)
            mask |= 1u << i;
        h->ahead_reached[i] = reached;
    }
    h->ahead_loads = h->loads;
    return mask;
}

/* sim_hier_load_many with the prefetcher or the clock on: each load, then the lines it asks for. */
static uint64_t load_prefetched(struct sim_hier *h, const uint64_t *addr, size_t n, unsigned *lat)
{
    uint64_t total = 0, ahead[SIM_PF_MAX_LINES];
    for (size_t k = 0; k < n; k++) {
        unsigned cycles = sim_hier_load(h, addr[k]);
        if (lat)
            lat[k] = cycles;
        total += cycles;
        unsigned m = h->spec.pf.streams ? sim_pf_observe(&h->pf, addr[k], ahead) : 0;
        for (unsigned i = 0; i < m; i++)
            h->pf_fills += sim_hier_fill_ahead(h, h->spec.pf.level, ahead[i]);
    }
    return total;
}

uint64_t sim_hier_load_many(struct sim_hier *h, const uint64_t *addr, size_t n, unsigned *lat)
{
    if (h->spec.pf.streams || sim_clock_timed(&h->clock))
        return load_prefetched(h, addr, n, lat);
    unsigned mask = prefetch_mask(h);
#ifdef SIM_HAVE_V3
    if (h->use_v3)
        return sim_hier_run_v3(h, addr, n, lat, mask);
#endif
    return sim_hier_run(h, addr, n, lat, mask);
}
#endif
