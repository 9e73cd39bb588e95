// SPDX-License-Identifier: MIT
// Timing one point: a warm-up lap, then timed repetitions, each in its own window.
#ifndef CHASE_MEASURE_H
#define CHASE_MEASURE_H

#include <stdint.h>

#include "stats.h"
#include "timing.h"

struct measure_plan {
    unsigned reps;          /* timed repetitions */
    uint64_t min_hops;      /* at least this many loads per repetition */
    uint64_t target_ticks;  /* and long enough to last about this many TSC ticks */
    uint64_t max_hops;      /* but never more loads than this */
    uint64_t core_iters;    /* add-chain iterations for the per-point core clock */
};

struct point_result {
    uint64_t hops;            /* loads per repetition */
    unsigned reps;
    uint64_t *ticks;          /* [reps] raw ticks per repetition, overhead included */
    double *tsc_per_access;   /* [reps] (ticks - overhead) / hops */
    struct stats_summary tsc; /* over tsc_per_access */
    double core_per_tick;     /* measured next to this point */
    uint64_t warm_ticks;      /* the warm-up lap */
};

/*
 * Chase a chain of `slots` slots from head: one untimed-for-results warm-up lap, then
 * plan->reps timed repetitions. Fills r (its arrays are allocated here; free them
 * with measure_release). Returns 0, or -1 when memory ran out.
 */
int measure_chase(void **head, uint64_t slots, const struct measure_plan *plan,
                  const struct timing *t, struct point_result *r);

/* Free the arrays of a point_result. */
void measure_release(struct point_result *r);

#endif
