// SPDX-License-Identifier: MIT
// The sweep driver: every experiment's loop over its points, with the progress line.
#include "arch/x86_64/cpu.h"
#include "experiments/common.h"

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

/* Plan, prepare, build, measure and write point i; 0, or EXP_RUN_FAILED. */
static int sweep_point(struct exp_ctx *ctx, const struct exp_sweep *s, unsigned i,
                       struct con_progress *pg)
{
    struct exp_point p;
    struct point_result r;
    double work = plan_point(ctx, s, i, &p);
    int skipped = s->prepare ? s->prepare(ctx, s->data, &p) : 0;
    uint64_t t0 = arch_tsc_fenced();
    if (!skipped)
        skipped = s->build(ctx, s->data, &p);
    p.build_ticks = arch_tsc_fenced() - t0;
    if (skipped) {
        con_progress_step(pg, 0, arch_tsc_fenced());
        return 0;
    }
    if (exp_measure(ctx, &p.pt, &p.plan, p.label, &r) != 0)
        return EXP_RUN_FAILED;
    s->row(ctx, s->data, &p, &r);
    measure_release(&r);
    con_progress_step(pg, work, arch_tsc_fenced());
    return 0;
}

int exp_sweep_run(struct exp_ctx *ctx, const struct exp_sweep *s)
{
    struct con_progress pg;
    struct exp_point p;
    double total = 0;
    for (unsigned i = 0; i < s->points; i++)
        total += plan_point(ctx, s, i, &p);
    con_progress_begin(&pg, s->points, total, arch_tsc_fenced(), ctx->timing->wall_tsc_hz);
    int rc = 0;
    for (unsigned i = 0; i < s->points && rc == 0; i++)
        rc = sweep_point(ctx, s, i, &pg);
    con_progress_end(&pg);
    return rc;
}
