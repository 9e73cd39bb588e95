// SPDX-License-Identifier: MIT
// One set-associative cache (or TLB) of chase-sim: flat tag arrays, set index, slice hash.
#include "sim_cache.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim_access.h"

/* Intel's slice hash bits for 2, 4 and 8 slices: parity of the physical address under each. */
static const uint64_t intel_slice_mask[3] = {0x1b5f575440ULL, 0x2eb5faa880ULL, 0x3cccc93100ULL};

/* Stamps count up from the middle of the range so that LRU-position insertions can count down. */
#define SIM_STAMP_START (1ULL << 62)

static unsigned log2_u64(uint64_t v)
{
    unsigned n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

uint32_t sim_cache_slice(const struct sim_cache *c, uint64_t line)
{
    unsigned slices = c->p.slices;
    uint64_t high = line >> c->set_bits;
    switch (c->p.hash) {
    case SIM_HASH_INTEL: {
        /* Unrolled: at most three bits, the ones above the slice count masked off. */
        uint64_t addr = line << c->line_shift;
        uint32_t s = (uint32_t)__builtin_parityll(addr & intel_slice_mask[0]) |
                     (uint32_t)__builtin_parityll(addr & intel_slice_mask[1]) << 1 |
                     (uint32_t)__builtin_parityll(addr & intel_slice_mask[2]) << 2;
        return s & (slices - 1);
    }
    case SIM_HASH_XOR: {
        unsigned bits = log2_u64(slices);
        uint32_t s = 0;
        for (; high; high >>= bits)
            s ^= (uint32_t)(high & (slices - 1));
        return s;
    }
    case SIM_HASH_MIX: {
        uint64_t h = (high ^ (high >> 29)) * 0x9E3779B97F4A7C15ULL;
        return (uint32_t)(((h >> 32) * slices) >> 32);
    }
    case SIM_HASH_MOD:
    case SIM_HASH_COUNT:
        break;
    }
    return (uint32_t)(high % slices);
}

/*
 * All of a cache's arrays live in one block. A large block is mapped on its own, 2 MiB
 * aligned and rounded, and asked for transparent huge pages: the model's random accesses
 * to it would otherwise miss the host's TLB on nearly every load.
 */
#define BLOCK_HUGE_MIN (64u << 10)
#define BLOCK_HUGE_ALIGN (2u << 20)

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

static void *block_alloc(size_t bytes, size_t *mapped)
{
    *mapped = 0;
    if (bytes < BLOCK_HUGE_MIN)
        return malloc(bytes);
    size_t size = align_up(bytes, BLOCK_HUGE_ALIGN), span = size + BLOCK_HUGE_ALIGN;
    uint8_t *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    uint8_t *p = (uint8_t *)align_up((uintptr_t)raw, BLOCK_HUGE_ALIGN);
    if (p > raw)
        munmap(raw, (size_t)(p - raw));
    if (p + size < raw + span)
        munmap(p + size, (size_t)(raw + span - (p + size)));
    madvise(p, size, MADV_HUGEPAGE);
    *mapped = size;
    return p;
}

static bool uses_stamps(enum sim_policy_kind k)
{
    return k == SIM_LRU || k == SIM_FIFO || k == SIM_BIP || k == SIM_DIP;
}

static bool uses_rrpv(enum sim_policy_kind k)
{
    return k == SIM_NRU || k == SIM_SRRIP || k == SIM_BRRIP || k == SIM_DRRIP;
}

/* Lay the arrays the policy needs out in one block. */
static int alloc_arrays(struct sim_cache *c)
{
    size_t lines = (size_t)c->sets * c->ways;
    enum sim_policy_kind k = c->p.policy;
    size_t at_stamp = align_up(lines * sizeof(*c->tags), 64);
    size_t at_rrpv = at_stamp + (uses_stamps(k) ? align_up(lines * sizeof(*c->stamp), 64) : 0);
    size_t at_tree = at_rrpv + (uses_rrpv(k) ? align_up(lines, 64) : 0);
    size_t at_free = at_tree + (k == SIM_PLRU ? align_up(c->sets * sizeof(*c->tree), 64) : 0);
    size_t at_role = at_free + align_up(c->sets * sizeof(*c->free_ways), 64);
    size_t bytes = at_role + c->sets;
    uint8_t *block = block_alloc(bytes, &c->block_mapped);
    if (!block)
        return -1;
    c->block = block;
    c->tags = (uint32_t *)block;
    c->stamp = uses_stamps(k) ? (uint64_t *)(block + at_stamp) : NULL;
    c->rrpv = uses_rrpv(k) ? block + at_rrpv : NULL;
    c->tree = k == SIM_PLRU ? (uint64_t *)(block + at_tree) : NULL;
    c->free_ways = (uint64_t *)(block + at_free);
    c->role = block + at_role;
    return 0;
}

int sim_cache_init(struct sim_cache *c, const struct sim_cache_params *p)
{
    memset(c, 0, sizeof(*c));
    c->p = *p;
    c->ways = p->ways;
    c->line_shift = p->line_shift;
    c->set_bits = log2_u64(p->sets_per_slice);
    c->set_mask = p->sets_per_slice - 1;
    c->sets = p->sets_per_slice * p->slices;
    if (alloc_arrays(c) != 0)
        return -1;
    sim_cache_flush(c);
    return 0;
}

void sim_cache_free(struct sim_cache *c)
{
    if (c->block_mapped)
        munmap(c->block, c->block_mapped);
    else
        free(c->block);
    c->block = NULL;
    c->tags = NULL;
    c->stamp = c->tree = NULL;
    c->rrpv = c->role = NULL;
    c->free_ways = NULL;
}

void sim_cache_flush(struct sim_cache *c)
{
    size_t lines = (size_t)c->sets * c->ways;
    for (size_t i = 0; i < lines; i++)
        c->tags[i] = SIM_TAG_INVALID;
    if (c->stamp)
        memset(c->stamp, 0, lines * sizeof(*c->stamp));
    c->rrpv_max = c->p.policy == SIM_NRU ? 1 : 3;
    if (c->rrpv)
        memset(c->rrpv, (int)c->rrpv_max, lines);
    if (c->tree)
        memset(c->tree, 0, c->sets * sizeof(*c->tree));
    uint64_t all = c->ways == 64 ? ~0ULL : (1ULL << c->ways) - 1;
    for (uint32_t set = 0; set < c->sets; set++)
        c->free_ways[set] = all;
    c->clock = SIM_STAMP_START;
    c->rng = c->p.seed * 0x9E3779B97F4A7C15ULL + 0x632BE59BD9B4E019ULL;
    if (!c->rng)
        c->rng = 1;
    c->hits = c->misses = 0;
    sim_duel_init(c);
    sim_plru_init(c);
}

void sim_cache_set_line_shift(struct sim_cache *c, unsigned line_shift)
{
    c->p.line_shift = line_shift;
    c->line_shift = line_shift;
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
