// SPDX-License-Identifier: MIT
// The loaded experiment: chase latency on one processor while the others read memory.
#include "experiments/driver.h"
#include "point/ctx.h"
#include "point/plan.h"
#include "point/rows.h"
#include "point/sizes.h"

#include "arch/cpu.h"

#include "procs/mp.h"
#include "procs/traffic.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"

/* This experiment's row of the table (defined at the end). */
extern const struct experiment experiment_loaded;

#define LOADED_DELAY_MAX_NS 1000000ULL /* 1 ms per block: about 1 MB/s per generator */
#define LOADED_SIZE_MIN_BYTES (64ULL << 20)
#define LOADED_SIZE_MAX_BYTES (1ULL << 30)
#define LOADED_TRAFFIC_MIN_BYTES ((uint64_t)TRAFFIC_BLOCK_BYTES * PLAT_CPUS_MAX)
#define BYTES_PER_GB 1e9
/*
 * A point's warm-up once the chain has had its full one: the hops of a few hundred ms at
 * memory latency, after which the LLC holds what this point's traffic and chase leave there.
 */
#define LOADED_REWARM_HOPS (1ULL << 20)

struct loaded_params {
    uint64_t size_bytes;    /* the chase */
    uint64_t traffic_bytes; /* the region the generators share out */
    struct cfg_list delays; /* ns a generator waits after each block */
    uint64_t generators;    /* 0: every other processor */
    unsigned mode;          /* LOADED_READ or LOADED_READ_WRITE */
};
CFG_PARAMS_FIT(struct loaded_params);

enum { LOADED_READ, LOADED_READ_WRITE };
static const char *const loaded_mode_names[] = {"read", "readwrite", NULL};

#define P(field) offsetof(struct loaded_params, field)

static const struct key_desc loaded_keys[] = {
    {"size", KEY_SIZE, P(size_bytes), 4096, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "the random chase's size (default: 4x the last-level cache, at least 64M, at most 1G: far "
     "enough beyond the LLC that the chase waits on memory, while one point's chain build and "
     "warm-up, which grow with the size, stay within seconds)"},
    {"traffic", KEY_SIZE, P(traffic_bytes), LOADED_TRAFFIC_MIN_BYTES, EXP_SIZE_KEY_MAX, NULL,
     "bytes", "the region the generators read, a slice each (default: as large as the chase)"},
    {"delays", KEY_SIZE_LIST, P(delays), 0, LOADED_DELAY_MAX_NS, NULL, "ns",
     "injection delays: ns a generator waits after each 1 KiB block it reads (4 streams of "
     "whole lines), light load first, 0 is flat out (an idle point without generators always "
     "comes first; the default's first delay, 1 ms, keeps the generators busy with almost no "
     "traffic, so a busy neighbour's own cost shows apart)"},
    {"generators", KEY_U64, P(generators), 0, PLAT_CPUS_MAX - 1, NULL, "",
     "processors generating traffic (0: every other processor)"},
    {"mode", KEY_CHOICE, P(mode), 0, 0, loaded_mode_names, "",
     "what the generators do with each line: 'read' it, or 'readwrite': read it and write it, "
     "so that it also goes back to memory (counted twice in the bandwidth)"},
};

/* 1 ms per block first: generators busy but moving about 1 MB/s, so that what a busy neighbour
   costs (SMT, turbo, a hypervisor) shows apart from what its traffic costs. */
static const uint64_t default_delays_ns[] = {1000000, 4000, 1000, 400, 100, 50, 0};
static const uint64_t quick_delays_ns[] = {1000, 0};

static void loaded_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct loaded_params *p = params;
    uint64_t size = exp_pow2_at_least(4 * exp_llc_bytes(m));
    size = size < LOADED_SIZE_MIN_BYTES ? LOADED_SIZE_MIN_BYTES : size;
    size = size > LOADED_SIZE_MAX_BYTES ? LOADED_SIZE_MAX_BYTES : size;
    if (profile == PROFILE_QUICK)
        size = EXP_SWEEP_QUICK_MAX_BYTES;
    /* the chase and the traffic side by side must fit the buffer */
    p->size_bytes = exp_fit_memory(m, 2 * size) / 2;
    p->traffic_bytes = p->size_bytes;
    const uint64_t *d = profile == PROFILE_QUICK ? quick_delays_ns : default_delays_ns;
    p->delays.n = profile == PROFILE_QUICK
                      ? sizeof(quick_delays_ns) / sizeof(quick_delays_ns[0])
                      : sizeof(default_delays_ns) / sizeof(default_delays_ns[0]);
    for (unsigned i = 0; i < p->delays.n; i++)
        p->delays.v[i] = d[i];
    p->generators = 0;
    p->mode = LOADED_READ;
}

static void loaded_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct loaded_params *p = params;
    if (p->size_bytes % exp_line_bytes(m))
        cfg_check_fail(c, "size", "%llu is not a multiple of the line (%llu)",
                       (unsigned long long)p->size_bytes, (unsigned long long)exp_line_bytes(m));
    if (p->traffic_bytes % TRAFFIC_BLOCK_BYTES)
        cfg_check_fail(c, "traffic", "%llu is not a multiple of a generator's block (%u)",
                       (unsigned long long)p->traffic_bytes, TRAFFIC_BLOCK_BYTES);
}

/* The chase, then the traffic region. */
static uint64_t loaded_buffer_bytes(const void *params, const struct machine *m)
{
    const struct loaded_params *p = params;
    (void)m;
    return p->size_bytes + p->traffic_bytes;
}

/* What one point's generators did over all its visits (one per pass). */
struct loaded_acc {
    uint64_t moved_bytes[PLAT_CPUS_MAX], ticks[PLAT_CPUS_MAX];
    bool lost;
};

/* The sweep's data: the chaser's processor, the generators, their state, the chain. */
struct loaded_sweep {
    const struct loaded_params *p;
    struct mp_cpu cpus[PLAT_CPUS_MAX]; /* [0] chases (the caller's), the rest generate */
    unsigned ngen;
    struct traffic_gen gen[PLAT_CPUS_MAX];
    volatile uint64_t *stop;
    bool running;
    struct chase_point chain; /* built once: every point chases the same cycle */
    bool warmed;              /* a point has warmed it up */
    struct loaded_acc acc[CFG_LIST_MAX + 1];
};

/* Point 0: idle; point i > 0: delays.v[i - 1]. */
static uint64_t loaded_delay_ns(const struct loaded_sweep *d, unsigned index)
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
    uint64_t slice = traffic_slice_bytes(d->p->traffic_bytes, d->ngen);
    uint64_t delay = loaded_delay_ns(d, index) * ctx->timing->wall_tsc_hz / 1000000000ULL;
    if (index == 0)
        return 0;
    /* Never longer than the wait for them: a generator the boot processor lost stops itself;
       its windows (interrupts off there) as long as the boot processor's at most. */
    uint64_t hz = ctx->timing->wall_tsc_hz ? ctx->timing->wall_tsc_hz : ctx->timing->tsc_hz;
    uint64_t deadline = hz ? arch_tsc_fenced() + MP_TIMEOUT_US * (hz / 1000000) : 0;
    *d->stop = 0;
    for (unsigned g = 0; g < d->ngen; g++) {
        d->gen[g] = (struct traffic_gen){.stop = d->stop,
                                         .base = ctx->buffer.virt + d->p->size_bytes + g * slice,
                                         .bytes = slice,
                                         .delay_ticks = delay,
                                         .write = d->p->mode == LOADED_READ_WRITE,
                                         .deadline_tsc = deadline,
                                         .window_ticks = mp_window_ticks(ctx)};
        ids[g] = d->cpus[1 + g].p.id;
        args[g] = &d->gen[g];
    }
    if (plat_cpus_start(ids, d->ngen, traffic_generate, args, MP_TIMEOUT_US) != 0)
        return -1;
    d->running = true;
    return 0;
}

/* Stop the generators (if running) and add what they did to point index's account. */
static void loaded_stop(struct exp_ctx *ctx, struct loaded_sweep *d, unsigned index)
{
    bool done[PLAT_CPUS_MAX];
    (void)ctx;
    if (!d->running)
        return;
    __atomic_store_n(d->stop, 1, __ATOMIC_RELEASE);
    d->running = false;
    struct loaded_acc *a = &d->acc[index];
    if (plat_cpus_wait(done, d->ngen, MP_TIMEOUT_US) != 0) {
        a->lost = true;
        return;
    }
    for (unsigned g = 0; g < d->ngen; g++) {
        a->moved_bytes[g] += d->gen[g].moved_bytes;
        a->ticks[g] += d->gen[g].ticks;
    }
}

static void loaded_measured(struct exp_ctx *ctx, void *data, const struct exp_point *pp)
{
    loaded_stop(ctx, data, pp->index);
}

/* Point index's bandwidth, GB/s: each generator's bytes over its own time, summed; -1: lost. */
static double loaded_gbps(const struct exp_ctx *ctx, const struct loaded_sweep *d, unsigned index)
{
    const struct loaded_acc *a = &d->acc[index];
    double gbps = 0;
    if (a->lost)
        return -1;
    for (unsigned g = 0; g < d->ngen; g++)
        if (a->ticks[g])
            gbps += (double)a->moved_bytes[g] / BYTES_PER_GB /
                    timing_wall_ns(ctx->timing, a->ticks[g]) * 1e9;
    return gbps;
}

static int loaded_build(struct exp_ctx *ctx, void *data, struct exp_point *pp)
{
    struct loaded_sweep *d = data;
    pp->pt = d->chain;
    /* The chain's first warm-up serves every point: later ones warm only from the last. */
    if (!pp->plan.warm_laps_set && d->warmed &&
        (!pp->plan.warm_hops || pp->plan.warm_hops > LOADED_REWARM_HOPS))
        pp->plan.warm_hops = LOADED_REWARM_HOPS;
    d->warmed = true;
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
    double gbps = loaded_gbps(ctx, d, pp->index);
    uint64_t delay = loaded_delay_ns(d, pp->index);
    unsigned gens = pp->index ? d->ngen : 0;
    char keys[96], bw[24] = "";
    ksnprintf(keys, sizeof(keys), "%u,%llu,%u,%s,%llu", d->cpus[0].p.id,
              (unsigned long long)d->p->size_bytes, gens, loaded_mode_names[d->p->mode],
              (unsigned long long)delay);
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

/* The header, the CSV heads and the processors; 0, or EXP_RUN_SKIPPED. */
static int loaded_begin(struct exp_ctx *ctx, struct loaded_sweep *d)
{
    const struct loaded_params *p = d->p;
    char a[24], b[24];
    exp_header(ctx, &experiment_loaded,
               "a %s random chase on this processor, others %s a %s region at %u injection "
               "delays",
               exp_size(a, sizeof(a), p->size_bytes),
               p->mode == LOADED_READ ? "reading" : "reading and writing",
               exp_size(b, sizeof(b), p->traffic_bytes), p->delays.n);
    strbuf_puts(&ctx->csv,
                "cpu,size_bytes,generators,mode,delay_ns,bandwidth_gb_per_s," EXP_CSV_COMMON "\n");
    strbuf_puts(&ctx->samples, "cpu,size_bytes,generators,mode,delay_ns," EXP_SAMPLES_COMMON "\n");
    if (loaded_cpus(ctx, d) != 0)
        return EXP_RUN_SKIPPED;
    mp_print_cpus(d->cpus, d->ngen + 1);
    con_printf("%5s %8s %4s %9s ", "", "delay ns", "gens", "GB/s");
    exp_table_head_common();
    return 0;
}

static int loaded_run(struct exp_ctx *ctx, const void *params)
{
    const struct loaded_params *p = params;
    static struct loaded_sweep d;
    kmemset(&d, 0, sizeof(d));
    d.p = p;
    d.stop = mp_stop_flag();
    if (loaded_begin(ctx, &d) != 0)
        return EXP_RUN_SKIPPED;
    /* one chain for all points, built before the sweep: revisiting a point costs no build */
    struct chain_layout l = {ctx->buffer.virt, 0, exp_line_bytes(ctx->m),
                             p->size_bytes / exp_line_bytes(ctx->m), 0};
    point_cycle(&d.chain, &l, 0, ctx->cfg->global.seed);
    struct exp_sweep sweep = {.points = p->delays.n + 1,
                              .data = &d,
                              .interleave = true,
                              .plan = loaded_plan,
                              .build = loaded_build,
                              .measured = loaded_measured,
                              .row = loaded_row};
    int rc = exp_sweep_run(ctx, &sweep);
    loaded_stop(ctx, &d, 0); /* nothing should run on; if something does, stop it */
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
    .describe = "chase latency far beyond the LLC on one processor while the others stream "
                "memory (read, or read and write) at stepped injection delays (MLC's loaded "
                "latency)",
    .why = "memory latency rises with the bandwidth others use: the curve shows how much, and "
           "where the memory system saturates",
    .run = loaded_run,
};
