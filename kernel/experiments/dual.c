// SPDX-License-Identifier: MIT
// The dual experiment: two pointers on one random cycle, so each line is touched twice.
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
extern const struct experiment experiment_dual;

struct dual_params {
    uint64_t min_bytes;
    uint64_t max_bytes;
    uint64_t points_per_octave;
    uint64_t stride_bytes;
    struct cfg_auto lag; /* slots */
};
CFG_PARAMS_FIT(struct dual_params);

#define P(field) offsetof(struct dual_params, field)
#define LAG_MAX_SLOTS (1ULL << 40)
#define DUAL_LLC_MULTIPLE 2         /* the full sweep goes to twice the LLC */
#define MIN_MAX_BYTES (64ULL << 20) /* and at least this far */

static const struct key_desc dual_keys[] = {
    {"min", KEY_SIZE, P(min_bytes), 8, EXP_SIZE_KEY_MAX, NULL, "bytes", "smallest chain size"},
    {"max", KEY_SIZE, P(max_bytes), 8, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "largest chain size (default: twice the LLC, at least 64M)"},
    {"points_per_octave", KEY_U64, P(points_per_octave), 1, 32, NULL, "",
     "sizes per doubling of the chain size"},
    {"stride", KEY_SIZE, P(stride_bytes), 8, EXP_STRIDE_KEY_MAX, NULL, "bytes",
     "distance between slots (default: the cache line)"},
    {"lag", KEY_U64_AUTO, P(lag), 1, LAG_MAX_SLOTS, NULL, "slots",
     "how far the second pointer trails the first (auto: the slots covering twice the cache "
     "level below the LLC)"},
};

static void dual_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct dual_params *p = params;
    uint64_t sweep_max = exp_sweep_max_bytes(m, profile);
    p->min_bytes = EXP_SWEEP_MIN_BYTES;
    p->max_bytes = sweep_max;
    if (profile != PROFILE_QUICK) {
        /* Sizes up to twice the LLC show the insertion policy; beyond, only the time grows. */
        uint64_t max = exp_pow2_at_least(DUAL_LLC_MULTIPLE * exp_llc_bytes(m));
        max = max < MIN_MAX_BYTES ? MIN_MAX_BYTES : max;
        p->max_bytes = max < sweep_max ? max : sweep_max;
    }
    p->points_per_octave =
        profile == PROFILE_QUICK ? EXP_SWEEP_QUICK_PER_OCTAVE : EXP_SWEEP_FULL_PER_OCTAVE;
    p->stride_bytes = exp_line_bytes(m);
    p->lag.is_auto = true;
    p->lag.value = 0;
}

/* The level below the LLC: L2 when the LLC is L3 or above, else L1. */
static uint64_t below_llc_bytes(const struct machine *m)
{
    const struct cache_info *llc = cpuinfo_llc(&m->cpu);
    const struct cache_info *below =
        llc && llc->level > 1 ? cpuinfo_data_cache(&m->cpu, llc->level - 1) : NULL;
    return below && below->size_bytes ? below->size_bytes : exp_l2_bytes(m);
}

static void dual_resolve(void *params, const struct machine *m)
{
    struct dual_params *p = params;
    if (p->lag.is_auto && p->stride_bytes) {
        uint64_t lag = 2 * below_llc_bytes(m) / p->stride_bytes;
        p->lag.value = lag ? lag : 1;
    }
}

static void dual_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct dual_params *p = params;
    (void)m;
    exp_check_stride(c, "stride", p->stride_bytes);
    exp_check_min_max(c, "min", p->min_bytes, p->max_bytes, "min", "max");
    if (p->min_bytes < 2 * p->stride_bytes)
        cfg_check_fail(c, "min", "min (%llu) holds fewer than two slots of stride %llu",
                       (unsigned long long)p->min_bytes, (unsigned long long)p->stride_bytes);
    exp_check_sweep_points(c, p->min_bytes, p->max_bytes, p->points_per_octave, p->stride_bytes,
                           "points");
}

static uint64_t dual_buffer_bytes(const void *params, const struct machine *m)
{
    const struct dual_params *p = params;
    (void)m;
    return p->max_bytes;
}

/* The sweep's own data: the parameters, the sizes, and the lag each point's build used (its
   row is written after the last pass, when other points have been built since). */
struct dual_sweep {
    const struct dual_params *p;
    uint64_t sizes[EXP_POINTS_MAX];
    uint64_t lags[EXP_POINTS_MAX];
};

static void dual_plan(const struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct dual_sweep *d = data;
    uint64_t size = d->sizes[pp->index], line = exp_line_bytes(ctx->m);
    uint64_t stride = d->p->stride_bytes;
    /* The leading pointer brings in the new lines; the trailing one finds them again. */
    pp->plan = exp_plan(ctx, size, stride < line ? stride : line, 1);
    pp->plan.prewalk_max_hops = exp_prewalk_tlb_hops(ctx, size);
    pp->label = size;
    pp->chain_bytes = size;
    pp->slots = pp->lap_hops = size / stride;
    pp->streams = 2;
}

static int dual_build(struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    struct dual_sweep *d = data;
    struct chain_layout l = {ctx->buffer.virt, 0, d->p->stride_bytes, pp->slots, 0};
    d->lags[pp->index] =
        point_trailing(&pp->pt, &l, d->p->lag.value, ctx->cfg->global.seed + pp->index);
    return 0;
}

static void dual_row(struct exp_ctx *ctx, void *data, const struct exp_point *pp,
                     const struct point_result *r)
{
    const struct dual_sweep *d = data;
    uint64_t size = d->sizes[pp->index], lag = d->lags[pp->index];
    char keys[64], sz[24];
    ksnprintf(keys, sizeof(keys), "%llu,%llu", (unsigned long long)size, (unsigned long long)lag);
    strbuf_printf(&ctx->csv, "%s,%llu,%llu,", keys, (unsigned long long)d->p->stride_bytes,
                  (unsigned long long)pp->slots);
    exp_csv_common(ctx, r, pp->build_ticks);
    exp_samples(ctx, keys, r);
    con_printf("%10s %10llu %10llu ", exp_size(sz, sizeof(sz), size), (unsigned long long)pp->slots,
               (unsigned long long)lag);
    exp_table_common(ctx, r);
}

static int dual_run(struct exp_ctx *ctx, const void *params)
{
    const struct dual_params *p = params;
    struct dual_sweep d = {.p = p};
    unsigned n = sweep_sizes(p->min_bytes, p->max_bytes, (unsigned)p->points_per_octave,
                             p->stride_bytes, d.sizes, EXP_POINTS_MAX);
    char a[24], b[24], s[24], lag[96];
    if (p->lag.is_auto)
        ksnprintf(lag, sizeof(lag), "lag auto = %llu slots (twice the %s level below the LLC)",
                  (unsigned long long)p->lag.value,
                  exp_size(a, sizeof(a), below_llc_bytes(ctx->m)));
    else
        ksnprintf(lag, sizeof(lag), "lag %llu slots", (unsigned long long)p->lag.value);
    exp_header(ctx, &experiment_dual,
               "%u sizes from %s to %s (%llu per octave), stride %s, %s; "
               "sizes below the lag use half a lap",
               n, exp_size(a, sizeof(a), p->min_bytes), exp_size(b, sizeof(b), p->max_bytes),
               (unsigned long long)p->points_per_octave, exp_size(s, sizeof(s), p->stride_bytes),
               lag);
    strbuf_puts(&ctx->csv, "size_bytes,lag_slots,stride_bytes,slots," EXP_CSV_COMMON "\n");
    strbuf_puts(&ctx->samples, "size_bytes,lag_slots," EXP_SAMPLES_COMMON "\n");
    con_printf("%10s %10s %10s ", "size", "slots", "lag");
    exp_table_head_common();
    /* Each point is its own chain, rebuilt from its seed: it may be measured in passes. */
    struct exp_sweep sweep = {.points = n,
                              .data = &d,
                              .interleave = true,
                              .plan = dual_plan,
                              .build = dual_build,
                              .row = dual_row};
    return exp_sweep_run(ctx, &sweep);
}

const struct experiment experiment_dual = {
    .cfg =
        {
            .name = "dual",
            .keys = dual_keys,
            .nkeys = sizeof(dual_keys) / sizeof(dual_keys[0]),
            .params_size = sizeof(struct dual_params),
            .size_key = "max",
            .defaults = dual_defaults,
            .resolve = dual_resolve,
            .check = dual_check,
            .buffer_bytes = dual_buffer_bytes,
        },
    .describe = "adaptive LLC insertion: two pointers walk the same random cycle, the second "
                "lag slots behind",
    .why = "each line is touched twice before eviction: an LLC that inserts new lines near "
           "eviction (BIP/DIP) loses the second touch, one that keeps them (LRU) hits",
    .run = dual_run,
};
