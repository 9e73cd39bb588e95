// SPDX-License-Identifier: MIT
// The chains of one point, built and described as a chase_point, by shape.
#ifndef CHASE_CHAIN_POINTS_H
#define CHASE_CHAIN_POINTS_H

#include <stdint.h>

#include "chase/chain.h"
#include "chase/measure.h"

/*
 * One random cycle over the slots of l; with group_slots > 0, grouped
 * for locality (chain_build_random_local). pt->link_sum gets its chain_link_sum.
 */
void point_cycle(struct chase_point *pt, const struct chain_layout *l, uint64_t group_slots,
                 uint64_t seed);

/* Slot i to slot i + 1 at l's stride, wrapping. */
void point_linear(struct chase_point *pt, const struct chain_layout *l);

/* Every slot points one stride backward, wrapping (lat_mem_rd). */
void point_backward(struct chase_point *pt, const struct chain_layout *l);

/*
 * The first k of the linear chains that chain_build_streams left in heads (each of
 * `slots` slots), chased in lock-step.
 */
void point_streams(struct chase_point *pt, void **const heads[], unsigned k, uint64_t slots);

/*
 * One random cycle over l's slots, walked by two pointers in turn, the second
 * exactly `lag` slots behind the first. Serialized: were the two loads allowed to
 * overlap, a second touch that misses would cost no more than one that hits, and the
 * comparison with one pointer would show memory-level parallelism instead of the LLC's
 * insertion policy. A lag of a lap or more is cut to half a lap. Returns the lag used.
 */
uint64_t point_trailing(struct chase_point *pt, const struct chain_layout *l, uint64_t lag,
                        uint64_t seed);

/*
 * A random cycle over the small region l, chased serialized in alternation with the
 * huge region's chain (huge_head, built once with chain_build_random): huge, small,
 * huge, small ... lap_hops is the huge chain's lap; the caller's plan bounds the
 * warm-up by the small chain's laps instead.
 */
void point_alternating(struct chase_point *pt, void **huge_head, uint64_t huge_slots,
                       const struct chain_layout *small, uint64_t seed);

/* n disjoint random cycles covering l's slots, chased in lock-step. */
void point_disjoint(struct chase_point *pt, const struct chain_layout *l, unsigned n,
                    uint64_t seed);

#endif
