// SPDX-License-Identifier: MIT
// The sweep driver: every experiment's loop over its points, in one pass or interleaved passes.
#include "arch/cpu.h"
#include "experiments/common.h"
#include "chase/reps.h"
#include "lib/kmath.h"
#include "lib/slog.h"

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

static unsigned gcd(unsigned a, unsigned b)
{
    while (b) {
        unsigned t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/*
 * The stride of the golden-ratio order of n points: coprime to n (so every point is visited)
 * and neither 1 nor n - 1 (so neighbours in size are never visited one after the other); 0
 * when n has none (n < 5, or 6).
 */
static unsigned golden_stride(unsigned n)
{
    unsigned g0 = (unsigned)(0.618034 * n + 0.5);
    for (unsigned d = 0; d < n; d++) {
        unsigned c[2] = {g0 + d, g0 - d};
        for (unsigned k = 0; k < 2; k++) {
            if (c[k] >= 2 && c[k] + 2 <= n && gcd(c[k], n) == 1)
                return c[k];
        }
    }
    return 0;
}

void exp_pass_order(unsigned n, unsigned pass, unsigned passes, unsigned *order)
{
    unsigned g = golden_stride(n), shift = passes ? (unsigned)((uint64_t)n * pass / passes) : 0;
    for (unsigned k = 0; k < n; k++) {
        /* Without a golden stride: the even points, then the odd ones. */
        unsigned i = g                 ? (unsigned)((uint64_t)k * g % n)
                     : k < (n + 1) / 2 ? 2 * k
                                       : 2 * (k - (n + 1) / 2) + 1;
        order[k] = (i + shift) % n;
    }
}

struct measure_plan exp_slice_plan(const struct measure_plan *plan, unsigned passes,
                                   const struct point_result *so_far)
{
    struct measure_plan p = *plan;
    if (passes > 1) {
        p.precision = plan->precision * ksqrt((double)passes);
        p.max_ticks = plan->max_ticks / passes;
    }
    if (!so_far || !so_far->hops)
        return p;
    p.min_hops = p.max_hops = so_far->hops;
    /* A later pass's warm-up: as the first's, but at most a share of the slice's time at the
       pace the warm-ups went (whole laps when asked for by warm_laps). */
    if (!plan->warm_laps_set && so_far->warm_hops && so_far->warm_ticks && p.max_ticks) {
        double per_hop = (double)so_far->warm_ticks / (double)so_far->warm_hops;
        double fit = (double)p.max_ticks * EXP_PASS_WARM_SHARE / per_hop;
        uint64_t first = so_far->warm_hops / (so_far->passes ? so_far->passes : 1);
        p.warm_hops = fit < (double)first ? (uint64_t)fit : first;
        p.warm_hops = p.warm_hops ? p.warm_hops : 1;
    }
    return p;
}

struct measure_plan exp_rest_plan(const struct measure_plan *plan, unsigned passes,
                                  const struct point_result *so_far)
{
    struct measure_plan rest = exp_slice_plan(plan, passes, so_far);
    rest.max_ticks = plan->max_ticks - exp_slice_plan(plan, passes, NULL).max_ticks;
    rest.precision = plan->precision * ksqrt((double)passes / (double)(passes - 1));
    rest.warm_laps_set = false;
    rest.warm_hops = 1; /* warm from the slice just taken */
    return rest;
}

bool exp_pass_costly(double revisit_ticks, uint64_t slice_max_ticks)
{
    return slice_max_ticks && revisit_ticks > EXP_PASS_COST_SHARE * (double)slice_max_ticks;
}

unsigned exp_sweep_passes(const struct exp_ctx *ctx, unsigned points)
{
    const struct global_params *g = &ctx->cfg->global;
    /* One pass: without a precision there is nothing to share out but a fixed count. */
    return g->passes > 1 && points > 1 && g->precision_ppm > 0 ? (unsigned)g->passes : 1;
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
