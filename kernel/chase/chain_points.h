// SPDX-License-Identifier: MIT
// What each experiment chases at one point: its chains built and described as a chase_point.
#ifndef CHASE_CHAIN_POINTS_H
#define CHASE_CHAIN_POINTS_H

#include <stdint.h>

#include "chase/chain.h"
#include "chase/measure.h"

/*
 * random (and tlb): one random cycle over the slots of l; with group_slots > 0, grouped
 * for locality (chain_build_random_local). pt->link_sum gets its chain_link_sum.
 */
void point_random(struct chase_point *pt, const struct chain_layout *l, uint64_t group_slots,
                  uint64_t seed);

/* linear: slot i to slot i + 1 at l's stride, wrapping. */
void point_linear(struct chase_point *pt, const struct chain_layout *l);

/* ring: every slot points one stride backward, wrapping (lat_mem_rd). */
void point_ring(struct chase_point *pt, const struct chain_layout *l);

/*
 * fused: the first k of the linear chains that chain_build_fused left in heads (each of
 * `slots` slots), chased in lock-step.
 */
void point_fused(struct chase_point *pt, void **const heads[], unsigned k, uint64_t slots);

/*
 * dual: one random cycle over l's slots, walked by two pointers in turn, the second
 * exactly `lag` slots behind the first. Serialized: were the two loads allowed to
 * overlap, a second touch that misses would cost no more than one that hits, and the
 * comparison with random would show memory-level parallelism instead of the LLC's
 * insertion policy. A lag of a lap or more is cut to half a lap. Returns the lag used.
 */
uint64_t point_dual(struct chase_point *pt, const struct chain_layout *l, uint64_t lag,
                    uint64_t seed);

/*
 * scan: a random cycle over the small region l, chased serialized in alternation with the
 * huge region's chain (huge_head, built once with chain_build_random): huge, small,
 * huge, small ... lap_hops is the huge chain's lap; the experiment's plan bounds the
 * warm-up by the small chain's laps instead.
 */
void point_scan(struct chase_point *pt, void **huge_head, uint64_t huge_slots,
                const struct chain_layout *small, uint64_t seed);

/*
 * The k-th offset of the offset experiment's sweep: up from 0 to max in steps of step,
 * then back down to 0 (each end visited once per direction). *up says which way.
 * Points in all: 2 * (max / step + 1).
 */
uint64_t point_offset_at(uint64_t step, uint64_t max, unsigned k, bool *up);

/* parallel: n disjoint random cycles covering l's slots, chased in lock-step. */
void point_parallel(struct chase_point *pt, const struct chain_layout *l, unsigned n,
                    uint64_t seed);

#endif
