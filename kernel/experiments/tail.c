// SPDX-License-Identifier: MIT
// The tail experiment: one random chase per level timed in short batches, for its distribution,
// DRAM refresh (the period of the slow batches) and stalls no memory explains.
#include "experiments/driver.h"
#include "point/ctx.h"
#include "point/plan.h"
#include "point/refresh.h"
#include "point/rows.h"
#include "point/sizes.h"
#include "point/tail_stats.h"

#include "chase/chain_points.h"
#include "chase/sweep.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/slog.h"
#include "lib/stats.h"
#include "machine/cpuinfo.h"
#include "machine/fault.h"

extern const struct experiment experiment_tail;

/* The up-front estimate's guesses per hop: a cache hit costs a few ns; a DRAM miss with a page
 * walk about 100 ns (DDR4/DDR5 servers measure 80-130 ns). The estimate is the order of the
 * time, not a prediction. */
#define TAIL_EST_CACHE_NS 5.0
#define TAIL_EST_DRAM_NS 100.0
/* Slow batches written to tail.samples.csv per point: enough to see the comb in a plot, while the
 * finder reads them all. */
#define TAIL_SAMPLES_PER_POINT 4096
/* The level sizes: half of L1d, of L2 and of the last cache, so each chase sits inside its level
 * with room for the others' conflicts; the largest size (4x the LLC) is well beyond them. */
#define TAIL_POINTS_MAX 4
#define TAIL_L1_FALLBACK_BYTES (32ULL << 10)

struct tail_params {
    uint64_t max_bytes;
    uint64_t hops;
    uint64_t batches;
    uint64_t window_batches;
};
CFG_PARAMS_FIT(struct tail_params);

#define P(field) offsetof(struct tail_params, field)

static const struct key_desc tail_keys[] = {
    {"max", KEY_SIZE, P(max_bytes), 4096, EXP_SIZE_KEY_MAX, NULL, "bytes",
     "the chase beyond the last cache (default: 4x the last-level cache, bounded by memory)"},
    {"hops", KEY_U64, P(hops), 1, 64, NULL, "", "dependent loads in one timed batch"},
    {"batches", KEY_U64, P(batches), 64, 1ULL << 24, NULL, "", "timed batches per size"},
    {"window", KEY_U64, P(window_batches), 16, 1ULL << 20, NULL, "",
     "batches in one measurement window (interrupts off)"},
};

static void tail_defaults(void *params, const struct machine *m, enum profile profile)
{
    struct tail_params *p = params;
    p->max_bytes = exp_sweep_max_bytes(m, profile);
    p->hops = 4;
    /* Full: about 0.1 s of DRAM batches, 25 000 refresh intervals of 3.9 us; quick: seconds in
       QEMU for every size. */
    p->batches = profile == PROFILE_QUICK ? 16384 : 262144;
    p->window_batches = 4096;
}

static void tail_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct tail_params *p = params;
    (void)m;
    if (p->window_batches > p->batches)
        cfg_check_fail(c, "window", "window (%llu) is larger than batches (%llu)",
                       (unsigned long long)p->window_batches, (unsigned long long)p->batches);
}

static uint64_t tail_buffer_bytes(const void *params, const struct machine *m)
{
    (void)m;
    return ((const struct tail_params *)params)->max_bytes;
}

/* The whole run's arrays and what one point found. */
struct tail_run {
    const struct tail_params *p;
    uint64_t sizes[TAIL_POINTS_MAX];
    unsigned n;
    uint64_t *start, *stamps, *slow_start;
    double *ns, *sorted, *slow_excess;
    struct strbuf hist;
    uint64_t smi, dropped;
};

static unsigned tail_sizes(const struct machine *m, uint64_t max, uint64_t *out)
{
    const struct cache_info *l1 = cpuinfo_data_cache(&m->cpu, 1);
    uint64_t l1b = l1 && l1->size_bytes ? l1->size_bytes : TAIL_L1_FALLBACK_BYTES;
    uint64_t want[TAIL_POINTS_MAX - 1] = {l1b / 2, exp_l2_bytes(m) / 2, exp_llc_bytes(m) / 2};
    unsigned n = 0;
    for (unsigned i = 0; i < TAIL_POINTS_MAX - 1; i++) {
        uint64_t s = exp_pow2_at_most(want[i]);
        if (s < max && (n == 0 || s > out[n - 1]))
            out[n++] = s;
    }
    out[n++] = max;
    return n;
}

static int tail_stopped(struct exp_ctx *ctx, const struct batch_window *w)
{
    char why[120];
    fault_describe(why, sizeof(why), &w->fault);
    ksnprintf(ctx->failure, sizeof(ctx->failure), "batches stopped: %s", why);
    return EXP_RUN_FAILED;
}

/* The chase of one size timed in windows of batches: each batch's start and time (ns). */
static int tail_time(struct exp_ctx *ctx, struct tail_run *d, void **head, uint64_t slots)
{
    const struct tail_params *p = d->p;
    const struct timing *t = ctx->timing;
    int (*run)(struct batch_window *) = ctx->batches ? ctx->batches : batch_window_run;
    struct batch_window w = {.p = head, .hops = p->hops, .stamps = d->stamps};
    w.smi = t->smi_counting;
    d->smi = d->dropped = 0;
    /* A lap untimed first (the caches warm), in windows as long as the timed ones. */
    for (uint64_t warm = 0; warm < slots; warm += p->window_batches * p->hops) {
        w.batches = p->window_batches;
        if (run(&w) != 0)
            return tail_stopped(ctx, &w);
    }
    for (uint64_t done = 0; done < p->batches; done += w.batches) {
        uint64_t left = p->batches - done;
        w.batches = left < p->window_batches ? left : p->window_batches;
        w.prewalk_hops = exp_prewalk_tlb_hops(ctx, slots * sizeof(void *));
        if (run(&w) != 0)
            return tail_stopped(ctx, &w);
        d->smi += w.smi_delta;
        d->dropped += w.dropped;
        for (uint64_t i = 0; i < w.batches; i++) {
            double ticks = (double)(d->stamps[i + 1] - d->stamps[i]) - t->overhead_ticks;
            d->start[done + i] = d->stamps[i];
            d->ns[done + i] = ticks > 0 ? ticks * 1e9 / (double)t->tsc_hz : 0;
        }
    }
    return 0;
}

/* The histogram of one point's batch times into the histogram file's rows. */
static void tail_hist_rows(struct tail_run *d, uint64_t size, const struct tail_percentiles *pc)
{
    static struct tail_hist h;
    double lo = d->sorted[0] > 0.1 ? d->sorted[0] : 0.1;
    tail_hist_init(&h, lo, pc->max_ns > lo ? pc->max_ns : lo * 2);
    for (uint64_t i = 0; i < d->p->batches; i++)
        tail_hist_add(&h, d->ns[i]);
    for (unsigned i = 0; i < h.nbins; i++)
        if (h.count[i])
            strbuf_printf(&d->hist, "%llu,%.3f,%.3f,%llu\n", (unsigned long long)size,
                          tail_bin_low_ns(&h, i), tail_bin_low_ns(&h, i + 1),
                          (unsigned long long)h.count[i]);
}

/* One point's statistics: percentiles, slow batches, the refresh finder and the stalls. */
struct tail_point {
    struct tail_percentiles pc;
    double mad_ns;
    size_t slow;
    struct refresh_result rf;
    struct tail_stalls st;
};

static void tail_analyze(const struct exp_ctx *ctx, struct tail_run *d, struct tail_point *o)
{
    size_t n = (size_t)d->p->batches;
    kmemcpy(d->sorted, d->ns, n * sizeof(double));
    tail_percentiles(d->sorted, n, &o->pc);
    double median = o->pc.p50_ns, hop = median / (double)d->p->hops;
    o->mad_ns = stats_mad_sorted(d->sorted, n, median);
    o->slow =
        tail_slow_train(d->start, d->ns, n, median, o->mad_ns, hop, d->slow_start, d->slow_excess);
    struct refresh_series s = {
        d->slow_start, d->slow_excess, o->slow, (double)ctx->timing->tsc_hz, median, hop};
    refresh_find(&s, &o->rf);
    tail_stalls_find(d->start, d->ns, n, (double)ctx->timing->tsc_hz, median, &o->st);
}

static void tail_row(struct exp_ctx *ctx, struct tail_run *d, uint64_t size,
                     const struct tail_point *o)
{
    char sz[24];
    const struct refresh_result *rf = &o->rf;
    con_printf("%10s %8.1f %8.1f %8.1f %9.1f %10.1f %6zu %9.0f %8.0f %6zu\n",
               exp_size(sz, sizeof(sz), size), o->pc.p50_ns, o->pc.p99_ns, o->pc.p999_ns,
               o->pc.max_ns, rf->found ? rf->period_ns : 0.0, o->slow,
               rf->found ? rf->stall_ns : 0.0, o->st.longest_ns, o->st.count);
    strbuf_printf(&ctx->csv,
                  "%llu,%llu,%llu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%zu,%.3f,%.3f,%.3f,%zu,%zu,%zu,"
                  "%.3f,%.3f,%llu,%llu\n",
                  (unsigned long long)size, (unsigned long long)d->p->hops,
                  (unsigned long long)d->p->batches, o->pc.p50_ns, o->pc.p90_ns, o->pc.p99_ns,
                  o->pc.p999_ns, o->pc.max_ns, o->mad_ns, o->slow, rf->found ? rf->period_ns : 0.0,
                  rf->found ? rf->stall_ns : 0.0, rf->confidence, rf->beats, rf->strays,
                  o->st.count, o->st.longest_ns, o->st.per_minute, (unsigned long long)d->smi,
                  (unsigned long long)d->dropped);
    double hz = (double)ctx->timing->tsc_hz;
    size_t keep = o->slow < TAIL_SAMPLES_PER_POINT ? o->slow : TAIL_SAMPLES_PER_POINT;
    for (size_t i = 0; i < keep; i++)
        strbuf_printf(&ctx->samples, "%llu,%llu,%.3f,%.3f\n", (unsigned long long)size,
                      (unsigned long long)(d->slow_start[i] - d->start[0]),
                      (double)(d->slow_start[i] - d->start[0]) * 1e6 / hz, d->slow_excess[i]);
}

/* The console's note on stalls no memory explains, with what the SMI counter saw. */
static void tail_stall_note(const struct exp_ctx *ctx, const struct tail_run *d,
                            const struct tail_stalls *st)
{
    char smi[48];
    if (ctx->timing->smi_counting)
        ksnprintf(smi, sizeof(smi), "%llu SMIs counted", (unsigned long long)d->smi);
    else
        kstrlcpy(smi, "SMIs not counted here", sizeof(smi));
    con_printf(
        "           note: %zu stalls no memory explains (the longest %.1f us, %.1f a minute; "
        "%s): an SMI, an interrupt or a hypervisor's exit\n",
        st->count, st->longest_ns / 1e3, st->per_minute, smi);
}

static int tail_point(struct exp_ctx *ctx, struct tail_run *d, unsigned i)
{
    uint64_t size = d->sizes[i], line = exp_line_bytes(ctx->m), slots = size / line;
    struct chase_point pt;
    struct chain_layout l = {ctx->buffer.virt, 0, line, slots, 0};
    point_cycle(&pt, &l, 0, ctx->cfg->global.seed + i);
    int rc = tail_time(ctx, d, pt.head[0], slots);
    if (rc != 0) {
        char sz[24], why[sizeof(ctx->failure)];
        kstrlcpy(why, ctx->failure, sizeof(why));
        ksnprintf(ctx->failure, sizeof(ctx->failure), "at %s: %s", exp_size(sz, sizeof(sz), size),
                  why);
        return rc;
    }
    struct tail_point o;
    tail_analyze(ctx, d, &o);
    tail_row(ctx, d, size, &o);
    slog_rows(&ctx->csv);
    if (o.st.count)
        tail_stall_note(ctx, d, &o.st);
    tail_hist_rows(d, size, &o.pc);
    return 0;
}

/* The arrays of the whole run (the largest point's), NULL-free or -1. */
static int tail_alloc(struct tail_run *d)
{
    size_t n = (size_t)d->p->batches;
    d->start = plat_alloc(n * sizeof(uint64_t));
    d->slow_start = plat_alloc(n * sizeof(uint64_t));
    d->stamps = plat_alloc(((size_t)d->p->window_batches + 1) * sizeof(uint64_t));
    d->ns = plat_alloc(n * sizeof(double));
    d->sorted = plat_alloc(n * sizeof(double));
    d->slow_excess = plat_alloc(n * sizeof(double));
    return d->start && d->slow_start && d->stamps && d->ns && d->sorted && d->slow_excess ? 0 : -1;
}

static void tail_release(struct tail_run *d)
{
    plat_free(d->start);
    plat_free(d->slow_start);
    plat_free(d->stamps);
    plat_free(d->ns);
    plat_free(d->sorted);
    plat_free(d->slow_excess);
    strbuf_release(&d->hist);
}

/* The up-front estimate in seconds: every batch at a guess per hop, plus the chain's build and
 * warm-up lap (a hop a slot each). */
static double tail_estimate_s(const struct exp_ctx *ctx, const struct tail_run *d)
{
    double s = 0;
    for (unsigned i = 0; i < d->n; i++) {
        double hop = d->sizes[i] > exp_llc_bytes(ctx->m) ? TAIL_EST_DRAM_NS : TAIL_EST_CACHE_NS;
        double hops =
            (double)(d->p->batches * d->p->hops + 2 * d->sizes[i] / exp_line_bytes(ctx->m));
        s += hops * hop * 1e-9;
    }
    return s;
}

static int tail_run(struct exp_ctx *ctx, const void *params)
{
    static struct tail_run d;
    kmemset(&d, 0, sizeof(d));
    d.p = params;
    d.n = tail_sizes(ctx->m, d.p->max_bytes, d.sizes);
    exp_header(ctx, &experiment_tail, "%u sizes, %llu batches of %llu hops each; about %llu ms",
               d.n, (unsigned long long)d.p->batches, (unsigned long long)d.p->hops,
               (unsigned long long)(tail_estimate_s(ctx, &d) * 1e3 + 0.5));
    strbuf_puts(&ctx->csv, "size_bytes,hops,batches,p50_ns,p90_ns,p99_ns,p999_ns,max_ns,mad_ns,"
                           "slow_batches,refresh_period_ns,refresh_stall_ns,refresh_confidence,"
                           "refresh_beats,refresh_strays,stalls,stall_longest_ns,"
                           "stalls_per_minute,smi_count,dropped_windows\n");
    strbuf_puts(&ctx->samples, "size_bytes,tsc_offset,time_us,excess_ns\n");
    strbuf_puts(&d.hist, "size_bytes,bin_low_ns,bin_high_ns,count\n");
    con_printf("%10s %8s %8s %8s %9s %10s %6s %9s %8s %6s\n", "size", "p50 ns", "p99 ns",
               "p99.9 ns", "max ns", "refresh ns", "slow", "stall ns", "stall>", "stalls");
    int rc = tail_alloc(&d);
    if (rc != 0)
        ksnprintf(ctx->failure, sizeof(ctx->failure), "out of memory for %llu batches' times",
                  (unsigned long long)d.p->batches);
    for (unsigned i = 0; rc == 0 && i < d.n; i++)
        rc = tail_point(ctx, &d, i);
    if (plat_file_write("tail.hist.csv", strbuf_str(&d.hist), d.hist.len) != 0 && rc == 0)
        con_printf("tail: tail.hist.csv could not be written\n");
    tail_release(&d);
    return rc ? EXP_RUN_FAILED : 0;
}

const struct experiment experiment_tail = {
    .cfg = {.name = "tail",
            .keys = tail_keys,
            .nkeys = sizeof(tail_keys) / sizeof(tail_keys[0]),
            .params_size = sizeof(struct tail_params),
            .size_key = "max",
            .defaults = tail_defaults,
            .check = tail_check,
            .buffer_bytes = tail_buffer_bytes},
    .describe = "latency distribution per level from short timed batches of a random chase",
    .why = "the tail behind the median: DRAM refresh's period and stall, and stalls the firmware "
           "hides (SMIs)",
    .run = tail_run,
};
