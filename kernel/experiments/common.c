// SPDX-License-Identifier: MIT
// What every experiment does alike: machine facts, plans, pages, measuring, CSV and tables.
#include "experiments/common.h"

#include "chase/sweep.h"

#include "arch/cpu.h"
#include "chase/reps.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "machine/fault.h"
#include "platform.h"

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
#define EST_BUILD_NS_PER_SLOT 10.0
#define EST_CAP_SHARE 0.25 /* of point_max_ms that a point's repetitions take, typically */

uint64_t exp_llc_bytes(const struct machine *m)
{
    const struct cache_info *c = cpuinfo_llc(&m->cpu);
    return c && c->size_bytes ? c->size_bytes : EXP_FALLBACK_LLC_BYTES;
}

uint64_t exp_l2_bytes(const struct machine *m)
{
    const struct cache_info *c = cpuinfo_data_cache(&m->cpu, 2);
    return c && c->size_bytes ? c->size_bytes : EXP_FALLBACK_L2_BYTES;
}

uint64_t exp_line_bytes(const struct machine *m)
{
    const struct cache_info *c = cpuinfo_data_cache(&m->cpu, 1);
    return c && c->line_bytes >= 8 && c->line_bytes % 8 == 0 ? c->line_bytes
                                                             : EXP_FALLBACK_LINE_BYTES;
}

uint64_t exp_pow2_at_least(uint64_t v)
{
    uint64_t p = 1;
    while (p < v && p < (1ULL << 62))
        p <<= 1;
    return p;
}

uint64_t exp_pow2_at_most(uint64_t v)
{
    uint64_t p = 1;
    while (p * 2 <= v && p < (1ULL << 62))
        p <<= 1;
    return p;
}

uint64_t exp_fit_memory(const struct machine *m, uint64_t v)
{
    uint64_t limit = m->buffer_limit_bytes ? exp_pow2_at_most(m->buffer_limit_bytes) : 0;
    return limit && v > limit ? limit : v;
}

uint64_t exp_full_buffer_bytes(const struct machine *m)
{
    uint64_t bytes = exp_pow2_at_least(4 * exp_llc_bytes(m));
    return exp_fit_memory(m, bytes < EXP_SWEEP_FULL_MIN_MAX_BYTES ? EXP_SWEEP_FULL_MIN_MAX_BYTES
                                                                  : bytes);
}

uint64_t exp_size_at_most(uint64_t v)
{
    uint64_t p = v ? exp_pow2_at_most(v) : 0;
    return p + p / 2 <= v ? p + p / 2 : p;
}

uint64_t exp_sweep_max_bytes(const struct machine *m, enum profile profile)
{
    return profile == PROFILE_QUICK ? exp_fit_memory(m, EXP_SWEEP_QUICK_MAX_BYTES)
                                    : exp_full_buffer_bytes(m);
}

void exp_check_stride(struct cfg_check *c, const char *key, uint64_t stride)
{
    if (stride % 8)
        cfg_check_fail(c, key, "%llu is not a multiple of 8 (a slot holds a pointer)",
                       (unsigned long long)stride);
}

void exp_check_min_max(struct cfg_check *c, const char *key, uint64_t min, uint64_t max,
                       const char *min_name, const char *max_name)
{
    if (min > max)
        cfg_check_fail(c, key, "%s (%llu) is larger than %s (%llu)", min_name,
                       (unsigned long long)min, max_name, (unsigned long long)max);
}

void exp_check_stride_sweep(struct cfg_check *c, uint64_t min_stride, uint64_t max_stride,
                            uint64_t step)
{
    exp_check_stride(c, "min_stride", min_stride);
    if (step % 8)
        cfg_check_fail(c, "step", "%llu is not a multiple of 8 (strides stay multiples of 8)",
                       (unsigned long long)step);
    exp_check_min_max(c, "min_stride", min_stride, max_stride, "min_stride", "max_stride");
}

void exp_check_sweep_points(struct cfg_check *c, uint64_t min, uint64_t max,
                            uint64_t points_per_octave, uint64_t align, const char *what)
{
    uint64_t sizes[1];
    unsigned n = sweep_sizes(min, max, (unsigned)points_per_octave, align, sizes, 0);
    if (n > EXP_POINTS_MAX)
        cfg_check_fail(c, "points_per_octave", "the sweep would have %u %s; at most %d", n, what,
                       EXP_POINTS_MAX);
}

unsigned exp_stride_count(uint64_t min, uint64_t max, uint64_t step)
{
    return step && min <= max ? (unsigned)((max - min) / step + 1) : 0;
}

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

static double est_ns_per_hop(const struct machine *m, uint64_t bytes)
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
    double hop_ns = est_ns_per_hop(ctx->m, chain_bytes) / (streams ? streams : 1);
    double warm = (double)(plan->warm_hops ? plan->warm_hops : lap_hops) * streams * hop_ns;
    double rep = (double)plan->min_hops * streams * hop_ns;
    double target_ns = (double)plan->target_ticks * 1e9 / (double)ctx->timing->tsc_hz;
    rep = rep > target_ns ? rep : target_ns;
    double reps_ns = rep * plan->reps;
    /* Repetitions to a precision: typically a fraction of the cap (many points stop early). */
    double cap_ns = (double)plan->max_ticks * 1e9 / (double)ctx->timing->wall_tsc_hz;
    if (plan->precision > 0 && cap_ns * EST_CAP_SHARE > reps_ns)
        reps_ns = cap_ns * EST_CAP_SHARE;
    double ns = (double)slots * EST_BUILD_NS_PER_SLOT + warm + reps_ns;
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

double exp_ns(const struct exp_ctx *ctx, const struct point_result *r)
{
    return timing_ticks_to_ns(ctx->timing, r->tsc.median);
}

double exp_cycles(const struct point_result *r)
{
    return r->cycles.median > 0 ? r->cycles.median : r->tsc.median * r->core_per_tick;
}

/* The precision reached, in percent, for CSV and console (`none` when there is none). */
static void format_precision(char *buf, size_t cap, const struct point_result *r, int decimals,
                             const char *none)
{
    if (r->ci_valid)
        ksnprintf(buf, cap, "%.*f", decimals, r->precision * 100);
    else
        ksnprintf(buf, cap, "%s", none);
}

void exp_csv_common(struct exp_ctx *ctx, const struct point_result *r, uint64_t build_ticks)
{
    const struct timing *t = ctx->timing;
    char precision[24];
    struct time_split split = r->time;
    split.build = build_ticks;
    split.output = r->measured_tsc ? arch_tsc_fenced() - r->measured_tsc : 0;
    time_split_add(&ctx->spent, &split);
    format_precision(precision, sizeof(precision), r, 3, "");
    char disturbed[24];
    reps_disturbance_text(r->disturbed, disturbed, sizeof(disturbed));
    strbuf_printf(&ctx->csv, "%llu,%u,%llu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,",
                  (unsigned long long)r->hops, r->reps,
                  (unsigned long long)timing_wall_ns(t, build_ticks), r->tsc.min, r->tsc.median,
                  r->tsc.p90, timing_ticks_to_ns(t, r->tsc.min),
                  timing_ticks_to_ns(t, r->tsc.median), timing_ticks_to_ns(t, r->tsc.p90),
                  timing_ticks_to_ns(t, r->headline_tsc), r->headline_cycles);
    strbuf_printf(&ctx->csv, "%.3f,%.3f,%.3f,%.4f,%s,%.3f,%s,%u,", r->cycles.min, r->cycles.median,
                  r->cycles.p90, r->core_per_tick, r->clock ? r->clock : "",
                  r->clock_disagree * 100, disturbed, r->passes ? r->passes : 1);
    strbuf_printf(&ctx->csv, "%u,%s,%s,%llu,%llu,%llu,%llu,%.4f,%.6f\n", r->outliers, precision,
                  reps_stop_names[r->stop], (unsigned long long)timing_wall_ns(t, split.warm),
                  (unsigned long long)timing_wall_ns(t, split.timed),
                  (unsigned long long)timing_wall_ns(t, split.bookkeeping),
                  (unsigned long long)timing_wall_ns(t, split.output),
                  time_split_timed_fraction(&split),
                  100 * time_split_tick_share(&split, (uint64_t)r->reps + r->split_windows));
}

void exp_samples(struct exp_ctx *ctx, const char *keys, const struct point_result *r)
{
    /* smi: SMIs during the repetition; empty where they cannot be counted */
    unsigned smi_outliers = 0;
    for (unsigned i = 0; i < r->reps; i++) {
        smi_outliers += r->smi && r->smi[i] && measure_is_outlier(r, i);
        strbuf_printf(&ctx->samples, "%s,%u,%llu,%llu,%.4f,%.4f,%d,", keys, i,
                      (unsigned long long)r->hops, (unsigned long long)r->ticks[i],
                      r->tsc_per_access[i], timing_ticks_to_ns(ctx->timing, r->tsc_per_access[i]),
                      measure_is_outlier(r, i) ? 1 : 0);
        if (r->core_per_rep && r->core_per_rep[i] > 0)
            strbuf_printf(&ctx->samples, "%.5f", r->core_per_rep[i]);
        strbuf_puts(&ctx->samples, ",");
        if (r->clock_pair && kisfinite(r->clock_pair[i]))
            strbuf_printf(&ctx->samples, "%.3f", r->clock_pair[i] * 100);
        strbuf_puts(&ctx->samples, ",");
        if (r->smi)
            strbuf_printf(&ctx->samples, "%llu", (unsigned long long)r->smi[i]);
        strbuf_puts(&ctx->samples, "\n");
    }
    if (r->dropped)
        con_printf("  note: %u window%s of this point %s lost to %s and taken again\n", r->dropped,
                   r->dropped > 1 ? "s" : "", r->dropped > 1 ? "were" : "was",
                   r->dropped_vector == FAULT_VECTOR_NMI ? "an NMI" : "a machine check");
    if (r->split_windows)
        con_printf("  note: whole laps longer than window_max_ms were timed in %u windows more, "
                   "summed\n",
                   r->split_windows);
    if (r->smi_reps)
        con_printf("  note: %u of %u repetitions of this point saw an SMI (see the smi column); "
                   "%u of them were outliers\n",
                   r->smi_reps, r->reps, smi_outliers);
}

void exp_table_head_common(void)
{
    con_printf("%8s %8s %8s %7s %5s %5s %3s\n", "ns min", "ns med", "ns p90", "cycles", "reps",
               "+-%", "out");
}

void exp_table_common(const struct exp_ctx *ctx, const struct point_result *r)
{
    const struct timing *t = ctx->timing;
    char precision[24];
    format_precision(precision, sizeof(precision), r, 2, "-");
    char disturbed[24];
    reps_disturbance_text(r->disturbed, disturbed, sizeof(disturbed));
    con_printf("%8.2f %8.2f %8.2f %7.1f %5u %5s %3u%s%s\n", timing_ticks_to_ns(t, r->tsc.min),
               timing_ticks_to_ns(t, r->tsc.median), timing_ticks_to_ns(t, r->tsc.p90),
               exp_cycles(r), r->reps, precision, r->outliers, r->disturbed ? " " : "", disturbed);
}
