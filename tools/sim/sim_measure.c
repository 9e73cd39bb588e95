// SPDX-License-Identifier: MIT
// chase-sim's measurement backend: the kernel's chains walked through the modelled hierarchy.
#include "sim_measure.h"

#include <string.h>

#include "platform.h"
#include "lib/stats.h"

/* measure_fn carries no context: the bound backend is the one piece of state it reaches. */
static struct sim_backend *bound;

struct counters {
    uint64_t hits[SIM_MAX_LEVELS], misses[SIM_MAX_LEVELS];
    uint64_t tlb_misses[SIM_MAX_TLBS];
    uint64_t loads, dram_loads, pf_fills;
};

void sim_backend_bind(struct sim_backend *b, struct sim_hier *h, const struct plat_buffer *buffer)
{
    memset(b, 0, sizeof(*b));
    b->h = h;
    b->buffer = buffer;
    bound = b;
}

void sim_backend_release(struct sim_backend *b)
{
    strbuf_release(&b->stats);
    sim_traces_free(&b->traces);
    if (bound == b)
        bound = NULL;
}

static void snapshot(const struct sim_hier *h, struct counters *c)
{
    for (unsigned i = 0; i < h->nlevels; i++) {
        c->hits[i] = h->level[i].cache.hits;
        c->misses[i] = h->level[i].cache.misses;
    }
    for (unsigned i = 0; i < h->ntlbs; i++)
        c->tlb_misses[i] = h->tlb[i].cache.misses;
    c->loads = h->loads;
    c->dram_loads = h->dram_loads;
    c->pf_fills = h->pf_fills;
}

static void stats_header(struct sim_backend *b)
{
    const struct sim_hier *h = b->h;
    strbuf_puts(&b->stats, "point,streams,serialized,lap_hops,hops,reps,loads,cycles_per_load");
    for (unsigned i = 0; i < h->nlevels; i++)
        strbuf_printf(&b->stats, ",%s_hit_rate", h->spec.level[i].name);
    strbuf_puts(&b->stats, ",dram_share");
    for (unsigned i = 0; i < h->ntlbs; i++)
        strbuf_printf(&b->stats, ",%s_miss_rate", h->spec.tlb[i].name);
    strbuf_puts(&b->stats,
                h->spec.pf.streams ? ",page_bytes,pf_fills_per_load\n" : ",page_bytes\n");
}

static double ratio(uint64_t part, uint64_t whole)
{
    return whole ? (double)part / (double)whole : 0;
}

/* One row of sim_levels.csv: what the timed repetitions of a point did in each level. */
static void stats_row(struct sim_backend *b, const struct chase_point *pt,
                      const struct point_result *r, const struct counters *a,
                      const struct counters *z)
{
    const struct sim_hier *h = b->h;
    if (b->points == 0)
        stats_header(b);
    uint64_t loads = z->loads - a->loads;
    strbuf_printf(&b->stats, "%u,%u,%d,%llu,%llu,%u,%llu,%.4f", b->points, pt->streams,
                  pt->serialized ? 1 : 0, (unsigned long long)pt->lap_hops,
                  (unsigned long long)r->hops, r->reps, (unsigned long long)loads, r->tsc.median);
    for (unsigned i = 0; i < h->nlevels; i++) {
        uint64_t hits = z->hits[i] - a->hits[i];
        strbuf_printf(&b->stats, ",%.6f", ratio(hits, hits + z->misses[i] - a->misses[i]));
    }
    strbuf_printf(&b->stats, ",%.6f", ratio(z->dram_loads - a->dram_loads, loads));
    for (unsigned i = 0; i < h->ntlbs; i++)
        strbuf_printf(&b->stats, ",%.6f", ratio(z->tlb_misses[i] - a->tlb_misses[i], loads));
    strbuf_printf(&b->stats, ",%llu", (unsigned long long)h->page_bytes);
    if (h->spec.pf.streams)
        strbuf_printf(&b->stats, ",%.6f", ratio(z->pf_fills - a->pf_fills, loads));
    strbuf_puts(&b->stats, "\n");
    b->points++;
}

/* Loads handed to the model at a time: whole lock-step rounds of up to CHASE_MAX_STREAMS. */
#define WALK_CHUNK 512

/* hops loads of one recorded stream, the common case, kept tight; their cycles. */
static uint64_t walk_trace(struct sim_backend *b, struct sim_stream *st, uint64_t hops)
{
    uint64_t addr[WALK_CHUNK], total = 0, phys = b->buffer->phys;
    while (hops) {
        size_t n = hops < WALK_CHUNK ? (size_t)hops : WALK_CHUNK;
        for (size_t k = 0; k < n; k++)
            addr[k] = phys + sim_stream_next_recorded(st);
        total += sim_hier_load_many(b->h, addr, n, NULL);
        hops -= n;
    }
    return total;
}

/* The cycles of rounds lock-step rounds whose loads took lat: groups of mlp overlap. */
static uint64_t rounds_cycles(const unsigned *lat, size_t rounds, unsigned streams, unsigned mlp)
{
    uint64_t total = 0;
    for (size_t r = 0; r < rounds; r++, lat += streams) {
        unsigned worst = 0, in_group = 0;
        for (unsigned s = 0; s < streams; s++) {
            worst = lat[s] > worst ? lat[s] : worst;
            if (++in_group == mlp) {
                total += worst;
                worst = 0;
                in_group = 0;
            }
        }
        total += worst;
    }
    return total;
}

/*
 * hops lock-step rounds over the streams; adds the simulated cycles to *cycles. Loads of
 * a round overlap in groups of mlp (1 when serialized). -1 when a chain leaves the buffer
 * (the loads before that one were simulated).
 */
static int walk(struct sim_backend *b, struct sim_stream *st, unsigned streams, unsigned mlp,
                uint64_t hops, uint64_t *cycles)
{
    uintptr_t base = (uintptr_t)b->buffer->virt;
    uint64_t last = b->buffer->size_bytes - sizeof(void *), phys = b->buffer->phys;
    uint64_t addr[WALK_CHUNK], total = 0;
    unsigned lat[WALK_CHUNK];
    if (streams == 1 && st->trace) {
        *cycles += walk_trace(b, st, hops);
        return 0;
    }
    while (hops) {
        size_t rounds = WALK_CHUNK / streams, n = 0;
        rounds = hops < rounds ? (size_t)hops : rounds;
        for (size_t k = 0; k < rounds * streams; k++) {
            uint64_t off = sim_stream_next(&st[k % streams], base, last);
            if (off == UINT64_MAX) {
                sim_hier_load_many(b->h, addr, n, NULL);
                return -1;
            }
            addr[n++] = phys + off;
        }
        sim_hier_load_many(b->h, addr, n, lat);
        total += rounds_cycles(lat, rounds, streams, mlp);
        hops -= rounds;
    }
    *cycles += total;
    return 0;
}

static void result_free(struct point_result *r)
{
    plat_free(r->ticks);
    plat_free(r->tsc_per_access);
    r->ticks = NULL;
    r->tsc_per_access = NULL;
}

/*
 * r's arrays, as measure_alloc lays them out (measure_release frees them); kept here so
 * the backend does not pull in the CPU backend's timed loops.
 */
static int result_alloc(struct point_result *r, unsigned reps, unsigned streams)
{
    memset(r, 0, sizeof(*r));
    r->reps = reps;
    r->streams = streams;
    r->ticks = plat_alloc(reps * sizeof(*r->ticks));
    r->tsc_per_access = plat_alloc(reps * sizeof(*r->tsc_per_access));
    if (r->ticks && r->tsc_per_access)
        return 0;
    result_free(r);
    return -1;
}

/*
 * Whole laps make a deterministic model give the same number every repetition; where the
 * plan allows partial laps (the warm-up reached the steady state), a repetition still
 * covers up to SIM_PARTIAL_HOPS of the lap, so that hit rates are averaged over many sets.
 */
static uint64_t hops_per_rep(const struct chase_point *pt, const struct measure_plan *plan)
{
    uint64_t lap = pt->lap_hops;
    if (plan->partial_laps && lap > SIM_PARTIAL_HOPS)
        lap = SIM_PARTIAL_HOPS;
    uint64_t hops = lap > plan->min_hops ? lap : plan->min_hops;
    uint64_t cap = SIM_MAX_REP_LOADS / pt->streams;
    if (hops > cap)
        hops = cap;
    if (plan->max_hops && hops > plan->max_hops)
        hops = plan->max_hops;
    return hops ? hops : 1;
}

int sim_measure(const struct chase_point *pt, const struct measure_plan *plan,
                const struct timing *t, struct point_result *r)
{
    struct sim_backend *b = bound;
    (void)t;
    if (!b || !b->buffer->virt || pt->streams < 1 || pt->streams > CHASE_MAX_STREAMS)
        return -1;
    if (result_alloc(r, plan->reps ? plan->reps : 1, pt->streams) != 0)
        return -1;
    sim_hier_set_page(b->h, b->buffer->page_bytes);
    r->core_per_tick = 1.0;
    struct sim_stream st[CHASE_MAX_STREAMS];
    if (sim_streams_open(&b->traces, b->buffer, pt, st) != 0)
        goto bad;
    unsigned mlp = pt->serialized ? 1 : b->h->mlp;

    uint64_t warm = plan->warm_hops ? plan->warm_hops : pt->lap_hops;
    if (warm > SIM_MAX_WARM_LOADS / pt->streams)
        warm = SIM_MAX_WARM_LOADS / pt->streams;
    r->warm_hops = warm;
    if (walk(b, st, pt->streams, mlp, warm, &r->warm_ticks) != 0)
        goto bad;

    struct counters before, after;
    snapshot(b->h, &before);
    r->hops = hops_per_rep(pt, plan);
    for (unsigned i = 0; i < r->reps; i++) {
        r->ticks[i] = 0;
        if (walk(b, st, pt->streams, mlp, r->hops, &r->ticks[i]) != 0)
            goto bad;
        r->tsc_per_access[i] = (double)r->ticks[i] / (double)(r->hops * pt->streams);
    }
    stats_summarize(r->tsc_per_access, r->reps, &r->tsc);
    snapshot(b->h, &after);
    stats_row(b, pt, r, &before, &after);
    return 0;
bad:
    result_free(r);
    return -1;
}

void **sim_batches(void **start, uint64_t batches, uint64_t hops, uint64_t *stamps)
{
    struct sim_backend *b = bound;
    if (!b || !b->buffer->virt)
        return NULL;
    uintptr_t base = (uintptr_t)b->buffer->virt;
    uint64_t last = b->buffer->size_bytes - sizeof(void *), phys = b->buffer->phys;
    uint64_t now = (uint64_t)b->h->clock.now_cycles; /* 0 on a model without stalls in time */
    void **p = start;
    stamps[0] = now;
    for (uint64_t i = 0; i < batches; i++) {
        for (uint64_t k = 0; k < hops; k++) {
            uint64_t off = (uint64_t)((uintptr_t)p - base);
            if ((uintptr_t)p < base || off > last)
                return NULL;
            now += sim_hier_load(b->h, phys + off);
            p = (void **)*p;
        }
        stamps[i + 1] = now;
    }
    return p;
}

int sim_batch_window(struct batch_window *w)
{
    void **p = w->p;
    w->fault = (struct fault_info){0};
    w->dropped = 0;
    w->smi_delta = 0;
    if (w->prewalk_hops) {
        uint64_t untimed[2];
        p = sim_batches(p, 1, w->prewalk_hops, untimed);
    }
    p = p ? sim_batches(p, w->batches, w->hops, w->stamps) : NULL;
    if (!p)
        return -1;
    w->p = p;
    return 0;
}
