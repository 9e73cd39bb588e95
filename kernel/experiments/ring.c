// SPDX-License-Identifier: MIT
// The ring experiment: lmbench's lat_mem_rd, pointers one stride backward, per stride.
#include "experiments/common.h"

#include "arch/x86_64/cpu.h"
#include "chase/sweep.h"

#define P(field) offsetof(struct ring_params, field)
#define QUICK_MAX_BYTES (1ULL << 20)
#define MIN_BYTES 4096

static const struct key_desc ring_keys[] = {
    {"min", KEY_SIZE, P(min_bytes), 8, EXP_SIZE_KEY_MAX, NULL, "bytes", "smallest ring size"},
    {"max", KEY_SIZE, P(max_bytes), 8, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "largest ring size (default: random's)"},
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
    struct random_params r;
    experiment_random.defaults(&r, m, profile);
    p->min_bytes = MIN_BYTES;
    p->max_bytes = profile == PROFILE_QUICK ? QUICK_MAX_BYTES : r.max_bytes;
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
    if (p->min_bytes > p->max_bytes)
        cfg_check_fail(c, "min", "min (%llu) is larger than max (%llu)",
                       (unsigned long long)p->min_bytes, (unsigned long long)p->max_bytes);
    if (p->min_bytes < largest)
        cfg_check_fail(c, "min", "min (%llu) is smaller than the largest stride (%llu)",
                       (unsigned long long)p->min_bytes, (unsigned long long)largest);
    uint64_t sizes[1];
    unsigned n =
        sweep_sizes(p->min_bytes, p->max_bytes, (unsigned)p->points_per_octave, 8, sizes, 0);
    if (n > EXP_POINTS_MAX)
        cfg_check_fail(c, "points_per_octave",
                       "the sweep would have %u sizes per stride; at "
                       "most %d",
                       n, EXP_POINTS_MAX);
}

static uint64_t ring_buffer_bytes(const void *params)
{
    const struct ring_params *p = params;
    return p->max_bytes;
}

static void ring_row(struct run_ctx *ctx, uint64_t stride, uint64_t size, uint64_t slots,
                     uint64_t build_ticks, const struct point_result *r)
{
    char keys[64], sz[24];
    ksnprintf(keys, sizeof(keys), "%llu,%llu", (unsigned long long)stride,
              (unsigned long long)size);
    strbuf_printf(&ctx->csv, "%s,%llu,", keys, (unsigned long long)slots);
    exp_csv_common(ctx, r, build_ticks);
    exp_samples(ctx, keys, r);
    /* lat_mem_rd prints the size in MB; so does this table, next to the usual sizes. */
    con_printf("%10s %12.5f %10llu ", exp_size(sz, sizeof(sz), size), (double)size / 1048576.0,
               (unsigned long long)slots);
    exp_table_common(ctx, r);
}

static struct measure_plan ring_plan(const struct run_ctx *ctx, uint64_t stride, uint64_t size)
{
    uint64_t line = exp_line_bytes(ctx->m);
    return exp_plan(ctx, size, stride < line ? stride : line, 1);
}

static int ring_stride(struct run_ctx *ctx, const struct ring_params *p, uint64_t stride,
                       struct con_progress *pg)
{
    uint64_t sizes[EXP_POINTS_MAX];
    unsigned n = sweep_sizes(p->min_bytes, p->max_bytes, (unsigned)p->points_per_octave, stride,
                             sizes, EXP_POINTS_MAX);
    con_printf("stride=%llu\n", (unsigned long long)stride);
    for (unsigned i = 0; i < n; i++) {
        struct chain_layout l = {ctx->buffer.virt, 0, stride, sizes[i] / stride, 0};
        struct measure_plan plan = ring_plan(ctx, stride, sizes[i]);
        struct chase_point pt;
        struct point_result r;
        uint64_t t0 = arch_tsc_fenced();
        point_ring(&pt, &l);
        uint64_t build_ticks = arch_tsc_fenced() - t0;
        if (exp_measure(ctx, &pt, &plan, sizes[i], &r) != 0)
            return EXP_RUN_FAILED;
        ring_row(ctx, stride, sizes[i], l.slots, build_ticks, &r);
        measure_release(&r);
        con_progress_step(pg, exp_point_work(ctx, &plan, sizes[i], l.slots, l.slots, 1),
                          arch_tsc_fenced());
    }
    return 0;
}

static int ring_run(struct run_ctx *ctx, const void *params)
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
    struct con_progress pg;
    double total = 0;
    unsigned points = 0;
    for (unsigned s = 0; s < p->strides.n; s++) {
        uint64_t sizes[EXP_POINTS_MAX], stride = p->strides.v[s];
        unsigned n = sweep_sizes(p->min_bytes, p->max_bytes, (unsigned)p->points_per_octave, stride,
                                 sizes, EXP_POINTS_MAX);
        for (unsigned i = 0; i < n; i++, points++) {
            struct measure_plan plan = ring_plan(ctx, stride, sizes[i]);
            total += exp_point_work(ctx, &plan, sizes[i], sizes[i] / stride, sizes[i] / stride, 1);
        }
    }
    con_progress_begin(&pg, points, total, arch_tsc_fenced(), ctx->timing->wall_tsc_hz);
    int rc = 0;
    for (unsigned s = 0; s < p->strides.n && rc == 0; s++)
        rc = ring_stride(ctx, p, p->strides.v[s], &pg);
    con_progress_end(&pg);
    return rc;
}

const struct experiment experiment_ring = {
    .name = "ring",
    .describe = "lmbench's lat_mem_rd: a ring of pointers one stride backward, per stride, sizes "
                "swept",
    .why = "the classic figure, comparable with published lat_mem_rd curves; a backward stride "
           "shows which prefetchers also follow descending addresses",
    .keys = ring_keys,
    .nkeys = sizeof(ring_keys) / sizeof(ring_keys[0]),
    .params_offset = offsetof(struct chase_config, ring),
    .params_size = sizeof(struct ring_params),
    .size_key = "max",
    .defaults = ring_defaults,
    .check = ring_check,
    .buffer_bytes = ring_buffer_bytes,
    .run = ring_run,
};
