// SPDX-License-Identifier: MIT
// The bw_cores experiment: bandwidth on 1, 2, 4 ... all processors, and the all-processor peak.
#include "experiments/common.h"

#include "arch/cpu.h"
#include "experiments/bw.h"
#include "experiments/mp.h"
#include "lib/kmath.h"
#include "chase/reps.h"

/* This experiment's row of the table (defined at the end). */
extern const struct experiment experiment_bw_cores;

enum { LEVEL_L1, LEVEL_L2, LEVEL_L3, LEVEL_DRAM };
static const char *const level_names[] = {"L1", "L2", "L3", "dram", NULL};
/* A processor's buffer in memory: twice the LLC, at least this, so that it leaves the caches. */
#define BWC_DRAM_MIN_BYTES (64ULL << 20)
/* Each timed run lasts about this many of the plan's target repetition times. */
#define BWC_TARGET_REPS 1

struct bw_cores_params {
    unsigned level;       /* LEVEL_* */
    struct cfg_auto size; /* bytes per processor; auto: from the level */
    unsigned kernel;      /* enum bw_kernel */
    unsigned width;       /* enum simd_width */
};
CFG_PARAMS_FIT(struct bw_cores_params);

#define P(field) offsetof(struct bw_cores_params, field)

static const struct key_desc bw_cores_keys[] = {
    {"level", KEY_CHOICE, P(level), 0, 0, level_names, "",
     "the level each processor's private buffer fits: L1 and L2 (half of it), L3 (half of it "
     "shared out among the processors), dram (twice the last cache, at least 64M)"},
    {"size", KEY_SIZE_AUTO, P(size), BW_SIZE_ALIGN_BYTES, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "each processor's buffer (auto: from level)"},
    {"kernel", KEY_CHOICE, P(kernel), 0, 0, bw_kernel_names, "",
     "what each processor does to its buffer in the scaling table (bandwidth's kernels)"},
    {"width", KEY_CHOICE, P(width), 0, 0, simd_width_names, "",
     "vector width: auto (the widest allowed), sse2, avx2, avx512 (x86-64), neon, sve (AArch64)"},
};

static void bw_cores_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct bw_cores_params *p = params;
    (void)m;
    p->level = profile == PROFILE_QUICK ? LEVEL_L2 : LEVEL_DRAM;
    p->size = (struct cfg_auto){0, true};
    p->kernel = BW_READ;
    p->width = SIMD_AUTO;
}

/* A level's buffer per processor before sharing out (L3's is divided among them at run time). */
static uint64_t level_bytes(const struct machine *m, unsigned level)
{
    const struct cache_info *l1 = cpuinfo_data_cache(&m->cpu, 1);
    uint64_t llc = exp_llc_bytes(m), b;
    switch (level) {
    case LEVEL_L1:
        b = (l1 ? l1->size_bytes : 32768) / 2;
        break;
    case LEVEL_L2:
        b = exp_l2_bytes(m) / 2;
        break;
    case LEVEL_L3:
        b = llc / 2;
        break;
    default:
        b = exp_fit_memory(m, 2 * llc > BWC_DRAM_MIN_BYTES ? 2 * llc : BWC_DRAM_MIN_BYTES);
    }
    b = b / BW_SIZE_ALIGN_BYTES * BW_SIZE_ALIGN_BYTES;
    return b ? b : BW_SIZE_ALIGN_BYTES;
}

static void bw_cores_resolve(void *params, const struct machine *m)
{
    struct bw_cores_params *p = params;
    if (p->size.is_auto)
        p->size.value = level_bytes(m, p->level);
}

static void bw_cores_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct bw_cores_params *p = params;
    if (!p->size.is_auto && p->size.value % BW_SIZE_ALIGN_BYTES)
        cfg_check_fail(c, "size", "%llu is not a multiple of %d", (unsigned long long)p->size.value,
                       BW_SIZE_ALIGN_BYTES);
    bw_check_width(c, "width", m, p->width);
    bw_check_kernel(c, "kernel", p->kernel);
}

static uint64_t bw_cores_buffer_bytes(const void *params)
{
    return ((const struct bw_cores_params *)params)->size.value;
}

/* A read:write mix as steps each processor takes in turn: a kernel over its buffer's first
   size/div bytes (a copy: its halves). */
struct bwc_step {
    enum bw_kernel kernel;
    unsigned div;
};
struct bwc_mix {
    const char *name;
    struct bwc_step step[2];
    unsigned nsteps;
};

/* MLC's peak injection mixes: a read of size/2 and a copy of size read size and write size/2. */
static const struct bwc_mix peak_mixes[] = {
    {"all-read", {{BW_READ, 1}}, 1},
    {"3:1", {{BW_READ, 1}, {BW_COPY, 1}}, 2}, /* read S + S/2, write S/2 */
    {"2:1", {{BW_READ, 2}, {BW_COPY, 1}}, 2}, /* read S/2 + S/2, write S/2 */
    {"1:1", {{BW_COPY, 1}}, 1},               /* read S/2, write S/2 */
    {"nt-write 1:1", {{BW_NT_COPY, 1}}, 1},   /* the same with non-temporal stores */
};
#define NMIXES (sizeof(peak_mixes) / sizeof(peak_mixes[0]))

/* What the processors of one run share: the start and the count of those ready and done. */
struct bwc_shared {
    volatile uint64_t ready, go, done;
    unsigned n;
    uint64_t deadline; /* TSC: a processor that waits past it gives up */
    uint64_t ticks;    /* the boot processor's: from go until every one was done */
    bool late;
};

/* One processor's part. */
struct bwc_worker {
    struct bwc_shared *sh;
    unsigned index; /* 0: the boot processor, which times the run */
    uint8_t *base;
    uint64_t size, laps;
    const struct bwc_mix *mix;
    enum simd_width width;
    uint64_t sink;
};

static uint64_t bwc_moved(const struct bwc_mix *mix, uint64_t size, uint64_t laps)
{
    uint64_t moved = 0;
    for (unsigned s = 0; s < mix->nsteps; s++) {
        enum bw_kernel k = mix->step[s].kernel;
        moved += bw_bytes_moved(k, bw_span_bytes(k, size / mix->step[s].div), laps);
    }
    return moved;
}

static void bwc_stream(struct bwc_worker *w)
{
    for (unsigned s = 0; s < w->mix->nsteps; s++) {
        enum bw_kernel k = w->mix->step[s].kernel;
        uint64_t part = w->size / w->mix->step[s].div, span = bw_span_bytes(k, part);
        uint8_t *dst = w->base + (bw_is_copy(k) ? span : 0);
        w->sink += bw_kernel_code(k, w->width)(dst, w->base, span, w->laps);
    }
}

/* Each processor: say it is ready, wait for go, stream, say it is done. The boot processor
   waits for the others to be ready, gives go, streams, and times until all are done. */
static void bwc_work(void *arg)
{
    struct bwc_worker *w = arg;
    struct bwc_shared *sh = w->sh;
    if (w->index) {
        __atomic_add_fetch(&sh->ready, 1, __ATOMIC_ACQ_REL);
        if (!mp_wait_for(&sh->go, 1, sh->deadline))
            return;
        bwc_stream(w);
        __atomic_add_fetch(&sh->done, 1, __ATOMIC_ACQ_REL);
        return;
    }
    sh->late = !mp_wait_for(&sh->ready, sh->n - 1, sh->deadline);
    uint64_t t0 = arch_tsc_fenced();
    __atomic_store_n(&sh->go, 1, __ATOMIC_RELEASE);
    bwc_stream(w);
    sh->late |= !mp_wait_for(&sh->done, sh->n - 1, sh->deadline);
    sh->ticks = arch_tsc_fenced() - t0;
}

/* The run's processors (boot processor first, then cores before SMT siblings, packages in
   turn), the workers, what they share. */
struct bw_cores_sweep {
    const struct bw_cores_params *p;
    struct mp_cpu cpus[PLAT_CPUS_MAX];
    unsigned n;
    struct bwc_worker w[PLAT_CPUS_MAX];
    struct mp_job jobs[PLAT_CPUS_MAX];
    struct bwc_shared sh;
    enum simd_width width;
    uint64_t size;                  /* each processor's buffer */
    double sorted[BW_REPS_MAX + 1]; /* ticks per byte of a row's runs, ascending */
};

/* Whether a comes before b: thread, then core, then package (the boot processor first). */
static bool bwc_before(const struct mp_cpu *a, const struct mp_cpu *b)
{
    if (a->p.bsp != b->p.bsp)
        return a->p.bsp;
    if (a->p.thread != b->p.thread)
        return a->p.thread < b->p.thread;
    if (a->p.core != b->p.core)
        return a->p.core < b->p.core;
    return a->p.package < b->p.package;
}

/* The processors in order; one processor (the boot one) when there are no others, said. */
static void bwc_cpus(struct exp_ctx *ctx, struct bw_cores_sweep *d)
{
    d->n = mp_cpus(ctx, 0, d->cpus, PLAT_CPUS_MAX);
    if (d->n == 0) {
        con_printf("one processor: one row per table (%s)\n", ctx->failure);
        ctx->failure[0] = 0; /* said; the experiment still runs, on this processor */
        kmemset(&d->cpus[0], 0, sizeof(d->cpus[0]));
        d->cpus[0].p.bsp = true;
        d->n = 1;
        return;
    }
    for (unsigned i = 1; i < d->n; i++) /* insertion sort: a few dozen processors */
        for (unsigned j = i; j > 0 && bwc_before(&d->cpus[j], &d->cpus[j - 1]); j--) {
            struct mp_cpu t = d->cpus[j];
            d->cpus[j] = d->cpus[j - 1];
            d->cpus[j - 1] = t;
        }
    mp_print_cpus(d->cpus, d->n);
}

/* What each processor walks in one run: `laps` laps over `bytes` of its buffer from `at`. */
struct bwc_walk {
    uint64_t at, bytes, laps;
};

/* One run on the first n processors: ticks from go until all were done; -1 when one was lost. */
static int bwc_once(struct exp_ctx *ctx, struct bw_cores_sweep *d, unsigned n,
                    const struct bwc_mix *mix, const struct bwc_walk *wk, uint64_t *ticks)
{
    bool done[PLAT_CPUS_MAX];
    d->sh = (struct bwc_shared){.n = n};
    d->sh.deadline = arch_tsc_fenced() + MP_TIMEOUT_US * ctx->timing->wall_tsc_hz / 1000000;
    for (unsigned i = 0; i < n; i++) {
        d->w[i] = (struct bwc_worker){&d->sh,    i,        ctx->buffer.virt + i * d->size + wk->at,
                                      wk->bytes, wk->laps, mix,
                                      d->width,  0};
        d->jobs[i] = (struct mp_job){bwc_work, &d->w[i]};
    }
    int rc = mp_run_together(d->cpus, n, d->jobs, MP_TIMEOUT_US, done);
    for (unsigned i = 0; i < n; i++)
        rc |= done[i] ? 0 : -1;
    if (rc != 0 || d->sh.late) {
        mp_refresh_lost(d->cpus, d->n);
        return -1;
    }
    *ticks = d->sh.ticks;
    return 0;
}

/* One table row's runs: GB/s over all processors (10^9 bytes moved per second). */
struct bwc_out {
    double median, min, max;
    unsigned reps, outliers; /* runs, and those left out as disturbed (reps.h) */
    uint64_t moved;          /* per run, all processors */
};

static inline uint64_t kmax(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* A warm-up run of one lap (its time sizes the others: whole laps, or stretches of a buffer
   whose lap is longer than a run should be), then runs on n processors until the
   median is known as the plan says (reps, precision, time cap: reps_should_stop). */
static int bwc_measure(struct exp_ctx *ctx, struct bw_cores_sweep *d, unsigned n,
                       const struct bwc_mix *mix, struct bwc_out *o)
{
    struct measure_plan plan = exp_plan(ctx, d->size, exp_line_bytes(ctx->m), 1);
    struct bwc_walk wk = {0, d->size, 1};
    uint64_t ticks, target = BWC_TARGET_REPS * plan.target_ticks;
    if (bwc_once(ctx, d, n, mix, &wk, &ticks) != 0)
        return -1;
    if (ticks && target > ticks) /* whole laps; else stretches walking round the buffer */
        wk.laps = target / ticks;
    else if (ticks)
        wk.bytes = kmax(d->size * target / ticks / BW_SIZE_ALIGN_BYTES, 1) * BW_SIZE_ALIGN_BYTES;
    struct reps_rule rule = {plan.reps ? plan.reps : 1, BW_REPS_MAX, plan.precision,
                             plan.max_ticks};
    struct reps_verdict v = {0};
    enum reps_stop stop = REPS_GO_ON;
    uint64_t start = arch_tsc_fenced();
    o->moved = n * bwc_moved(mix, wk.bytes, wk.laps);
    for (o->reps = 0; stop == REPS_GO_ON; o->reps++) {
        if (bwc_once(ctx, d, n, mix, &wk, &ticks) != 0)
            return -1;
        wk.at = wk.at + 2 * wk.bytes <= d->size ? wk.at + wk.bytes : 0;
        double gbs = (double)o->moved * (double)ctx->timing->tsc_hz / (double)ticks / 1e9;
        strbuf_printf(&ctx->samples, "%u,%s,%u,%llu,%.6f\n", n, mix->name, o->reps,
                      (unsigned long long)ticks, gbs);
        reps_insert_sorted(d->sorted, o->reps, (double)ticks / (double)o->moved);
        reps_assess(d->sorted, o->reps + 1, &v);
        stop = reps_should_stop(&rule, &v, arch_tsc_fenced() - start);
    }
    double hz = (double)ctx->timing->tsc_hz;
    o->median = hz / v.kept_stats.median / 1e9;
    o->min = hz / v.kept_stats.max / 1e9;
    o->max = hz / v.kept_stats.min / 1e9;
    o->outliers = v.n - v.kept;
    return 0;
}

static int bwc_row(struct exp_ctx *ctx, struct bw_cores_sweep *d, const char *part, unsigned n,
                   const struct bwc_mix *mix)
{
    struct bwc_out o;
    const char *level = d->p->size.is_auto ? level_names[d->p->level] : "size";
    if (bwc_measure(ctx, d, n, mix, &o) != 0) {
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "%s on %u processors: a processor did not come back in time", mix->name, n);
        con_printf("%s\n", ctx->failure);
        return EXP_RUN_FAILED;
    }
    strbuf_printf(&ctx->csv, "%s,%u,%s,%s,%llu,%.6f,%.6f,%.6f,%.6f,%u,%u,%llu\n", part, n, level,
                  mix->name, (unsigned long long)d->size, o.median, o.median / n, o.min, o.max,
                  o.reps, o.outliers, (unsigned long long)o.moved);
    con_printf("%-8s %10u %-13s %10.2f %10.2f %9.2f %9.2f\n", part, n, mix->name, o.median,
               o.median / n, o.min, o.max);
    return 0;
}

/* The width, said and enabled; each processor's buffer, fitted to the buffer, said. */
static int bwc_begin(struct exp_ctx *ctx, struct bw_cores_sweep *d)
{
    const struct bw_cores_params *p = d->p;
    char a[24];
    int rc = bw_width_choose(ctx, (int)p->width, &d->width);
    if (rc)
        return rc;
    bwc_cpus(ctx, d);
    d->size = p->size.value;
    if (p->size.is_auto && p->level == LEVEL_L3)
        d->size = d->size / d->n / BW_SIZE_ALIGN_BYTES * BW_SIZE_ALIGN_BYTES;
    if (d->size * d->n > ctx->buffer.size_bytes) {
        d->size = ctx->buffer.size_bytes / d->n / BW_SIZE_ALIGN_BYTES * BW_SIZE_ALIGN_BYTES;
        con_printf("note: the buffer holds %u processors' buffers of %s at most\n", d->n,
                   exp_size(a, sizeof(a), d->size));
    }
    d->size = d->size ? d->size : BW_SIZE_ALIGN_BYTES;
    con_printf("vector width: %s (%u-bit); each processor streams its own %s (%s)\n",
               simd_width_name(d->width), simd_vector_bits(&ctx->m->cpu.simd, d->width),
               exp_size(a, sizeof(a), d->size), p->size.is_auto ? level_names[p->level] : "size");
    con_printf("%-8s %10s %-13s %10s %10s %9s %9s\n", "table", "processors", "kernel/mix", "GB/s",
               "per proc", "min", "max");
    return 0;
}

static int bwc_tables(struct exp_ctx *ctx, struct bw_cores_sweep *d)
{
    struct bwc_mix one = {bw_kernel_names[d->p->kernel], {{(enum bw_kernel)d->p->kernel, 1}}, 1};
    for (unsigned n = 1;; n = 2 * n < d->n ? 2 * n : d->n) {
        if (bwc_row(ctx, d, "scaling", n, &one) != 0)
            return EXP_RUN_FAILED;
        if (n == d->n)
            break;
    }
    for (unsigned m = 0; m < NMIXES; m++)
        if (bwc_row(ctx, d, "peak", d->n, &peak_mixes[m]) != 0)
            return EXP_RUN_FAILED;
    return 0;
}

static int bw_cores_run(struct exp_ctx *ctx, const void *params)
{
    static struct bw_cores_sweep d;
    kmemset(&d, 0, sizeof(d));
    d.p = params;
    exp_header(ctx, &experiment_bw_cores,
               "1, 2, 4 ... all processors streaming buffers of their own, started together and "
               "timed by the boot processor; then the all-processor peak with read:write mixes");
    strbuf_puts(&ctx->csv, "table,processors,level,kernel,size_bytes,gbs_total,gbs_per_processor,"
                           "gbs_min,gbs_max,reps,outliers,bytes_per_run\n");
    strbuf_puts(&ctx->samples, "processors,kernel,rep,tsc_total,gbs\n");
    if (ctx->measure != measure_chase) {
        ksnprintf(ctx->failure, sizeof(ctx->failure),
                  "needs real processors: this measurement backend models chases, not the "
                  "vector kernels");
        return EXP_RUN_SKIPPED;
    }
    if (bwc_begin(ctx, &d) != 0)
        return EXP_RUN_SKIPPED;
    int rc = bwc_tables(ctx, &d);
    plat_window_xstate(0);
    return rc;
}

const struct experiment experiment_bw_cores = {
    .cfg = {.name = "bw_cores",
            .keys = bw_cores_keys,
            .nkeys = sizeof(bw_cores_keys) / sizeof(bw_cores_keys[0]),
            .params_size = sizeof(struct bw_cores_params),
            .size_key = "size",
            .defaults = bw_cores_defaults,
            .resolve = bw_cores_resolve,
            .check = bw_cores_check,
            .buffer_bytes = bw_cores_buffer_bytes},
    .describe = "bandwidth on 1, 2, 4 ... all processors, each streaming its own buffer of a "
                "chosen level's size; the all-processor peak with read:write mixes (MLC's peak "
                "injection table)",
    .why = "how a level's bandwidth scales with the processors that share it, and what the "
           "memory delivers to all of them at once",
    .run = bw_cores_run,
};
