// SPDX-License-Identifier: MIT
// The loaded experiment: chase latency on one processor while the others move memory in a
// family of read:write mixes, each from idle to flat out.
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
    unsigned mode;          /* LOADED_MIXES, or LOADED_READ / LOADED_READ_WRITE: that mix alone */
    struct cfg_list mixes;  /* indices into traffic_mixes, one curve each */
};
CFG_PARAMS_FIT(struct loaded_params);

enum { LOADED_MIXES, LOADED_READ, LOADED_READ_WRITE };
static const char *const loaded_mode_names[] = {"mixes", "read", "readwrite", NULL};

#define P(field) offsetof(struct loaded_params, field)

static const struct key_desc loaded_keys[] = {
    {"size", KEY_SIZE, P(size_bytes), 4096, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "the random chase's size (default: 4x the last-level cache, at least 64M, at most 1G: far "
     "enough beyond the LLC that the chase waits on memory, while one point's chain build and "
     "warm-up, which grow with the size, stay within seconds)"},
    {"traffic", KEY_SIZE, P(traffic_bytes), LOADED_TRAFFIC_MIN_BYTES, EXP_SIZE_KEY_MAX, NULL,
     "bytes", "the region the generators read, a slice each (default: as large as the chase)"},
    {"delays", KEY_SIZE_LIST, P(delays), 0, LOADED_DELAY_MAX_NS, NULL, "ns",
     "injection delays: ns a generator waits after each 1 KiB block it moves (4 streams of "
     "whole lines), light load first, 0 is flat out (an idle point without generators always "
     "comes first; the default's first delay, 1 ms, keeps the generators busy with almost no "
     "traffic, so a busy neighbour's own cost shows apart)"},
    {"generators", KEY_U64, P(generators), 0, PLAT_CPUS_MAX - 1, NULL, "",
     "processors generating traffic (0: every other processor)"},
    {"mode", KEY_CHOICE, P(mode), 0, 0, loaded_mode_names, "",
     "'mixes': one curve per read:write mix the mixes key lists; 'read' (the mix 100:0 alone) or "
     "'readwrite' (every line read and written back, counted twice) instead of that list"},
    {"mixes", KEY_CHOICE_LIST, P(mixes), 0, 0, traffic_mix_names, "",
     "the read:write mixes, one curve each: of the lines a generator touches, the percent it "
     "reads : the percent it stores (every word; plain stores, which the core reads for "
     "ownership first, or with 'nt' non-temporal ones, which it does not); readwrite reads every "
     "line and writes it back (default: 100:0,75:25,50:50,25:75,0:100,50:50nt,0:100nt)"},
};

/* 1 ms per block first: generators busy but moving about 1 MB/s, so that what a busy neighbour
   costs (SMT, turbo, a hypervisor) shows apart from what its traffic costs. */
static const uint64_t default_delays_ns[] = {1000000, 4000, 1000, 400, 100, 50, 0};
static const uint64_t quick_delays_ns[] = {1000, 0};
/* From all reads to all writes, then non-temporal writes (Mess's family of curves). */
static const uint64_t default_mixes[] = {0, 1, 2, 3, 4, 6, 8};
#define NDEFAULT_MIXES (sizeof(default_mixes) / sizeof(default_mixes[0]))

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
    p->mode = LOADED_MIXES;
    p->mixes.n = NDEFAULT_MIXES;
    for (unsigned i = 0; i < NDEFAULT_MIXES; i++)
        p->mixes.v[i] = default_mixes[i];
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
    uint64_t read_bytes[PLAT_CPUS_MAX], written_bytes[PLAT_CPUS_MAX], ticks[PLAT_CPUS_MAX];
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
    unsigned nmixes;
    const struct traffic_mix *mix[CFG_LIST_MAX]; /* the curves, in order */
    unsigned cur;                                /* the one this sweep measures */
    bool idle_first;    /* this sweep's point 0 is the idle point (the first mix's sweep only) */
    uint64_t start_tsc; /* the first mix's start */
    struct loaded_acc acc[CFG_LIST_MAX + 1];
};

/* Whether a point of this sweep is the idle one (no generators). */
static bool loaded_idle(const struct loaded_sweep *d, unsigned index)
{
    return d->idle_first && index == 0;
}

/* The point's delay: 0 when idle, else its entry of the delays list. */
static uint64_t loaded_delay_ns(const struct loaded_sweep *d, unsigned index)
{
    return loaded_idle(d, index) ? 0 : d->p->delays.v[index - (d->idle_first ? 1 : 0)];
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
    if (loaded_idle(d, index))
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
                                         .mix = d->mix[d->cur],
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
        a->read_bytes[g] += d->gen[g].read_bytes;
        a->written_bytes[g] += d->gen[g].written_bytes;
        a->ticks[g] += d->gen[g].ticks;
    }
}

static void loaded_measured(struct exp_ctx *ctx, void *data, const struct exp_point *pp)
{
    loaded_stop(ctx, data, pp->index);
}

/* Point index's bandwidth into *r: each generator's bytes over its own time, summed; false:
   a generator was lost. */
static bool loaded_rate(const struct exp_ctx *ctx, const struct loaded_sweep *d, unsigned index,
                        struct traffic_rate *r)
{
    const struct loaded_acc *a = &d->acc[index];
    *r = (struct traffic_rate){0};
    for (unsigned g = 0; g < d->ngen && !a->lost; g++)
        traffic_rate_add(r, a->read_bytes[g], a->written_bytes[g],
                         timing_wall_ns(ctx->timing, a->ticks[g]));
    return !a->lost;
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
    struct traffic_rate rate;
    bool idle = loaded_idle(d, pp->index), known = loaded_rate(ctx, d, pp->index, &rate);
    uint64_t delay = loaded_delay_ns(d, pp->index);
    unsigned gens = idle ? 0 : d->ngen;
    const char *mix = idle ? "idle" : d->mix[d->cur]->name;
    char keys[96], bw[80] = ",,", total[24] = "lost";
    ksnprintf(keys, sizeof(keys), "%u,%llu,%u,%s,%llu", d->cpus[0].p.id,
              (unsigned long long)d->p->size_bytes, gens, mix, (unsigned long long)delay);
    if (known) {
        ksnprintf(bw, sizeof(bw), "%.3f,%.3f,%.3f", rate.gbps, rate.read_gbps, rate.write_gbps);
        ksnprintf(total, sizeof(total), "%.3f", rate.gbps);
    }
    exp_samples(ctx, keys, r);
    con_printf("%-9s %8llu %4u %9s ", mix, (unsigned long long)delay, gens, total);
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

/* The curves: the mixes key's list, or the one mix the mode key names instead. */
static void loaded_mixes(struct loaded_sweep *d)
{
    const struct loaded_params *p = d->p;
    if (p->mode != LOADED_MIXES) {
        d->mix[0] =
            &traffic_mixes[p->mode == LOADED_READ ? TRAFFIC_MIX_READ : TRAFFIC_MIX_READWRITE];
        d->nmixes = 1;
        return;
    }
    for (unsigned i = 0; i < p->mixes.n; i++)
        d->mix[i] = &traffic_mixes[p->mixes.v[i]];
    d->nmixes = p->mixes.n;
}

/* The whole family's time, seconds, estimated up front as the driver estimates a point (the
   chain's build and the generators' starts left out). */
static double loaded_estimate_s(const struct exp_ctx *ctx, struct loaded_sweep *d)
{
    struct exp_point pt;
    kmemset(&pt, 0, sizeof(pt));
    pt.streams = 1;
    loaded_plan(ctx, d, &pt);
    double work = exp_point_work(ctx, &pt.plan, pt.chain_bytes, pt.slots, pt.lap_hops, 1);
    uint64_t hz = ctx->timing->wall_tsc_hz ? ctx->timing->wall_tsc_hz : ctx->timing->tsc_hz;
    return hz ? (1.0 + d->nmixes * d->p->delays.n) * work / (double)hz : 0;
}

/* The header, the CSV heads and the processors; 0, or EXP_RUN_SKIPPED. */
static int loaded_begin(struct exp_ctx *ctx, struct loaded_sweep *d)
{
    const struct loaded_params *p = d->p;
    char a[24], b[24], t[24];
    con_format_duration(t, sizeof(t), loaded_estimate_s(ctx, d));
    exp_header(ctx, &experiment_loaded,
               "a %s random chase on this processor, others moving a %s region in %u read:write "
               "mix%s at %u injection delays each (%u points, estimated %s)",
               exp_size(a, sizeof(a), p->size_bytes), exp_size(b, sizeof(b), p->traffic_bytes),
               d->nmixes, d->nmixes == 1 ? "" : "es", p->delays.n, 1 + d->nmixes * p->delays.n, t);
    strbuf_puts(&ctx->csv, "cpu,size_bytes,generators,mix,delay_ns,bandwidth_gb_per_s,"
                           "read_gb_per_s,write_gb_per_s," EXP_CSV_COMMON "\n");
    strbuf_puts(&ctx->samples, "cpu,size_bytes,generators,mix,delay_ns," EXP_SAMPLES_COMMON "\n");
    if (loaded_cpus(ctx, d) != 0)
        return EXP_RUN_SKIPPED;
    mp_print_cpus(d->cpus, d->ngen + 1);
    return 0;
}

/* The progress line of the mix this sweep measures, then its table's head. */
static void loaded_mix_line(const struct exp_ctx *ctx, const struct loaded_sweep *d)
{
    const struct traffic_mix *m = d->mix[d->cur];
    struct traffic_split sp;
    char what[64], left[48] = "";
    traffic_mix_split(m, &sp);
    if (m->rmw)
        ksnprintf(what, sizeof(what), "every line read and written back");
    else
        ksnprintf(what, sizeof(what), "of each block's %u streams %u read, %u store%s%s",
                  TRAFFIC_STREAMS, sp.read_streams, sp.write_streams,
                  sp.write_streams == 1 ? "s" : "",
                  !sp.write_streams ? ""
                  : m->nt           ? " (non-temporal)"
                                    : " (plain stores)");
    /* after the first mix, the time left at the pace of the mixes so far */
    uint64_t hz = ctx->timing->wall_tsc_hz ? ctx->timing->wall_tsc_hz : ctx->timing->tsc_hz;
    if (d->cur && hz) {
        char t[24];
        double done_s = (double)(arch_tsc_fenced() - d->start_tsc) / (double)hz;
        con_format_duration(t, sizeof(t), done_s / d->cur * (d->nmixes - d->cur));
        ksnprintf(left, sizeof(left), "; about %s left", t);
    }
    con_printf("\nmix %u of %u, %s: %s%s\n", d->cur + 1, d->nmixes, m->name, what, left);
    con_printf("%-9s %8s %4s %9s ", "mix", "delay ns", "gens", "GB/s");
    exp_table_head_common();
}

static int loaded_run(struct exp_ctx *ctx, const void *params)
{
    const struct loaded_params *p = params;
    static struct loaded_sweep d;
    kmemset(&d, 0, sizeof(d));
    d.p = p;
    d.stop = mp_stop_flag();
    loaded_mixes(&d);
    if (loaded_begin(ctx, &d) != 0)
        return EXP_RUN_SKIPPED;
    /* one chain for all points, built before the sweep: revisiting a point costs no build */
    struct chain_layout l = {ctx->buffer.virt, 0, exp_line_bytes(ctx->m),
                             p->size_bytes / exp_line_bytes(ctx->m), 0};
    point_cycle(&d.chain, &l, 0, ctx->cfg->global.seed);
    int rc = 0;
    d.start_tsc = arch_tsc_fenced();
    /* A sweep per mix, the idle point first in the first one: each mix's rows as it ends. */
    for (d.cur = 0; d.cur < d.nmixes && rc == 0; d.cur++) {
        d.idle_first = d.cur == 0;
        kmemset(d.acc, 0, sizeof(d.acc));
        loaded_mix_line(ctx, &d);
        struct exp_sweep sweep = {.points = p->delays.n + (d.idle_first ? 1 : 0),
                                  .data = &d,
                                  .interleave = true,
                                  .plan = loaded_plan,
                                  .build = loaded_build,
                                  .measured = loaded_measured,
                                  .row = loaded_row};
        rc = exp_sweep_run(ctx, &sweep);
        loaded_stop(ctx, &d, 0); /* nothing should run on; if something does, stop it */
    }
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
    .describe = "chase latency far beyond the LLC on one processor while the others move "
                "memory in a family of read:write mixes, each at stepped injection delays from "
                "idle to flat out (MLC's loaded latency, Mess's family of curves)",
    .why = "memory latency rises with the bandwidth others use: the curve shows how much, and "
           "where the memory system saturates",
    .run = loaded_run,
};
