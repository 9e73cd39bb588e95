// SPDX-License-Identifier: MIT
// Timing one point: a warm-up lap, then timed repetitions, each in its own window.
#include "chase/measure.h"

#include "arch/chase_loop.h"
#include "arch/cpu.h"
#include "arch/fault_test.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "machine/fault.h"
#include "platform.h"
#include "chase/reps.h"

/* Hops of the first warm-up window, before its pace is known: 1 ms even at 250 ns a hop. */
#define WARM_FIRST_WINDOW_HOPS 4096
/* The most warm-up windows whose paces the steady-state test keeps (then it stops testing). */
#define WARM_PACES_MAX 4096
/* Windows a point may lose to NMIs and machine checks before it fails (a storm, not a blip). */
#define MEASURE_MAX_DROPPED 16

/* The lock-step loops by number of chains (chase_loop.h's list); index 0 and 1 are unused. */
#define LOCKSTEP_ENTRY(n) [n] = chase_lockstep_##n,
#define SERIAL_ENTRY(n) [n] = chase_serial_##n,
static const chase_lockstep_fn lockstep_fns[CHASE_LOCKSTEP_MAX + 1] = {
    CHASE_LOCKSTEP_COUNTS(LOCKSTEP_ENTRY)};
static const chase_lockstep_fn serial_fns[CHASE_LOCKSTEP_MAX + 1] = {
    CHASE_LOCKSTEP_COUNTS(SERIAL_ENTRY)};

/* Add-chain iterations of the point's one clock estimate when none is taken per repetition. */
#define CHASE_CLOCK_FALLBACK_ITERS 4096

/* One timed chase, run inside a measurement window. */
struct chase_job {
    chase_timed_fn chase;       /* one chain */
    chase_lockstep_fn lockstep; /* several chains (NULL for one) */
    uint64_t use_rdtscp;
    void **p[CHASE_MAX_STREAMS];
    uint64_t iters;
    uint64_t prewalk_iters; /* untimed, in the same window, before the first timestamp */
    uint64_t ticks;
    unsigned fault_test;
    bool smi; /* read MSR_SMI_COUNT around the chase (outside the timed region) */
    uint64_t smi_delta;
    /* The clock next to each repetition, outside its timed region: an add chain of
       clock_iters iterations before and after it (the one before shared with the
       repetition before, if any), or APERF/MPERF (ring 0) around it. */
    uint64_t clock_iters;
    add_chain_fn adds;
    bool aperf;
    uint64_t adds_before, adds_after;
    bool adds_before_given; /* adds_before is the estimate after the repetition before */
    double msr_ratio;
};

/* Chase the job's streams for iters iterations from where they are; TSC ticks taken. */
static uint64_t job_chase(struct chase_job *j, uint64_t iters)
{
    if (j->lockstep)
        return j->lockstep(j->p, iters, j->use_rdtscp);
    return j->chase(j->p[0], iters, &j->p[0]);
}

/* Read APERF and MPERF into a[0], m[0] (a start) or a[1], m[1] (an end). */
static void read_aperf_mperf(uint64_t *a, uint64_t *m)
{
    *a = arch_rdmsr(MSR_APERF);
    *m = arch_rdmsr(MSR_MPERF);
}

static void chase_job_run(void *arg)
{
    struct chase_job *j = arg;
    uint64_t a[2] = {0, 0}, m[2] = {0, 0};
    if (j->clock_iters && !j->adds_before_given)
        j->adds_before = j->adds(j->clock_iters);
    if (j->aperf)
        read_aperf_mperf(&a[0], &m[0]);
    uint64_t smi0 = j->smi ? arch_rdmsr(MSR_SMI_COUNT) : 0;
    if (j->fault_test) {
        unsigned fault = j->fault_test;
        j->fault_test = FAULT_TEST_NONE; /* the first window only, warm-up or not */
        arch_fault_test(fault);
    }
    /* Entering the window emptied the TLBs on the firmware: refill them untimed, with the
       same loop, and time from where that walk ended. */
    if (j->prewalk_iters)
        job_chase(j, j->prewalk_iters);
    j->ticks = job_chase(j, j->iters);
    if (j->smi)
        j->smi_delta = arch_rdmsr(MSR_SMI_COUNT) - smi0;
    if (j->aperf) {
        read_aperf_mperf(&a[1], &m[1]);
        j->msr_ratio = timing_msr_ratio(a[0], a[1], m[0], m[1]);
    }
    if (j->clock_iters)
        j->adds_after = j->adds(j->clock_iters);
}

/*
 * Run the job in a window; an NMI or machine check during it costs that window (counted in
 * r->dropped, which gives up past MEASURE_MAX_DROPPED), any other exception fails the point.
 */
static int job_window(struct chase_job *job, struct point_result *r)
{
    while (plat_window_run(chase_job_run, job, &r->fault) != 0) {
        if (!fault_is_interruption(&r->fault) || r->dropped >= MEASURE_MAX_DROPPED)
            return -1;
        r->dropped++;
        r->dropped_vector = r->fault.vector;
    }
    return 0;
}

int measure_alloc(struct point_result *r, unsigned reps, unsigned streams)
{
    kmemset(r, 0, sizeof(*r));
    r->reps = reps;
    r->streams = streams;
    r->ticks = plat_alloc(reps * sizeof(uint64_t));
    r->tsc_per_access = plat_alloc(reps * sizeof(double));
    r->core_per_rep = plat_alloc(reps * sizeof(double));
    r->clock_pair = plat_alloc(reps * sizeof(double));
    if (!r->ticks || !r->tsc_per_access || !r->core_per_rep || !r->clock_pair) {
        measure_release(r);
        return -1;
    }
    kmemset(r->core_per_rep, 0, reps * sizeof(double));
    for (unsigned i = 0; i < reps; i++)
        r->clock_pair[i] = KM_NAN; /* no pair until rep_clock takes one */
    return 0;
}

/* Set up the job for pt: the loop that chases its streams, and where they start. */
static int job_init(struct chase_job *job, const struct chase_point *pt, const struct timing *t,
                    unsigned fault_test)
{
    kmemset(job, 0, sizeof(*job));
    if (pt->streams < 1 || pt->streams > CHASE_LOCKSTEP_MAX)
        return -1;
    job->chase = t->chase;
    job->use_rdtscp = t->rdtscp ? 1 : 0;
    job->adds = timing_adds(t);
    if (pt->streams > 1)
        job->lockstep = pt->serialized ? serial_fns[pt->streams] : lockstep_fns[pt->streams];
    for (unsigned i = 0; i < pt->streams; i++)
        job->p[i] = pt->head[i];
    job->fault_test = fault_test;
    return 0;
}

/* The most repetitions a point may have: room for them is taken before the first. */
static unsigned plan_capacity(const struct measure_plan *plan)
{
    unsigned reps = plan->reps ? plan->reps : 1;
    if (plan->precision <= 0)
        return reps;
    return plan->max_reps > reps ? plan->max_reps : reps;
}

/*
 * Hops of the next window of a stretch the window cap splits (the warm-up, a whole lap), of
 * left: all of them without a cap (plan->window_max_ticks 0); else as many as fill
 * window_ticks at the pace so far (done hops in ticks), and WARM_FIRST_WINDOW_HOPS before
 * there is a pace.
 */
static uint64_t warm_window_hops(const struct measure_plan *plan, uint64_t window_ticks,
                                 uint64_t done, uint64_t ticks, uint64_t left)
{
    if (!plan->window_max_ticks)
        return left;
    uint64_t n = WARM_FIRST_WINDOW_HOPS;
    if (done && ticks) {
        double fit = (double)window_ticks * (double)done / (double)ticks;
        n = fit < CHASE_UNROLL ? CHASE_UNROLL : (uint64_t)fit / CHASE_UNROLL * CHASE_UNROLL;
    }
    return n < left ? n : left;
}

/* What the warm-up's windows showed: the pace repetitions are sized by (hops in ticks:
   warm_typical_pace) and each window's pace. */
struct warm_pace {
    uint64_t pace_hops, pace_ticks;
    double *paces; /* ticks per hop of each window (room for WARM_PACES_MAX), then scratch */
    unsigned n;
};

/* The median of v[lo..hi) (sorts a copy in scratch). */
static double median_of(const double *v, unsigned lo, unsigned hi, double *scratch)
{
    kmemcpy(scratch, v + lo, (hi - lo) * sizeof(double));
    stats_sort(scratch, hi - lo);
    return stats_quantile_sorted(scratch, hi - lo, 0.5);
}

bool measure_warm_may_stop_at(uint64_t ticks, uint64_t done, uint64_t hops, uint64_t steady_ticks)
{
    if (!steady_ticks || !done)
        return false;
    double whole = (double)ticks * (double)hops / (double)done;
    return whole > (double)steady_ticks &&
           (double)ticks >= WARM_STEADY_FROM_SHARE * (double)steady_ticks;
}

bool measure_warm_steady(const double *paces, unsigned n, double tolerance, double *scratch)
{
    unsigned a = n / 2, b = 3 * n / 4;
    if (b - a < WARM_STEADY_MIN_WINDOWS || n - b < WARM_STEADY_MIN_WINDOWS)
        return false;
    double early = median_of(paces, a, b, scratch), late = median_of(paces, b, n, scratch);
    double d = late > early ? late - early : early - late;
    return early > 0 && d <= tolerance * early;
}

/*
 * The pace repetitions are sized by: the lower quartile of the latest half of the windows.
 * The latest half, because the first windows after the build find its leftovers in the caches
 * (at 32M here the fastest window ran 2-3 times the steady pace); a low quantile, because on
 * a loaded host most 5 ms windows hold some time the scheduler gave another process (their
 * median ran at least 1.5 times the pace of the 1 ms repetitions at 256M).
 */
static double warm_typical_pace(struct warm_pace *w)
{
    unsigned lo = w->n / 2, k = w->n - lo;
    kmemcpy(w->paces + WARM_PACES_MAX, w->paces + lo, k * sizeof(double));
    stats_sort(w->paces + WARM_PACES_MAX, k);
    return stats_quantile_sorted(w->paces + WARM_PACES_MAX, k, 0.25);
}

/* Record one warm-up window of n hops in ticks. */
static void warm_note(struct warm_pace *w, uint64_t n, uint64_t ticks)
{
    if (w->paces && w->n < WARM_PACES_MAX && n)
        w->paces[w->n++] = (double)ticks / (double)n;
}

/* Whether a warm-up that has taken `ticks` for `done` of its `hops` may stop before them:
   measure_warm_may_stop_at, and steady. */
static bool warm_may_stop(const struct measure_plan *plan, struct warm_pace *w, uint64_t ticks,
                          uint64_t done, uint64_t hops)
{
    if (!w->paces || plan->warm_laps_set ||
        !measure_warm_may_stop_at(ticks, done, hops, plan->warm_steady_ticks))
        return false;
    double tolerance =
        plan->precision > WARM_STEADY_TOLERANCE ? plan->precision : WARM_STEADY_TOLERANCE;
    return measure_warm_steady(w->paces, w->n, tolerance, w->paces + WARM_PACES_MAX);
}

/* The warm-up: plan->warm_laps laps when set (0: none), else warm_hops or one lap, which a
   long one may cut short once steady (warm_may_stop); in windows of half
   plan->window_max_ticks, or of a repetition's plan->target_ticks if shorter (the steady-state
   test then has its windows sooner). */
static int warm_up(struct chase_job *job, const struct chase_point *pt,
                   const struct measure_plan *plan, struct point_result *r, struct warm_pace *w)
{
    uint64_t hops = plan->warm_laps_set ? plan->warm_laps * pt->lap_hops
                    : plan->warm_hops   ? plan->warm_hops
                                        : pt->lap_hops;
    hops = hops ? measure_round_up_unroll(hops) : 0;
    if (!hops)
        return 0;
    w->paces = plan->window_max_ticks ? plat_alloc(2 * WARM_PACES_MAX * sizeof(double)) : NULL;
    uint64_t t0 = arch_tsc_fenced(), done = 0, window = plan->window_max_ticks / 2;
    window = plan->target_ticks && plan->target_ticks < window ? plan->target_ticks : window;
    int rc = 0;
    while (done < hops && rc == 0) {
        uint64_t n = warm_window_hops(plan, window, done, r->warm_ticks, hops - done);
        job->iters = n / CHASE_UNROLL;
        rc = job_window(job, r);
        r->warm_ticks += job->ticks;
        done += n;
        warm_note(w, n, job->ticks);
        if (warm_may_stop(plan, w, arch_tsc_fenced() - t0, done, hops))
            break;
    }
    r->warm_hops = done;
    r->time.warm = arch_tsc_fenced() - t0;
    w->pace_hops = done;
    w->pace_ticks = r->warm_ticks; /* with fewer than 4 windows: all of them */
    if (w->n >= 4)
        w->pace_ticks = (uint64_t)(warm_typical_pace(w) * (double)done + 0.5);
    plat_free(w->paces);
    w->paces = NULL;
    return rc;
}

/* Repetition i's core clock, from the estimates its window took. */
static void rep_clock(const struct chase_job *job, const struct timing *t, struct point_result *r,
                      unsigned i)
{
    double ratio = 0;
    if (job->aperf) {
        ratio = job->msr_ratio;
    } else if (job->clock_iters) {
        uint64_t adds = job->clock_iters * CHASE_UNROLL;
        double before = timing_adds_ratio(adds, job->adds_before, t->adds_overhead_ticks);
        double after = timing_adds_ratio(adds, job->adds_after, t->adds_overhead_ticks);
        ratio = timing_pair_ratio(before, after);
        if (r->clock_pair)
            r->clock_pair[i] = before > 0 && after > 0 ? timing_pair_gap(before, after) : KM_NAN;
    }
    r->core_per_rep[i] = ratio;
}

/*
 * Repetition i's hops in windows: one, or, for a whole lap that the window cap does not
 * shorten (plan->partial_laps false), as many as keep each within about window_max_ticks at
 * the pace of repetition i - 1 (for the first: 4096 hops, then the pace so far), the chase
 * ticks and SMIs summed. The untimed walk and the first clock estimate belong to the first
 * window (for i > 0 that estimate is the last one of repetition i - 1), the last estimate to
 * the last. Returns the windows used, 0 on failure.
 */
static unsigned rep_windows(struct chase_job *job, const struct measure_plan *plan,
                            struct point_result *r, unsigned i, uint64_t *smi)
{
    bool split = !plan->partial_laps && plan->window_max_ticks;
    uint64_t done = split && i ? r->hops : 0, ticks = split && i ? r->ticks[i - 1] : 0;
    uint64_t prewalk = job->prewalk_iters, adds_before = 0, left = r->hops;
    unsigned windows = 0;
    /* Consecutive repetitions share an estimate: the one after repetition i - 1 is the one
       before repetition i (only the stats of i - 1 lie between them). */
    bool shared = i > 0 && job->clock_iters;
    if (shared)
        job->adds_before = job->adds_after;
    r->ticks[i] = 0;
    *smi = 0;
    while (left) {
        uint64_t n =
            split ? warm_window_hops(plan, plan->window_max_ticks / 2, done, ticks, left) : left;
        job->iters = n / CHASE_UNROLL;
        job->prewalk_iters = windows ? 0 : prewalk;
        job->adds_before_given = shared && !windows;
        if (job_window(job, r) != 0)
            break;
        adds_before = windows++ ? adds_before : job->adds_before;
        r->ticks[i] += job->ticks;
        *smi += job->smi_delta;
        left -= n;
        if (!(split && i)) {
            done += n;
            ticks += job->ticks;
        }
    }
    job->prewalk_iters = prewalk;
    job->adds_before = adds_before;
    job->adds_before_given = false;
    return left ? 0 : windows;
}

/* Run repetition i and record it (the timer's overhead subtracted once per window). */
static int repetition(struct chase_job *job, const struct chase_point *pt,
                      const struct measure_plan *plan, const struct timing *t,
                      struct point_result *r, unsigned i)
{
    uint64_t smi;
    unsigned windows = rep_windows(job, plan, r, i, &smi);
    if (!windows)
        return -1;
    r->time.timed += r->ticks[i];
    r->split_windows += windows - 1;
    if (r->smi) {
        r->smi[i] = smi;
        r->smi_reps += smi != 0;
    }
    rep_clock(job, t, r, i);
    double net = (double)r->ticks[i] - windows * t->overhead_ticks;
    r->tsc_per_access[i] = (net > 0 ? net : 0) / (double)(r->hops * pt->streams);
    return 0;
}

/* Keep what the verdict on the repetitions says in r. */
static void keep_verdict(struct point_result *r, const struct reps_verdict *v, enum reps_stop stop)
{
    r->assessed = true;
    r->tsc = v->kept_stats;
    r->outliers = v->n - v->kept;
    r->outlier_above = v->threshold;
    r->ci_valid = v->ci_valid;
    r->precision = v->precision;
    r->stop = stop;
}

/* Repetitions until the rule says stop; sorted (room for cap) keeps them in order. */
static int repeat(struct chase_job *job, const struct chase_point *pt,
                  const struct measure_plan *plan, const struct timing *t, struct point_result *r,
                  double *sorted, unsigned cap)
{
    struct reps_rule rule = {plan->reps ? plan->reps : 1, cap, plan->precision, plan->max_ticks};
    struct reps_verdict v = {0};
    enum reps_stop stop = REPS_GO_ON;
    uint64_t start = arch_tsc_fenced();
    unsigned n = 0;
    while (stop == REPS_GO_ON) {
        if (repetition(job, pt, plan, t, r, n) != 0)
            return -1;
        reps_insert_sorted(sorted, n, r->tsc_per_access[n]);
        n++;
        /* With a fixed count only the last verdict counts. */
        if (plan->precision > 0 || n >= rule.min_reps)
            reps_assess(sorted, n, &v);
        else
            v.n = n;
        stop = reps_should_stop(&rule, &v, arch_tsc_fenced() - start);
    }
    r->reps = n;
    keep_verdict(r, &v, stop);
    return 0;
}

int measure_chase(const struct chase_point *pt, const struct measure_plan *plan,
                  const struct timing *t, struct point_result *r)
{
    struct chase_job job;
    kmemset(r, 0, sizeof(*r));
    /* NMI and machine-check tests hit the first repetition, whose window is then dropped. */
    bool hits_rep =
        plan->fault_test == FAULT_TEST_NMI || plan->fault_test == FAULT_TEST_MACHINE_CHECK;
    if (job_init(&job, pt, t, hits_rep ? FAULT_TEST_NONE : plan->fault_test) != 0)
        return -1;
    unsigned cap = plan_capacity(plan);
    if (measure_alloc(r, cap, pt->streams) != 0)
        return -1;
    double *sorted = plat_alloc(cap * sizeof(double));
    if (!sorted)
        return -1;
    int rc = -1;

    /* The warm-up brings the chains into the state every later stretch of the chase sees. */
    struct warm_pace pace = {0};
    if (warm_up(&job, pt, plan, r, &pace) != 0)
        goto out;
    if (hits_rep)
        job.fault_test = plan->fault_test;
    job.smi = t->smi_counting;
    if (job.smi && !(r->smi = plat_alloc(cap * sizeof(uint64_t))))
        goto out;
    r->hops = measure_hops_per_rep(pt->lap_hops, pace.pace_hops, pace.pace_ticks, plan);
    r->prewalk_hops = measure_prewalk_hops(pt->lap_hops, r->hops, plan);
    job.prewalk_iters = r->prewalk_hops / CHASE_UNROLL;
    job.aperf = t->aperf_in_window;
    job.clock_iters = job.aperf ? 0 : plan->core_iters;
    r->clock = job.aperf ? ARCH_CORE_COUNTER : job.clock_iters ? "adds" : NULL;
    rc = repeat(&job, pt, plan, t, r, sorted, cap);
    for (unsigned i = 0; i < pt->streams; i++)
        r->end[i] = job.p[i];
    if (rc == 0 && !r->clock)
        r->core_per_tick =
            timing_core_ratio(timing_adds(t), CHASE_CLOCK_FALLBACK_ITERS, t->adds_overhead_ticks);
out:
    plat_free(sorted);
    return rc;
}

void measure_assess_fixed(struct point_result *r)
{
    double *sorted = r->reps ? plat_alloc(r->reps * sizeof(double)) : NULL;
    size_t lo, hi;
    r->stop = REPS_STOP_FIXED;
    if (!sorted)
        return;
    for (unsigned i = 0; i < r->reps; i++)
        sorted[i] = r->tsc_per_access[i];
    stats_sort(sorted, r->reps);
    double median = stats_quantile_sorted(sorted, r->reps, 0.5);
    if (stats_median_ci_ranks(r->reps, &lo, &hi) && median > 0) {
        r->ci_valid = true;
        r->precision = (sorted[hi] - sorted[lo]) / 2 / median;
    }
    plat_free(sorted);
}

void measure_release(struct point_result *r)
{
    plat_free(r->smi);
    r->smi = NULL;
    plat_free(r->core_per_rep);
    r->core_per_rep = NULL;
    plat_free(r->clock_pair);
    r->clock_pair = NULL;
    plat_free(r->ticks);
    plat_free(r->tsc_per_access);
    r->ticks = NULL;
    r->tsc_per_access = NULL;
}
