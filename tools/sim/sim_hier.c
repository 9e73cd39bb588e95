// SPDX-License-Identifier: MIT
// A modelled memory hierarchy: building it from a description, releasing it, its page size.
#include "sim_hier.h"

#include <string.h>

#include "sim_access.h"

/* Rows in more bytes than this are fetched ahead (smaller ones stay in the host's L1/L2). */
#define SIM_PREFETCH_MIN_BYTES (16u << 10)

static struct sim_cache_params level_params(const struct sim_level_spec *s, uint64_t seed)
{
    struct sim_cache_params p = {
        .ways = s->ways,
        .slices = s->slices ? s->slices : 1,
        .line_shift = sim_log2(s->line_bytes),
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
        .line_shift = sim_log2(page_bytes),
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
#ifdef SIM_HAVE_V3
    h->use_v3 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") &&
                __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
#endif
    for (unsigned i = 0; i < spec->nlevels; i++) {
        struct sim_cache_params p = level_params(&spec->level[i], seed + i);
        h->level[i].latency_cycles = spec->level[i].latency_cycles;
        h->level[i].incl = i ? spec->level[i].incl : SIM_NINE;
        bool next_excl = i + 1 < spec->nlevels && spec->level[i + 1].incl == SIM_EXCL;
        h->level[i].evictions_matter = h->level[i].incl == SIM_INCL || next_excl;
        h->excl_mask |= (h->level[i].incl == SIM_EXCL) << i;
        h->evict_mask |= h->level[i].evictions_matter << i;
        h->defer_mask |= (h->level[i].incl == SIM_EXCL && !h->level[i].evictions_matter) << i;
        if (sim_cache_init(&h->level[i].cache, &p) != 0)
            goto fail;
        h->level[i].prefetch = h->level[i].cache.block_bytes >= SIM_PREFETCH_MIN_BYTES;
        h->nlevels++;
    }
    for (unsigned i = 0; i < spec->ntlbs; i++) {
        struct sim_cache_params p = tlb_params(&spec->tlb[i], page_bytes, seed + 100 + i);
        h->tlb[i].latency_cycles = spec->tlb[i].latency_cycles;
        if (sim_cache_init(&h->tlb[i].cache, &p) != 0)
            goto fail;
        h->ntlbs++;
    }
    sim_hier_set_clock(h, 1.0);
    if (spec->pf.streams)
        sim_pf_init(&h->pf, &spec->pf, h->level[spec->pf.level].cache.line_shift);
    return 0;
fail:
    sim_hier_free(h);
    return -1;
}

void sim_hier_set_clock(struct sim_hier *h, double ghz)
{
    sim_clock_set(&h->clock, &h->spec.refresh, &h->spec.smi, ghz, h->dram_cycles);
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
        sim_cache_set_line_shift(&h->tlb[i].cache, sim_log2(page_bytes));
    }
}
