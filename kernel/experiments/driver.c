// SPDX-License-Identifier: MIT
// The sweep driver: every experiment's loop over its points, in one pass or interleaved passes.
#include "experiments/driver.h"

#include <stdarg.h>

#include "arch/cpu.h"
#include "chase/reps.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "lib/slog.h"
#include "point/passes.h"
#include "point/plan.h"
#include "point/rows.h"

/* Point i with its plan filled in; returns its estimated work (TSC ticks). */
static double plan_point(const struct exp_ctx *ctx, const struct exp_sweep *s, unsigned i,
                         struct exp_point *p)
{
    kmemset(p, 0, sizeof(*p));
    p->index = i;
    p->streams = 1;
    s->plan(ctx, s->data, p);
    return exp_point_work(ctx, &p->plan, p->chain_bytes, p->slots, p->lap_hops, p->streams);
}

/* Plan, prepare and build point i into p (build timed); 0, or EXP_POINT_SKIPPED. */
static int prepare_point(struct exp_ctx *ctx, const struct exp_sweep *s, unsigned i,
                         struct exp_point *p, double *work)
{
    *work = plan_point(ctx, s, i, p);
    int skipped = s->prepare ? s->prepare(ctx, s->data, p) : 0;
    uint64_t t0 = arch_tsc_fenced();
    if (!skipped)
        skipped = s->build(ctx, s->data, p);
    p->build_ticks = arch_tsc_fenced() - t0;
    return skipped;
}

/* Plan, prepare, build, measure and write point i; 0, or EXP_RUN_FAILED. */
static int sweep_point(struct exp_ctx *ctx, const struct exp_sweep *s, unsigned i,
                       struct con_progress *pg)
{
    struct exp_point p;
    struct point_result r;
    double work;
    if (prepare_point(ctx, s, i, &p, &work)) {
        con_progress_step(pg, 0, arch_tsc_fenced());
        return 0;
    }
    int rc = exp_measure(ctx, &p.pt, &p.plan, p.label, &r);
    if (s->measured)
        s->measured(ctx, s->data, &p);
    if (rc != 0)
        return EXP_RUN_FAILED;
    s->row(ctx, s->data, &p, &r);
    slog_rows(&ctx->csv);
    measure_release(&r);
    con_progress_step(pg, work, arch_tsc_fenced());
    return 0;
}

/* What an interleaved sweep keeps of each point between passes. */
struct pass_point {
    struct exp_point p;
    struct point_result r;
    double work;
    bool skipped, done;
};

/* Measure pt with plan and merge it into pp's repetitions; 0, or EXP_RUN_FAILED. */
static int slice_into(struct exp_ctx *ctx, struct pass_point *pp, const struct measure_plan *plan)
{
    struct point_result r;
    if (exp_measure(ctx, &pp->p.pt, plan, pp->p.label, &r) != 0)
        return EXP_RUN_FAILED;
    if (measure_merge(&pp->r, &r) != 0 || measure_reassess(&pp->r, pp->p.plan.precision) != 0)
        return EXP_RUN_FAILED;
    return 0;
}

/*
 * Whether coming back to a point would cost more than EXP_PASS_COST_SHARE of a slice: the
 * build this visit took and the warm-up a later pass would take, at this warm-up's pace.
 */
static bool costly_to_revisit(const struct pass_point *pp, uint64_t build_ticks, unsigned passes)
{
    struct measure_plan next = exp_slice_plan(&pp->p.plan, passes, &pp->r);
    const struct point_result *r = &pp->r;
    double warm = r->warm_hops ? (double)r->warm_ticks / (double)r->warm_hops : 0;
    warm *= next.warm_laps_set ? (double)next.warm_laps * (double)pp->p.pt.lap_hops
                               : (double)next.warm_hops;
    return exp_pass_costly((double)build_ticks + warm, next.max_ticks);
}

/*
 * Point i's slice of this pass, merged into what it has; 0, or EXP_RUN_FAILED. A point too
 * costly to come back to takes the other passes' share of its time right away, still warm.
 */
static int pass_slice(struct exp_ctx *ctx, const struct exp_sweep *s, struct pass_point *pp,
                      unsigned i, unsigned passes)
{
    uint64_t build_before = pp->p.build_ticks;
    if (prepare_point(ctx, s, i, &pp->p, &pp->work)) {
        pp->skipped = true;
        return 0;
    }
    uint64_t build = pp->p.build_ticks;
    pp->p.build_ticks += build_before;
    struct measure_plan slice = exp_slice_plan(&pp->p.plan, passes, &pp->r);
    if (slice_into(ctx, pp, &slice) != 0)
        return EXP_RUN_FAILED;
    pp->r.passes++;
    if (pp->r.passes == 1 && pp->r.stop != REPS_STOP_PRECISION &&
        costly_to_revisit(pp, build, passes)) {
        struct measure_plan rest = exp_rest_plan(&pp->p.plan, passes, &pp->r);
        pp->done = true;
        return slice_into(ctx, pp, &rest);
    }
    /* Two passes at least, so that no point rests on one moment of the machine. */
    pp->done = pp->r.passes >= 2 && pp->r.stop == REPS_STOP_PRECISION;
    return 0;
}

/* Every pass over the points not done; then each point's row, in the sweep's order. */
static int run_passes(struct exp_ctx *ctx, const struct exp_sweep *s, struct pass_point *pts,
                      unsigned *order, unsigned passes, struct con_progress *pg)
{
    int rc = 0;
    for (unsigned pass = 0; pass < passes && rc == 0; pass++) {
        exp_pass_order(s->points, pass, passes, order);
        for (unsigned k = 0; k < s->points && rc == 0; k++) {
            struct pass_point *pp = &pts[order[k]];
            if (pp->skipped || pp->done)
                continue;
            rc = pass_slice(ctx, s, pp, order[k], passes);
            if (s->measured && !pp->skipped)
                s->measured(ctx, s->data, &pp->p);
            con_progress_step(pg, pp->work / passes, arch_tsc_fenced());
        }
    }
    for (unsigned i = 0; i < s->points && rc == 0; i++) {
        if (pts[i].skipped)
            continue;
        if (measure_finish(&pts[i].r) != 0)
            return EXP_RUN_FAILED;
        pts[i].r.measured_tsc = arch_tsc_fenced();
        s->row(ctx, s->data, &pts[i].p, &pts[i].r);
        slog_rows(&ctx->csv);
    }
    return rc;
}

/* An interleaved sweep: its points' results stay until the last pass. */
static int sweep_interleaved(struct exp_ctx *ctx, const struct exp_sweep *s, unsigned passes,
                             struct con_progress *pg)
{
    struct pass_point *pts = plat_alloc(s->points * sizeof(*pts));
    unsigned *order = plat_alloc(s->points * sizeof(*order));
    int rc = EXP_RUN_FAILED;
    if (pts && order) {
        kmemset(pts, 0, s->points * sizeof(*pts));
        rc = run_passes(ctx, s, pts, order, passes, pg);
    }
    if (rc != 0 && !pts)
        ksnprintf(ctx->failure, sizeof(ctx->failure), "out of memory for %u points", s->points);
    for (unsigned i = 0; pts && i < s->points; i++)
        measure_release(&pts[i].r);
    plat_free(pts);
    plat_free(order);
    return rc;
}

int exp_sweep_run(struct exp_ctx *ctx, const struct exp_sweep *s)
{
    struct con_progress pg;
    struct exp_point p;
    double total = 0;
    for (unsigned i = 0; i < s->points; i++)
        total += plan_point(ctx, s, i, &p);
    unsigned passes = exp_sweep_passes(ctx, s->points);
    bool interleaved = s->interleave && passes > 1;
    con_progress_begin(&pg, interleaved ? s->points * passes : s->points, total, arch_tsc_fenced(),
                       ctx->timing->wall_tsc_hz);
    int rc = 0;
    if (interleaved)
        rc = sweep_interleaved(ctx, s, passes, &pg);
    else
        for (unsigned i = 0; i < s->points && rc == 0; i++)
            rc = sweep_point(ctx, s, i, &pg);
    con_progress_end(&pg);
    return rc;
}

void exp_header(const struct exp_ctx *ctx, const struct experiment *x, const char *fmt, ...)
{
    char plan[256];
    va_list ap;
    (void)ctx;
    va_start(ap, fmt);
    kvsnprintf(plan, sizeof(plan), fmt, ap);
    va_end(ap);
    con_printf("   why:  %s\n   plan: %s\n\n", x->why, plan);
}
