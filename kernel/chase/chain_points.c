// SPDX-License-Identifier: MIT
// The chains of one point, built and described as a chase_point, by shape.
#include "chase/chain_points.h"

#include "lib/kstring.h"

static void point_clear(struct chase_point *pt)
{
    kmemset(pt, 0, sizeof(*pt));
}

void point_cycle(struct chase_point *pt, const struct chain_layout *l, uint64_t group_slots,
                 uint64_t seed)
{
    point_clear(pt);
    pt->head[0] = group_slots ? chain_build_random_local_sum(l, group_slots, seed, &pt->link_sum)
                              : chain_build_random_sum(l, seed, &pt->link_sum);
    pt->streams = 1;
    pt->lap_hops = l->slots;
}

void point_linear(struct chase_point *pt, const struct chain_layout *l)
{
    point_clear(pt);
    pt->head[0] = chain_build_linear(l);
    pt->streams = 1;
    pt->lap_hops = l->slots;
}

void point_backward(struct chase_point *pt, const struct chain_layout *l)
{
    point_clear(pt);
    pt->head[0] = chain_build_backward(l);
    pt->streams = 1;
    pt->lap_hops = l->slots;
}

void point_streams(struct chase_point *pt, void **const heads[], unsigned k, uint64_t slots)
{
    point_clear(pt);
    for (unsigned j = 0; j < k && j < CHASE_MAX_STREAMS; j++)
        pt->head[j] = heads[j];
    pt->streams = k;
    pt->lap_hops = slots;
}

uint64_t point_trailing(struct chase_point *pt, const struct chain_layout *l, uint64_t lag,
                        uint64_t seed)
{
    point_clear(pt);
    void **trail = chain_build_random(l, seed);
    if (lag >= l->slots)
        lag = l->slots / 2;
    pt->head[0] = chain_walk(trail, lag);
    pt->head[1] = trail;
    pt->streams = 2;
    pt->serialized = true;
    pt->lap_hops = l->slots;
    return lag;
}

void point_alternating(struct chase_point *pt, void **huge_head, uint64_t huge_slots,
                       const struct chain_layout *small, uint64_t seed)
{
    point_clear(pt);
    pt->head[0] = huge_head;
    pt->head[1] = chain_build_random(small, seed);
    pt->streams = 2;
    pt->serialized = true;
    pt->lap_hops = huge_slots;
}

void point_disjoint(struct chase_point *pt, const struct chain_layout *l, unsigned n, uint64_t seed)
{
    point_clear(pt);
    if (n > CHASE_MAX_STREAMS)
        n = CHASE_MAX_STREAMS;
    pt->lap_hops = chain_build_disjoint(l, n, seed, pt->head);
    pt->streams = pt->lap_hops ? n : 0;
}
