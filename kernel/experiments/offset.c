// SPDX-License-Identifier: MIT
// The offset experiment: hunting set-dueling leader sets with a chain confined to one set.
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
extern const struct experiment experiment_offset;

struct offset_params {
    uint64_t stride_bytes;
    struct cfg_auto size; /* bytes */
    uint64_t offset_step_bytes;
    uint64_t offset_max_bytes;
};
CFG_PARAMS_FIT(struct offset_params);

#define P(field) offsetof(struct offset_params, field)
#define QUICK_OFFSET_LINES 8
#define QUICK_STRIDE_BYTES (64ULL << 10)
#define QUICK_SIZE_BYTES (1ULL << 20)
#define DEFAULT_WAYS 16 /* when CPUID gives no LLC geometry */
#define MIN_SLOTS 2
/* Auto size: this many times ways x slices slots, so every set of every slice the slots land
 * in holds several times its ways and no policy can keep them all. */
#define OVERFLOW_FACTOR 4
#define DIRECTIONS 2

static const struct key_desc offset_keys[] = {
    {"stride", KEY_SIZE, P(stride_bytes), 8, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "a large power of two, so all slots fall into one cache set (default: LLC sets x line)"},
    {"size", KEY_SIZE_AUTO, P(size), 16, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "bytes the chain spans (auto: 4 x ways x slices slots, bounded by memory)"},
    {"offset_step", KEY_SIZE, P(offset_step_bytes), 8, EXP_STRIDE_KEY_MAX, NULL, "bytes",
     "offset increment (default: one line, the next set; coarser when a slice has more sets "
     "than one sweep has points)"},
    {"offset_max", KEY_SIZE, P(offset_max_bytes), 0, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "largest offset; the sweep goes up to it, then back down (default: a whole slice's "
     "sets)"},
};

static uint64_t llc_set_stride(const struct machine *m)
{
    const struct cache_info *llc = cpuinfo_llc(&m->cpu);
    uint64_t line = exp_line_bytes(m);
    uint64_t sets = llc && llc->sets ? llc->sets : exp_llc_bytes(m) / (DEFAULT_WAYS * line);
    return exp_pow2_at_least(sets ? sets : 1) * line;
}

/* Slices of the LLC, at most: one per logical processor sharing it (CPUID), else 1. */
static uint64_t llc_slices(const struct machine *m)
{
    const struct cache_info *llc = cpuinfo_llc(&m->cpu);
    return llc && llc->shared_by > 1 ? llc->shared_by : 1;
}

static unsigned llc_ways(const struct machine *m)
{
    const struct cache_info *llc = cpuinfo_llc(&m->cpu);
    return llc && llc->ways ? llc->ways : DEFAULT_WAYS;
}

/* The offset sweep over one slice's sets: step and largest offset within EXP_POINTS_MAX. */
static void slice_sweep(struct offset_params *p, const struct machine *m, uint64_t line)
{
    uint64_t sets = p->stride_bytes / line, per_slice = sets / llc_slices(m);
    uint64_t most = EXP_POINTS_MAX / DIRECTIONS - 1; /* offsets after 0 each way */
    per_slice = per_slice ? per_slice : 1;
    p->offset_step_bytes = line * ((per_slice - 1 + most - 1) / most);
    if (p->offset_step_bytes < line)
        p->offset_step_bytes = line;
    p->offset_max_bytes = (per_slice - 1) / (p->offset_step_bytes / line) * p->offset_step_bytes;
}

static void offset_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct offset_params *p = params;
    uint64_t line = exp_line_bytes(m);
    p->offset_step_bytes = line;
    p->size.is_auto = true;
    p->size.value = 0;
    if (profile == PROFILE_QUICK) {
        p->stride_bytes = QUICK_STRIDE_BYTES;
        p->size.is_auto = false;
        p->size.value = QUICK_SIZE_BYTES;
        p->offset_max_bytes = QUICK_OFFSET_LINES * line;
    } else {
        p->stride_bytes = llc_set_stride(m);
        slice_sweep(p, m, line);
    }
}

static void offset_resolve(void *params, const struct machine *m)
{
    struct offset_params *p = params;
    if (!p->size.is_auto || !p->stride_bytes)
        return;
    uint64_t slots = OVERFLOW_FACTOR * llc_ways(m) * llc_slices(m);
    uint64_t size = slots * p->stride_bytes, limit = m->buffer_limit_bytes;
    uint64_t around = p->stride_bytes + p->offset_max_bytes;
    if (limit && size + around > limit) /* bounded by memory: as many slots as fit */
        size = limit > around ? (limit - around) / p->stride_bytes * p->stride_bytes : 0;
    size = size / p->stride_bytes * p->stride_bytes;
    p->size.value = size < MIN_SLOTS * p->stride_bytes ? MIN_SLOTS * p->stride_bytes : size;
}

static unsigned offsets_per_direction(const struct offset_params *p)
{
    return (unsigned)(p->offset_max_bytes / p->offset_step_bytes + 1);
}

static void offset_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct offset_params *p = params;
    (void)m;
    exp_check_stride(c, "stride", p->stride_bytes);
    if (p->offset_step_bytes % 8)
        cfg_check_fail(c, "offset_step", "%llu is not a multiple of 8",
                       (unsigned long long)p->offset_step_bytes);
    if (p->size.value < MIN_SLOTS * p->stride_bytes)
        cfg_check_fail(c, "size", "%llu holds fewer than %d slots of stride %llu",
                       (unsigned long long)p->size.value, MIN_SLOTS,
                       (unsigned long long)p->stride_bytes);
    if (p->offset_step_bytes && offsets_per_direction(p) > EXP_POINTS_MAX / DIRECTIONS)
        cfg_check_fail(c, "offset_max",
                       "the sweep would have %u offsets each way; at most %d "
                       "(raise offset_step or lower offset_max)",
                       offsets_per_direction(p), EXP_POINTS_MAX / DIRECTIONS);
}

static uint64_t offset_buffer_bytes(const void *params, const struct machine *m)
{
    const struct offset_params *p = params;
    (void)m;
    return p->offset_max_bytes + p->size.value + p->stride_bytes;
}

/* The sweep's own data: the parameters. */
struct offset_sweep {
    const struct offset_params *p;
};

/* Point i's offset, and which way the sweep goes there. */
static uint64_t offset_at(const struct offset_params *p, unsigned i, bool *up)
{
    return sweep_up_down_at(p->offset_step_bytes, p->offset_max_bytes, i, up);
}

static void offset_plan(const struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct offset_params *p = ((const struct offset_sweep *)data)->p;
    uint64_t line = exp_line_bytes(ctx->m);
    bool up;
    pp->slots = pp->lap_hops = p->size.value / p->stride_bytes;
    pp->chain_bytes = pp->slots * line; /* one set's lines */
    pp->plan = exp_plan(ctx, pp->chain_bytes, line, 1);
    pp->label = offset_at(p, pp->index, &up);
}

static int offset_build(struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct offset_params *p = ((const struct offset_sweep *)data)->p;
    bool up;
    struct chain_layout l = {ctx->buffer.virt, offset_at(p, pp->index, &up), p->stride_bytes,
                             pp->slots, 0};
    point_cycle(&pp->pt, &l, 0, ctx->cfg->global.seed); /* same order at every offset */
    return 0;
}

static void offset_row(struct exp_ctx *ctx, void *data, const struct exp_point *pp,
                       const struct point_result *r)
{
    const struct offset_params *p = ((const struct offset_sweep *)data)->p;
    bool up;
    uint64_t offset = offset_at(p, pp->index, &up);
    const char *dir = up ? "up" : "down";
    char keys[96];
    ksnprintf(keys, sizeof(keys), "%s,%llu", dir, (unsigned long long)offset);
    strbuf_printf(&ctx->csv, "%s,%llu,%llu,%llu,", keys, (unsigned long long)p->stride_bytes,
                  (unsigned long long)p->size.value, (unsigned long long)pp->slots);
    exp_csv_common(ctx, r, pp->build_ticks);
    exp_samples(ctx, keys, r);
    con_printf("%6s %10llu %8llu ", dir, (unsigned long long)offset,
               (unsigned long long)(offset / p->offset_step_bytes));
    exp_table_common(ctx, r);
}

static int offset_run(struct exp_ctx *ctx, const void *params)
{
    const struct offset_params *p = params;
    unsigned points = DIRECTIONS * offsets_per_direction(p);
    uint64_t slots = p->size.value / p->stride_bytes;
    char s[24], z[24], o[24];
    exp_header(
        ctx, &experiment_offset,
        "%llu slots at stride %s (size %s%s), offset 0 to %s in "
        "steps of %llu, up then down",
        (unsigned long long)slots, exp_size(s, sizeof(s), p->stride_bytes),
        exp_size(z, sizeof(z), p->size.value), p->size.is_auto ? ", auto: 4/3 of the LLC" : "",
        exp_size(o, sizeof(o), p->offset_max_bytes), (unsigned long long)p->offset_step_bytes);
    strbuf_puts(&ctx->csv,
                "direction,offset_bytes,stride_bytes,size_bytes,slots," EXP_CSV_COMMON "\n");
    strbuf_puts(&ctx->samples, "direction,offset_bytes," EXP_SAMPLES_COMMON "\n");
    con_printf("%6s %10s %8s ", "dir", "offset", "step");
    exp_table_head_common();
    struct offset_sweep d = {p};
    struct exp_sweep sweep = {.points = points,
                              .data = &d,
                              .plan = offset_plan,
                              .build = offset_build,
                              .row = offset_row};
    return exp_sweep_run(ctx, &sweep);
}

const struct experiment experiment_offset = {
    .cfg =
        {
            .name = "offset",
            .keys = offset_keys,
            .nkeys = sizeof(offset_keys) / sizeof(offset_keys[0]),
            .params_size = sizeof(struct offset_params),
            .size_key = "size",
            .defaults = offset_defaults,
            .resolve = offset_resolve,
            .check = offset_check,
            .buffer_bytes = offset_buffer_bytes,
        },
    .describe = "set-dueling hunt: a random chain confined to one cache set, its offset swept up "
                "then down",
    .why = "where latency at an offset differs from its neighbours, or between the up and down "
           "sweeps, a leader set of the LLC's set dueling may lie",
    .run = offset_run,
};
