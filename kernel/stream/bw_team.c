// SPDX-License-Identifier: MIT
// Several processors streaming buffers of their own at once, started together, timed by one.
#include "stream/bw_team.h"

#include "arch/cpu.h"
#include "chase/reps.h"
#include "lib/kstring.h"
#include "point/sizes.h"
#include "point/plan.h"

/* Each timed run lasts about this many of the plan's target repetition times. */
#define BW_TEAM_TARGET_REPS 1
/* Warm-up laps the walk is sized from, the fastest taken: a lap a processor lost its core in
   (another guest's vCPU, an interrupt) is only slower, and one such lap alone would shrink every
   run of the row to a few kilobytes, all start and no stream. */
#define BW_TEAM_SIZING_LAPS 3

uint64_t bw_mix_moved(const struct bw_mix *mix, uint64_t size, uint64_t laps)
{
    uint64_t moved = 0;
    for (unsigned s = 0; s < mix->nsteps; s++) {
        enum bw_kernel k = mix->step[s].kernel;
        moved += bw_bytes_moved(k, bw_span_bytes(k, size / mix->step[s].div), laps);
    }
    return moved;
}

static void team_stream(struct bw_team_worker *w)
{
    for (unsigned s = 0; s < w->mix->nsteps; s++) {
        enum bw_kernel k = w->mix->step[s].kernel;
        uint64_t part = w->size / w->mix->step[s].div, span = bw_span_bytes(k, part);
        uint8_t *dst = w->base + (bw_is_copy(k) ? span : 0);
        w->sink += bw_kernel_code(k, w->width)(dst, w->base, span, w->laps);
    }
}

/* Each processor: say it is ready, wait for go, stream, say it is done. The first waits for the
   others to be ready, gives go, streams, and times until all are done. */
static void team_work(void *arg)
{
    struct bw_team_worker *w = arg;
    struct bw_team_shared *sh = w->sh;
    if (w->index) {
        __atomic_add_fetch(&sh->ready, 1, __ATOMIC_ACQ_REL);
        if (!mp_wait_for(&sh->go, 1, sh->deadline))
            return;
        team_stream(w);
        __atomic_add_fetch(&sh->done, 1, __ATOMIC_ACQ_REL);
        return;
    }
    sh->late = !mp_wait_for(&sh->ready, sh->n - 1, sh->deadline);
    uint64_t t0 = arch_tsc_fenced();
    __atomic_store_n(&sh->go, 1, __ATOMIC_RELEASE);
    team_stream(w);
    sh->late |= !mp_wait_for(&sh->done, sh->n - 1, sh->deadline);
    sh->ticks = arch_tsc_fenced() - t0;
}

/* What each processor walks in one run: `laps` laps over `bytes` of its buffer from `at`. */
struct team_walk {
    uint64_t at, bytes, laps;
};

/* One run: ticks from go until all were done; -1 when one was lost. */
static int team_once(struct exp_ctx *ctx, struct bw_team *t, const struct bw_mix *mix,
                     const struct team_walk *wk, uint64_t *ticks)
{
    bool done[MP_TEAM_MAX];
    t->sh = (struct bw_team_shared){.n = t->n};
    t->sh.deadline = arch_tsc_fenced() + MP_TIMEOUT_US * ctx->timing->wall_tsc_hz / 1000000;
    for (unsigned i = 0; i < t->n; i++) {
        t->w[i] = (struct bw_team_worker){
            &t->sh, i, t->base[i] + wk->at, wk->bytes, wk->laps, mix, t->width, 0};
        t->jobs[i] = (struct mp_job){team_work, &t->w[i]};
    }
    int rc = mp_run_together(t->cpus, t->n, t->jobs, MP_TIMEOUT_US, done);
    for (unsigned i = 0; i < t->n; i++)
        rc |= done[i] ? 0 : -1;
    if (rc != 0 || t->sh.late) {
        mp_refresh_lost(t->cpus, t->n);
        return -1;
    }
    *ticks = t->sh.ticks;
    return 0;
}

static inline uint64_t kmax(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* The fastest sizing lap sizes the walk: whole laps, or stretches of buffers whose lap is longer
   than a run should be; kept in r (span: bytes per processor, laps, bytes moved by all). */
static void team_size_walk(struct exp_ctx *ctx, const struct bw_team *t, const struct bw_mix *mix,
                           uint64_t ticks, struct bw_result *r)
{
    struct measure_plan plan = exp_plan(ctx, t->size, exp_line_bytes(ctx->m), 1);
    uint64_t target = BW_TEAM_TARGET_REPS * plan.target_ticks;
    r->span = t->size;
    r->laps = 1;
    if (ticks && target > ticks)
        r->laps = target / ticks;
    else if (ticks)
        r->span = kmax(t->size * target / ticks / BW_SIZE_ALIGN_BYTES, 1) * BW_SIZE_ALIGN_BYTES;
    r->bytes_per_rep = t->n * bw_mix_moved(mix, r->span, r->laps);
}

/* Runs as plan says appended to r, the slice's stop judged on its own runs; 0, or -1. */
static int team_runs(struct exp_ctx *ctx, struct bw_team *t, const struct bw_mix *mix,
                     const struct measure_plan *plan, struct bw_result *r)
{
    struct team_walk wk = {0, r->span, r->laps};
    unsigned room = BW_REPS_MAX - r->reps, n = 0, least = plan->reps ? plan->reps : 1;
    unsigned most = plan->max_reps && plan->max_reps < room ? plan->max_reps : room;
    struct reps_rule rule = {least < most ? least : most, most, plan->precision, plan->max_ticks};
    struct reps_verdict v = {0};
    enum reps_stop stop = most ? REPS_GO_ON : REPS_STOP_CAPACITY;
    uint64_t start = arch_tsc_fenced(), ticks;
    double hz = (double)ctx->timing->tsc_hz;
    while (stop == REPS_GO_ON) {
        if (team_once(ctx, t, mix, &wk, &ticks) != 0)
            return -1;
        wk.at = wk.at + 2 * wk.bytes <= t->size ? wk.at + wk.bytes : 0;
        if (t->sample_keys)
            strbuf_printf(&ctx->samples, "%s,%u,%llu,%.6f\n", t->sample_keys, r->reps,
                          (unsigned long long)ticks,
                          (double)r->bytes_per_rep * hz / (double)ticks / BW_BYTES_PER_GB);
        r->ticks[r->reps] = ticks;
        r->core_per[r->reps++] = 0; /* no clock taken: the run spans several processors */
        r->timed_ticks += ticks;
        reps_insert_sorted(t->sorted, n, (double)ticks / (double)r->bytes_per_rep);
        reps_assess(t->sorted, ++n, &v);
        stop = reps_should_stop(&rule, &v, arch_tsc_fenced() - start);
    }
    r->stop = stop;
    return 0;
}

int bw_team_slice(struct exp_ctx *ctx, struct bw_team *t, const struct bw_mix *mix,
                  const struct measure_plan *plan, bool warm, struct bw_result *r)
{
    if (warm || !r->reps) {
        struct team_walk lap = {0, t->size, 1};
        unsigned laps = r->reps ? 1 : BW_TEAM_SIZING_LAPS;
        uint64_t fastest = UINT64_MAX, ticks, t0 = arch_tsc_fenced();
        for (unsigned i = 0; i < laps; i++) {
            if (team_once(ctx, t, mix, &lap, &ticks) != 0)
                return -1;
            fastest = ticks < fastest ? ticks : fastest;
        }
        r->warm_ticks += arch_tsc_fenced() - t0;
        if (!r->reps)
            team_size_walk(ctx, t, mix, fastest, r);
    }
    if (team_runs(ctx, t, mix, plan, r) != 0)
        return -1;
    bw_result_summarize(r, ctx->timing);
    return 0;
}

int bw_team_measure(struct exp_ctx *ctx, struct bw_team *t, const struct bw_mix *mix,
                    struct bw_team_out *o)
{
    struct measure_plan plan = exp_plan(ctx, t->size, exp_line_bytes(ctx->m), 1);
    kmemset(&t->r, 0, sizeof(t->r));
    if (bw_team_slice(ctx, t, mix, &plan, true, &t->r) != 0)
        return -1;
    o->median = t->r.gbs_median;
    o->min = t->r.gbs_min;
    o->max = t->r.gbs_max;
    o->reps = t->r.reps;
    o->outliers = t->r.outliers;
    o->moved = t->r.bytes_per_rep;
    return 0;
}
