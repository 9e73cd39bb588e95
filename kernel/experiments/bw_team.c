// SPDX-License-Identifier: MIT
// Several processors streaming buffers of their own at once, started together, timed by one.
#include "experiments/bw_team.h"

#include "arch/cpu.h"
#include "chase/reps.h"

/* Each timed run lasts about this many of the plan's target repetition times. */
#define BW_TEAM_TARGET_REPS 1

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
    bool done[PLAT_CPUS_MAX];
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

int bw_team_measure(struct exp_ctx *ctx, struct bw_team *t, const struct bw_mix *mix,
                    struct bw_team_out *o)
{
    struct measure_plan plan = exp_plan(ctx, t->size, exp_line_bytes(ctx->m), 1);
    struct team_walk wk = {0, t->size, 1};
    uint64_t ticks, target = BW_TEAM_TARGET_REPS * plan.target_ticks;
    if (team_once(ctx, t, mix, &wk, &ticks) != 0)
        return -1;
    if (ticks && target > ticks) /* whole laps; else stretches walking round the buffers */
        wk.laps = target / ticks;
    else if (ticks)
        wk.bytes = kmax(t->size * target / ticks / BW_SIZE_ALIGN_BYTES, 1) * BW_SIZE_ALIGN_BYTES;
    struct reps_rule rule = {plan.reps ? plan.reps : 1, BW_REPS_MAX, plan.precision,
                             plan.max_ticks};
    struct reps_verdict v = {0};
    enum reps_stop stop = REPS_GO_ON;
    uint64_t start = arch_tsc_fenced();
    double hz = (double)ctx->timing->tsc_hz;
    o->moved = t->n * bw_mix_moved(mix, wk.bytes, wk.laps);
    for (o->reps = 0; stop == REPS_GO_ON; o->reps++) {
        if (team_once(ctx, t, mix, &wk, &ticks) != 0)
            return -1;
        wk.at = wk.at + 2 * wk.bytes <= t->size ? wk.at + wk.bytes : 0;
        if (t->sample_keys)
            strbuf_printf(&ctx->samples, "%s,%u,%llu,%.6f\n", t->sample_keys, o->reps,
                          (unsigned long long)ticks,
                          (double)o->moved * hz / (double)ticks / BW_BYTES_PER_GB);
        reps_insert_sorted(t->sorted, o->reps, (double)ticks / (double)o->moved);
        reps_assess(t->sorted, o->reps + 1, &v);
        stop = reps_should_stop(&rule, &v, arch_tsc_fenced() - start);
    }
    o->median = hz / v.kept_stats.median / BW_BYTES_PER_GB;
    o->min = hz / v.kept_stats.max / BW_BYTES_PER_GB;
    o->max = hz / v.kept_stats.min / BW_BYTES_PER_GB;
    o->outliers = v.n - v.kept;
    return 0;
}
