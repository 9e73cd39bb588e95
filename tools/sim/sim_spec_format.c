// SPDX-License-Identifier: MIT
// Hierarchy descriptions written back: the canonical one-line form, and the CPUID-like view.
#include <stdio.h>

#include "sim_policy.h"
#include "sim_spec.h"

static const char *const hash_names[SIM_HASH_COUNT] = {[SIM_HASH_XOR] = "xor",
                                                       [SIM_HASH_INTEL] = "intel",
                                                       [SIM_HASH_MIX] = "mix",
                                                       [SIM_HASH_MOD] = "mod"};

const char *sim_hash_name(enum sim_hash hash)
{
    return hash_names[hash];
}

/* A size the way the parser reads it: 32K, 6M, 1280K, 100. */
static int format_size(char *buf, size_t cap, uint64_t v)
{
    static const char units[] = "GMK";
    for (int u = 0; u < 3; u++) {
        unsigned shift = 10u * (unsigned)(3 - u);
        if (v >= (1ULL << shift) && v % (1ULL << shift) == 0)
            return snprintf(buf, cap, "%llu%c", (unsigned long long)(v >> shift), units[u]);
    }
    return snprintf(buf, cap, "%llu", (unsigned long long)v);
}

static void format_level(const struct sim_level_spec *l, bool first, char *buf, size_t cap)
{
    static const char *const incl_names[] = {"nine", "incl", "excl"};
    char size[32];
    size_t n;
    format_size(size, sizeof(size), l->size_bytes);
    n = (size_t)snprintf(buf, cap, "%s:%s:%uw:%uc:%s", l->name, size, l->ways, l->latency_cycles,
                         sim_policy_name(l->policy));
    if (!first && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, ":%s", incl_names[l->incl]);
    if (l->slices > 1 && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, ":slices=%u:hash=%s", l->slices,
                              sim_hash_name(l->hash));
    if (l->line_bytes != SIM_DEFAULT_LINE_BYTES && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, ":line=%u", l->line_bytes);
    if (sim_policy_bimodal(l->policy) && n < cap)
        n += (size_t)snprintf(buf + n, cap - n, ":eps=%u", l->eps);
    if (sim_policy_duels(l->policy) && n < cap)
        snprintf(buf + n, cap - n, ":leaders=%u:psel=%u", l->leaders, l->psel_bits);
}

static void format_tlb(const struct sim_level_spec *t, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s:%llu:%uw:%uc:%s", t->name, (unsigned long long)t->size_bytes, t->ways,
             t->latency_cycles, sim_policy_name(t->policy));
}

void sim_spec_format(const struct sim_spec *spec, char *buf, size_t cap)
{
    char item[256];
    size_t n = 0;
    buf[0] = 0;
    for (unsigned i = 0; i < spec->nlevels + spec->ntlbs && n < cap; i++) {
        if (i < spec->nlevels)
            format_level(&spec->level[i], i == 0, item, sizeof(item));
        else
            format_tlb(&spec->tlb[i - spec->nlevels], item, sizeof(item));
        n += (size_t)snprintf(buf + n, cap - n, "%s,", item);
    }
    const struct sim_pf_spec *pf = &spec->pf;
    if (pf->streams && n < cap) {
        format_size(item, sizeof(item), pf->region_bytes);
        n += (size_t)snprintf(buf + n, cap - n, "PF:%u:distance=%u:degree=%u:into=%s:region=%s,",
                              pf->streams, pf->distance, pf->degree, spec->level[pf->level].name,
                              item);
    }
    if (n < cap)
        n += (size_t)snprintf(buf + n, cap - n, "DRAM:%uc:mlp=%u", spec->dram_cycles, spec->mlp);
    const struct sim_stall *stalls[] = {&spec->refresh, &spec->smi};
    const char *names[] = {"refresh", "smi"};
    for (unsigned i = 0; i < 2 && n < cap; i++)
        if (stalls[i]->period_ns > 0) {
            sim_stall_format(stalls[i], item, sizeof(item));
            n += (size_t)snprintf(buf + n, cap - n, ":%s=%s", names[i], item);
        }
}

void sim_spec_caches(const struct sim_spec *spec, struct cpu_info *ci)
{
    ci->ncaches = 0;
    for (unsigned i = 0; i < spec->nlevels && i < CPU_MAX_CACHES; i++) {
        const struct sim_level_spec *l = &spec->level[i];
        struct cache_info *c = &ci->caches[ci->ncaches++];
        c->level = i + 1;
        c->type = i == 0 ? CACHE_DATA : CACHE_UNIFIED;
        c->size_bytes = l->size_bytes;
        c->ways = l->ways;
        c->line_bytes = l->line_bytes;
        c->sets = (unsigned)(l->size_bytes / ((uint64_t)l->ways * l->line_bytes));
        c->shared_by = l->slices > 1 ? l->slices : 1; /* one core per slice */
    }
    ci->cache_source = "simulated";
}
