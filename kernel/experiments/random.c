// SPDX-License-Identifier: MIT
// The random experiment: latency per cache level from one random cycle per size.
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
extern const struct experiment experiment_random;

struct random_params {
    uint64_t min_bytes;
    uint64_t max_bytes;
    uint64_t points_per_octave;
    uint64_t stride_bytes;
    uint64_t offset_bytes;
    uint64_t locality_bytes; /* 0: one random order over all slots */
    unsigned page;           /* enum page_choice */
};
CFG_PARAMS_FIT(struct random_params);

#define P(field) offsetof(struct random_params, field)

static const struct key_desc random_keys[] = {
    EXP_RANDOM_SWEEP_KEYS(P),
    {"offset", KEY_SIZE, P(offset_bytes), 0, EXP_STRIDE_KEY_MAX, NULL, "bytes",
     "where the first slot lies in the buffer"},
    {"locality", KEY_SIZE, P(locality_bytes), 0, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "0: one random order; else random order inside groups of this many bytes, the groups in "
     "random order (separates TLB cost from memory latency)"},
    {"page", KEY_CHOICE, P(page), 0, 0, page_names, "",
     "page size for this experiment (auto: the global page key's)"},
};

static void random_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct random_params *p = params;
    p->stride_bytes = exp_line_bytes(m);
    p->offset_bytes = 0;
    p->locality_bytes = 0;
    p->page = PAGE_CHOICE_AUTO;
    p->min_bytes = EXP_SWEEP_MIN_BYTES;
    p->points_per_octave =
        profile == PROFILE_QUICK ? EXP_SWEEP_QUICK_PER_OCTAVE : EXP_SWEEP_FULL_PER_OCTAVE;
    p->max_bytes = exp_sweep_max_bytes(m, profile);
}

static void random_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct random_params *p = params;
    (void)m;
    exp_check_stride(c, "stride", p->stride_bytes);
    if (p->offset_bytes % 8)
        cfg_check_fail(c, "offset", "%llu is not a multiple of 8",
                       (unsigned long long)p->offset_bytes);
    exp_check_min_max(c, "min", p->min_bytes, p->max_bytes, "min", "max");
    if (p->min_bytes < p->stride_bytes)
        cfg_check_fail(c, "min", "min (%llu) is smaller than one stride (%llu)",
                       (unsigned long long)p->min_bytes, (unsigned long long)p->stride_bytes);
    if (p->locality_bytes && p->stride_bytes && p->locality_bytes % p->stride_bytes)
        cfg_check_fail(c, "locality",
                       "%llu is not a multiple of the stride (%llu); expected 0 "
                       "or a multiple of the stride",
                       (unsigned long long)p->locality_bytes, (unsigned long long)p->stride_bytes);
    exp_check_sweep_points(c, p->min_bytes, p->max_bytes, p->points_per_octave, p->stride_bytes,
                           "points");
}

static uint64_t random_buffer_bytes(const void *params, const struct machine *m)
{
    const struct random_params *p = params;
    (void)m;
    return p->offset_bytes + p->max_bytes;
}

/* The sweep's own data: the parameters and the sizes. */
struct random_sweep {
    const struct random_params *p;
    uint64_t sizes[EXP_POINTS_MAX];
};

static void random_plan(const struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct random_sweep *d = data;
    uint64_t size = d->sizes[pp->index], line = exp_line_bytes(ctx->m);
    uint64_t stride = d->p->stride_bytes;
    pp->plan = exp_plan(ctx, size, stride < line ? stride : line, 1);
    /* Pages in random order only without locality groups (those are walked group by group). */
    if (!d->p->locality_bytes)
        pp->plan.prewalk_max_hops = exp_prewalk_tlb_hops(ctx, size);
    pp->label = size;
    pp->chain_bytes = size;
    pp->slots = pp->lap_hops = size / stride;
}

static int random_build(struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct random_sweep *d = data;
    const struct random_params *p = d->p;
    struct chain_layout l = {ctx->buffer.virt, p->offset_bytes, p->stride_bytes, pp->slots, 0};
    point_cycle(&pp->pt, &l, p->locality_bytes / p->stride_bytes,
                ctx->cfg->global.seed + pp->index);
    return 0;
}

/* One point's row: samples and console first, so that the CSV row's output_ns covers them. */
static void random_row(struct exp_ctx *ctx, void *data, const struct exp_point *pp,
                       const struct point_result *r)
{
    const struct random_sweep *d = data;
    const struct random_params *p = d->p;
    uint64_t size = d->sizes[pp->index];
    char keys[96], sz[24];
    ksnprintf(keys, sizeof(keys), "%llu,%llu,%llu,%llu,%llu", (unsigned long long)size,
              (unsigned long long)p->stride_bytes, (unsigned long long)p->offset_bytes,
              (unsigned long long)p->locality_bytes, (unsigned long long)ctx->buffer.page_bytes);
    exp_samples(ctx, keys, r);
    con_printf("%10s %9llu %6.1f ", exp_size(sz, sizeof(sz), size), (unsigned long long)pp->slots,
               timing_wall_ns(ctx->timing, pp->build_ticks) / 1e6);
    exp_table_common(ctx, r);
    /* chain_checksum: the chain's links as slot indices, the same on every platform */
    strbuf_printf(&ctx->csv, "%s,%llu,0x%016llx,", keys, (unsigned long long)pp->slots,
                  (unsigned long long)pp->pt.link_sum);
    exp_csv_common(ctx, r, pp->build_ticks);
}

static int random_run(struct exp_ctx *ctx, const void *params)
{
    const struct random_params *p = params;
    struct random_sweep d = {.p = p};
    struct exp_sweep sweep = {.data = &d,
                              .interleave = true,
                              .plan = random_plan,
                              .build = random_build,
                              .row = random_row};
    uint64_t saved;
    unsigned n = sweep_sizes(p->min_bytes, p->max_bytes, (unsigned)p->points_per_octave,
                             p->stride_bytes, d.sizes, EXP_POINTS_MAX);
    char a[24], b[24], s[24], o[24], loc[48] = "one random order";
    if (p->locality_bytes)
        ksnprintf(loc, sizeof(loc), "random order inside %s groups",
                  exp_size(a, sizeof(a), p->locality_bytes));
    exp_header(ctx, &experiment_random,
               "%u sizes from %s to %s (%llu per octave), stride %s, "
               "offset %s, %s",
               n, exp_size(a, sizeof(a), p->min_bytes), exp_size(b, sizeof(b), p->max_bytes),
               (unsigned long long)p->points_per_octave, exp_size(s, sizeof(s), p->stride_bytes),
               exp_size(o, sizeof(o), p->offset_bytes), loc);
    /* The headers first: a skipped experiment still leaves files that say what they hold. */
    strbuf_puts(&ctx->csv, "size_bytes,stride_bytes,offset_bytes,locality_bytes,page_bytes,"
                           "slots,chain_checksum," EXP_CSV_COMMON "\n");
    strbuf_puts(&ctx->samples,
                "size_bytes,stride_bytes,offset_bytes,locality_bytes,page_bytes," EXP_SAMPLES_COMMON
                "\n");
    int rc = exp_pages_begin(ctx, p->page, &saved);
    if (rc != 0)
        return rc;
    con_printf("%10s %9s %6s ", "size", "slots", "bld ms");
    exp_table_head_common();
    sweep.points = n;
    rc = exp_sweep_run(ctx, &sweep);
    exp_pages_end(ctx, saved);
    return rc;
}

const struct experiment experiment_random = {
    .cfg =
        {
            .name = "random",
            .keys = random_keys,
            .nkeys = sizeof(random_keys) / sizeof(random_keys[0]),
            .params_size = sizeof(struct random_params),
            .size_key = "max",
            .defaults = random_defaults,
            .check = random_check,
            .buffer_bytes = random_buffer_bytes,
        },
    .describe = "latency per cache level: one random cycle over size/stride slots, sizes swept",
    .why = "a random order defeats the prefetchers, so each load waits for the level that holds "
           "the chain: plateaus are cache levels, steps their sizes",
    .run = random_run,
};
