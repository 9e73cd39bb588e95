// SPDX-License-Identifier: MIT
// The ring experiment: lmbench's lat_mem_rd, pointers one stride backward, per stride.
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
extern const struct experiment experiment_ring;

struct ring_params {
    uint64_t min_bytes;
    uint64_t max_bytes;
    uint64_t points_per_octave;
    struct cfg_list strides; /* bytes */
};
CFG_PARAMS_FIT(struct ring_params);

#define P(field) offsetof(struct ring_params, field)
#define QUICK_MAX_BYTES (1ULL << 20)
#define MIN_BYTES 4096

static const struct key_desc ring_keys[] = {
    {"min", KEY_SIZE, P(min_bytes), 8, EXP_SIZE_KEY_MAX, NULL, "bytes", "smallest ring size"},
    {"max", KEY_SIZE, P(max_bytes), 8, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "largest ring size (default: 4x the last-level cache, bounded by memory)"},
    {"strides", KEY_SIZE_LIST, P(strides), 8, EXP_STRIDE_KEY_MAX, NULL, "bytes",
     "strides, one curve each (comma-separated)"},
    {"points_per_octave", KEY_U64, P(points_per_octave), 1, 32, NULL, "",
     "sizes per doubling of the ring size"},
};

static const uint64_t full_strides[] = {16, 32, 64, 128, 256, 512, 1024};
static const uint64_t quick_strides[] = {64, 256};

static void ring_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct ring_params *p = params;
    p->min_bytes = MIN_BYTES;
    p->max_bytes = profile == PROFILE_QUICK ? QUICK_MAX_BYTES : exp_sweep_max_bytes(m, profile);
    p->points_per_octave = profile == PROFILE_QUICK ? 1 : 2;
    const uint64_t *s = profile == PROFILE_QUICK ? quick_strides : full_strides;
    unsigned n = profile == PROFILE_QUICK ? sizeof(quick_strides) / sizeof(quick_strides[0])
                                          : sizeof(full_strides) / sizeof(full_strides[0]);
    p->strides.n = n;
    for (unsigned i = 0; i < n; i++)
        p->strides.v[i] = s[i];
}

static void ring_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct ring_params *p = params;
    (void)m;
    uint64_t largest = 0;
    for (unsigned i = 0; i < p->strides.n; i++) {
        if (p->strides.v[i] % 8)
            cfg_check_fail(c, "strides",
                           "stride %llu is not a multiple of 8 (a slot holds a "
                           "pointer)",
                           (unsigned long long)p->strides.v[i]);
        largest = p->strides.v[i] > largest ? p->strides.v[i] : largest;
    }
    exp_check_min_max(c, "min", p->min_bytes, p->max_bytes, "min", "max");
    if (p->min_bytes < largest)
        cfg_check_fail(c, "min", "min (%llu) is smaller than the largest stride (%llu)",
                       (unsigned long long)p->min_bytes, (unsigned long long)largest);
    exp_check_sweep_points(c, p->min_bytes, p->max_bytes, p->points_per_octave, 8,
                           "sizes per stride");
}

static uint64_t ring_buffer_bytes(const void *params, const struct machine *m)
{
    const struct ring_params *p = params;
    (void)m;
    return p->max_bytes;
}

/* The sweep's own data: the parameters and the sizes of the stride being measured. */
struct ring_sweep {
    const struct ring_params *p;
    unsigned stride; /* index into p->strides of sizes[] */
    unsigned first;  /* the sweep's index of sizes[0] */
    unsigned n;      /* sizes of that stride */
    uint64_t sizes[EXP_POINTS_MAX];
};

static unsigned ring_sizes(const struct ring_params *p, uint64_t stride, uint64_t *sizes,
                           unsigned cap)
{
    return sweep_sizes(p->min_bytes, p->max_bytes, (unsigned)p->points_per_octave, stride, sizes,
                       cap);
}

/* Point i is a size of one stride after another: find its stride, and its sizes in d. */
static void ring_locate(struct ring_sweep *d, unsigned i)
{
    if (i >= d->first && i < d->first + d->n)
        return;
    d->first = 0;
    for (d->stride = 0; d->stride < d->p->strides.n; d->stride++) {
        d->n = ring_sizes(d->p, d->p->strides.v[d->stride], d->sizes, EXP_POINTS_MAX);
        if (i < d->first + d->n)
            return;
        d->first += d->n;
    }
}

static unsigned ring_points(const struct ring_params *p)
{
    unsigned points = 0;
    for (unsigned s = 0; s < p->strides.n; s++)
        points += ring_sizes(p, p->strides.v[s], NULL, 0);
    return points;
}

static void ring_plan(const struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    struct ring_sweep *d = data;
    ring_locate(d, pp->index);
    uint64_t stride = d->p->strides.v[d->stride], size = d->sizes[pp->index - d->first];
    uint64_t line = exp_line_bytes(ctx->m);
    pp->plan = exp_plan(ctx, size, stride < line ? stride : line, 1);
    pp->label = size;
    pp->chain_bytes = size;
    pp->slots = pp->lap_hops = size / stride;
}

static int ring_build(struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    struct ring_sweep *d = data;
    ring_locate(d, pp->index);
    struct chain_layout l = {ctx->buffer.virt, 0, d->p->strides.v[d->stride], pp->slots, 0};
    point_backward(&pp->pt, &l);
    return 0;
}

/* A point's row; each stride's rows start with a line naming it (rows come in sweep order,
   after the last pass when interleaved). */
static void ring_row(struct exp_ctx *ctx, void *data, const struct exp_point *pp,
                     const struct point_result *r)
{
    struct ring_sweep *d = data;
    ring_locate(d, pp->index);
    if (pp->index == d->first)
        con_printf("stride=%llu\n", (unsigned long long)d->p->strides.v[d->stride]);
    uint64_t stride = d->p->strides.v[d->stride], size = d->sizes[pp->index - d->first];
    char keys[64], sz[24];
    ksnprintf(keys, sizeof(keys), "%llu,%llu", (unsigned long long)stride,
              (unsigned long long)size);
    strbuf_printf(&ctx->csv, "%s,%llu,", keys, (unsigned long long)pp->slots);
    exp_csv_common(ctx, r, pp->build_ticks);
    exp_samples(ctx, keys, r);
    /* lat_mem_rd prints the size in MB; so does this table, next to the usual sizes. */
    con_printf("%10s %12.5f %10llu ", exp_size(sz, sizeof(sz), size), (double)size / 1048576.0,
               (unsigned long long)pp->slots);
    exp_table_common(ctx, r);
}

static int ring_run(struct exp_ctx *ctx, const void *params)
{
    const struct ring_params *p = params;
    char a[24], b[24], list[96];
    cfg_format_value(list, sizeof(list), &ring_keys[2], p);
    exp_header(ctx, &experiment_ring, "sizes from %s to %s (%llu per octave) for strides %s",
               exp_size(a, sizeof(a), p->min_bytes), exp_size(b, sizeof(b), p->max_bytes),
               (unsigned long long)p->points_per_octave, list);
    strbuf_puts(&ctx->csv, "stride_bytes,size_bytes,slots," EXP_CSV_COMMON "\n");
    strbuf_puts(&ctx->samples, "stride_bytes,size_bytes," EXP_SAMPLES_COMMON "\n");
    con_printf("%10s %12s %10s ", "size", "size_MB", "slots");
    exp_table_head_common();
    struct ring_sweep d = {.p = p};
    /* Each point is its own ring, rebuilt whenever measured: it may be measured in passes. */
    struct exp_sweep sweep = {.points = ring_points(p),
                              .data = &d,
                              .interleave = true,
                              .plan = ring_plan,
                              .build = ring_build,
                              .row = ring_row};
    return exp_sweep_run(ctx, &sweep);
}

const struct experiment experiment_ring = {
    .cfg =
        {
            .name = "ring",
            .keys = ring_keys,
            .nkeys = sizeof(ring_keys) / sizeof(ring_keys[0]),
            .params_size = sizeof(struct ring_params),
            .size_key = "max",
            .defaults = ring_defaults,
            .check = ring_check,
            .buffer_bytes = ring_buffer_bytes,
        },
    .describe = "lmbench's lat_mem_rd: a ring of pointers one stride backward, per stride, sizes "
                "swept",
    .why = "the classic figure, comparable with published lat_mem_rd curves; a backward stride "
           "shows which prefetchers also follow descending addresses",
    .run = ring_run,
};
