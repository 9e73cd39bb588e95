// SPDX-License-Identifier: MIT
// The fused experiment: how many interleaved constant-stride streams the prefetchers track.
#include "experiments/driver.h"
#include "point/ctx.h"
#include "point/plan.h"
#include "point/rows.h"
#include "point/sizes.h"

#include "arch/chase_loop.h"
#include "arch/cpu.h"
#include "lib/console.h"
#include "lib/fmt.h"

/* This experiment's row of the table (defined at the end). */
extern const struct experiment experiment_fused;

struct fused_params {
    uint64_t size_bytes;
    uint64_t min_stride_bytes;
    uint64_t max_stride_bytes;
    uint64_t step_bytes;
    uint64_t max_fuse;
};
CFG_PARAMS_FIT(struct fused_params);

#define P(field) offsetof(struct fused_params, field)
#define QUICK_SIZE_BYTES (1ULL << 20)
#define QUICK_MAX_STRIDE 64
#define FULL_MAX_STRIDE 128
#define QUICK_MAX_FUSE 4
#define FULL_MAX_FUSE 8
/* Bytes one access moves, as afborchert's fused-linear-chase counts them: the pointer. */
#define BYTES_PER_ACCESS 8.0
#define GIB 1073741824.0

static const struct key_desc fused_keys[] = {
    {"size", KEY_SIZE, P(size_bytes), 16, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "bytes all streams cover together, max_fuse equal parts (default: 4x the LLC)"},
    EXP_STRIDE_SWEEP_KEYS(P),
    {"max_fuse", KEY_U64, P(max_fuse), 1, CHASE_LOCKSTEP_MAX, NULL, "",
     "the most streams chased in lock-step (1 to max_fuse for each stride)"},
};

static void fused_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct fused_params *p = params;
    p->min_stride_bytes = 8;
    p->step_bytes = 8;
    bool quick = profile == PROFILE_QUICK;
    p->size_bytes = quick ? exp_fit_memory(m, QUICK_SIZE_BYTES) : exp_full_buffer_bytes(m);
    p->max_stride_bytes = quick ? QUICK_MAX_STRIDE : FULL_MAX_STRIDE;
    p->max_fuse = quick ? QUICK_MAX_FUSE : FULL_MAX_FUSE;
}

static void fused_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct fused_params *p = params;
    (void)m;
    exp_check_stride_sweep(c, p->min_stride_bytes, p->max_stride_bytes, p->step_bytes);
    if (p->max_fuse && p->size_bytes / p->max_fuse < 2 * p->max_stride_bytes)
        cfg_check_fail(c, "size",
                       "%llu split into %llu streams leaves fewer than two slots at "
                       "max_stride %llu; expected at least 2 x max_fuse x max_stride",
                       (unsigned long long)p->size_bytes, (unsigned long long)p->max_fuse,
                       (unsigned long long)p->max_stride_bytes);
    unsigned n = exp_stride_count(p->min_stride_bytes, p->max_stride_bytes, p->step_bytes);
    if (n * p->max_fuse > EXP_POINTS_MAX)
        cfg_check_fail(c, "step",
                       "the sweep would have %llu points (strides x max_fuse); at "
                       "most %d",
                       (unsigned long long)(n * p->max_fuse), EXP_POINTS_MAX);
}

static uint64_t fused_buffer_bytes(const void *params, const struct machine *m)
{
    const struct fused_params *p = params;
    (void)m;
    return p->size_bytes;
}

/* The sweep's own data: the parameters, and the streams of the stride being measured. */
struct fused_sweep {
    const struct fused_params *p;
    void **heads[CHASE_MAX_STREAMS];
    uint64_t slots; /* of each stream */
};

/* Point i: stride i / max_fuse, chasing the first k = i % max_fuse + 1 streams. */
static uint64_t fused_stride(const struct fused_params *p, unsigned i, unsigned *k)
{
    *k = i % (unsigned)p->max_fuse + 1;
    return p->min_stride_bytes + i / (unsigned)p->max_fuse * p->step_bytes;
}

static struct measure_plan fused_measure_plan(const struct exp_ctx *ctx, uint64_t stride,
                                              unsigned k, uint64_t slots)
{
    uint64_t line = exp_line_bytes(ctx->m);
    return exp_plan(ctx, k * slots * stride, stride < line ? stride : line, k);
}

static void fused_plan(const struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct fused_params *p = ((const struct fused_sweep *)data)->p;
    unsigned k;
    uint64_t stride = fused_stride(p, pp->index, &k);
    uint64_t slots = p->size_bytes / p->max_fuse / stride;
    pp->plan = fused_measure_plan(ctx, stride, k, slots);
    pp->label = stride;
    pp->chain_bytes = k * slots * stride;
    pp->slots = k == 1 ? slots : 0; /* the streams are built once, for k = 1 */
    pp->lap_hops = slots;
    pp->streams = k;
}

/* Build the max_fuse streams of a stride at its first point; chase the first k of them. */
static int fused_build(struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    struct fused_sweep *d = data;
    unsigned k;
    uint64_t stride = fused_stride(d->p, pp->index, &k);
    if (k == 1)
        d->slots = chain_build_streams(ctx->buffer.virt, d->p->size_bytes, stride,
                                       (unsigned)d->p->max_fuse, d->heads);
    pp->plan = fused_measure_plan(ctx, stride, k, d->slots); /* with the slots built */
    point_streams(&pp->pt, d->heads, k, d->slots);
    return 0;
}

static void fused_row(struct exp_ctx *ctx, void *data, const struct exp_point *pp,
                      const struct point_result *r)
{
    const struct fused_params *p = ((const struct fused_sweep *)data)->p;
    unsigned k;
    uint64_t stride = fused_stride(p, pp->index, &k);
    char keys[64];
    double ns = exp_ns(ctx, r);
    double gibs = ns > 0 ? BYTES_PER_ACCESS / ns * 1e9 / GIB : 0;
    ksnprintf(keys, sizeof(keys), "%u,%llu", k, (unsigned long long)stride);
    strbuf_printf(&ctx->csv, "%s,%llu,%.4f,%.3f,", keys, (unsigned long long)p->size_bytes, gibs,
                  ns * k);
    /* the streams are built once for all k: the first point carries the build */
    exp_csv_common(ctx, r, k == 1 ? pp->build_ticks : 0);
    exp_samples(ctx, keys, r);
    con_printf("%8llu %6u %9.3f %11.2f ", (unsigned long long)stride, k, gibs, ns * k);
    exp_table_common(ctx, r);
}

static int fused_run(struct exp_ctx *ctx, const void *params)
{
    const struct fused_params *p = params;
    unsigned n = exp_stride_count(p->min_stride_bytes, p->max_stride_bytes, p->step_bytes);
    char sz[24];
    exp_header(ctx, &experiment_fused,
               "%u strides from %llu to %llu bytes in steps of %llu, 1 "
               "to %llu streams over %s (GiB/s counts 8 bytes per access, like afborchert's "
               "fused-linear-chase)",
               n, (unsigned long long)p->min_stride_bytes, (unsigned long long)p->max_stride_bytes,
               (unsigned long long)p->step_bytes, (unsigned long long)p->max_fuse,
               exp_size(sz, sizeof(sz), p->size_bytes));
    strbuf_puts(&ctx->csv,
                "streams,stride_bytes,size_bytes,gib_per_s,ns_per_access_per_chain," EXP_CSV_COMMON
                "\n");
    strbuf_puts(&ctx->samples, "streams,stride_bytes," EXP_SAMPLES_COMMON "\n");
    con_printf("%8s %6s %9s %11s ", "stride", "fuse", "GiB/s", "ns/chain");
    exp_table_head_common();
    struct fused_sweep d = {.p = p};
    struct exp_sweep sweep = {.points = n * (unsigned)p->max_fuse,
                              .data = &d,
                              .plan = fused_plan,
                              .build = fused_build,
                              .row = fused_row};
    return exp_sweep_run(ctx, &sweep);
}

const struct experiment experiment_fused = {
    .cfg =
        {
            .name = "fused",
            .keys = fused_keys,
            .nkeys = sizeof(fused_keys) / sizeof(fused_keys[0]),
            .params_size = sizeof(struct fused_params),
            .size_key = "size",
            .defaults = fused_defaults,
            .check = fused_check,
            .buffer_bytes = fused_buffer_bytes,
        },
    .describe = "how many interleaved constant-stride streams the prefetchers track: 1..max_fuse "
                "linear chains in lock-step",
    .why = "GiB/s grows with the streams while the prefetchers follow each of them; where it "
           "stops growing, they track no more",
    .run = fused_run,
};
