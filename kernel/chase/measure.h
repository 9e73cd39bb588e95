// SPDX-License-Identifier: MIT
// Timing one point: a warm-up lap, then timed repetitions, each in its own window.
#ifndef CHASE_MEASURE_H
#define CHASE_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

#include "platform.h"
#include "arch/chase_loop.h"
#include "lib/stats.h"
#include "chase/time_split.h"
#include "chase/timing.h"
#include "chase/measure_hops.h"

#define CHASE_MAX_STREAMS 16

/*
 * What one point chases: `streams` chains chased in lock-step, one load from each in
 * turn (p0 = *p0; p1 = *p1; ...). With serialized set, each load also waits for the
 * one before it across streams (alternating chains), so nothing overlaps.
 */
struct chase_point {
    void **head[CHASE_MAX_STREAMS];
    unsigned streams;
    bool serialized;
    uint64_t lap_hops; /* hops per stream that complete one lap of the longest chain */
    uint64_t link_sum; /* random chains: chain_link_sum of the chain, 0 otherwise */
};

/* What fault_test provokes inside a window, to show that chase recovers. */
enum fault_test {
    FAULT_TEST_NONE,
    FAULT_TEST_PAGE_FAULT,
    FAULT_TEST_GENERAL_PROTECTION,
    FAULT_TEST_OUTSIDE_WINDOW, /* a page fault in chase's own code between windows: the panic */
    FAULT_TEST_NMI,            /* an NMI in the first repetition's window: it is dropped */
    FAULT_TEST_MACHINE_CHECK   /* the machine-check handler there: dropped too */
};

struct point_result {
    uint64_t hops; /* hops per stream per repetition */
    unsigned streams;
    unsigned reps;            /* repetitions taken */
    uint64_t *ticks;          /* [reps] raw ticks per repetition, overhead included */
    double *tsc_per_access;   /* [reps] (ticks - overhead) / (hops * streams): per load */
    struct stats_summary tsc; /* over tsc_per_access, outliers left out */
    double core_per_tick;     /* the median of core_per_rep (else one estimate next to it) */
    double *core_per_rep;     /* [reps] core cycles per tick next to each repetition, 0 for
                                 none; NULL: core_per_tick for all of them */
    double *clock_pair;       /* [reps] how far the two estimates around each repetition lie
                                 apart, relative (NaN: no pair taken); NULL: none */
    const char *clock;        /* how core_per_rep was taken: "adds", "aperf" (x86),
                                 "pmccntr" (AArch64) (NULL: none) */
    uint64_t warm_hops;       /* hops per stream of the warm-up */
    uint64_t warm_ticks;      /* the warm-up's ticks */
    struct fault_info fault;  /* the exception that stopped the point, if one did */
    uint64_t *smi;            /* [reps] SMIs during each repetition; NULL when not counted */
    unsigned smi_reps;        /* repetitions during which an SMI happened */
    /* How the repetitions went (reps.h); measure_assess fills these where a backend did not. */
    bool assessed;
    unsigned outliers;      /* repetitions above outlier_above, left out of tsc */
    double outlier_above;   /* the outlier threshold in TSC ticks per access */
    bool ci_valid;          /* enough kept repetitions for the median's 95% interval */
    double precision;       /* its half-width over the median (0 unless ci_valid) */
    unsigned stop;          /* enum reps_stop: why the repetitions ended */
    struct time_split time; /* warm and timed from the backend; the rest from exp_measure */
    uint64_t measured_tsc;  /* when exp_measure returned: output is timed from here */
    /* What the windows did (measure_chase): the untimed walk, and windows dropped. */
    uint64_t prewalk_hops;         /* untimed hops per stream before each repetition's timestamp */
    unsigned dropped;              /* windows lost to an NMI or machine check, taken again */
    unsigned split_windows;        /* windows beyond one per repetition: whole laps split */
    unsigned dropped_vector;       /* the exception that cost the last of them */
    void **end[CHASE_MAX_STREAMS]; /* where each stream's chase stopped */
    /* From measure_finish: per-repetition core cycles, the headlines, the disturbance. */
    struct stats_summary cycles; /* core cycles per access, outliers left out */
    double headline_tsc;         /* REPS_HEADLINE_QUANTILE of tsc_per_access (reps.h) */
    double headline_cycles;      /* ... of the core cycles per access */
    double clock_disagree;       /* (p90 - p10) / median of core_per_rep; 0 without them */
    unsigned disturbed;          /* REPS_DISTURB_* bits (reps.h) */
    unsigned passes;             /* interleaved passes that measured it (0: one) */
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
 * The CPU backend: a warm-up (plan->warm_hops, one lap, or plan->warm_laps laps; without
 * warm_laps, one longer than plan->warm_steady_ticks stops once steady, warm_may_stop), then
 * timed repetitions in windows, plan->reps of them and more until the median is known to
 * plan->precision or the time or count cap is reached (reps_should_stop); disturbed
 * repetitions are counted and left out of r->tsc (reps_assess). Streams above
 * CHASE_LOCKSTEP_MAX (chase_loop.h) cannot be measured (-1).
 */
int measure_chase(const struct chase_point *pt, const struct measure_plan *plan,
                  const struct timing *t, struct point_result *r);

/*
 * For a backend that took a fixed number of repetitions and summarized them itself (no
 * r->assessed): the precision its median has, with nothing left out as an outlier.
 */
void measure_assess_fixed(struct point_result *r);

/*
 * Fill r's per-repetition core cycles (each repetition at its own clock estimate), their
 * summary, the burst-robust headlines, the clock estimates' disagreement and the
 * disturbance bits, from r's repetitions and verdict. -1 when out of memory.
 */
int measure_finish(struct point_result *r);

/*
 * Append the repetitions of `slice` (another pass over the same point, with the same hops per
 * repetition) to `into`, add up their time, and release slice's arrays. An empty `into` takes
 * slice as it is. -1 when out of memory (both are then released).
 */
int measure_merge(struct point_result *into, struct point_result *slice);

/*
 * Judge the merged repetitions of r again: outliers, summary, the median's precision; stop
 * says why the point ends: REPS_STOP_PRECISION when `precision` (a fraction) is reached,
 * else what the last slice said (time or max_reps).
 */
int measure_reassess(struct point_result *r, double precision);

/* Whether repetition i of an assessed point is an outlier (left out of r->tsc). */
static inline bool measure_is_outlier(const struct point_result *r, unsigned i)
{
    return r->assessed && r->outliers && r->tsc_per_access[i] > r->outlier_above;
}

/*
 * The steady-state test of a long warm-up: whether the median pace (ticks per hop) of the
 * warm-up windows in the third quarter of paces[0..n) and in the last quarter differ by at
 * most `tolerance` (a fraction), each quarter holding WARM_STEADY_MIN_WINDOWS windows at
 * least. The quarters are halves of the latest half, so a transient of any length shows
 * until the warm-up is several times as long. scratch has room for n values.
 */
#define WARM_STEADY_MIN_WINDOWS 4
#define WARM_STEADY_TOLERANCE 0.01 /* or the plan's precision, if wider */
#define WARM_STEADY_FROM_SHARE 0.2 /* of plan->warm_steady_ticks: when testing starts */
/*
 * Whether a warm-up that has taken `ticks` for `done` of its `hops` may be tested for the
 * steady state: one that would take longer than steady_ticks in all at that pace, once it has
 * taken WARM_STEADY_FROM_SHARE of steady_ticks (shorter ones are taken whole: a chain that
 * partly fits a cache reaches its steady state only lap by lap). Never when steady_ticks is 0.
 */
bool measure_warm_may_stop_at(uint64_t ticks, uint64_t done, uint64_t hops, uint64_t steady_ticks);
bool measure_warm_steady(const double *paces, unsigned n, double tolerance, double *scratch);

/* Allocate r's arrays for reps repetitions (zeroed fields otherwise); -1 when out of memory. */
int measure_alloc(struct point_result *r, unsigned reps, unsigned streams);
/* Free the arrays of a point_result. */
void measure_release(struct point_result *r);

#endif
