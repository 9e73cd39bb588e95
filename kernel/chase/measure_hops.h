// SPDX-License-Identifier: MIT
// A point's measurement plan, and the hops its repetitions and their untimed walks take.
#ifndef CHASE_MEASURE_HOPS_H
#define CHASE_MEASURE_HOPS_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/chase_loop.h"

struct measure_plan {
    unsigned reps;         /* timed repetitions: exactly these when precision is 0, else the
                              fewest */
    uint64_t min_hops;     /* at least this many hops per stream per repetition */
    uint64_t target_ticks; /* and long enough to last about this many TSC ticks */
    uint64_t max_hops;     /* but never more hops than this */
    uint64_t core_iters;   /* add-chain iterations for the per-point core clock */
    unsigned fault_test;   /* FAULT_TEST_*: provoke an exception in the first window (tests) */
    uint64_t warm_hops;    /* hops per stream before timing; 0: one lap (lap_hops) */
    bool partial_laps;     /* repetitions may end inside a lap: the warm-up reached the
                              steady state, so any stretch of the chase is typical */
    double precision;      /* repeat until the 95% confidence interval of the median is at
                              most this fraction of it either side (reps.h); 0: reps only */
    uint64_t max_ticks;    /* ... or until the repetitions have taken this many TSC ticks */
    unsigned max_reps;     /* ... or this many repetitions (0: reps) */
    bool warm_laps_set;    /* the warm-up is warm_laps whole laps instead (0: none) */
    unsigned warm_laps;
    uint64_t window_max_ticks;  /* a window (untimed walk + repetition) lasts at most about
                                   this long at the warm-up's pace; 0: no cap */
    uint64_t warm_steady_ticks; /* a warm-up (warm_laps auto) that would take longer than this
                                   may stop before its end once steady (measure_warm_steady),
                                   from WARM_STEADY_FROM_SHARE of this on; 0: never */
    uint64_t prewalk_max_hops;  /* the untimed walk of a chain whose lap is longer than a
                                   repetition: at most this many hops, what refills the TLBs
                                   (exp_prewalk_tlb_hops); 0: no bound */
};

/* n rounded up to a whole number of iterations of the chase loop (CHASE_UNROLL hops). */
static inline uint64_t measure_round_up_unroll(uint64_t n)
{
    return (n + CHASE_UNROLL - 1) / CHASE_UNROLL * CHASE_UNROLL;
}

/*
 * Untimed hops per stream that each repetition's window walks before its first timestamp, so
 * that it starts with the TLBs and paging-structure caches the chase itself leaves (entering
 * a window on the firmware empties them): a whole lap when the repetition covers one (it
 * also brings the whole chain back into the caches); else as many as the repetition times,
 * at most plan->prewalk_max_hops (the timed hops continue past the walked stretch, so the
 * walk cannot warm their lines, only the TLBs); 0 when the plan asks for no warm-up
 * (warm_laps = 0).
 */
uint64_t measure_prewalk_hops(uint64_t lap_hops, uint64_t rep_hops,
                              const struct measure_plan *plan);

/*
 * Hops per stream per repetition: at least plan->min_hops and long enough to last
 * plan->target_ticks at a pace of warm_ticks over warm_hops (measure_chase gives the lower
 * quartile of the latest half of the warm-up's windows, or the whole warm-up's), a whole
 * lap at least unless plan->partial_laps, at most plan->max_hops (unless a lap is longer
 * and whole laps are asked for), and short enough that the walk before it and itself fit
 * in plan->window_max_ticks at that pace (partial laps only). Where the untimed walk
 * (measure_prewalk_hops) would be more than MEASURE_WALK_SHARE_MAX of the repetition, the
 * repetition is made longer, within those caps (a bounded walk then stays bounded: the
 * repetition stops short of a lap). A multiple of CHASE_UNROLL.
 */
#define MEASURE_WALK_SHARE_MAX 0.125
uint64_t measure_hops_per_rep(uint64_t lap_hops, uint64_t warm_hops, uint64_t warm_ticks,
                              const struct measure_plan *plan);
#endif
