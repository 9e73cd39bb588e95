// SPDX-License-Identifier: MIT
// Chain builders with a fixed shape: linear, backward ring, streams and disjoint cycles.
#include "chase/chain.h"

/* The streams' parts of their region start on page boundaries when they are large enough. */
#define STREAM_PART_ALIGN_BYTES 4096

void **chain_build_linear(const struct chain_layout *l)
{
    for (uint64_t i = 0; i + 1 < l->slots; i++)
        *chain_slot(l, i) = chain_slot(l, i + 1);
    *chain_slot(l, l->slots - 1) = chain_slot(l, 0);
    return chain_slot(l, 0);
}

void **chain_build_backward(const struct chain_layout *l)
{
    for (uint64_t i = l->slots - 1; i > 0; i--)
        *chain_slot(l, i) = chain_slot(l, i - 1);
    *chain_slot(l, 0) = chain_slot(l, l->slots - 1);
    return chain_slot(l, l->slots - 1);
}

uint64_t chain_build_streams(uint8_t *base, uint64_t size_bytes, uint64_t stride_bytes, unsigned n,
                             void **heads[])
{
    uint64_t part = n ? size_bytes / n : 0;
    part = part >= STREAM_PART_ALIGN_BYTES
               ? part / STREAM_PART_ALIGN_BYTES * STREAM_PART_ALIGN_BYTES
               : part / sizeof(void *) * sizeof(void *);
    uint64_t slots = stride_bytes ? part / stride_bytes : 0;
    if (!slots)
        return 0;
    for (unsigned j = 0; j < n; j++) {
        struct chain_layout l = {base, j * part, stride_bytes, slots, 0};
        heads[j] = chain_build_linear(&l);
    }
    return slots;
}

uint64_t chain_build_disjoint(const struct chain_layout *l, unsigned n, uint64_t seed,
                              void **heads[])
{
    uint64_t longest = 0;
    for (unsigned j = 0; j < n; j++) {
        uint64_t slots = l->slots > j ? (l->slots - j + n - 1) / n : 0;
        if (!slots)
            return 0;
        struct chain_layout part = {l->base, l->offset_bytes + j * l->stride_bytes,
                                    l->stride_bytes * n, slots, 0};
        heads[j] = chain_build_random(&part, seed + j);
        longest = slots > longest ? slots : longest;
    }
    return longest;
}

void **chain_walk(void **p, uint64_t hops)
{
    for (uint64_t i = 0; i < hops; i++)
        p = (void **)*p;
    return p;
}
