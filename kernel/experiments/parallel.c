// SPDX-License-Identifier: MIT
// The parallel experiment: memory-level parallelism from independent chains in lock-step.
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
extern const struct experiment experiment_parallel;

struct parallel_params {
    uint64_t size_bytes;
    uint64_t max_chains;
    uint64_t stride_bytes;
};
CFG_PARAMS_FIT(struct parallel_params);

#define P(field) offsetof(struct parallel_params, field)
#define QUICK_SIZE_BYTES (2ULL << 20)
#define QUICK_MAX_CHAINS 4
/* As many as the lock-step loops chase: ten left a Zen 3 core still rising (9.8 at ten). */
#define FULL_MAX_CHAINS CHASE_LOCKSTEP_MAX
#define BYTES_PER_ACCESS 8.0 /* the pointer each access loads */
#define GIB 1073741824.0

static const struct key_desc parallel_keys[] = {
    {"size", KEY_SIZE, P(size_bytes), 16, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "the region all chains cover together (default: 4x the last-level cache, bounded by "
     "memory)"},
    {"max_chains", KEY_U64, P(max_chains), 1, CHASE_LOCKSTEP_MAX, NULL, "",
     "the most chains chased in lock-step (1 to max_chains)"},
    {"stride", KEY_SIZE, P(stride_bytes), 8, EXP_STRIDE_KEY_MAX, NULL, "bytes",
     "distance between slots (default: the cache line)"},
};

static void parallel_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct parallel_params *p = params;
    p->stride_bytes = exp_line_bytes(m);
    if (profile == PROFILE_QUICK) {
        p->size_bytes = QUICK_SIZE_BYTES;
        p->max_chains = QUICK_MAX_CHAINS;
        return;
    }
    p->max_chains = FULL_MAX_CHAINS;
    p->size_bytes = exp_full_buffer_bytes(m);
}

static void parallel_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct parallel_params *p = params;
    (void)m;
    exp_check_stride(c, "stride", p->stride_bytes);
    if (p->size_bytes < 2 * p->max_chains * p->stride_bytes)
        cfg_check_fail(c, "size",
                       "%llu gives fewer than two slots per chain for %llu chains at "
                       "stride %llu; expected at least 2 x max_chains x stride",
                       (unsigned long long)p->size_bytes, (unsigned long long)p->max_chains,
                       (unsigned long long)p->stride_bytes);
}

static uint64_t parallel_buffer_bytes(const void *params, const struct machine *m)
{
    const struct parallel_params *p = params;
    (void)m;
    return p->size_bytes;
}

/* The sweep's own data: the parameters and the latency of one chain (the first point). */
struct parallel_sweep {
    const struct parallel_params *p;
    double t1_ns;
};

/* Point i chases i + 1 chains. */
static void parallel_plan(const struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct parallel_params *p = ((const struct parallel_sweep *)data)->p;
    unsigned n = pp->index + 1;
    uint64_t line = exp_line_bytes(ctx->m);
    pp->plan = exp_plan(ctx, p->size_bytes, p->stride_bytes < line ? p->stride_bytes : line, n);
    pp->label = p->size_bytes;
    pp->chain_bytes = p->size_bytes;
    pp->slots = p->size_bytes / p->stride_bytes;
    pp->lap_hops = pp->slots / n;
    pp->streams = n;
}

static int parallel_build(struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct parallel_params *p = ((const struct parallel_sweep *)data)->p;
    struct chain_layout l = {ctx->buffer.virt, 0, p->stride_bytes, pp->slots, 0};
    point_disjoint(&pp->pt, &l, pp->index + 1, ctx->cfg->global.seed);
    return 0;
}

static void parallel_row(struct exp_ctx *ctx, void *data, const struct exp_point *pp,
                         const struct point_result *r)
{
    struct parallel_sweep *d = data;
    const struct parallel_params *p = d->p;
    unsigned n = pp->index + 1;
    char keys[64];
    double ns = exp_ns(ctx, r);
    if (n == 1)
        d->t1_ns = ns;
    double gibs = ns > 0 ? BYTES_PER_ACCESS / ns * 1e9 / GIB : 0;
    double parallelism = ns > 0 ? d->t1_ns / ns : 0; /* t1 / (tn / n), tn per chain = n x ns */
    ksnprintf(keys, sizeof(keys), "%u,%llu", n, (unsigned long long)p->size_bytes);
    strbuf_printf(&ctx->csv, "%s,%llu,%.4f,%.3f,%.3f,", keys, (unsigned long long)p->stride_bytes,
                  gibs, ns * n, parallelism);
    exp_csv_common(ctx, r, pp->build_ticks);
    exp_samples(ctx, keys, r);
    con_printf("%7u %9.3f %11.2f %11.2f ", n, gibs, ns * n, parallelism);
    exp_table_common(ctx, r);
}

static int parallel_run(struct exp_ctx *ctx, const void *params)
{
    const struct parallel_params *p = params;
    unsigned max = (unsigned)p->max_chains;
    char sz[24];
    exp_header(ctx, &experiment_parallel,
               "1 to %u random chains covering %s at stride %llu "
               "(GiB/s counts 8 bytes per access)",
               max, exp_size(sz, sizeof(sz), p->size_bytes), (unsigned long long)p->stride_bytes);
    strbuf_puts(&ctx->csv, "chains,size_bytes,stride_bytes,gib_per_s,ns_per_access_per_chain,"
                           "parallelism," EXP_CSV_COMMON "\n");
    strbuf_puts(&ctx->samples, "chains,size_bytes," EXP_SAMPLES_COMMON "\n");
    con_printf("%7s %9s %11s %11s ", "chains", "GiB/s", "ns/chain", "parallel");
    exp_table_head_common();
    struct parallel_sweep d = {.p = p};
    struct exp_sweep sweep = {.points = max,
                              .data = &d,
                              .plan = parallel_plan,
                              .build = parallel_build,
                              .row = parallel_row};
    return exp_sweep_run(ctx, &sweep);
}

const struct experiment experiment_parallel = {
    .cfg =
        {
            .name = "parallel",
            .keys = parallel_keys,
            .nkeys = sizeof(parallel_keys) / sizeof(parallel_keys[0]),
            .params_size = sizeof(struct parallel_params),
            .size_key = "size",
            .defaults = parallel_defaults,
            .check = parallel_check,
            .buffer_bytes = parallel_buffer_bytes,
        },
    .describe = "memory-level parallelism: 1..max_chains independent random chains over one "
                "region, in lock-step",
    .why = "the chains' misses overlap; effective parallelism t1/(tn/n) rises with the chains "
           "until the core's miss buffers are full",
    .run = parallel_run,
};
