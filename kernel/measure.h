// SPDX-License-Identifier: MIT
// Timing one point: a warm-up lap, then timed repetitions, each in its own window.
#ifndef CHASE_MEASURE_H
#define CHASE_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

#include "platform.h"
#include "stats.h"
#include "timing.h"

#define CHASE_MAX_STREAMS 16

/*
 * What one point chases: `streams` chains chased in lock-step, one load from each in
 * turn (p0 = *p0; p1 = *p1; ...). With serialized set, each load also waits for the
 * one before it across streams (the scan experiment), so nothing overlaps.
 */
struct chase_point {
    void **head[CHASE_MAX_STREAMS];
    unsigned streams;
    bool serialized;
    uint64_t lap_hops; /* hops per stream that complete one lap of the longest chain */
};

struct measure_plan {
    unsigned reps;          /* timed repetitions */
    uint64_t min_hops;      /* at least this many hops per stream per repetition */
    uint64_t target_ticks;  /* and long enough to last about this many TSC ticks */
    uint64_t max_hops;      /* but never more hops than this */
    uint64_t core_iters;    /* add-chain iterations for the per-point core clock */
    unsigned fault_test;    /* FAULT_TEST_*: provoke an exception in the first window (tests) */
    uint64_t warm_hops;     /* hops per stream before timing; 0: one lap (lap_hops) */
    bool partial_laps;      /* repetitions may end inside a lap: the warm-up reached the
                               steady state, so any stretch of the chase is typical */
};

/* What fault_test provokes inside a window, to show that chase recovers. */
enum fault_test {
    FAULT_TEST_NONE,
    FAULT_TEST_PAGE_FAULT,
    FAULT_TEST_GENERAL_PROTECTION,
    FAULT_TEST_OUTSIDE_WINDOW /* a page fault in chase's own code between windows: the panic */
};

struct point_result {
    uint64_t hops;            /* hops per stream per repetition */
    unsigned streams;
    unsigned reps;
    uint64_t *ticks;          /* [reps] raw ticks per repetition, overhead included */
    double *tsc_per_access;   /* [reps] (ticks - overhead) / (hops * streams): per load */
    struct stats_summary tsc; /* over tsc_per_access */
    double core_per_tick;     /* measured next to this point */
    uint64_t warm_hops;       /* hops per stream of the warm-up */
    uint64_t warm_ticks;      /* the warm-up's ticks */
    struct fault_info fault;  /* the exception that stopped the point, if one did */
    uint64_t *smi;            /* [reps] SMIs during each repetition; NULL when not counted */
    unsigned smi_reps;        /* repetitions during which an SMI happened */
};

/*
 * A measurement backend: chase.efi and chase-host time the point on the CPU
 * (measure_chase); chase-sim feeds the same access stream to a cache model.
 * Fills r (arrays allocated here; free them with measure_release).
 * Returns 0, or -1 when memory ran out, the point cannot be measured, or a CPU
 * exception stopped it (then r->fault.faulted is set and says which).
 */
typedef int (*measure_fn)(const struct chase_point *pt, const struct measure_plan *plan,
                          const struct timing *t, struct point_result *r);

/*
 * The CPU backend: a warm-up (plan->warm_hops, or one lap), then plan->reps timed
 * repetitions in windows. Streams above CHASE_LOCKSTEP_MAX (chase_loop.h) cannot be
 * measured (-1).
 */
int measure_chase(const struct chase_point *pt, const struct measure_plan *plan,
                  const struct timing *t, struct point_result *r);

/* Allocate r's arrays for reps repetitions (zeroed fields otherwise); -1 when out of memory. */
int measure_alloc(struct point_result *r, unsigned reps, unsigned streams);
/* Free the arrays of a point_result. */
void measure_release(struct point_result *r);
/*
 * Hops per stream per repetition: at least plan->min_hops and long enough to last
 * plan->target_ticks at the pace of the warm-up (warm_ticks over warm_hops), a whole
 * lap at least unless plan->partial_laps, at most plan->max_hops (unless a lap is longer
 * and whole laps are asked for). A multiple of CHASE_UNROLL.
 */
uint64_t measure_hops_per_rep(uint64_t lap_hops, uint64_t warm_hops, uint64_t warm_ticks,
                              const struct measure_plan *plan);

#endif
