// SPDX-License-Identifier: MIT
// The random experiment: latency per cache level from one random cycle per size.
#include "experiments/common.h"

#include "arch/x86_64/cpu.h"
#include "chase/sweep.h"

#define P(field) offsetof(struct random_params, field)
#define QUICK_MAX_BYTES (4ULL << 20)
#define FULL_MIN_MAX_BYTES (64ULL << 20) /* the full sweep goes at least this far */
#define MIN_BYTES 4096

static const struct key_desc random_keys[] = {
    {"min", KEY_SIZE, P(min_bytes), 8, EXP_SIZE_KEY_MAX, NULL, "bytes", "smallest chain size"},
    {"max", KEY_SIZE, P(max_bytes), 8, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "largest chain size (default: 4x the last-level cache, bounded by memory)"},
    {"points_per_octave", KEY_U64, P(points_per_octave), 1, 32, NULL, "",
     "sizes per doubling of the chain size"},
    {"stride", KEY_SIZE, P(stride_bytes), 8, EXP_STRIDE_KEY_MAX, NULL, "bytes",
     "distance between slots (default: the cache line)"},
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
    p->min_bytes = MIN_BYTES;
    if (profile == PROFILE_QUICK) {
        p->points_per_octave = 2;
        p->max_bytes = QUICK_MAX_BYTES;
    } else {
        p->points_per_octave = 4;
        p->max_bytes = exp_pow2_at_least(4 * exp_llc_bytes(m));
        if (p->max_bytes < FULL_MIN_MAX_BYTES)
            p->max_bytes = FULL_MIN_MAX_BYTES;
    }
    p->max_bytes = exp_fit_memory(m, p->max_bytes);
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
    if (p->locality_bytes && p->stride_bytes && p->locality_bytes % p->stride_bytes)
        cfg_check_fail(c, "locality",
                       "%llu is not a multiple of the stride (%llu); expected 0 "
                       "or a multiple of the stride",
                       (unsigned long long)p->locality_bytes, (unsigned long long)p->stride_bytes);
    uint64_t sizes[1];
    unsigned n = sweep_sizes(p->min_bytes, p->max_bytes, (unsigned)p->points_per_octave,
                             p->stride_bytes, sizes, 0);
    if (n > EXP_POINTS_MAX)
        cfg_check_fail(c, "points_per_octave", "the sweep would have %u points; at most %d", n,
                       EXP_POINTS_MAX);
}

static uint64_t random_buffer_bytes(const void *params)
{
    const struct random_params *p = params;
    return p->offset_bytes + p->max_bytes;
}

/* One point's row: samples and console first, so that the CSV row's output_ns covers them. */
static void random_row(struct run_ctx *ctx, const struct random_params *p, uint64_t size,
                       const struct chase_point *pt, uint64_t slots, uint64_t build_ticks,
                       const struct point_result *r)
{
    char keys[96], sz[24];
    ksnprintf(keys, sizeof(keys), "%llu,%llu,%llu,%llu,%llu", (unsigned long long)size,
              (unsigned long long)p->stride_bytes, (unsigned long long)p->offset_bytes,
              (unsigned long long)p->locality_bytes, (unsigned long long)ctx->buffer.page_bytes);
    exp_samples(ctx, keys, r);
    con_printf("%10s %9llu %6.1f ", exp_size(sz, sizeof(sz), size), (unsigned long long)slots,
               timing_wall_ns(ctx->timing, build_ticks) / 1e6);
    exp_table_common(ctx, r);
    if (ctx->curve_n < sizeof(ctx->curve_size) / sizeof(ctx->curve_size[0])) {
        ctx->curve_size[ctx->curve_n] = size;
        ctx->curve_ns[ctx->curve_n] = exp_ns(ctx, r);
        ctx->curve_cycles[ctx->curve_n] = exp_cycles(r);
        ctx->curve_n++;
    }
    /* chain_checksum: the chain's links as slot indices, the same on every platform */
    strbuf_printf(&ctx->csv, "%s,%llu,0x%016llx,", keys, (unsigned long long)slots,
                  (unsigned long long)pt->link_sum);
    exp_csv_common(ctx, r, build_ticks);
}

static struct measure_plan random_plan(const struct run_ctx *ctx, const struct random_params *p,
                                       uint64_t size)
{
    uint64_t line = exp_line_bytes(ctx->m);
    return exp_plan(ctx, size, p->stride_bytes < line ? p->stride_bytes : line, 1);
}

static int random_sweep(struct run_ctx *ctx, const struct random_params *p, const uint64_t *sizes,
                        unsigned n)
{
    struct con_progress pg;
    double total = 0;
    for (unsigned i = 0; i < n; i++) {
        struct measure_plan plan = random_plan(ctx, p, sizes[i]);
        uint64_t slots = sizes[i] / p->stride_bytes;
        total += exp_point_work(ctx, &plan, sizes[i], slots, slots, 1);
    }
    con_progress_begin(&pg, n, total, arch_tsc_fenced(), ctx->timing->wall_tsc_hz);
    for (unsigned i = 0; i < n; i++) {
        struct chain_layout l = {ctx->buffer.virt, p->offset_bytes, p->stride_bytes,
                                 sizes[i] / p->stride_bytes, 0};
        struct measure_plan plan = random_plan(ctx, p, sizes[i]);
        struct chase_point pt;
        struct point_result r;
        uint64_t t0 = arch_tsc_fenced();
        point_random(&pt, &l, p->locality_bytes / p->stride_bytes, ctx->cfg->global.seed + i);
        uint64_t build_ticks = arch_tsc_fenced() - t0;
        if (exp_measure(ctx, &pt, &plan, sizes[i], &r) != 0) {
            con_progress_end(&pg);
            return EXP_RUN_FAILED;
        }
        random_row(ctx, p, sizes[i], &pt, l.slots, build_ticks, &r);
        measure_release(&r);
        con_progress_step(&pg, exp_point_work(ctx, &plan, sizes[i], l.slots, l.slots, 1),
                          arch_tsc_fenced());
    }
    con_progress_end(&pg);
    return 0;
}

static int random_run(struct run_ctx *ctx, const void *params)
{
    const struct random_params *p = params;
    uint64_t sizes[EXP_POINTS_MAX], saved;
    unsigned n = sweep_sizes(p->min_bytes, p->max_bytes, (unsigned)p->points_per_octave,
                             p->stride_bytes, sizes, EXP_POINTS_MAX);
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
    ctx->curve_n = 0;
    rc = random_sweep(ctx, p, sizes, n);
    exp_pages_end(ctx, saved);
    return rc;
}

const struct experiment experiment_random = {
    .name = "random",
    .describe = "latency per cache level: one random cycle over size/stride slots, sizes swept",
    .why = "a random order defeats the prefetchers, so each load waits for the level that holds "
           "the chain: plateaus are cache levels, steps their sizes",
    .keys = random_keys,
    .nkeys = sizeof(random_keys) / sizeof(random_keys[0]),
    .params_offset = offsetof(struct chase_config, random),
    .params_size = sizeof(struct random_params),
    .size_key = "max",
    .defaults = random_defaults,
    .check = random_check,
    .buffer_bytes = random_buffer_bytes,
    .run = random_run,
};
