// SPDX-License-Identifier: MIT
// The cores experiment: the random sweep on each processor in turn, grouped by where it is.
#include "experiments/driver.h"
#include "point/ctx.h"
#include "point/plan.h"
#include "point/rows.h"
#include "point/sizes.h"

#include "chase/sweep.h"
#include "procs/mp.h"
#include "lib/console.h"
#include "lib/fmt.h"

/* This experiment's row of the table (defined at the end). */
extern const struct experiment experiment_cores;

struct cores_params {
    uint64_t min_bytes;
    uint64_t max_bytes;
    uint64_t points_per_octave;
    uint64_t stride_bytes;
    struct cpu_choice cpus;
};
CFG_PARAMS_FIT(struct cores_params);

#define P(field) offsetof(struct cores_params, field)

static const struct key_desc cores_keys[] = {
    EXP_RANDOM_SWEEP_KEYS(P),
    {"cpus", KEY_CPUS, P(cpus), 0, PLAT_CPUS_MAX, NULL, "",
     "processors to measure: a count (0: as many as 64) spread over nodes, packages, dies and "
     "core types, said on the console; all; p or e (hybrid parts' core types); or a list (0-3,8)"},
};

static void cores_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct cores_params *p = params;
    p->stride_bytes = exp_line_bytes(m);
    p->min_bytes = EXP_SWEEP_MIN_BYTES;
    /* every processor repeats the sweep: half the random experiment's density */
    p->points_per_octave = EXP_SWEEP_QUICK_PER_OCTAVE;
    p->max_bytes = exp_sweep_max_bytes(m, profile);
    p->cpus = (struct cpu_choice){.kind = CPU_CHOICE_COUNT};
}

static void cores_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct cores_params *p = params;
    (void)m;
    exp_check_stride(c, "stride", p->stride_bytes);
    exp_check_min_max(c, "min", p->min_bytes, p->max_bytes, "min", "max");
    if (p->min_bytes < p->stride_bytes)
        cfg_check_fail(c, "min", "min (%llu) is smaller than one stride (%llu)",
                       (unsigned long long)p->min_bytes, (unsigned long long)p->stride_bytes);
    if (p->cpus.kind == CPU_CHOICE_COUNT && p->cpus.count == 1)
        cfg_check_fail(c, "cpus", "1 processor is no comparison; expected 0 (all) or 2 to %d",
                       PLAT_CPUS_MAX);
    exp_check_sweep_points(c, p->min_bytes, p->max_bytes, p->points_per_octave, p->stride_bytes,
                           "points");
}

static uint64_t cores_buffer_bytes(const void *params, const struct machine *m)
{
    (void)m;
    return ((const struct cores_params *)params)->max_bytes;
}

/* The sweep of one processor: the parameters, the sizes, the processor. */
struct cores_sweep {
    const struct cores_params *p;
    const struct mp_cpu *cpu;
    uint64_t sizes[EXP_POINTS_MAX];
};

static void cores_plan(const struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct cores_sweep *d = data;
    uint64_t size = d->sizes[pp->index], line = exp_line_bytes(ctx->m);
    uint64_t stride = d->p->stride_bytes;
    pp->plan = exp_plan(ctx, size, stride < line ? stride : line, 1);
    pp->label = pp->chain_bytes = size;
    pp->slots = pp->lap_hops = size / stride;
}

static int cores_build(struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct cores_sweep *d = data;
    struct chain_layout l = {ctx->buffer.virt, 0, d->p->stride_bytes, pp->slots, 0};
    /* the same chain on every processor: only the processor differs between curves */
    point_cycle(&pp->pt, &l, 0, ctx->cfg->global.seed + pp->index);
    return 0;
}

static void cores_row(struct exp_ctx *ctx, void *data, const struct exp_point *pp,
                      const struct point_result *r)
{
    const struct cores_sweep *d = data;
    const struct mp_cpu *c = d->cpu;
    uint64_t size = d->sizes[pp->index];
    char keys[160], sz[24];
    ksnprintf(keys, sizeof(keys), "%u,%u,%u,%u,%u,%s,%u,%u,%llu,%llu", c->p.id, c->p.package,
              c->p.core, c->p.thread, c->p.node, mp_core_type_name(c->core_type), c->l2_group,
              c->l3_group, (unsigned long long)size, (unsigned long long)d->p->stride_bytes);
    exp_samples(ctx, keys, r);
    con_printf("%5u %10s ", c->p.id, exp_size(sz, sizeof(sz), size));
    exp_table_common(ctx, r);
    strbuf_printf(&ctx->csv, "%s,%llu,0x%016llx,", keys, (unsigned long long)pp->slots,
                  (unsigned long long)pp->pt.link_sum);
    exp_csv_common(ctx, r, pp->build_ticks);
}

/* One processor's sweep, its windows sent there; 0, or EXP_RUN_FAILED when it was lost. */
static int cores_one(struct exp_ctx *ctx, struct cores_sweep *d, unsigned n)
{
    const struct mp_cpu *c = d->cpu;
    con_printf("processor %u (package %u, core %u, thread %u, node %u, %s):\n", c->p.id,
               c->p.package, c->p.core, c->p.thread, c->p.node, mp_core_type_name(c->core_type));
    if (plat_window_cpu(c->p.id, MP_TIMEOUT_US) != 0) {
        con_printf("processor %u cannot run windows: left out\n", c->p.id);
        return 0;
    }
    con_printf("%5s %10s ", "cpu", "size");
    exp_table_head_common();
    struct exp_sweep sweep = {
        .points = n, .data = d, .plan = cores_plan, .build = cores_build, .row = cores_row};
    int rc = exp_sweep_run(ctx, &sweep);
    plat_window_cpu(PLAT_WINDOW_HERE, 0);
    return rc;
}

/* On a hybrid machine the rows grouped by core type, P-cores first; otherwise as chosen. */
static void cores_by_type(struct mp_cpu *cpus, unsigned n)
{
    for (unsigned i = 1; i < n; i++) /* stable: each type keeps the order chosen */
        for (unsigned j = i; j > 0 && cpus[j].core_type > cpus[j - 1].core_type; j--) {
            struct mp_cpu t = cpus[j];
            cpus[j] = cpus[j - 1];
            cpus[j - 1] = t;
        }
}

/* Each chosen processor's sweep in turn; 0, or EXP_RUN_FAILED when every one was lost. */
static int cores_all(struct exp_ctx *ctx, struct cores_sweep *d, struct mp_cpu *cpus, unsigned ncpu,
                     unsigned n)
{
    unsigned lost = 0;
    for (unsigned i = 0; i < ncpu; i++) {
        d->cpu = &cpus[i];
        if (cores_one(ctx, d, n) != 0) {
            con_printf("processor %u: %s; left out, the sweep goes on\n", cpus[i].p.id,
                       ctx->failure);
            lost++;
        }
    }
    if (lost == ncpu)
        return EXP_RUN_FAILED;
    if (lost)
        ksnprintf(ctx->failure, sizeof(ctx->failure), "%u of %u processors left out", lost, ncpu);
    return 0;
}

static int cores_run(struct exp_ctx *ctx, const void *params)
{
    const struct cores_params *p = params;
    struct cores_sweep d = {.p = p};
    unsigned n = sweep_sizes(p->min_bytes, p->max_bytes, (unsigned)p->points_per_octave,
                             p->stride_bytes, d.sizes, EXP_POINTS_MAX);
    char a[24], b[24];
    exp_header(ctx, &experiment_cores, "%u sizes from %s to %s on each processor", n,
               exp_size(a, sizeof(a), p->min_bytes), exp_size(b, sizeof(b), p->max_bytes));
    strbuf_puts(&ctx->csv, "cpu,package,core,thread,node,core_type,l2_group,l3_group,size_bytes,"
                           "stride_bytes,slots,chain_checksum," EXP_CSV_COMMON "\n");
    strbuf_puts(&ctx->samples, "cpu,package,core,thread,node,core_type,l2_group,l3_group,"
                               "size_bytes,stride_bytes," EXP_SAMPLES_COMMON "\n");
    unsigned held = mp_cpus_held();
    struct mp_cpu *cpus = plat_alloc((held ? held : 1) * sizeof(*cpus));
    unsigned ncpu = cpus ? mp_cpus_chosen(ctx, &p->cpus, cpus, held) : 0;
    int rc = EXP_RUN_SKIPPED;
    if (ncpu) {
        cores_by_type(cpus, ncpu);
        mp_print_cpus(cpus, ncpu);
        rc = cores_all(ctx, &d, cpus, ncpu, n);
    }
    plat_free(cpus);
    return rc;
}

const struct experiment experiment_cores = {
    .cfg =
        {
            .name = "cores",
            .keys = cores_keys,
            .nkeys = sizeof(cores_keys) / sizeof(cores_keys[0]),
            .params_size = sizeof(struct cores_params),
            .size_key = "max",
            .defaults = cores_defaults,
            .check = cores_check,
            .buffer_bytes = cores_buffer_bytes,
        },
    .describe = "the random sweep on each processor in turn, grouped by package, core, thread, "
                "core type and cache sharing",
    .why = "cores of another type or cluster have other caches and latencies: one curve per "
           "processor shows which",
    .run = cores_run,
};
