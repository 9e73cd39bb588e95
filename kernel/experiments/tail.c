// SPDX-License-Identifier: MIT
// The tail experiment: one random chase per level timed in short batches, for its distribution,
// DRAM refresh (the period of the slow batches) and stalls no memory explains.
#include "experiments/driver.h"
#include "point/ctx.h"
#include "point/plan.h"
#include "point/refresh.h"
#include "point/rows.h"
#include "point/sizes.h"
#include "point/stall_record.h"
#include "point/tail_stats.h"

#include "arch/cpu.h"
#include "chase/chain_points.h"
#include "chase/sweep.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kstring.h"
#include "lib/slog.h"
#include "lib/stats.h"
#include "machine/cpuinfo.h"
#include "machine/fault.h"
#include "machine/smbios.h"

extern const struct experiment experiment_tail;

/* The up-front estimate's guess for a page walk beyond the TLB's reach under 4K pages, on top
 * of a memory hop (point/plan.h's guesses): its last level misses the caches too, about half a
 * DRAM access. The estimate is the order of the time, not a prediction. */
#define TAIL_EST_WALK_NS 60.0
/* Slow batches written to tail.samples.csv per point: enough to see the comb in a plot, while the
 * finder reads them all. */
#define TAIL_SAMPLES_PER_POINT 4096
/* The level sizes: half of L1d, of L2 and of the last cache, so each chase sits inside its level
 * with room for the others' conflicts; the largest size (4x the LLC) is well beyond them. */
#define TAIL_LEVELS 3
#define TAIL_L1_FALLBACK_BYTES (32ULL << 10)
/* The page sizes the largest size is timed under (page walks in the tail): 4K, 2M, 1G. */
#define TAIL_PAGE_4K 4096ULL
#define TAIL_PAGE_2M (2ULL << 20)
#define TAIL_PAGE_1G (1ULL << 30)
#define TAIL_PAGES_MAX 3
#define TAIL_POINTS_MAX (TAIL_LEVELS + TAIL_PAGES_MAX)

struct tail_params {
    uint64_t max_bytes;
    uint64_t hops;
    uint64_t batches;
    uint64_t window_batches;
    struct cfg_list pages; /* bytes: 4K, 2M, 1G */
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
    {"pages", KEY_SIZE_LIST, P(pages), TAIL_PAGE_4K, TAIL_PAGE_1G, NULL, "bytes",
     "page sizes the largest size is timed under, a point each (what page walks add to the "
     "tail): 4K, 2M, 1G (default: 4K and 2M, and 1G where the CPU has it but in quick)"},
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
    p->pages.n = 0;
    p->pages.v[p->pages.n++] = TAIL_PAGE_4K;
    p->pages.v[p->pages.n++] = TAIL_PAGE_2M;
    if (m->cpu.has_1g_pages && profile != PROFILE_QUICK)
        p->pages.v[p->pages.n++] = TAIL_PAGE_1G;
}

static void tail_check(const void *params, const struct machine *m, struct cfg_check *c)
{
    const struct tail_params *p = params;
    for (unsigned i = 0; i < p->pages.n; i++) {
        uint64_t v = p->pages.v[i];
        for (unsigned k = 0; k < i; k++)
            if (p->pages.v[k] == v)
                cfg_check_fail(c, "pages", "%llu is listed twice; expected each page size once",
                               (unsigned long long)v);
        if (v != TAIL_PAGE_4K && v != TAIL_PAGE_2M && v != TAIL_PAGE_1G)
            cfg_check_fail(c, "pages", "%llu is not a page size; expected 4K, 2M or 1G",
                           (unsigned long long)v);
        else if (v == TAIL_PAGE_1G && !m->cpu.has_1g_pages && kstrcmp(m->platform, "uefi") == 0)
            cfg_check_fail(c, "pages",
                           "this CPU has no 1 GiB pages (CPUID 0x80000001 EDX bit 26); "
                           "expected 4K or 2M");
    }
    if (p->window_batches > p->batches)
        cfg_check_fail(c, "window", "window (%llu) is larger than batches (%llu)",
                       (unsigned long long)p->window_batches, (unsigned long long)p->batches);
}

static uint64_t tail_buffer_bytes(const void *params, const struct machine *m)
{
    (void)m;
    return ((const struct tail_params *)params)->max_bytes;
}

/* One point: a size and the page size it is timed under (0: as the buffer is mapped). */
struct tail_size {
    uint64_t bytes, page;
};

/* The whole run's arrays and what one point found. */
struct tail_run {
    const struct tail_params *p;
    struct tail_size pt[TAIL_POINTS_MAX];
    unsigned n;
    uint64_t *start, *stamps, *slow_start;
    double *ns, *sorted, *slow_excess;
    struct strbuf hist;
    uint64_t smi, dropped;
    const char *dram_type; /* the DIMMs' type, each row's dram_type */
    struct con_progress pg;
    double hop_ns; /* the estimate's guess per hop of the point being timed */
};

/* The page sizes listed, ascending: the largest size's last row has the fewest page walks. */
static unsigned tail_pages(const struct tail_params *p, uint64_t *out)
{
    unsigned n = 0;
    for (unsigned i = 0; i < p->pages.n && n < TAIL_PAGES_MAX; i++) {
        unsigned k = n++;
        for (; k > 0 && out[k - 1] > p->pages.v[i]; k--)
            out[k] = out[k - 1];
        out[k] = p->pages.v[i];
    }
    return n;
}

/* The points: half of each cache level under the buffer's pages, then the largest size under
 * each page size listed (under the buffer's pages when none is). */
static unsigned tail_sizes(const struct machine *m, const struct tail_params *p,
                           struct tail_size *out)
{
    const struct cache_info *l1 = cpuinfo_data_cache(&m->cpu, 1);
    uint64_t l1b = l1 && l1->size_bytes ? l1->size_bytes : TAIL_L1_FALLBACK_BYTES;
    uint64_t want[TAIL_LEVELS] = {l1b / 2, exp_l2_bytes(m) / 2, exp_llc_bytes(m) / 2};
    uint64_t pages[TAIL_PAGES_MAX];
    unsigned n = 0, np = tail_pages(p, pages);
    for (unsigned i = 0; i < TAIL_LEVELS; i++) {
        uint64_t s = exp_pow2_at_most(want[i]);
        if (s < p->max_bytes && (n == 0 || s > out[n - 1].bytes))
            out[n++] = (struct tail_size){s, 0};
    }
    for (unsigned i = 0; i < np; i++)
        out[n++] = (struct tail_size){p->max_bytes, pages[i]};
    if (!np)
        out[n++] = (struct tail_size){p->max_bytes, 0};
    return n;
}

/* The estimate's guess per hop of a point: the level that holds it, and a page walk for 4K
 * pages beyond the last cache. */
static double tail_hop_ns(const struct exp_ctx *ctx, const struct tail_size *z)
{
    double walk =
        z->page == TAIL_PAGE_4K && z->bytes > exp_llc_bytes(ctx->m) ? TAIL_EST_WALK_NS : 0;
    return exp_est_ns_per_hop(ctx->m, z->bytes) + walk;
}

/* A point's ns: the chain's build, the warm-up lap's windows and the batches. */
static double tail_point_ns(const struct exp_ctx *ctx, const struct tail_params *p,
                            const struct tail_size *z)
{
    uint64_t slots = z->bytes / exp_line_bytes(ctx->m);
    uint64_t per = p->window_batches * p->hops, warm = (slots + per - 1) / per;
    double hops = (double)(warm * per) + (double)(p->batches * p->hops);
    return (double)slots * EXP_EST_BUILD_NS_PER_SLOT + hops * tail_hop_ns(ctx, z);
}

/* Windows of a point (its warm-up lap's and its timed ones) and its build: progress steps. */
static unsigned tail_point_steps(const struct tail_params *p, uint64_t slots)
{
    uint64_t per = p->window_batches * p->hops;
    return (unsigned)(1 + (slots + per - 1) / per +
                      (p->batches + p->window_batches - 1) / p->window_batches);
}

/* Run one window of w's batches (its time the warm-up's or the timed part's), a step of the
 * progress line; 0 or EXP_RUN_FAILED. */
static int tail_window(struct exp_ctx *ctx, struct tail_run *d, struct batch_window *w)
{
    int (*run)(struct batch_window *) = ctx->batches ? ctx->batches : batch_window_run;
    uint64_t t0 = arch_tsc_fenced();
    if (run(w) != 0) {
        char why[120];
        fault_describe(why, sizeof(why), &w->fault);
        ksnprintf(ctx->failure, sizeof(ctx->failure), "batches stopped: %s", why);
        return EXP_RUN_FAILED;
    }
    uint64_t t1 = arch_tsc_fenced();
    *(w->prewalk_hops ? &ctx->spent.timed : &ctx->spent.warm) += t1 - t0;
    con_progress_step(&d->pg, (double)(w->batches * w->hops) * d->hop_ns, t1);
    return 0;
}

/* The chase of one size timed in windows of batches: each batch's start and time (ns). */
static int tail_time(struct exp_ctx *ctx, struct tail_run *d, void **head, uint64_t slots)
{
    const struct tail_params *p = d->p;
    const struct timing *t = ctx->timing;
    struct batch_window w = {.p = head, .hops = p->hops, .stamps = d->stamps};
    w.smi = t->smi_counting;
    d->smi = d->dropped = 0;
    /* A lap untimed first (the caches warm), in windows as long as the timed ones. */
    for (uint64_t warm = 0; warm < slots; warm += p->window_batches * p->hops) {
        w.batches = p->window_batches;
        if (tail_window(ctx, d, &w) != 0)
            return EXP_RUN_FAILED;
    }
    for (uint64_t done = 0; done < p->batches; done += w.batches) {
        uint64_t left = p->batches - done;
        w.batches = left < p->window_batches ? left : p->window_batches;
        w.prewalk_hops = exp_prewalk_tlb_hops(ctx, slots * sizeof(void *));
        if (tail_window(ctx, d, &w) != 0)
            return EXP_RUN_FAILED;
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

/* The histogram of one point's batch times into the histogram file's rows (keys: its size and
 * page size). */
static void tail_hist_rows(struct tail_run *d, const char *keys, const struct tail_percentiles *pc)
{
    static struct tail_hist h;
    double lo = d->sorted[0] > 0.1 ? d->sorted[0] : 0.1;
    tail_hist_init(&h, lo, pc->max_ns > lo ? pc->max_ns : lo * 2);
    for (uint64_t i = 0; i < d->p->batches; i++)
        tail_hist_add(&h, d->ns[i]);
    for (unsigned i = 0; i < h.nbins; i++)
        if (h.count[i])
            strbuf_printf(&d->hist, "%s,%.3f,%.3f,%llu\n", keys, tail_bin_low_ns(&h, i),
                          tail_bin_low_ns(&h, i + 1), (unsigned long long)h.count[i]);
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

/* The point's console row, its tail.csv row and its slow batches (keys: size and page size). */
static void tail_row(struct exp_ctx *ctx, struct tail_run *d, const char *keys,
                     const struct tail_size *z, const struct tail_point *o)
{
    char sz[24], pg[24];
    const struct refresh_result *rf = &o->rf;
    con_printf("%10s %6s %8.1f %8.1f %8.1f %9.1f %10.1f %6zu %9.0f %8.0f %6zu\n",
               exp_size(sz, sizeof(sz), z->bytes), exp_size(pg, sizeof(pg), ctx->buffer.page_bytes),
               o->pc.p50_ns, o->pc.p99_ns, o->pc.p999_ns, o->pc.max_ns,
               rf->found ? rf->period_ns : 0.0, o->slow, rf->found ? rf->stall_ns : 0.0,
               o->st.longest_ns, o->st.count);
    strbuf_printf(&ctx->csv,
                  "%s,%llu,%llu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%zu,%.3f,%.3f,%.3f,%zu,%zu,%zu,"
                  "%.3f,%.3f,%llu,%llu,%s\n",
                  keys, (unsigned long long)d->p->hops, (unsigned long long)d->p->batches,
                  o->pc.p50_ns, o->pc.p90_ns, o->pc.p99_ns, o->pc.p999_ns, o->pc.max_ns, o->mad_ns,
                  o->slow, rf->found ? rf->period_ns : 0.0, rf->found ? rf->stall_ns : 0.0,
                  rf->confidence, rf->beats, rf->strays, o->st.count, o->st.longest_ns,
                  o->st.per_minute, (unsigned long long)d->smi, (unsigned long long)d->dropped,
                  d->dram_type);
    double hz = (double)ctx->timing->tsc_hz;
    size_t keep = o->slow < TAIL_SAMPLES_PER_POINT ? o->slow : TAIL_SAMPLES_PER_POINT;
    for (size_t i = 0; i < keep; i++)
        strbuf_printf(&ctx->samples, "%s,%llu,%.3f,%.3f\n", keys,
                      (unsigned long long)(d->slow_start[i] - d->start[0]),
                      (double)(d->slow_start[i] - d->start[0]) * 1e6 / hz, d->slow_excess[i]);
}

/* The console's note on stalls no memory explains, with what the SMI counter saw. */
static void tail_stall_note(const struct exp_ctx *ctx, const struct tail_run *d,
                            const struct tail_stalls *st)
{
    char smi[48] = "SMIs not counted here";
    if (ctx->timing->smi_counting)
        ksnprintf(smi, sizeof(smi), "%llu SMIs counted", (unsigned long long)d->smi);
    con_printf(
        "           note: %zu stalls no memory explains (the longest %.1f us, %.1f a minute; "
        "%s): an SMI, an interrupt or a hypervisor's exit\n",
        st->count, st->longest_ns / 1e3, st->per_minute, smi);
}

/* Map the buffer with the point's page size; 0, or 1 when the platform cannot (the point is
 * skipped, and the experiment's note says why). */
static int tail_map(struct exp_ctx *ctx, const struct tail_size *z)
{
    char why[160] = "", name[24];
    if (!z->page || z->page == ctx->buffer.page_bytes)
        return 0;
    exp_size(name, sizeof(name), z->page);
    if (plat_buffer_set_pages(&ctx->buffer, z->page, why, sizeof(why)) != 0) {
        size_t len = kstrlen(ctx->failure);
        con_printf("%10s %6s pages: skipped: %s\n", "", name, why);
        ksnprintf(ctx->failure + len, sizeof(ctx->failure) - len, "%s%s pages skipped: %s",
                  len ? "; " : "", name, why);
        return 1;
    }
    con_printf("%10s %6s pages: %s\n", "", name, ctx->buffer.page_source);
    return 0;
}

/* The point's failure, with its size, into ctx->failure. */
static int tail_failed(struct exp_ctx *ctx, uint64_t size)
{
    char sz[24], why[sizeof(ctx->failure)];
    kstrlcpy(why, ctx->failure, sizeof(why));
    ksnprintf(ctx->failure, sizeof(ctx->failure), "at %s: %s", exp_size(sz, sizeof(sz), size), why);
    return EXP_RUN_FAILED;
}

static int tail_point(struct exp_ctx *ctx, struct tail_run *d, unsigned i)
{
    const struct tail_size *z = &d->pt[i];
    uint64_t line = exp_line_bytes(ctx->m), slots = z->bytes / line;
    if (tail_map(ctx, z) != 0)
        return 0;
    struct chase_point pt;
    struct chain_layout l = {ctx->buffer.virt, 0, line, slots, 0};
    d->hop_ns = tail_hop_ns(ctx, z);
    uint64_t t0 = arch_tsc_fenced();
    point_cycle(&pt, &l, 0, ctx->cfg->global.seed + i);
    ctx->spent.build += arch_tsc_fenced() - t0;
    con_progress_step(&d->pg, (double)slots * EXP_EST_BUILD_NS_PER_SLOT, arch_tsc_fenced());
    if (tail_time(ctx, d, pt.head[0], slots) != 0)
        return tail_failed(ctx, z->bytes);
    struct tail_point o;
    char keys[48];
    ksnprintf(keys, sizeof(keys), "%llu,%llu", (unsigned long long)z->bytes,
              (unsigned long long)ctx->buffer.page_bytes);
    t0 = arch_tsc_fenced();
    tail_analyze(ctx, d, &o);
    uint64_t t1 = arch_tsc_fenced();
    ctx->spent.bookkeeping += t1 - t0;
    tail_row(ctx, d, keys, z, &o);
    slog_rows(&ctx->csv);
    if (o.st.count)
        tail_stall_note(ctx, d, &o.st);
    struct stall_point sp = {
        d->p->batches, o.st.span_ns, o.st.count, o.st.longest_ns, ctx->timing->smi_counting,
        d->smi,        d->dropped};
    if (ctx->stalls)
        stall_record_add(ctx->stalls, &sp);
    tail_hist_rows(d, keys, &o.pc);
    ctx->spent.output += arch_tsc_fenced() - t1;
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

/* The up-front estimate in ns (the progress line's whole work): every point's hops at a guess
 * per hop; *steps gets the progress line's steps. */
static double tail_estimate_ns(const struct exp_ctx *ctx, const struct tail_run *d, unsigned *steps)
{
    double ns = 0;
    *steps = 0;
    for (unsigned i = 0; i < d->n; i++) {
        ns += tail_point_ns(ctx, d->p, &d->pt[i]);
        *steps += tail_point_steps(d->p, d->pt[i].bytes / exp_line_bytes(ctx->m));
    }
    return ns;
}

/* The plan line, the files' headers and the console table's. */
static void tail_begin(struct exp_ctx *ctx, struct tail_run *d, double est_ns)
{
    char list[64];
    cfg_format_value(list, sizeof(list), &tail_keys[4], d->p);
    exp_header(ctx, &experiment_tail,
               "%u sizes, %llu batches of %llu hops each; about %llu ms; the largest under %s "
               "pages",
               d->n, (unsigned long long)d->p->batches, (unsigned long long)d->p->hops,
               (unsigned long long)(est_ns / 1e6 + 0.5), list);
    strbuf_puts(&ctx->csv, "size_bytes,page_bytes,hops,batches,p50_ns,p90_ns,p99_ns,p999_ns,max_ns,"
                           "mad_ns,slow_batches,refresh_period_ns,refresh_stall_ns,"
                           "refresh_confidence,refresh_beats,refresh_strays,stalls,"
                           "stall_longest_ns,stalls_per_minute,smi_count,dropped_windows,"
                           "dram_type\n");
    strbuf_puts(&ctx->samples, "size_bytes,page_bytes,tsc_offset,time_us,excess_ns\n");
    strbuf_puts(&d->hist, "size_bytes,page_bytes,bin_low_ns,bin_high_ns,count\n");
    con_printf("%10s %6s %8s %8s %8s %9s %10s %6s %9s %8s %6s\n", "size", "page", "p50 ns",
               "p99 ns", "p99.9 ns", "max ns", "refresh ns", "slow", "stall ns", "stall>",
               "stalls");
}

/* After the points: the run's note on stalls no memory explains (also in run.json). */
static void tail_end(const struct exp_ctx *ctx)
{
    char note[300];
    if (ctx->stalls &&
        stall_record_note(ctx->stalls, ctx->m->cpu.hypervisor, note, sizeof(note))[0])
        con_printf("tail: note: %s\n", note);
}

static int tail_run(struct exp_ctx *ctx, const void *params)
{
    static struct tail_run d;
    unsigned steps;
    uint64_t saved = ctx->buffer.page_bytes;
    kmemset(&d, 0, sizeof(d));
    d.p = params;
    d.n = tail_sizes(ctx->m, d.p, d.pt);
    d.dram_type = smbios_dram_type(ctx->m->id.smbios);
    double est_ns = tail_estimate_ns(ctx, &d, &steps);
    tail_begin(ctx, &d, est_ns);
    if (ctx->stalls)
        *ctx->stalls = (struct stall_record){.beyond_ns = TAIL_STALL_BEYOND_NS};
    int rc = tail_alloc(&d);
    if (rc != 0)
        ksnprintf(ctx->failure, sizeof(ctx->failure), "out of memory for %llu batches' times",
                  (unsigned long long)d.p->batches);
    con_progress_begin(&d.pg, steps, est_ns, arch_tsc_fenced(), ctx->timing->wall_tsc_hz);
    d.pg.unit = "windows";
    for (unsigned i = 0; rc == 0 && i < d.n; i++)
        rc = tail_point(ctx, &d, i);
    con_progress_end(&d.pg);
    exp_pages_end(ctx, saved);
    tail_end(ctx);
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
    .why = "the tail behind the median, and the share page walks add to it (4K against 2M/1G "
           "pages beyond the TLB's reach): DRAM refresh's period and stall, and stalls the "
           "firmware hides (SMIs)",
    .run = tail_run,
};
