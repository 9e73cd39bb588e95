// SPDX-License-Identifier: MIT
// How many hops a repetition times, and how many it walks untimed first in its window.
#include "chase/measure_hops.h"

#include "arch/chase_loop.h"

/*
 * Grow hops so that the bounded untimed walk (what refills the TLBs) of a chain longer than
 * the repetition is at most MEASURE_WALK_SHARE_MAX of it: that walk is time outside timed
 * chasing, which a longer repetition shares over more timed hops. It would become a whole lap
 * once the repetition covers one, so the repetition then stops short of a lap. A walk as long
 * as the repetition (no bound) stays so however long it gets, and the lap walk of a chain a
 * repetition covers is left alone too: there, longer repetitions read higher (at 1728K on
 * this guest the median of 4 ms repetitions after a lap read 15% above that of 1 ms ones:
 * what the lap walk puts back in the caches is lost again within a repetition).
 */
static uint64_t walk_share_hops(uint64_t lap, uint64_t hops, const struct measure_plan *plan)
{
    uint64_t walk = measure_prewalk_hops(lap, hops, plan);
    if (!plan->partial_laps || !walk || lap <= hops || walk >= hops ||
        (double)walk <= MEASURE_WALK_SHARE_MAX * (double)hops)
        return hops;
    uint64_t want = (uint64_t)((double)walk / MEASURE_WALK_SHARE_MAX);
    if (want >= lap)
        want = lap - CHASE_UNROLL; /* lap is a multiple of the unroll, above hops */
    want = want > plan->max_hops ? plan->max_hops : want;
    return want > hops ? want : hops;
}

uint64_t measure_hops_per_rep(uint64_t lap_hops, uint64_t warm_hops, uint64_t warm_ticks,
                              const struct measure_plan *plan)
{
    uint64_t lap = measure_round_up_unroll(lap_hops);
    uint64_t hops = plan->min_hops;
    if (!plan->partial_laps && lap > hops)
        hops = lap;
    if (warm_ticks && warm_hops) {
        double ticks_per_hop = (double)warm_ticks / (double)warm_hops;
        double want = (double)plan->target_ticks / ticks_per_hop;
        if (want > (double)hops)
            hops = want > (double)plan->max_hops ? plan->max_hops : (uint64_t)want;
    }
    if (hops > plan->max_hops && (plan->partial_laps || lap <= plan->max_hops))
        hops = plan->max_hops;
    hops = walk_share_hops(lap, measure_round_up_unroll(hops ? hops : 1), plan);
    /* The window holds the untimed walk (at most as long) and the repetition. */
    if (plan->window_max_ticks && plan->partial_laps && warm_ticks && warm_hops) {
        double ticks_per_hop = (double)warm_ticks / (double)warm_hops;
        double cap = (double)plan->window_max_ticks / (2 * ticks_per_hop);
        if ((double)hops > cap)
            hops = cap < CHASE_UNROLL ? CHASE_UNROLL : (uint64_t)cap / CHASE_UNROLL * CHASE_UNROLL;
    }
    return measure_round_up_unroll(hops ? hops : 1);
}

uint64_t measure_prewalk_hops(uint64_t lap_hops, uint64_t rep_hops, const struct measure_plan *plan)
{
    if (plan->warm_laps_set && plan->warm_laps == 0)
        return 0; /* asked for the way from cold: nothing may warm the chain */
    uint64_t lap = measure_round_up_unroll(lap_hops);
    if (lap <= rep_hops)
        return lap;
    if (plan->prewalk_max_hops && plan->prewalk_max_hops < rep_hops)
        return measure_round_up_unroll(plan->prewalk_max_hops);
    return rep_hops;
}
