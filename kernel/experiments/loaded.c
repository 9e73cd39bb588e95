// SPDX-License-Identifier: MIT
// The loaded experiment: chase latency on one processor while the others read memory.
#include "experiments/common.h"

#include "arch/x86_64/cpu.h"
#include "experiments/mp.h"

/* This experiment's row of the table (defined at the end). */
extern const struct experiment experiment_loaded;

#define LOADED_STOP_CHECK_LINES 64 /* generator lines between looks at the stop flag */
#define LOADED_DELAY_MAX 100000
#define BYTES_PER_GB 1e9

struct loaded_params {
    uint64_t size_bytes;    /* the chase */
    uint64_t traffic_bytes; /* the region the generators read */
    struct cfg_list delays; /* pause instructions between a generator's lines */
    uint64_t generators;    /* 0: every other processor */
};
CFG_PARAMS_FIT(struct loaded_params);

#define P(field) offsetof(struct loaded_params, field)

static const struct key_desc loaded_keys[] = {
    {"size", KEY_SIZE, P(size_bytes), 4096, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "the random chase's size (default: 4x the last-level cache, at least 64M)"},
    {"traffic", KEY_SIZE, P(traffic_bytes), 4096, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "the region the generators read (default: as large as the chase)"},
    {"delays", KEY_SIZE_LIST, P(delays), 0, LOADED_DELAY_MAX, NULL, "",
     "injection delays: pause instructions between two lines a generator reads, light load "
     "first (an idle point without generators always comes first)"},
    {"generators", KEY_U64, P(generators), 0, PLAT_CPUS_MAX - 1, NULL, "",
     "processors generating traffic (0: every other processor)"},
};

static const uint64_t default_delays[] = {64, 16, 4, 1, 0};

static void loaded_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct loaded_params *p = params;
    p->size_bytes = exp_sweep_max_bytes(m, profile);
    p->traffic_bytes = p->size_bytes;
    p->delays.n = sizeof(default_delays) / sizeof(default_delays[0]);
    for (unsigned i = 0; i < p->delays.n; i++)
        p->delays.v[i] = default_delays[i];
    p->generators = 0;
}

static void loaded_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct loaded_params *p = params;
    if (p->size_bytes % exp_line_bytes(m))
        cfg_check_fail(c, "size", "%llu is not a multiple of the line (%llu)",
                       (unsigned long long)p->size_bytes, (unsigned long long)exp_line_bytes(m));
    if (p->traffic_bytes % exp_line_bytes(m))
        cfg_check_fail(c, "traffic", "%llu is not a multiple of the line (%llu)",
                       (unsigned long long)p->traffic_bytes, (unsigned long long)exp_line_bytes(m));
}

static uint64_t loaded_buffer_bytes(const void *params)
{
    const struct loaded_params *p = params;
    return p->size_bytes + p->traffic_bytes;
}

/* One generator: reads lines of the traffic region, its own TSC timing its own work. */
struct loaded_gen {
    const volatile uint64_t *stop;
    const uint8_t *base;
    uint64_t bytes, line, start, delay;
    uint64_t lines_read, ticks; /* its results */
    uint64_t sink;
};

static void loaded_generate(void *arg)
{
    struct loaded_gen *g = arg;
    uint64_t lines = g->bytes / g->line, i = g->start % lines, n = 0, sum = 0;
    uint64_t t0 = arch_tsc_fenced();
    while (!__atomic_load_n(g->stop, __ATOMIC_ACQUIRE)) {
        for (unsigned k = 0; k < LOADED_STOP_CHECK_LINES; k++) {
            sum += *(const volatile uint64_t *)(g->base + i * g->line);
            i = i + 1 == lines ? 0 : i + 1;
            for (uint64_t d = 0; d < g->delay; d++)
                arch_pause();
        }
        n += LOADED_STOP_CHECK_LINES;
    }
    g->ticks = arch_tsc_fenced() - t0;
    g->lines_read = n;
    g->sink = sum;
}

/* The sweep's data: the chaser's processor, the generators and their state. */
struct loaded_sweep {
    const struct loaded_params *p;
    struct mp_cpu cpus[PLAT_CPUS_MAX]; /* [0] chases (the caller's), the rest generate */
    unsigned ngen;
    struct loaded_gen gen[PLAT_CPUS_MAX];
    volatile uint64_t *stop;
    bool running;
};

/* Point 0: idle; point i > 0: delays.v[i - 1]. */
static uint64_t loaded_delay(const struct loaded_sweep *d, unsigned index)
{
    return index ? d->p->delays.v[index - 1] : 0;
}

static void loaded_plan(const struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    const struct loaded_sweep *d = data;
    uint64_t line = exp_line_bytes(ctx->m);
    pp->plan = exp_plan(ctx, d->p->size_bytes, line, 1);
    pp->label = pp->chain_bytes = d->p->size_bytes;
    pp->slots = pp->lap_hops = d->p->size_bytes / line;
}

/* Start the generators at this point's delay (none at point 0). */
static int loaded_start(struct exp_ctx *ctx, struct loaded_sweep *d, unsigned index)
{
    unsigned ids[PLAT_CPUS_MAX];
    void *args[PLAT_CPUS_MAX];
    uint64_t line = exp_line_bytes(ctx->m);
    if (index == 0)
        return 0;
    *d->stop = 0;
    for (unsigned g = 0; g < d->ngen; g++) {
        d->gen[g] = (struct loaded_gen){d->stop,
                                        ctx->buffer.virt + d->p->size_bytes,
                                        d->p->traffic_bytes,
                                        line,
                                        g * (d->p->traffic_bytes / line / d->ngen),
                                        loaded_delay(d, index),
                                        0,
                                        0,
                                        0};
        ids[g] = d->cpus[1 + g].p.id;
        args[g] = &d->gen[g];
    }
    if (plat_cpus_start(ids, d->ngen, loaded_generate, args) != 0)
        return -1;
    d->running = true;
    return 0;
}

/* Stop the generators; their bandwidth in GB/s (0 when none ran, -1 when one was lost). */
static double loaded_stop(struct exp_ctx *ctx, struct loaded_sweep *d)
{
    bool done[PLAT_CPUS_MAX];
    double gbps = 0;
    if (!d->running)
        return 0;
    __atomic_store_n(d->stop, 1, __ATOMIC_RELEASE);
    d->running = false;
    if (plat_cpus_wait(done, d->ngen, MP_TIMEOUT_US) != 0)
        return -1;
    for (unsigned g = 0; g < d->ngen; g++)
        if (d->gen[g].ticks)
            gbps += (double)(d->gen[g].lines_read * d->gen[g].line) / BYTES_PER_GB /
                    timing_wall_ns(ctx->timing, d->gen[g].ticks) * 1e9;
    return gbps;
}

static int loaded_build(struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    struct loaded_sweep *d = data;
    struct chain_layout l = {ctx->buffer.virt, 0, exp_line_bytes(ctx->m), pp->slots, 0};
    point_cycle(&pp->pt, &l, 0, ctx->cfg->global.seed);
    if (loaded_start(ctx, d, pp->index) != 0) {
        con_printf("the generators could not be started: point left out\n");
        return EXP_POINT_SKIPPED;
    }
    return 0;
}

static void loaded_row(struct exp_ctx *ctx, void *data, const struct exp_point *pp,
                       const struct point_result *r)
{
    struct loaded_sweep *d = data;
    double gbps = loaded_stop(ctx, d);
    uint64_t delay = loaded_delay(d, pp->index);
    unsigned gens = pp->index ? d->ngen : 0;
    char keys[96], bw[24] = "";
    ksnprintf(keys, sizeof(keys), "%u,%llu,%u,%llu", d->cpus[0].p.id,
              (unsigned long long)d->p->size_bytes, gens, (unsigned long long)delay);
    if (gbps >= 0)
        ksnprintf(bw, sizeof(bw), "%.3f", gbps);
    exp_samples(ctx, keys, r);
    con_printf("%5s %8llu %4u %9s ", pp->index ? "" : "idle", (unsigned long long)delay, gens,
               gbps >= 0 ? bw : "lost");
    exp_table_common(ctx, r);
    strbuf_printf(&ctx->csv, "%s,%s,", keys, bw);
    exp_csv_common(ctx, r, pp->build_ticks);
}

/* The chaser is the caller's processor; the generators the others (up to p->generators). */
static int loaded_cpus(struct exp_ctx *ctx, struct loaded_sweep *d)
{
    static struct mp_cpu all[PLAT_CPUS_MAX];
    unsigned n = mp_cpus(ctx, 0, all, PLAT_CPUS_MAX), k = 1;
    for (unsigned i = 0; i < n; i++)
        if (all[i].p.bsp)
            d->cpus[0] = all[i];
    for (unsigned i = 0; i < n && (!d->p->generators || k <= d->p->generators); i++)
        if (!all[i].p.bsp)
            d->cpus[k++] = all[i];
    d->ngen = k - 1;
    return n && d->ngen ? 0 : EXP_RUN_SKIPPED;
}

static int loaded_run(struct exp_ctx *ctx, const void *params)
{
    const struct loaded_params *p = params;
    static struct loaded_sweep d;
    char a[24], b[24];
    kmemset(&d, 0, sizeof(d));
    d.p = p;
    d.stop = (volatile uint64_t *)(ctx->buffer.virt + p->size_bytes + p->traffic_bytes -
                                   exp_line_bytes(ctx->m));
    exp_header(ctx, &experiment_loaded,
               "a %s random chase on this processor, others reading a %s region at %u "
               "injection delays",
               exp_size(a, sizeof(a), p->size_bytes), exp_size(b, sizeof(b), p->traffic_bytes),
               p->delays.n);
    strbuf_puts(&ctx->csv,
                "cpu,size_bytes,generators,delay_pauses,bandwidth_gb_per_s," EXP_CSV_COMMON "\n");
    strbuf_puts(&ctx->samples, "cpu,size_bytes,generators,delay_pauses," EXP_SAMPLES_COMMON "\n");
    if (loaded_cpus(ctx, &d) != 0)
        return EXP_RUN_SKIPPED;
    mp_print_cpus(d.cpus, d.ngen + 1);
    con_printf("%5s %8s %4s %9s ", "", "delay", "gens", "GB/s");
    exp_table_head_common();
    struct exp_sweep sweep = {.points = p->delays.n + 1,
                              .data = &d,
                              .plan = loaded_plan,
                              .build = loaded_build,
                              .row = loaded_row};
    int rc = exp_sweep_run(ctx, &sweep);
    loaded_stop(ctx, &d); /* a point that failed left its generators running */
    return rc;
}

const struct experiment experiment_loaded = {
    .cfg =
        {
            .name = "loaded",
            .keys = loaded_keys,
            .nkeys = sizeof(loaded_keys) / sizeof(loaded_keys[0]),
            .params_size = sizeof(struct loaded_params),
            .size_key = "size",
            .defaults = loaded_defaults,
            .check = loaded_check,
            .buffer_bytes = loaded_buffer_bytes,
        },
    .describe = "chase latency far beyond the LLC on one processor while the others read "
                "memory at stepped injection delays (MLC's loaded latency)",
    .why = "memory latency rises with the bandwidth others use: the curve shows how much, and "
           "where the memory system saturates",
    .run = loaded_run,
};
