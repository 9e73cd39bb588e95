// SPDX-License-Identifier: MIT
// The sweep driver: every experiment's loop over its points, and the header every experiment
// prints.
#ifndef CHASE_EXP_DRIVER_H
#define CHASE_EXP_DRIVER_H

#include <stdbool.h>
#include <stdint.h>

#include "chase/chain_points.h"
#include "chase/measure.h"
#include "experiments/experiment.h"

/* One point of a sweep: what the experiment's hooks fill in, and the driver measures. */
struct exp_point {
    unsigned index; /* in the sweep, from 0 */
    /* The plan hook's: how to measure it, what a failure names, what it costs (exp_point_work). */
    struct measure_plan plan;
    uint64_t label; /* a size in bytes */
    uint64_t chain_bytes, slots, lap_hops;
    unsigned streams;
    /* The build hook's: the chains to chase. */
    struct chase_point pt;
    /* The driver's: the build hook's ticks. */
    uint64_t build_ticks;
};

/* What a prepare or build hook returns for a point that cannot be measured here. */
#define EXP_POINT_SKIPPED 1

/*
 * A sweep of `points` points; data is the experiment's own (its parameters, sizes, what its
 * points share), passed to every hook.
 */
struct exp_sweep {
    unsigned points;
    void *data;
    /* Its points may be measured in any order, each rebuilt from scratch whenever it is
       measured: the driver then measures them in the passes the passes key asks for. */
    bool interleave;
    /* Fill p's plan, label and work estimate (called for the estimate and again to measure). */
    void (*plan)(const struct exp_ctx *ctx, void *data, struct exp_point *p);
    /* Before p is built, untimed (NULL: none): switch what a group of points shares. */
    int (*prepare)(struct exp_ctx *ctx, void *data, struct exp_point *p);
    /* Build p's chains into p->pt (timed into p->build_ticks); 0 or EXP_POINT_SKIPPED. */
    int (*build)(struct exp_ctx *ctx, void *data, struct exp_point *p);
    /* Right after each measurement of p, failed or not (NULL: none): stop what build started
       for it (loaded's traffic generators), so that nothing runs on into the next point. */
    void (*measured)(struct exp_ctx *ctx, void *data, const struct exp_point *p);
    /* Write p's row: samples, console line, then the CSV row (exp_csv_common last). */
    void (*row)(struct exp_ctx *ctx, void *data, const struct exp_point *p,
                const struct point_result *r);
};

/*
 * Run a sweep: estimate the work of every point, then for each point plan, prepare, build
 * (timed), measure, write its row and release it, with a progress line throughout. A skipped
 * point is left out. Returns 0, or EXP_RUN_FAILED at the first point that could not be
 * measured (ctx->failure says which and why).
 */
int exp_sweep_run(struct exp_ctx *ctx, const struct exp_sweep *s);

/* Print the experiment's "why" line and its plan line (printf format). */
void exp_header(const struct exp_ctx *ctx, const struct experiment *x, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
