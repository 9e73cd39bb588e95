// SPDX-License-Identifier: MIT
// The linear experiment: what the prefetchers make of a constant forward stride.
#include "experiments/driver.h"
#include "point/ctx.h"
#include "point/plan.h"
#include "point/rows.h"
#include "point/sizes.h"

#include "arch/cpu.h"
#include "lib/console.h"
#include "lib/fmt.h"

/* This experiment's row of the table (defined at the end). */
extern const struct experiment experiment_linear;

struct linear_params {
    uint64_t size_bytes;
    uint64_t min_stride_bytes;
    uint64_t max_stride_bytes;
    uint64_t step_bytes;
    unsigned page; /* enum page_choice */
};
CFG_PARAMS_FIT(struct linear_params);

#define P(field) offsetof(struct linear_params, field)
#define QUICK_SIZE_BYTES (1ULL << 20)
#define QUICK_MAX_STRIDE 128
#define FULL_MAX_STRIDE 512

static const struct key_desc linear_keys[] = {
    {"size", KEY_SIZE, P(size_bytes), 16, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "bytes the chain covers (default: 4x the last-level cache, bounded by memory)"},
    EXP_STRIDE_SWEEP_KEYS(P),
    {"page", KEY_CHOICE, P(page), 0, 0, page_names, "",
     "page size for this experiment (auto: the global page key's)"},
};

static void linear_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct linear_params *p = params;
    p->min_stride_bytes = 8;
    p->step_bytes = 8;
    p->page = PAGE_CHOICE_AUTO;
    bool quick = profile == PROFILE_QUICK;
    p->size_bytes = quick ? exp_fit_memory(m, QUICK_SIZE_BYTES) : exp_full_buffer_bytes(m);
    p->max_stride_bytes = quick ? QUICK_MAX_STRIDE : FULL_MAX_STRIDE;
}

static void linear_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct linear_params *p = params;
    (void)m;
    exp_check_stride_sweep(c, p->min_stride_bytes, p->max_stride_bytes, p->step_bytes);
    if (p->size_bytes < 2 * p->max_stride_bytes)
        cfg_check_fail(c, "size",
                       "%llu holds fewer than two slots at max_stride %llu; expected "
                       "at least twice max_stride",
                       (unsigned long long)p->size_bytes, (unsigned long long)p->max_stride_bytes);
    unsigned n = exp_stride_count(p->min_stride_bytes, p->max_stride_bytes, p->step_bytes);
    if (n > EXP_POINTS_MAX)
        cfg_check_fail(c, "step", "the sweep would have %u strides; at most %d", n, EXP_POINTS_MAX);
}

static uint64_t linear_buffer_bytes(const void *params, const struct machine *m)
{
    const struct linear_params *p = params;
    (void)m;
    return p->size_bytes;
}

/* The sweep's own data: the parameters. */
struct linear_sweep {
    const struct linear_params *p;
};

/* Stride of point i. */
static uint64_t linear_stride(const struct linear_params *p, unsigned i)
{
    return p->min_stride_bytes + i * p->step_bytes;
}

static void linear_plan(const struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct linear_params *p = ((const struct linear_sweep *)data)->p;
    uint64_t stride = linear_stride(p, pp->index), line = exp_line_bytes(ctx->m);
    pp->plan = exp_plan(ctx, p->size_bytes, stride < line ? stride : line, 1);
    pp->label = stride;
    pp->chain_bytes = p->size_bytes;
    pp->slots = pp->lap_hops = p->size_bytes / stride;
}

static int linear_build(struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct linear_params *p = ((const struct linear_sweep *)data)->p;
    struct chain_layout l = {ctx->buffer.virt, 0, linear_stride(p, pp->index), pp->slots, 0};
    point_linear(&pp->pt, &l);
    return 0;
}

static void linear_row(struct exp_ctx *ctx, void *data, const struct exp_point *pp,
                       const struct point_result *r)
{
    const struct linear_params *p = ((const struct linear_sweep *)data)->p;
    uint64_t stride = linear_stride(p, pp->index);
    char keys[64];
    ksnprintf(keys, sizeof(keys), "%llu,%llu", (unsigned long long)p->size_bytes,
              (unsigned long long)stride);
    strbuf_printf(&ctx->csv, "%s,%llu,%llu,", keys, (unsigned long long)pp->slots,
                  (unsigned long long)ctx->buffer.page_bytes);
    exp_csv_common(ctx, r, pp->build_ticks);
    exp_samples(ctx, keys, r);
    con_printf("%8llu %11llu %8.1f ", (unsigned long long)stride, (unsigned long long)pp->slots,
               timing_wall_ns(ctx->timing, pp->build_ticks) / 1e6);
    exp_table_common(ctx, r);
}

static int linear_run(struct exp_ctx *ctx, const void *params)
{
    const struct linear_params *p = params;
    unsigned n = exp_stride_count(p->min_stride_bytes, p->max_stride_bytes, p->step_bytes);
    uint64_t saved;
    char sz[24];
    exp_header(ctx, &experiment_linear,
               "%u strides from %llu to %llu bytes in steps of %llu, "
               "over %s",
               n, (unsigned long long)p->min_stride_bytes, (unsigned long long)p->max_stride_bytes,
               (unsigned long long)p->step_bytes, exp_size(sz, sizeof(sz), p->size_bytes));
    /* The headers first: a skipped experiment still leaves files that say what they hold. */
    strbuf_puts(&ctx->csv, "size_bytes,stride_bytes,slots,page_bytes," EXP_CSV_COMMON "\n");
    strbuf_puts(&ctx->samples, "size_bytes,stride_bytes," EXP_SAMPLES_COMMON "\n");
    int rc = exp_pages_begin(ctx, p->page, &saved);
    if (rc != 0)
        return rc;
    con_printf("%8s %11s %8s ", "stride", "slots", "build ms");
    exp_table_head_common();
    struct linear_sweep d = {p};
    struct exp_sweep sweep = {
        .points = n, .data = &d, .plan = linear_plan, .build = linear_build, .row = linear_row};
    rc = exp_sweep_run(ctx, &sweep);
    exp_pages_end(ctx, saved);
    return rc;
}

const struct experiment experiment_linear = {
    .cfg =
        {
            .name = "linear",
            .keys = linear_keys,
            .nkeys = sizeof(linear_keys) / sizeof(linear_keys[0]),
            .params_size = sizeof(struct linear_params),
            .size_key = "size",
            .defaults = linear_defaults,
            .check = linear_check,
            .buffer_bytes = linear_buffer_bytes,
        },
    .describe = "prefetcher effect of a constant forward stride: slot i points to slot i+1",
    .why = "a latency far below a random order's at the same size is the prefetchers at work; "
           "where it rises with the stride, they stop keeping up",
    .run = linear_run,
};
