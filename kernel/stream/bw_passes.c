// SPDX-License-Identifier: MIT
// A bandwidth sweep in one pass or interleaved passes, each point's slices merged into one result.
#include "stream/bw.h"

#include "arch/cpu.h"
#include "point/passes.h"
#include "lib/kmath.h"
#include "lib/stats.h"
#include "lib/console.h"
#include "lib/kstring.h"

void bw_result_summarize(struct bw_result *r, const struct timing *t)
{
    static double sorted[BW_REPS_MAX], bpc[BW_REPS_MAX], clk[BW_REPS_MAX];
    struct reps_verdict v;
    unsigned nb = 0, nc = 0;
    double bytes = (double)r->bytes_per_rep, hz = (double)t->tsc_hz;
    for (unsigned i = 0; i < r->reps; i++)
        sorted[i] = (double)r->ticks[i] / bytes;
    stats_sort(sorted, r->reps);
    reps_assess(sorted, r->reps, &v);
    r->outliers = 0;
    for (unsigned i = 0; i < r->reps; i++) {
        double tpb = (double)r->ticks[i] / bytes;
        r->outlier[i] = v.kept < v.n && tpb > v.threshold;
        r->outliers += r->outlier[i];
        if (!r->outlier[i] && r->core_per[i] > 0) {
            bpc[nb++] = 1.0 / (tpb * r->core_per[i]);
            clk[nc++] = r->core_per[i];
        }
    }
    r->gbs_median = hz / v.kept_stats.median / BW_BYTES_PER_GB;
    r->gbs_min = hz / v.kept_stats.max / BW_BYTES_PER_GB;
    r->gbs_max = hz / v.kept_stats.min / BW_BYTES_PER_GB;
    stats_sort(bpc, nb);
    stats_sort(clk, nc);
    r->bpc_median = nb ? stats_quantile_sorted(bpc, nb, 0.5) : KM_NAN;
    r->core_per_tick = nc ? stats_quantile_sorted(clk, nc, 0.5) : KM_NAN;
    r->precision = v.ci_valid ? v.precision : KM_NAN;
}

void bw_result_merge_stop(struct bw_result *r, enum reps_stop before, double precision)
{
    if (before > r->stop)
        r->stop = before;
    if (precision > 0 && kisfinite(r->precision) && r->precision <= precision)
        r->stop = REPS_STOP_PRECISION;
    else if (r->stop == REPS_STOP_PRECISION || r->stop == REPS_STOP_FIXED)
        r->stop = REPS_STOP_PASSES;
}

/* A slice of point i with plan, its repetitions marked with `pass` and its stop merged; 0/-1. */
static int bw_slice(const struct bw_sweep *s, unsigned i, const struct measure_plan *plan,
                    const struct measure_plan *whole, bool warm, unsigned pass, struct bw_result *r)
{
    enum reps_stop before = r->stop;
    unsigned first = r->reps;
    if (s->measure(s->data, i, plan, warm, r) != 0)
        return -1;
    for (unsigned k = first; k < r->reps; k++)
        r->pass[k] = (uint8_t)pass;
    bw_result_merge_stop(r, before, whole->precision);
    return 0;
}

/*
 * Point i's slice of pass `pass`; 0, or -1. Its first visit takes the other passes' share of its
 * time right away, still warm, when a warm-up lap costs more than a share of a slice (as a chase
 * whose build and warm-up do, exp_pass_costly). *done: not to be visited again.
 */
static int bw_pass_slice(const struct bw_sweep *s, unsigned i, unsigned pass, struct bw_result *r,
                         bool *done)
{
    struct measure_plan whole = s->plan(s->data, i);
    struct measure_plan slice = exp_slice_plan(&whole, s->passes, NULL);
    if (bw_slice(s, i, &slice, &whole, true, pass, r) != 0)
        return -1;
    r->passes++;
    if (r->passes == 1 && r->stop != REPS_STOP_PRECISION &&
        exp_pass_costly((double)r->warm_ticks, slice.max_ticks)) {
        struct measure_plan rest = exp_rest_plan(&whole, s->passes, NULL);
        *done = true;
        return bw_slice(s, i, &rest, &whole, false, pass, r);
    }
    /* Two passes at least, so that no point rests on one moment of the machine. */
    *done = (r->passes >= 2 && r->stop == REPS_STOP_PRECISION) || r->reps >= BW_REPS_MAX;
    return 0;
}

/* Every pass over the points not done, then each point's row in order; 0, or -1. */
static int bw_run_passes(const struct bw_sweep *s, struct bw_result *res, bool *done,
                         unsigned *order, struct con_progress *pg)
{
    for (unsigned pass = 0; pass < s->passes; pass++) {
        exp_pass_order(s->points, pass, s->passes, order);
        for (unsigned k = 0; k < s->points; k++) {
            if (done[order[k]])
                continue;
            if (bw_pass_slice(s, order[k], pass, &res[order[k]], &done[order[k]]) != 0)
                return -1;
            con_progress_step(pg, 1, arch_tsc_fenced());
        }
    }
    for (unsigned i = 0; i < s->points; i++)
        s->row(s->data, i, &res[i]);
    return 0;
}

/* One pass: each point measured and its row written before the next; 0, or -1. */
static int bw_run_once(const struct bw_sweep *s, struct con_progress *pg)
{
    static struct bw_result r;
    for (unsigned i = 0; i < s->points; i++) {
        struct measure_plan plan = s->plan(s->data, i);
        kmemset(&r, 0, sizeof(r));
        if (s->measure(s->data, i, &plan, true, &r) != 0)
            return -1;
        r.passes = 1;
        s->row(s->data, i, &r);
        con_progress_step(pg, 1, arch_tsc_fenced());
    }
    return 0;
}

int bw_sweep_run(const struct bw_sweep *s)
{
    bool once = s->passes <= 1 || s->points <= 1;
    unsigned visits = once ? s->points : s->points * s->passes;
    struct con_progress pg;
    con_progress_begin(&pg, visits, visits, arch_tsc_fenced(), s->wall_tsc_hz);
    struct bw_result *res = NULL;
    bool *done = NULL;
    unsigned *order = NULL;
    int rc = BW_SWEEP_NO_MEMORY;
    if (once) {
        rc = bw_run_once(s, &pg);
    } else {
        res = plat_alloc(s->points * sizeof(*res));
        done = plat_alloc(s->points * sizeof(*done));
        order = plat_alloc(s->points * sizeof(*order));
    }
    if (res && done && order) {
        kmemset(res, 0, s->points * sizeof(*res));
        kmemset(done, 0, s->points * sizeof(*done));
        rc = bw_run_passes(s, res, done, order, &pg);
    }
    con_progress_end(&pg);
    plat_free(res);
    plat_free(done);
    plat_free(order);
    return rc;
}
