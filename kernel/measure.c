// SPDX-License-Identifier: MIT
// Timing one point: a warm-up lap, then timed repetitions, each in its own window.
#include "measure.h"

#include "arch/x86_64/chase_loop.h"
#include "arch/x86_64/fault_test.h"
#include "kstring.h"
#include "platform.h"

/* One timed chase, run inside a measurement window. */
struct chase_job {
    chase_timed_fn chase;
    void **p;
    uint64_t iters;
    uint64_t ticks;
    unsigned fault_test;
};

static void chase_job_run(void *arg)
{
    struct chase_job *j = arg;
    if (j->fault_test)
        arch_fault_test(j->fault_test);
    j->ticks = j->chase(j->p, j->iters, &j->p);
}

static uint64_t round_up_unroll(uint64_t n)
{
    return (n + CHASE_UNROLL - 1) / CHASE_UNROLL * CHASE_UNROLL;
}

uint64_t measure_hops_per_rep(uint64_t lap_hops, uint64_t warm_ticks, unsigned streams,
                              const struct measure_plan *plan)
{
    uint64_t lap = round_up_unroll(lap_hops);
    uint64_t hops = lap > plan->min_hops ? lap : plan->min_hops;
    if (warm_ticks) {
        double ticks_per_hop = (double)warm_ticks / (double)lap;
        double want = (double)plan->target_ticks / ticks_per_hop;
        if (want > (double)hops)
            hops = want > (double)plan->max_hops ? plan->max_hops : (uint64_t)want;
    }
    if (hops > plan->max_hops && lap <= plan->max_hops)
        hops = plan->max_hops;
    (void)streams;
    return round_up_unroll(hops);
}

int measure_alloc(struct point_result *r, unsigned reps, unsigned streams)
{
    kmemset(r, 0, sizeof(*r));
    r->reps = reps;
    r->streams = streams;
    r->ticks = plat_alloc(reps * sizeof(uint64_t));
    r->tsc_per_access = plat_alloc(reps * sizeof(double));
    if (!r->ticks || !r->tsc_per_access) {
        measure_release(r);
        return -1;
    }
    return 0;
}

int measure_chase(const struct chase_point *pt, const struct measure_plan *plan,
                  const struct timing *t, struct point_result *r)
{
    if (pt->streams != 1)
        return -1; /* the lock-step loops come with the experiments that need them */
    if (measure_alloc(r, plan->reps, pt->streams) != 0)
        return -1;
    r->core_per_tick = timing_core_ratio(plan->core_iters);

    /* One lap brings the chain into the state every later lap sees. */
    struct chase_job job = {t->chase, pt->head[0], round_up_unroll(pt->lap_hops) / CHASE_UNROLL, 0,
                            plan->fault_test};
    if (plat_window_run(chase_job_run, &job, &r->fault) != 0)
        return -1;
    r->warm_ticks = job.ticks;
    job.fault_test = FAULT_TEST_NONE;

    r->hops = measure_hops_per_rep(pt->lap_hops, r->warm_ticks, pt->streams, plan);
    job.iters = r->hops / CHASE_UNROLL;
    for (unsigned i = 0; i < plan->reps; i++) {
        if (plat_window_run(chase_job_run, &job, &r->fault) != 0)
            return -1;
        r->ticks[i] = job.ticks;
        double net = (double)r->ticks[i] - t->overhead_ticks;
        r->tsc_per_access[i] = (net > 0 ? net : 0) / (double)(r->hops * pt->streams);
    }
    stats_summarize(r->tsc_per_access, r->reps, &r->tsc);
    return 0;
}

void measure_release(struct point_result *r)
{
    plat_free(r->ticks);
    plat_free(r->tsc_per_access);
    r->ticks = NULL;
    r->tsc_per_access = NULL;
}
