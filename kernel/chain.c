// SPDX-License-Identifier: MIT
// Chain builders: lay out slots in the buffer, each holding the address of the next slot.
#include "chain.h"

#include "rng.h"

void **chain_build_random(const struct chain_layout *l, uint64_t seed)
{
    struct rng r;
    rng_seed(&r, seed);
    /* The slots first hold the permutation as indices; Sattolo's swaps keep it one cycle. */
    for (uint64_t i = 0; i < l->slots; i++)
        *(uint64_t *)chain_slot(l, i) = i;
    for (uint64_t i = l->slots - 1; i > 0; i--) {
        uint64_t j = rng_below(&r, i);
        uint64_t *a = (uint64_t *)chain_slot(l, i);
        uint64_t *b = (uint64_t *)chain_slot(l, j);
        uint64_t t = *a;
        *a = *b;
        *b = t;
    }
    for (uint64_t i = 0; i < l->slots; i++) {
        void **s = chain_slot(l, i);
        *s = chain_slot(l, *(uint64_t *)s);
    }
    return chain_slot(l, 0);
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
