// SPDX-License-Identifier: MIT
// Random chain builders: Sattolo cycles through every slot, plain or grouped for locality.
#include "chase/chain.h"

#include "lib/rng.h"

/*
 * Random draws made ahead of the swaps that use them, so that the far slot's cache line
 * is already on its way when its swap comes (the swaps themselves are independent of
 * one another): a large chain builds several times faster than with one draw per swap,
 * and the numbers are drawn in the same order, so the chain is the same.
 */
#define BUILD_LOOKAHEAD 32

/* Slot m of a set of slots spaced `step` slots apart, from slot `first` of l. */
static inline uint64_t *member(const struct chain_layout *l, uint64_t first, uint64_t step,
                               uint64_t m)
{
    return (uint64_t *)chain_slot(l, first + m * step);
}

/*
 * Sattolo's algorithm over `count` slots (slot first + m * step, m < count): they end up
 * holding, as member numbers, a uniformly random cyclic permutation (one cycle).
 */
static void sattolo_members(const struct chain_layout *l, uint64_t first, uint64_t step,
                            uint64_t count, struct rng *r)
{
    uint64_t ahead[BUILD_LOOKAHEAD];
    for (uint64_t m = 0; m < count; m++)
        *member(l, first, step, m) = m;
    uint64_t swaps = count ? count - 1 : 0;
    for (uint64_t k = 0; k < swaps && k < BUILD_LOOKAHEAD; k++) {
        ahead[k] = rng_below(r, count - 1 - k);
        __builtin_prefetch(member(l, first, step, ahead[k]), 1);
    }
    for (uint64_t k = 0; k < swaps; k++) {
        uint64_t i = count - 1 - k;
        uint64_t j = ahead[k % BUILD_LOOKAHEAD];
        if (k + BUILD_LOOKAHEAD < swaps) {
            uint64_t later = rng_below(r, count - 1 - (k + BUILD_LOOKAHEAD));
            ahead[k % BUILD_LOOKAHEAD] = later;
            __builtin_prefetch(member(l, first, step, later), 1);
        }
        uint64_t *a = member(l, first, step, i);
        uint64_t *b = member(l, first, step, j);
        uint64_t t = *a;
        *a = *b;
        *b = t;
    }
}

/* One link of a cycle, from slot index `from` to slot index `to`, mixed into 64 bits. */
static inline uint64_t link_mix(uint64_t from, uint64_t to)
{
    uint64_t z = from * 0x9e3779b97f4a7c15ULL + (to ^ 0x632be59bd9b4e019ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/*
 * Turn the member numbers left by sattolo_members into pointers to those members; returns
 * the links' checksum (the sum of link_mix over them, as slot indices of l). *back gets the
 * member that points back to member 0.
 */
static uint64_t members_to_pointers(const struct chain_layout *l, uint64_t first, uint64_t step,
                                    uint64_t count, uint64_t *back)
{
    uint64_t sum = 0;
    for (uint64_t m = 0; m < count; m++) {
        uint64_t *s = member(l, first, step, m);
        uint64_t to = *s;
        sum += link_mix(first + m * step, first + to * step);
        if (to == 0)
            *back = m;
        *(void **)s = member(l, first, step, to);
    }
    return sum;
}

void **chain_build_random_sum(const struct chain_layout *l, uint64_t seed, uint64_t *sum)
{
    struct rng r;
    uint64_t back = 0;
    rng_seed(&r, seed);
    sattolo_members(l, 0, 1, l->slots, &r);
    *sum = members_to_pointers(l, 0, 1, l->slots, &back);
    return chain_slot(l, 0);
}

void **chain_build_random(const struct chain_layout *l, uint64_t seed)
{
    uint64_t sum;
    return chain_build_random_sum(l, seed, &sum);
}

void **chain_build_random_local_sum(const struct chain_layout *l, uint64_t group_slots,
                                    uint64_t seed, uint64_t *sum)
{
    struct rng r;
    rng_seed(&r, seed);
    uint64_t g = group_slots ? group_slots : 1;
    uint64_t groups = (l->slots + g - 1) / g;
    *sum = 0;
    /* The order of the groups first, kept in each group's first slot as a group number. */
    sattolo_members(l, 0, g, groups, &r);
    for (uint64_t j = 0; j < groups; j++) {
        uint64_t first = j * g, back = 0;
        uint64_t next = *member(l, 0, g, j);
        uint64_t count = l->slots - first < g ? l->slots - first : g;
        sattolo_members(l, first, 1, count, &r);
        *sum += members_to_pointers(l, first, 1, count, &back);
        /* Leave the group from the slot that closed its cycle, for the next group. */
        *(void **)member(l, first, 1, back) = chain_slot(l, next * g);
        *sum += link_mix(first + back, next * g) - link_mix(first + back, first);
    }
    return chain_slot(l, 0);
}

void **chain_build_random_local(const struct chain_layout *l, uint64_t group_slots, uint64_t seed)
{
    uint64_t sum;
    return chain_build_random_local_sum(l, group_slots, seed, &sum);
}

uint64_t chain_link_sum(const struct chain_layout *l)
{
    uint64_t sum = 0;
    uint8_t *first = l->base + l->offset_bytes;
    for (uint64_t i = 0; i < l->slots; i++) {
        uint8_t *to = *(uint8_t **)chain_slot(l, i);
        /* a stagger stays below one stride, so the index is the whole strides */
        sum += link_mix(i, (uint64_t)(to - first) / l->stride_bytes);
    }
    return sum;
}

uint64_t chain_cycle_length(void **head, uint64_t limit)
{
    void **p = head;
    for (uint64_t n = 1; n <= limit; n++) {
        p = (void **)*p;
        if (p == head)
            return n;
    }
    return 0;
}

uint64_t chain_order_checksum(const struct chain_layout *l, uint64_t hops)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    void **p = chain_slot(l, 0);
    uint8_t *first = (uint8_t *)p;
    for (uint64_t n = 0; n < hops; n++) {
        uint64_t index = (uint64_t)((uint8_t *)p - first) / l->stride_bytes;
        h = (h ^ index) * 0x100000001b3ULL;
        p = (void **)*p;
    }
    return h;
}
