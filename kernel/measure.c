// SPDX-License-Identifier: MIT
// Timing one point: a warm-up lap, then timed repetitions, each in its own window.
#include "measure.h"

#include "arch/x86_64/chase_loop.h"
#include "kstring.h"
#include "platform.h"

static uint64_t round_up_unroll(uint64_t n)
{
    return (n + CHASE_UNROLL - 1) / CHASE_UNROLL * CHASE_UNROLL;
}

static uint64_t hops_per_rep(uint64_t slots, uint64_t warm_ticks, const struct measure_plan *plan)
{
    uint64_t lap = round_up_unroll(slots);
    uint64_t hops = lap > plan->min_hops ? lap : plan->min_hops;
    if (warm_ticks) {
        double ticks_per_hop = (double)warm_ticks / (double)lap;
        double want = (double)plan->target_ticks / ticks_per_hop;
        if (want > (double)hops)
            hops = want > (double)plan->max_hops ? plan->max_hops : (uint64_t)want;
    }
    if (hops > plan->max_hops && lap <= plan->max_hops)
        hops = plan->max_hops;
    return round_up_unroll(hops);
}

int measure_chase(void **head, uint64_t slots, const struct measure_plan *plan,
                  const struct timing *t, struct point_result *r)
{
    kmemset(r, 0, sizeof(*r));
    r->reps = plan->reps;
    r->ticks = plat_alloc(plan->reps * sizeof(uint64_t));
    r->tsc_per_access = plat_alloc(plan->reps * sizeof(double));
    if (!r->ticks || !r->tsc_per_access) {
        measure_release(r);
        return -1;
    }
    r->core_per_tick = timing_core_ratio(plan->core_iters);

    /* One lap brings the chain into the state every later lap sees. */
    struct window w;
    void **p = head;
    plat_window_enter(&w);
    r->warm_ticks = t->chase(p, round_up_unroll(slots) / CHASE_UNROLL, &p);
    plat_window_leave(&w);

    r->hops = hops_per_rep(slots, r->warm_ticks, plan);
    for (unsigned i = 0; i < plan->reps; i++) {
        plat_window_enter(&w);
        r->ticks[i] = t->chase(p, r->hops / CHASE_UNROLL, &p);
        plat_window_leave(&w);
        double net = (double)r->ticks[i] - t->overhead_ticks;
        r->tsc_per_access[i] = (net > 0 ? net : 0) / (double)r->hops;
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
