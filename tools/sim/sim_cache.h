// SPDX-License-Identifier: MIT
// One set-associative cache (or TLB) of chase-sim: one row per set, set index, slice hash.
#ifndef SIM_CACHE_H
#define SIM_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* log2 of a power of two (the floor of log2 otherwise); 0 for 0 and 1. */
static inline unsigned sim_log2(uint64_t v)
{
    unsigned n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

/* v rounded up to a multiple of a. */
static inline size_t sim_align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

#include "sim_simd.h"

#define SIM_TAG_INVALID UINT32_MAX
#define SIM_MAX_WAYS 64

enum sim_policy_kind {
    SIM_LRU,
    SIM_PLRU,
    SIM_FIFO,
    SIM_RANDOM,
    SIM_NRU,
    SIM_BIP,
    SIM_DIP,
    SIM_SRRIP,
    SIM_BRRIP,
    SIM_DRRIP,
    SIM_POLICY_COUNT
};

/* How a sliced cache picks the slice of a line. */
enum sim_hash {
    SIM_HASH_XOR,   /* XOR-fold of the line address above the set bits (power-of-two slices) */
    SIM_HASH_INTEL, /* Intel's complex addressing for 2/4/8 slices (Maurice et al., RAID 2015) */
    SIM_HASH_MIX,   /* a multiplicative hash of the line address above the set bits (any count) */
    SIM_HASH_MOD,   /* the line address above the set bits modulo the slice count */
    SIM_HASH_COUNT
};

/* Set dueling roles (DIP: A = LRU, B = BIP; DRRIP: A = SRRIP, B = BRRIP). */
enum sim_duel_role { SIM_FOLLOWER, SIM_LEADER_A, SIM_LEADER_B };

/*
 * The caches the hot loop has straight-line code for (at most 16 ways; PLRU at most 8);
 * the others go through their family's general hooks.
 */
enum sim_kind { SIM_KIND_LRU, SIM_KIND_PLRU, SIM_KIND_RRIP, SIM_KIND_OTHER };

/* How a policy keeps its state: what the general hooks switch on (few cases, no table). */
enum sim_family {
    SIM_FAMILY_RANK,  /* LRU, FIFO, BIP, DIP: a recency (or insertion) rank per way */
    SIM_FAMILY_RRIP,  /* NRU, SRRIP, BRRIP, DRRIP: an RRPV per way */
    SIM_FAMILY_PLRU,  /* tree bits per set */
    SIM_FAMILY_RANDOM /* no state */
};

struct sim_cache_params {
    uint32_t sets_per_slice; /* a power of two */
    unsigned ways;           /* 1..SIM_MAX_WAYS */
    unsigned slices;         /* 1..64 */
    unsigned line_shift;     /* log2 of the line (or page) size in bytes */
    enum sim_hash hash;
    enum sim_policy_kind policy;
    unsigned eps;       /* BIP/BRRIP: 1 fill in eps takes the other insertion; 0 never */
    unsigned leaders;   /* DIP/DRRIP: leader sets per policy in each slice */
    unsigned psel_bits; /* DIP/DRRIP: width of the saturating selector */
    uint64_t seed;      /* random victims and bimodal insertion */
};

/*
 * A line (address >> line_shift) is kept as its set and its tag: the line's bits above
 * the set index within a slice (the slice is a function of the line). 32-bit tags keep
 * the rows small enough for the host's caches; they cover 2^32 lines per set index.
 *
 * Each set is one row of row_bytes: its tags (SIM_TAG_INVALID where a way is empty), then
 * the policy's state: a byte per way for LRU, FIFO, BIP and DIP (the way's rank in recency
 * or insertion order, 0 the newest) and for NRU and RRIP (the RRPV); the tree bits for
 * PLRU. One lookup then touches one or two host cache lines. Up to 16 ways a row is at
 * least 64 bytes (a host line, and sim_cache_match reads 16 tags at once); the rows start
 * on a host line and step in multiples of 16 bytes.
 */
struct sim_cache {
    struct sim_cache_params p;
    uint32_t sets;       /* sets_per_slice * slices */
    uint32_t set_mask;   /* sets_per_slice - 1 */
    unsigned set_bits;   /* log2(sets_per_slice) */
    unsigned slice_bits; /* log2(slices) where slices is a power of two */
    unsigned ways;
    unsigned line_shift;
    enum sim_family family;
    enum sim_kind kind;
    bool hit_touch;    /* rank family: a hit makes the line the newest (not FIFO) */
    bool always_b;     /* fills use the B insertion (BIP, BRRIP) */
    bool duels;        /* set dueling picks the insertion (DIP, DRRIP) */
    uint8_t rrpv_fill; /* RRIP family: the A insertion's RRPV (NRU 0, SRRIP "long") */
    /* 0xff for each way (of the first 16), else 0: the lanes of a row's state that count */
    uint8_t lanes[16] __attribute__((aligned(16)));
    uint64_t way_mask;  /* bit w set for every way w */
    uint8_t *rows;      /* [sets] rows */
    size_t row_bytes;   /* bytes from one set's row to the next */
    unsigned state_at;  /* where the policy's state starts in a row */
    bool eps_pow2;      /* eps is a power of two: r % eps is r & (eps - 1) */
    bool ways_pow2;     /* ways is a power of two: r % ways is r & (ways - 1) */
    void *block;        /* the rows and roles, in one allocation */
    size_t block_bytes; /* its size */
    bool block_mapped;  /* mapped (munmap) rather than allocated (free) */
    uint8_t *role;      /* [sets] enum sim_duel_role */
    /*
     * XOR and Intel hashes: bit b of a line's slice is the parity of the line address (not
     * the byte address) under slice_mask[b], b < slice_bits
     */
    uint64_t slice_mask[6];
    unsigned tree_depth; /* tree-PLRU: log2(ways) */
    unsigned rrpv_max;
    uint32_t psel, psel_max; /* set dueling selector: above half, followers use B */
    uint64_t rng;
    uint64_t empty_ways; /* in all sets: while there are none, fills look for none */
    uint64_t hits, misses;
    uint64_t tree_path[SIM_MAX_WAYS]; /* tree-PLRU: the nodes on the way to each way */
    uint64_t tree_away[SIM_MAX_WAYS]; /* tree-PLRU: those nodes pointing away from it */
    uint8_t tree_victim[128];         /* tree-PLRU up to 8 ways: the victim of each tree */
    uint8_t tree_refilled[128];       /* ... and each tree once its victim is refilled */
};

/*
 * Lay c's rows out (tags in groups of 4, then state_bytes of the policy's state) and the roles
 * after them, and allocate them. Up to 16 ways a row is at least a host line, which
 * sim_cache_match reads whole. Returns 0, or -1 when memory ran out.
 */
int sim_cache_alloc_rows(struct sim_cache *c, size_t state_bytes);
/* Release the arrays of c. */
void sim_cache_free(struct sim_cache *c);
/* Change the line (or page) size of an emptied cache: log2 of the new size in bytes. */
void sim_cache_set_line_shift(struct sim_cache *c, unsigned line_shift);

/* The slice a line (address >> line_shift) falls into. */
SIM_INLINE uint32_t sim_cache_slice(const struct sim_cache *c, uint64_t line)
{
    uint64_t high = line >> c->set_bits;
    switch (c->p.hash) {
    case SIM_HASH_INTEL:
    case SIM_HASH_XOR: {
        if (c->slice_bits <= 2) /* up to 4 slices: the masks past slice_bits are 0 */
            return (uint32_t)__builtin_parityll(line & c->slice_mask[0]) |
                   (uint32_t)__builtin_parityll(line & c->slice_mask[1]) << 1;
        uint32_t s = 0;
        for (unsigned b = 0; b < c->slice_bits; b++)
            s |= (uint32_t)__builtin_parityll(line & c->slice_mask[b]) << b;
        return s;
    }
    case SIM_HASH_MIX: {
        uint64_t h = (high ^ (high >> 29)) * 0x9E3779B97F4A7C15ULL;
        return (uint32_t)(((h >> 32) * c->p.slices) >> 32);
    }
    case SIM_HASH_MOD:
    case SIM_HASH_COUNT:
        break;
    }
    return (uint32_t)(high % c->p.slices);
}

/* The set a line (address >> line_shift) falls into: slice * sets_per_slice + index. */
SIM_INLINE uint32_t sim_cache_set(const struct sim_cache *c, uint64_t line)
{
    uint32_t index = (uint32_t)line & c->set_mask;
    if (c->p.slices == 1)
        return index;
    return (sim_cache_slice(c, line) << c->set_bits) | index;
}

/* The tag a line is kept under in its set. */
SIM_INLINE uint32_t sim_cache_tag(const struct sim_cache *c, uint64_t line)
{
    return (uint32_t)(line >> c->set_bits);
}

/* The line kept in set under tag. */
SIM_INLINE uint64_t sim_cache_line(const struct sim_cache *c, uint32_t set, uint32_t tag)
{
    return ((uint64_t)tag << c->set_bits) | (set & c->set_mask);
}

/* The row of set: its tags first. */
SIM_INLINE uint32_t *sim_cache_row(const struct sim_cache *c, uint32_t set)
{
    return (uint32_t *)(void *)(c->rows + (size_t)set * c->row_bytes);
}

/* The policy's state of set: a byte per way (ranks, RRPVs) or the PLRU tree. */
SIM_INLINE uint8_t *sim_cache_state(const struct sim_cache *c, uint32_t set)
{
    return c->rows + (size_t)set * c->row_bytes + c->state_at;
}

/* Ask the host to bring a row into its caches (a load of it comes soon). */
SIM_INLINE void sim_cache_prefetch(const struct sim_cache *c, const uint32_t *row)
{
    __builtin_prefetch(row, 1, 3);
    if (c->row_bytes > 64) /* a row of 64 bytes is one host line (rows start on one) */
        __builtin_prefetch((const uint8_t *)row + c->row_bytes - 1, 1, 3);
}

/*
 * The ways of row whose tag is tag, as bits (tag may be SIM_TAG_INVALID: the empty ways).
 * Up to 16 ways, 16 tags are compared at once: the row is at least 64 bytes, and what lies
 * past the last way is masked off.
 */
SIM_INLINE uint64_t sim_cache_match(const struct sim_cache *c, const uint32_t *row, uint32_t tag)
{
    if (c->ways <= 16)
        return sim_simd_match16(row, tag) & c->way_mask;
    return sim_simd_match32(row, c->ways, tag) & c->way_mask;
}

/* sim_cache_match where the caller knows c's kind: the straight-line kinds have at most 16 ways. */
SIM_INLINE uint64_t sim_cache_match_as(const struct sim_cache *c, enum sim_kind kind,
                                       const uint32_t *row, uint32_t tag)
{
    if (kind != SIM_KIND_OTHER)
        return sim_simd_match16(row, tag) & c->way_mask;
    return sim_cache_match(c, row, tag);
}

/* The ways whose state byte is v: one 16-byte compare up to 16 ways. */
SIM_INLINE uint64_t sim_cache_match_state(const struct sim_cache *c, const uint8_t *st, uint8_t v)
{
    return c->ways <= 16 ? sim_simd_match8(st, 16, v) : sim_simd_match8(st, c->ways, v);
}

/*
 * The way of set holding tag, or -1. Changes nothing. Every way is compared without
 * branching on the result (where a hit lands is random, and a mispredicted early exit
 * costs more than the compares), four or eight at a time.
 */
SIM_INLINE int sim_cache_find(const struct sim_cache *c, uint32_t set, uint32_t tag)
{
    uint64_t match = sim_cache_match(c, sim_cache_row(c, set), tag);
    return match ? __builtin_ctzll(match) : -1;
}

/* The next number of the cache's own generator (xorshift64*), for random choices. */
SIM_INLINE uint64_t sim_cache_random(struct sim_cache *c)
{
    uint64_t x = c->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    c->rng = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* Whether a bimodal insertion (probability 1/eps) happens now. */
SIM_INLINE bool sim_cache_bimodal(struct sim_cache *c)
{
    if (!c->p.eps)
        return false;
    uint64_t r = sim_cache_random(c);
    return c->eps_pow2 ? (r & (c->p.eps - 1)) == 0 : r % c->p.eps == 0;
}

#endif
