// SPDX-License-Identifier: MIT
// A modelled memory hierarchy: cache levels, optional TLBs, DRAM; one load in, its cycles out.
#include "sim_hier.h"

#include <string.h>

#include "sim_access.h"

static unsigned log2_u64(uint64_t v)
{
    unsigned n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

static struct sim_cache_params level_params(const struct sim_level_spec *s, uint64_t seed)
{
    struct sim_cache_params p = {
        .ways = s->ways,
        .slices = s->slices ? s->slices : 1,
        .line_shift = log2_u64(s->line_bytes),
        .hash = s->hash,
        .policy = s->policy,
        .eps = s->eps,
        .leaders = s->leaders,
        .psel_bits = s->psel_bits,
        .seed = seed,
    };
    p.sets_per_slice = (uint32_t)(s->size_bytes / ((uint64_t)s->ways * s->line_bytes * p.slices));
    return p;
}

static struct sim_cache_params tlb_params(const struct sim_level_spec *s, uint64_t page_bytes,
                                          uint64_t seed)
{
    struct sim_cache_params p = {
        .sets_per_slice = (uint32_t)(s->size_bytes / s->ways),
        .ways = s->ways,
        .slices = 1,
        .line_shift = log2_u64(page_bytes),
        .policy = s->policy,
        .eps = s->eps,
        .leaders = s->leaders,
        .psel_bits = s->psel_bits,
        .seed = seed,
    };
    return p;
}

int sim_hier_init(struct sim_hier *h, const struct sim_spec *spec, uint64_t page_bytes,
                  uint64_t seed)
{
    memset(h, 0, sizeof(*h));
    h->spec = *spec;
    h->dram_cycles = spec->dram_cycles;
    h->mlp = spec->mlp ? spec->mlp : 1;
    h->page_bytes = page_bytes;
    for (unsigned i = 0; i < spec->nlevels; i++) {
        struct sim_cache_params p = level_params(&spec->level[i], seed + i);
        h->level[i].latency_cycles = spec->level[i].latency_cycles;
        h->level[i].incl = i ? spec->level[i].incl : SIM_NINE;
        bool next_excl = i + 1 < spec->nlevels && spec->level[i + 1].incl == SIM_EXCL;
        h->level[i].evictions_matter = h->level[i].incl == SIM_INCL || next_excl;
        if (sim_cache_init(&h->level[i].cache, &p) != 0)
            goto fail;
        h->nlevels++;
    }
    for (unsigned i = 0; i < spec->ntlbs; i++) {
        struct sim_cache_params p = tlb_params(&spec->tlb[i], page_bytes, seed + 100 + i);
        h->tlb[i].latency_cycles = spec->tlb[i].latency_cycles;
        if (sim_cache_init(&h->tlb[i].cache, &p) != 0)
            goto fail;
        h->ntlbs++;
    }
    return 0;
fail:
    sim_hier_free(h);
    return -1;
}

void sim_hier_free(struct sim_hier *h)
{
    for (unsigned i = 0; i < h->nlevels; i++)
        sim_cache_free(&h->level[i].cache);
    for (unsigned i = 0; i < h->ntlbs; i++)
        sim_cache_free(&h->tlb[i].cache);
    h->nlevels = h->ntlbs = 0;
}

void sim_hier_set_page(struct sim_hier *h, uint64_t page_bytes)
{
    if (page_bytes == h->page_bytes)
        return;
    h->page_bytes = page_bytes;
    for (unsigned i = 0; i < h->ntlbs; i++) {
        sim_cache_flush(&h->tlb[i].cache);
        sim_cache_set_line_shift(&h->tlb[i].cache, log2_u64(page_bytes));
    }
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

/* Remove the bytes [addr, addr + bytes) from every level inside level j. */
static void back_invalidate(struct sim_hier *h, unsigned j, uint64_t addr, uint64_t bytes)
{
    for (unsigned k = 0; k < j; k++) {
        struct sim_cache *c = &h->level[k].cache;
        uint64_t last = (addr + bytes - 1) >> c->line_shift;
        for (uint64_t line = addr >> c->line_shift; line <= last; line++)
            sim_cache_invalidate(c, sim_cache_set(c, line), sim_cache_tag(c, line));
    }
}

static void fill(struct sim_hier *h, unsigned j, uint32_t set, uint32_t tag);

/* Level j evicted tag from set: inclusion and victim caches act on it. */
static void evicted(struct sim_hier *h, unsigned j, uint32_t set, uint32_t tag)
{
    struct sim_cache *c = &h->level[j].cache;
    uint64_t addr = sim_cache_line(c, set, tag) << c->line_shift;
    if (h->level[j].incl == SIM_INCL)
        back_invalidate(h, j, addr, 1ULL << c->line_shift);
    if (j + 1 < h->nlevels && h->level[j + 1].incl == SIM_EXCL) {
        struct sim_cache *o = &h->level[j + 1].cache;
        uint64_t line = addr >> o->line_shift;
        uint32_t oset = sim_cache_set(o, line), otag = sim_cache_tag(o, line);
        if (sim_cache_find(o, oset, otag) < 0)
            fill(h, j + 1, oset, otag);
    }
}

static void fill(struct sim_hier *h, unsigned j, uint32_t set, uint32_t tag)
{
    uint32_t victim = sim_cache_insert(&h->level[j].cache, set, tag);
    if (victim != SIM_TAG_INVALID && h->level[j].evictions_matter)
        evicted(h, j, set, victim);
}

unsigned sim_hier_load(struct sim_hier *h, uint64_t addr)
{
    uint32_t set[SIM_MAX_LEVELS], tag[SIM_MAX_LEVELS];
    unsigned cycles = h->ntlbs ? tlb_load(h, addr) : 0;
    unsigned i;
    h->loads++;
    for (i = 0; i < h->nlevels; i++) {
        struct sim_cache *c = &h->level[i].cache;
        uint64_t line = addr >> c->line_shift;
        set[i] = sim_cache_set(c, line);
        tag[i] = sim_cache_tag(c, line);
        int way = sim_cache_find(c, set[i], tag[i]);
        if (way < 0) {
            sim_cache_miss(c, set[i]);
            continue;
        }
        if (h->level[i].incl == SIM_EXCL) { /* a victim cache hands the line inward */
            c->hits++;
            sim_cache_drop(c, set[i], (unsigned)way);
        } else {
            sim_cache_hit(c, set[i], (unsigned)way);
        }
        break;
    }
    if (i < h->nlevels) {
        cycles += h->level[i].latency_cycles;
    } else {
        cycles += h->dram_cycles;
        h->dram_loads++;
    }
    for (unsigned j = i; j-- > 0;)
        if (h->level[j].incl != SIM_EXCL)
            fill(h, j, set[j], tag[j]);
    return cycles;
}
