// SPDX-License-Identifier: MIT
// chase-sim's measurement backend: the kernel's chains walked through the modelled hierarchy.
#ifndef SIM_MEASURE_H
#define SIM_MEASURE_H

#include <stdint.h>

#include "chase/batches.h"
#include "chase/measure.h"
#include "platform.h"
#include "sim_hier.h"
#include "sim_stream.h"
#include "lib/strbuf.h"

/* Loads in one repetition at most (a repetition is at least one lap below this). */
#define SIM_MAX_REP_LOADS (1ULL << 24)
/* Loads in the warm-up at most. */
#define SIM_MAX_WARM_LOADS (1ULL << 26)
/* Hops per stream a repetition covers at least when the plan allows partial laps. */
#define SIM_PARTIAL_HOPS (1ULL << 18)

/* What the backend simulates on: the model, and its own per-point statistics. */
struct sim_backend {
    struct sim_hier *h;
    const struct plat_buffer *buffer; /* the chase buffer (virt NULL: none yet) */
    struct strbuf stats;              /* sim_levels.csv: hit rates per point */
    struct sim_traces traces;         /* the point's laps, recorded once */
    unsigned points;
};

/*
 * Make b the backend that sim_measure uses (measure_fn has no context argument, so
 * one backend at a time is bound); h is the model, buffer where the chains lie.
 */
void sim_backend_bind(struct sim_backend *b, struct sim_hier *h, const struct plat_buffer *buffer);
/* Unbind b and release its statistics. */
void sim_backend_release(struct sim_backend *b);

/*
 * The measure_fn of chase-sim: walk the point's real chains in lock-step, each load's
 * simulated address (buffer offset + physical base) through the model. A warm-up of
 * plan->warm_hops (default: one lap, at most SIM_MAX_WARM_LOADS loads), then plan->reps
 * repetitions of max(lap, plan->min_hops) hops per stream (a lap cut to SIM_PARTIAL_HOPS
 * when plan->partial_laps; at most SIM_MAX_REP_LOADS loads and plan->max_hops hops;
 * the plan's target_ticks means nothing to a model). A repetition's "ticks" are
 * core cycles: serialized loads add up; loads of independent streams overlap in groups
 * of the model's mlp (each group costs its slowest load). Returns 0, or -1 when a chain
 * leaves the buffer, no backend is bound, or memory ran out.
 */
int sim_measure(const struct chase_point *pt, const struct measure_plan *plan,
                const struct timing *t, struct point_result *r);

/*
 * chase-sim's chase_batches (arch/chase_loop.h) on the bound backend: the chain from start
 * walked through the model one load a hop, `batches` batches of `hops` hops; stamps[0..batches]
 * get the model's time in core cycles (the simulated timer's ticks) before the first load and
 * after each batch, refreshes and SMIs included. Returns the pointer reached, or NULL when the
 * chain leaves the buffer or no backend is bound.
 */
void **sim_batches(void **start, uint64_t batches, uint64_t hops, uint64_t *stamps);

/* chase-sim's batch_window_run (chase/batches.h): w's prewalk and batches through sim_batches,
 * no window to lose and no SMI counter (the model's SMIs show only as stalls). Returns 0, or -1
 * when the chain leaves the buffer or no backend is bound. */
int sim_batch_window(struct batch_window *w);

#endif
