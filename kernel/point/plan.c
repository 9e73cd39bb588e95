// SPDX-License-Identifier: MIT
// A point's plan from the configuration and profile, its measurement, and the pages it runs on.
#include "point/plan.h"

#include "arch/cpu.h"
#include "chase/reps.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "machine/cpuinfo.h"
#include "machine/fault.h"
#include "point/sizes.h"

/* Time per repetition and hops by profile: quick keeps emulated runs short. */
#define QUICK_TARGET_PER_S 2000 /* 0.5 ms per repetition */
#define FULL_TARGET_PER_S 1000  /* 1 ms per repetition: shorter than a scheduler slice */
#define QUICK_MIN_HOPS 1024
#define FULL_MIN_HOPS 4096
#define QUICK_CORE_ITERS 256
#define FULL_CORE_ITERS 4096
#define MAX_HOPS_PER_REP (1ULL << 32)
#define MS_PER_S 1000
/* Room for repetitions a point may take: 4 s of 1 ms repetitions. */
#define EXP_REPS_CAPACITY 4096

/* Rough per-hop and per-slot costs in ns, only for the progress line's estimate. */
#define EST_NS_L1 1.5
#define EST_NS_L2 5.0
#define EST_NS_LLC 30.0
#define EST_NS_MEMORY 120.0
#define EST_CAP_SHARE 0.25 /* of point_max_ms that a point's repetitions take, typically */

struct measure_plan exp_plan(const struct exp_ctx *ctx, uint64_t chain_bytes,
                             uint64_t bytes_per_hop, unsigned streams)
{
    bool quick = ctx->cfg->global.profile == PROFILE_QUICK;
    const struct global_params *g = &ctx->cfg->global;
    struct measure_plan plan = {
        .reps = (unsigned)g->reps,
        .min_hops = quick ? QUICK_MIN_HOPS : FULL_MIN_HOPS,
        .target_ticks = ctx->timing->tsc_hz / (quick ? QUICK_TARGET_PER_S : FULL_TARGET_PER_S),
        .max_hops = MAX_HOPS_PER_REP,
        .core_iters = quick ? QUICK_CORE_ITERS : FULL_CORE_ITERS,
        .partial_laps = true,
        .precision = (double)g->precision_ppm / (100.0 * CFG_PPM_PER_PERCENT),
        /* the cap is wall time: the real TSC rate, also under a simulated clock */
        .max_ticks = g->point_max_ms * ctx->timing->wall_tsc_hz / MS_PER_S,
        .max_reps = EXP_REPS_CAPACITY,
        .window_max_ticks = g->window_max_ms * ctx->timing->wall_tsc_hz / MS_PER_S,
    };
    if (!g->warm_laps.is_auto) {
        plan.warm_laps_set = true;
        plan.warm_laps = (unsigned)g->warm_laps.value;
        /* Without a warm-up there is no pace to size repetitions by: one lap each, so
           that the repetitions show the way to the steady state lap by lap. */
        if (plan.warm_laps == 0) {
            plan.partial_laps = false;
            plan.min_hops = 1;
        }
        return plan;
    }
    plan.warm_steady_ticks = (uint64_t)((double)plan.max_ticks * EXP_WARM_STEADY_SHARE);
    uint64_t llc = exp_llc_bytes(ctx->m);
    if (chain_bytes >= EXP_FAR_BEYOND_LLC * llc && bytes_per_hop && streams) {
        uint64_t per_hop = bytes_per_hop * streams;
        plan.warm_hops = (EXP_WARM_LLC_MULTIPLE * llc + per_hop - 1) / per_hop;
    }
    return plan;
}

uint64_t exp_prewalk_tlb_hops(const struct exp_ctx *ctx, uint64_t chain_bytes)
{
    uint64_t page = ctx->buffer.page_bytes ? ctx->buffer.page_bytes : 4096;
    uint64_t pages = (chain_bytes + page - 1) / page;
    pages = pages < EXP_TLB_ENTRIES_MAX ? pages : EXP_TLB_ENTRIES_MAX;
    pages = pages ? pages : 1;
    return (uint64_t)((double)pages * (kln((double)pages) + 3.0)) + 1;
}

double exp_est_ns_per_hop(const struct machine *m, uint64_t bytes)
{
    const struct cache_info *l1 = cpuinfo_data_cache(&m->cpu, 1);
    if (l1 && bytes <= l1->size_bytes)
        return EST_NS_L1;
    if (bytes <= exp_l2_bytes(m))
        return EST_NS_L2;
    return bytes <= exp_llc_bytes(m) ? EST_NS_LLC : EST_NS_MEMORY;
}

double exp_point_work(const struct exp_ctx *ctx, const struct measure_plan *plan,
                      uint64_t chain_bytes, uint64_t slots, uint64_t lap_hops, unsigned streams)
{
    double hop_ns = exp_est_ns_per_hop(ctx->m, chain_bytes) / (streams ? streams : 1);
    double warm = (double)(plan->warm_hops ? plan->warm_hops : lap_hops) * streams * hop_ns;
    double rep = (double)plan->min_hops * streams * hop_ns;
    double target_ns = (double)plan->target_ticks * 1e9 / (double)ctx->timing->tsc_hz;
    rep = rep > target_ns ? rep : target_ns;
    double reps_ns = rep * plan->reps;
    /* Repetitions to a precision: typically a fraction of the cap (many points stop early). */
    double cap_ns = (double)plan->max_ticks * 1e9 / (double)ctx->timing->wall_tsc_hz;
    if (plan->precision > 0 && cap_ns * EST_CAP_SHARE > reps_ns)
        reps_ns = cap_ns * EST_CAP_SHARE;
    double ns = (double)slots * EXP_EST_BUILD_NS_PER_SLOT + warm + reps_ns;
    return ns * (double)ctx->timing->tsc_hz / 1e9;
}

/* Say in ctx->failure, and on the console, why the point labelled label was not measured. */
static void point_failed(struct exp_ctx *ctx, const struct point_result *r, uint64_t label)
{
    char size_text[24], what[160];
    fmt_size(size_text, sizeof(size_text), (double)label);
    if (r->fault.faulted)
        fault_describe(what, sizeof(what), &r->fault);
    else
        ksnprintf(what, sizeof(what), "out of memory");
    ksnprintf(ctx->failure, sizeof(ctx->failure), "point %s: %s", size_text, what);
    con_printf("  point %s FAILED: %s\n", size_text, what);
}

int exp_measure(struct exp_ctx *ctx, const struct chase_point *pt, const struct measure_plan *plan,
                uint64_t label, struct point_result *r)
{
    struct measure_plan p = *plan;
    p.fault_test = ctx->fault_test;
    ctx->fault_test = FAULT_TEST_NONE; /* only the first point of an experiment faults */
    uint64_t t0 = arch_tsc_fenced();
    if (ctx->measure(pt, &p, ctx->timing, r) == 0) {
        if (!r->assessed)
            measure_assess_fixed(r);
        if (measure_finish(r) != 0) {
            point_failed(ctx, r, label);
            measure_release(r);
            return EXP_RUN_FAILED;
        }
        r->measured_tsc = arch_tsc_fenced();
        time_split_measured(&r->time, r->measured_tsc - t0, r->time.warm, r->time.timed);
        return 0;
    }
    point_failed(ctx, r, label);
    measure_release(r);
    return EXP_RUN_FAILED;
}

int exp_pages_begin(struct exp_ctx *ctx, unsigned page_choice, uint64_t *saved)
{
    uint64_t want = cfg_page_bytes(page_choice);
    char why[160] = "";
    *saved = ctx->buffer.page_bytes;
    if (!want || want == ctx->buffer.page_bytes)
        return 0;
    if (plat_buffer_set_pages(&ctx->buffer, want, why, sizeof(why)) != 0) {
        ksnprintf(ctx->failure, sizeof(ctx->failure), "%s pages: %s", page_names[page_choice], why);
        return EXP_RUN_SKIPPED;
    }
    con_printf("   pages: %s (%s)\n", page_names[page_choice], ctx->buffer.page_source);
    return 0;
}

void exp_pages_end(struct exp_ctx *ctx, uint64_t saved)
{
    char why[160] = "";
    if (!saved || saved == ctx->buffer.page_bytes)
        return;
    if (plat_buffer_set_pages(&ctx->buffer, saved, why, sizeof(why)) != 0)
        con_printf("warning: could not map the buffer with %llu-byte pages again: %s\n",
                   (unsigned long long)saved, why);
}
