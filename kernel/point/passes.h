// SPDX-License-Identifier: MIT
// Interleaved passes: the order a pass visits points in, and each visit's share of a point's plan.
#ifndef CHASE_POINT_PASSES_H
#define CHASE_POINT_PASSES_H

#include <stdbool.h>
#include <stdint.h>

#include "chase/measure.h"
#include "point/ctx.h"

/*
 * The order in which pass `pass` (of `passes`) visits n points: order[0..n) a permutation of
 * 0..n-1 that steps about 0.618 n points at a time (so any stretch of the pass covers sizes
 * spread evenly over the sweep, and neighbours in size are never visited one after the
 * other when n >= 5), each pass starting elsewhere.
 */
void exp_pass_order(unsigned n, unsigned pass, unsigned passes, unsigned *order);

/*
 * The plan of one pass's slice of a point measured in `passes` passes: the same fewest
 * repetitions, the time cap shared out, the precision the slice alone must reach so that
 * all slices together reach plan->precision (sqrt(passes) wider), and, after the first
 * slice (so_far: the slices merged so far, NULL or empty before the first), the hops per
 * repetition the first one took and a warm-up of at most EXP_PASS_WARM_SHARE of the slice's
 * time cap: a chain whose lap takes longer only needs its latest stretch in the caches,
 * which a warm-up of that many hops puts there for caches of up to (hops x line) bytes.
 */
#define EXP_PASS_WARM_SHARE 0.25
/*
 * A point whose next visit (a build and that warm-up) would cost more than this share of a
 * slice takes all its slices in its first visit, one after the other (its passes column
 * says 1): interleaving it would cost more time outside timed chasing than it saves. (At
 * 0.3, once DRAM-sized warm-ups had become shorter, 47M-160M chains were interleaved too and
 * their builds and warm-ups three times over kept a 4K-256M sweep at 27-31% outside timed
 * chasing; at 0.15 it was 18%, with chains from 28M in one visit here.)
 */
#define EXP_PASS_COST_SHARE 0.15
struct measure_plan exp_slice_plan(const struct measure_plan *plan, unsigned passes,
                                   const struct point_result *so_far);
/*
 * The plan of the rest of a point's slices taken right after its first (the point is costly to
 * come back to, exp_pass_costly): exp_slice_plan's, with the time cap of the other passes
 * together, the precision their repetitions need together (sqrt(passes / (passes - 1)) wider)
 * and a warm-up of one hop (warm from the slice just taken). passes >= 2.
 */
struct measure_plan exp_rest_plan(const struct measure_plan *plan, unsigned passes,
                                  const struct point_result *so_far);
/* Whether coming back to a point costs revisit_ticks (TSC ticks: a rebuild, a warm-up) more
   than EXP_PASS_COST_SHARE of a slice of slice_max_ticks (0: no cap, never). */
bool exp_pass_costly(double revisit_ticks, uint64_t slice_max_ticks);
/* How many passes a sweep of `points` points takes: the passes key, or 1 with one point,
   without a precision (a fixed count has nothing to share out) or with passes=1. */
unsigned exp_sweep_passes(const struct exp_ctx *ctx, unsigned points);

#endif
