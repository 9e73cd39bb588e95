// SPDX-License-Identifier: MIT
// One set-associative cache (or TLB) of chase-sim: its rows' layout, allocation and reset.
#include "sim_cache.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim_access.h"

/* Intel's slice hash bits for 2, 4 and 8 slices: parity of the physical address under each. */
static const uint64_t intel_slice_mask[3] = {0x1b5f575440ULL, 0x2eb5faa880ULL, 0x3cccc93100ULL};

static size_t align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

/*
 * A large block is mapped on its own, 2 MiB aligned and rounded, and asked for transparent
 * huge pages: the model's random accesses to it would otherwise miss the host's TLB on
 * nearly every load. A small one is allocated aligned to the host's cache lines.
 */
#define BLOCK_HUGE_MIN (64u << 10)
#define BLOCK_HUGE_ALIGN (2u << 20)
#define HOST_LINE_BYTES 64

static void *block_alloc(size_t bytes, bool *mapped)
{
    *mapped = false;
    if (bytes < BLOCK_HUGE_MIN)
        return aligned_alloc(HOST_LINE_BYTES, align_up(bytes, HOST_LINE_BYTES));
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
    *mapped = true;
    return p;
}

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
        return align_up(c->ways, 16);
    return c->family == SIM_FAMILY_PLRU ? 16 : 0;
}

/*
 * Lay the rows out (tags in groups of 4, then the state) and the roles after them. Up to
 * 16 ways a row is at least a host line, which sim_cache_match reads whole.
 */
static int alloc_rows(struct sim_cache *c)
{
    c->state_at = (unsigned)align_up(c->ways, 4) * sizeof(uint32_t);
    size_t row = c->state_at + state_bytes(c);
    if (c->ways <= 16 && row < HOST_LINE_BYTES)
        row = HOST_LINE_BYTES;
    c->row_bytes = align_up(row, 16);
    size_t at_role = align_up(c->sets * c->row_bytes, HOST_LINE_BYTES);
    c->block_bytes = at_role + c->sets;
    uint8_t *block = block_alloc(c->block_bytes, &c->block_mapped);
    if (!block)
        return -1;
    c->block = block;
    c->rows = block;
    c->role = block + at_role;
    return 0;
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
    if (alloc_rows(c) != 0)
        return -1;
    sim_cache_flush(c);
    return 0;
}

void sim_cache_free(struct sim_cache *c)
{
    if (c->block_mapped)
        munmap(c->block, align_up(c->block_bytes, BLOCK_HUGE_ALIGN));
    else
        free(c->block);
    c->block = NULL;
    c->rows = c->role = NULL;
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

void sim_cache_set_line_shift(struct sim_cache *c, unsigned line_shift)
{
    c->p.line_shift = line_shift;
    c->line_shift = line_shift;
    /*
     * Intel: bits of the byte address below the line are 0, so the masks apply to the line
     * number (2, 4 or 8 slices: 1, 2 or 3 bits). XOR: the slice is the XOR of the line
     * number's slice_bits-wide fields above the set index, so its bit b is the parity of
     * every slice_bits-th bit from set_bits + b.
     */
    for (unsigned b = 0; b < 6; b++) {
        c->slice_mask[b] = 0;
        if (b >= c->slice_bits)
            continue;
        if (c->p.hash == SIM_HASH_INTEL)
            c->slice_mask[b] = intel_slice_mask[b] >> line_shift;
        else
            for (unsigned at = c->set_bits + b; at < 64; at += c->slice_bits)
                c->slice_mask[b] |= 1ULL << at;
    }
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
