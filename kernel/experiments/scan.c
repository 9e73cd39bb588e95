// SPDX-License-Identifier: MIT
// The scan experiment: does a small array stay cached while a huge one streams past?
#include "experiments/driver.h"
#include "point/ctx.h"
#include "point/plan.h"
#include "point/rows.h"
#include "point/sizes.h"

#include "arch/cpu.h"
#include "chase/sweep.h"
#include "lib/console.h"
#include "lib/fmt.h"

/* This experiment's row of the table (defined at the end). */
extern const struct experiment experiment_scan;

struct scan_params {
    uint64_t huge_bytes;
    uint64_t small_min_bytes;
    uint64_t small_max_bytes;
    uint64_t points_per_octave;
    uint64_t stride_bytes;
};
CFG_PARAMS_FIT(struct scan_params);

#define P(field) offsetof(struct scan_params, field)
#define QUICK_HUGE_BYTES (8ULL << 20)
#define QUICK_SMALL_MIN (16ULL << 10)
#define QUICK_SMALL_MAX (2ULL << 20)
#define FULL_MIN_HUGE_BYTES (64ULL << 20)
#define HUGE_ALIGN_BYTES 4096   /* the huge region starts on a page after the small one */
#define WARM_SMALL_LAPS 2       /* laps of the small chain before timing: its steady share */
#define HUGE_SEED_OFFSET 0x5ca9 /* the huge chain's seed, apart from the small chains' */
#define SMALL_MIN_OCTAVES 4     /* the small sizes span at least 1/4 of small_max to it */

static const struct key_desc scan_keys[] = {
    {"huge", KEY_SIZE, P(huge_bytes), 16, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "the streaming region, far larger than the LLC (default: 4x the LLC)"},
    {"small_min", KEY_SIZE, P(small_min_bytes), 8, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "smallest small region"},
    {"small_max", KEY_SIZE, P(small_max_bytes), 8, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "largest small region (default: the LLC)"},
    {"points_per_octave", KEY_U64, P(points_per_octave), 1, 32, NULL, "",
     "small sizes per doubling"},
    {"stride", KEY_SIZE, P(stride_bytes), 8, EXP_STRIDE_KEY_MAX, NULL, "bytes",
     "distance between slots in both regions (default: the cache line)"},
};

static uint64_t huge_offset(const struct scan_params *p)
{
    return (p->small_max_bytes + HUGE_ALIGN_BYTES - 1) / HUGE_ALIGN_BYTES * HUGE_ALIGN_BYTES;
}

static void scan_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct scan_params *p = params;
    p->stride_bytes = exp_line_bytes(m);
    if (profile == PROFILE_QUICK) {
        p->huge_bytes = QUICK_HUGE_BYTES;
        p->small_min_bytes = QUICK_SMALL_MIN;
        p->small_max_bytes = QUICK_SMALL_MAX;
        p->points_per_octave = 1;
        return;
    }
    p->huge_bytes = exp_pow2_at_least(4 * exp_llc_bytes(m));
    p->huge_bytes = p->huge_bytes < FULL_MIN_HUGE_BYTES ? FULL_MIN_HUGE_BYTES : p->huge_bytes;
    p->small_max_bytes = exp_pow2_at_least(exp_llc_bytes(m));
    p->small_min_bytes = exp_pow2_at_least(exp_l2_bytes(m)) / 2;
    if (p->small_min_bytes > p->small_max_bytes / SMALL_MIN_OCTAVES)
        p->small_min_bytes = p->small_max_bytes / SMALL_MIN_OCTAVES;
    p->points_per_octave = 2;
    uint64_t limit = m->buffer_limit_bytes;
    if (limit && p->huge_bytes + p->small_max_bytes > limit) {
        p->huge_bytes = exp_pow2_at_most(limit / 3 * 2);
        p->small_max_bytes =
            p->small_max_bytes > p->huge_bytes / 2 ? p->huge_bytes / 2 : p->small_max_bytes;
        p->small_min_bytes =
            p->small_min_bytes > p->small_max_bytes ? p->small_max_bytes : p->small_min_bytes;
    }
}

static void scan_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct scan_params *p = params;
    (void)m;
    exp_check_stride(c, "stride", p->stride_bytes);
    exp_check_min_max(c, "small_min", p->small_min_bytes, p->small_max_bytes, "small_min",
                      "small_max");
    if (p->small_min_bytes < p->stride_bytes)
        cfg_check_fail(c, "small_min", "small_min (%llu) is smaller than one stride (%llu)",
                       (unsigned long long)p->small_min_bytes, (unsigned long long)p->stride_bytes);
    if (p->huge_bytes < 2 * p->stride_bytes)
        cfg_check_fail(c, "huge", "%llu holds fewer than two slots of stride %llu",
                       (unsigned long long)p->huge_bytes, (unsigned long long)p->stride_bytes);
    exp_check_sweep_points(c, p->small_min_bytes, p->small_max_bytes, p->points_per_octave,
                           p->stride_bytes, "points");
}

static uint64_t scan_buffer_bytes(const void *params, const struct machine *m)
{
    const struct scan_params *p = params;
    (void)m;
    return huge_offset(p) + p->huge_bytes;
}

/* The sweep's own data: the parameters, the small sizes and the huge chain. */
struct scan_sweep {
    const struct scan_params *p;
    uint64_t sizes[EXP_POINTS_MAX];
    void **huge;
};

static void scan_plan(const struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct scan_sweep *d = data;
    uint64_t small = d->sizes[pp->index];
    pp->plan = exp_plan(ctx, d->p->huge_bytes, exp_line_bytes(ctx->m), 1);
    uint64_t warm = WARM_SMALL_LAPS * (small / d->p->stride_bytes);
    pp->plan.warm_hops = warm > pp->plan.min_hops ? warm : pp->plan.min_hops;
    pp->label = small;
    pp->chain_bytes = d->p->huge_bytes;
    pp->slots = small / d->p->stride_bytes;
    pp->lap_hops = 0;
    pp->streams = 2;
}

static int scan_build(struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct scan_sweep *d = data;
    struct chain_layout small = {ctx->buffer.virt, 0, d->p->stride_bytes, pp->slots, 0};
    point_alternating(&pp->pt, d->huge, d->p->huge_bytes / d->p->stride_bytes, &small,
                      ctx->cfg->global.seed + pp->index);
    return 0;
}

static void scan_row(struct exp_ctx *ctx, void *data, const struct exp_point *pp,
                     const struct point_result *r)
{
    const struct scan_sweep *d = data;
    const struct scan_params *p = d->p;
    uint64_t small = d->sizes[pp->index];
    char keys[64], sz[24];
    ksnprintf(keys, sizeof(keys), "%llu,%llu", (unsigned long long)small,
              (unsigned long long)p->huge_bytes);
    strbuf_printf(&ctx->csv, "%s,%llu,", keys, (unsigned long long)p->stride_bytes);
    exp_csv_common(ctx, r, pp->build_ticks);
    exp_samples(ctx, keys, r);
    con_printf("%10s %10llu ", exp_size(sz, sizeof(sz), small),
               (unsigned long long)(small / p->stride_bytes));
    exp_table_common(ctx, r);
}

static int scan_run(struct exp_ctx *ctx, const void *params)
{
    const struct scan_params *p = params;
    struct scan_sweep d = {.p = p};
    unsigned n = sweep_sizes(p->small_min_bytes, p->small_max_bytes, (unsigned)p->points_per_octave,
                             p->stride_bytes, d.sizes, EXP_POINTS_MAX);
    char a[24], b[24], h[24];
    exp_header(ctx, &experiment_scan,
               "%u small sizes from %s to %s (%llu per octave) against a "
               "huge %s region, stride %llu, loads alternating and serialized",
               n, exp_size(a, sizeof(a), p->small_min_bytes),
               exp_size(b, sizeof(b), p->small_max_bytes), (unsigned long long)p->points_per_octave,
               exp_size(h, sizeof(h), p->huge_bytes), (unsigned long long)p->stride_bytes);
    struct chain_layout huge = {ctx->buffer.virt, huge_offset(p), p->stride_bytes,
                                p->huge_bytes / p->stride_bytes, 0};
    uint64_t t0 = arch_tsc_fenced();
    d.huge = chain_build_random(&huge, ctx->cfg->global.seed + HUGE_SEED_OFFSET);
    con_printf("   huge chain: %llu slots built in %.2f s\n\n", (unsigned long long)huge.slots,
               timing_wall_ns(ctx->timing, arch_tsc_fenced() - t0) / 1e9);
    strbuf_puts(&ctx->csv, "small_bytes,huge_bytes,stride_bytes," EXP_CSV_COMMON "\n");
    strbuf_puts(&ctx->samples, "small_bytes,huge_bytes," EXP_SAMPLES_COMMON "\n");
    con_printf("%10s %10s ", "small", "slots");
    exp_table_head_common();
    struct exp_sweep sweep = {
        .points = n, .data = &d, .plan = scan_plan, .build = scan_build, .row = scan_row};
    return exp_sweep_run(ctx, &sweep);
}

const struct experiment experiment_scan = {
    .cfg =
        {
            .name = "scan",
            .keys = scan_keys,
            .nkeys = sizeof(scan_keys) / sizeof(scan_keys[0]),
            .params_size = sizeof(struct scan_params),
            .size_key = "huge",
            .defaults = scan_defaults,
            .check = scan_check,
            .buffer_bytes = scan_buffer_bytes,
        },
    .describe = "scan resistance: loads alternate between a chain over a huge region and one "
                "over a small region, serialized",
    .why = "an LRU LLC loses the small region once it passes about half the LLC; a "
           "scan-resistant one (RRIP) keeps it close to the full LLC",
    .run = scan_run,
};
