// SPDX-License-Identifier: MIT
// One set-associative cache (or TLB) of chase-sim: flat tag arrays, set index, slice hash.
#ifndef SIM_CACHE_H
#define SIM_CACHE_H

#include <stdbool.h>
#include <stdint.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
 * the arrays small enough for the host's caches; they cover 2^32 lines per set index.
 */
struct sim_cache {
    struct sim_cache_params p;
    uint32_t sets;     /* sets_per_slice * slices */
    uint32_t set_mask; /* sets_per_slice - 1 */
    unsigned set_bits; /* log2(sets_per_slice) */
    unsigned ways;
    unsigned line_shift;
    void *block;         /* every array below, in one allocation */
    size_t block_mapped; /* its mapped size when it was mapped, else 0 */
    uint32_t *tags;      /* [sets * ways] tag, SIM_TAG_INVALID when empty */
    uint64_t *stamp;     /* [sets * ways] recency or insertion order (LRU, FIFO, BIP, DIP) */
    uint8_t *rrpv;       /* [sets * ways] re-reference prediction value (NRU, RRIP family) */
    uint64_t *tree;      /* [sets] tree-PLRU bits (PLRU) */
    uint8_t *role;       /* [sets] enum sim_duel_role */
    uint64_t *free_ways; /* [sets] bit w set: way w holds nothing */
    uint64_t clock;      /* stamps count up from here */
    unsigned tree_depth; /* tree-PLRU: log2(ways) */
    unsigned rrpv_max;
    uint32_t psel, psel_max; /* set dueling selector: above half, followers use B */
    uint64_t rng;
    uint64_t hits, misses;
    uint64_t tree_path[SIM_MAX_WAYS]; /* tree-PLRU: the nodes on the way to each way */
    uint64_t tree_away[SIM_MAX_WAYS]; /* tree-PLRU: those nodes pointing away from it */
};

/*
 * Allocate and empty a cache with parameters p (validated by the caller: powers of two,
 * ways and slices in range). Returns 0, or -1 when memory ran out.
 */
int sim_cache_init(struct sim_cache *c, const struct sim_cache_params *p);
/* Release the arrays of c. */
void sim_cache_free(struct sim_cache *c);
/* Invalidate every line and reset the policy state (the selector included). */
void sim_cache_flush(struct sim_cache *c);
/* Change the line (or page) size of an emptied cache: log2 of the new size in bytes. */
void sim_cache_set_line_shift(struct sim_cache *c, unsigned line_shift);

/* The slice a line (address >> line_shift) falls into. */
uint32_t sim_cache_slice(const struct sim_cache *c, uint64_t line);

/* The set a line (address >> line_shift) falls into: slice * sets_per_slice + index. */
static inline uint32_t sim_cache_set(const struct sim_cache *c, uint64_t line)
{
    uint32_t index = (uint32_t)line & c->set_mask;
    if (c->p.slices == 1)
        return index;
    return (sim_cache_slice(c, line) << c->set_bits) | index;
}

/* The tag a line is kept under in its set. */
static inline uint32_t sim_cache_tag(const struct sim_cache *c, uint64_t line)
{
    return (uint32_t)(line >> c->set_bits);
}

/* The line kept in set under tag. */
static inline uint64_t sim_cache_line(const struct sim_cache *c, uint32_t set, uint32_t tag)
{
    return ((uint64_t)tag << c->set_bits) | (set & c->set_mask);
}

/*
 * The way of set holding tag, or -1. Changes nothing. Every way is compared without
 * branching on the result (where a hit lands is random, and a mispredicted early exit
 * costs more than the compares), four at a time where SSE2 is there.
 */
static inline int sim_cache_find(const struct sim_cache *c, uint32_t set, uint32_t tag)
{
    const uint32_t *t = c->tags + (uint64_t)set * c->ways;
    uint64_t match = 0;
    unsigned w = 0;
#ifdef __SSE2__
    __m128i key = _mm_set1_epi32((int)tag);
    for (; w + 4 <= c->ways; w += 4) {
        __m128i eq = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(t + w)), key);
        match |= (uint64_t)_mm_movemask_ps(_mm_castsi128_ps(eq)) << w;
    }
#endif
    for (; w < c->ways; w++)
        match |= (uint64_t)(t[w] == tag) << w;
    return match ? __builtin_ctzll(match) : -1;
}

/* The next number of the cache's own generator (xorshift64*), for random choices. */
static inline uint64_t sim_cache_random(struct sim_cache *c)
{
    uint64_t x = c->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    c->rng = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* Whether a bimodal insertion (probability 1/eps) happens now. */
static inline bool sim_cache_bimodal(struct sim_cache *c)
{
    return c->p.eps && sim_cache_random(c) % c->p.eps == 0;
}

#endif
