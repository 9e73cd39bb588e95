// SPDX-License-Identifier: MIT
// The random experiment: latency per cache level from one random cycle per size.
#include <stddef.h>

#include "arch/x86_64/cpu.h"
#include "chain.h"
#include "console.h"
#include "experiment.h"
#include "fmt.h"
#include "measure.h"
#include "platform.h"
#include "run.h"
#include "sweep.h"

#define P(field) offsetof(struct random_params, field)
#define RANDOM_MAX_POINTS 256

static const struct key_desc random_keys[] = {
    {"min", KEY_SIZE, P(min_bytes), 8, 1ULL << 40, NULL, "bytes", "smallest chain size"},
    {"max", KEY_SIZE, P(max_bytes), 8, 1ULL << 40, NULL, "bytes",
     "largest chain size (default: 4x the last-level cache, bounded by memory)"},
    {"points_per_octave", KEY_U64, P(points_per_octave), 1, 32, NULL, "",
     "sizes per doubling of the chain size"},
    {"stride", KEY_SIZE, P(stride_bytes), 8, 1ULL << 30, NULL, "bytes",
     "distance between slots (default: the cache line)"},
    {"offset", KEY_SIZE, P(offset_bytes), 0, 1ULL << 30, NULL, "bytes",
     "where the first slot lies in the buffer"},
};

static uint64_t pow2_at_least(uint64_t v)
{
    uint64_t p = 1;
    while (p < v)
        p <<= 1;
    return p;
}

static uint64_t pow2_at_most(uint64_t v)
{
    uint64_t p = 1;
    while (p * 2 <= v)
        p <<= 1;
    return p;
}

static void random_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct random_params *p = params;
    const struct cache_info *l1 = cpuinfo_data_cache(&m->cpu, 1);
    const struct cache_info *llc = cpuinfo_llc(&m->cpu);
    uint64_t llc_bytes = llc ? llc->size_bytes : 32ULL << 20;
    p->stride_bytes = (l1 && l1->line_bytes >= 8 && l1->line_bytes % 8 == 0) ? l1->line_bytes : 64;
    p->offset_bytes = 0;
    p->min_bytes = 4096;
    if (profile == PROFILE_QUICK) {
        p->points_per_octave = 2;
        p->max_bytes = 4ULL << 20;
    } else {
        p->points_per_octave = 4;
        p->max_bytes = pow2_at_least(4 * llc_bytes);
        if (p->max_bytes < (64ULL << 20))
            p->max_bytes = 64ULL << 20;
    }
    uint64_t limit = m->buffer_limit_bytes ? pow2_at_most(m->buffer_limit_bytes) : 0;
    if (limit && p->max_bytes > limit)
        p->max_bytes = limit;
}

static void random_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct random_params *p = params;
    (void)m;
    if (p->stride_bytes % 8)
        cfg_check_fail(c, "stride", "%llu is not a multiple of 8 (a slot holds a pointer)",
                       (unsigned long long)p->stride_bytes);
    if (p->offset_bytes % 8)
        cfg_check_fail(c, "offset", "%llu is not a multiple of 8",
                       (unsigned long long)p->offset_bytes);
    if (p->min_bytes > p->max_bytes)
        cfg_check_fail(c, "min", "min (%llu) is larger than max (%llu)",
                       (unsigned long long)p->min_bytes, (unsigned long long)p->max_bytes);
    if (p->min_bytes < p->stride_bytes)
        cfg_check_fail(c, "min", "min (%llu) is smaller than one stride (%llu)",
                       (unsigned long long)p->min_bytes, (unsigned long long)p->stride_bytes);
    uint64_t sizes[1];
    unsigned n = sweep_sizes(p->min_bytes, p->max_bytes, (unsigned)p->points_per_octave,
                             p->stride_bytes, sizes, 0);
    if (n > RANDOM_MAX_POINTS)
        cfg_check_fail(c, "points_per_octave", "the sweep would have %u points; at most %d",
                       n, RANDOM_MAX_POINTS);
}

static uint64_t random_buffer_bytes(const void *params)
{
    const struct random_params *p = params;
    return p->offset_bytes + p->max_bytes;
}

static void random_row(struct run_ctx *ctx, const struct random_params *p, uint64_t size,
                       uint64_t slots, uint64_t build_ticks, const struct point_result *r)
{
    const struct timing *t = ctx->timing;
    double ns_min = timing_ticks_to_ns(t, r->tsc.min);
    double ns_med = timing_ticks_to_ns(t, r->tsc.median);
    double ns_p90 = timing_ticks_to_ns(t, r->tsc.p90);
    double cyc = r->tsc.median * r->core_per_tick;
    strbuf_printf(&ctx->csv,
                  "%llu,%llu,%llu,%llu,%llu,%u,%llu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f\n",
                  (unsigned long long)size, (unsigned long long)p->stride_bytes,
                  (unsigned long long)p->offset_bytes, (unsigned long long)slots,
                  (unsigned long long)r->hops, r->reps,
                  (unsigned long long)(timing_ticks_to_ns(t, (double)build_ticks)), r->tsc.min,
                  r->tsc.median, r->tsc.p90, ns_min, ns_med, ns_p90, cyc, r->core_per_tick);
    for (unsigned i = 0; i < r->reps; i++)
        strbuf_printf(&ctx->samples, "%llu,%u,%llu,%llu,%.4f,%.4f\n", (unsigned long long)size,
                      i, (unsigned long long)r->hops, (unsigned long long)r->ticks[i],
                      r->tsc_per_access[i], timing_ticks_to_ns(t, r->tsc_per_access[i]));
    char sz[24];
    cfg_format_size(sz, sizeof(sz), size);
    con_printf("%10s %10llu %10.2f %10.2f %10.2f %10.2f\n", sz, (unsigned long long)slots, ns_min,
               ns_med, ns_p90, cyc);
    if (ctx->curve_n < sizeof(ctx->curve_size) / sizeof(ctx->curve_size[0])) {
        ctx->curve_size[ctx->curve_n] = size;
        ctx->curve_ns[ctx->curve_n] = ns_med;
        ctx->curve_cycles[ctx->curve_n] = cyc;
        ctx->curve_n++;
    }
}

static int random_run(struct run_ctx *ctx, const void *params)
{
    const struct random_params *p = params;
    const struct chase_config *cfg = ctx->cfg;
    uint64_t sizes[RANDOM_MAX_POINTS];
    unsigned n = sweep_sizes(p->min_bytes, p->max_bytes, (unsigned)p->points_per_octave,
                             p->stride_bytes, sizes, RANDOM_MAX_POINTS);
    bool quick = cfg->global.profile == PROFILE_QUICK;
    struct measure_plan plan = {
        .reps = (unsigned)cfg->global.reps,
        .min_hops = quick ? 1024 : 4096,
        .target_ticks = ctx->timing->tsc_hz / (quick ? 2000 : 200),
        .max_hops = 1ULL << 32,
        .core_iters = quick ? 256 : 4096,
    };
    strbuf_puts(&ctx->csv, "size_bytes,stride_bytes,offset_bytes,slots,hops,reps,build_ns,"
                           "tsc_min,tsc_median,tsc_p90,ns_min,ns_median,ns_p90,"
                           "core_cycles_median,core_per_tsc\n");
    strbuf_puts(&ctx->samples, "size_bytes,rep,hops,tsc_total,tsc_per_access,ns_per_access\n");
    con_printf("%10s %10s %10s %10s %10s %10s\n", "size", "slots", "ns min", "ns median",
               "ns p90", "cycles");
    ctx->curve_n = 0;
    for (unsigned i = 0; i < n; i++) {
        struct chain_layout l = {ctx->buffer.virt, p->offset_bytes, p->stride_bytes,
                                 sizes[i] / p->stride_bytes};
        uint64_t t0 = arch_tsc_fenced();
        void **head = chain_build_random(&l, cfg->global.seed + i);
        uint64_t build_ticks = arch_tsc_fenced() - t0;
        struct chase_point pt = {.head = {head}, .streams = 1, .lap_hops = l.slots};
        struct point_result r;
        plan.fault_test = i == 0 ? ctx->fault_test : FAULT_TEST_NONE;
        if (ctx->measure(&pt, &plan, ctx->timing, &r) != 0) {
            run_point_failed(ctx, &r, sizes[i]);
            measure_release(&r);
            return -1;
        }
        random_row(ctx, p, sizes[i], l.slots, build_ticks, &r);
        measure_release(&r);
    }
    return 0;
}

const struct experiment experiment_random = {
    .name = "random",
    .describe = "latency per cache level: one random cycle over size/stride slots, sizes swept",
    .keys = random_keys,
    .nkeys = sizeof(random_keys) / sizeof(random_keys[0]),
    .params_offset = offsetof(struct chase_config, random),
    .defaults = random_defaults,
    .check = random_check,
    .buffer_bytes = random_buffer_bytes,
    .run = random_run,
};
