// SPDX-License-Identifier: MIT
// A point's repetitions as a whole: passes merged, core cycles per repetition, headlines.
#include "chase/measure.h"

#include "chase/reps.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "platform.h"

/* The quantiles of the per-repetition clocks whose distance is their disagreement. */
#define MEASURE_CLOCK_LO 0.1
#define MEASURE_CLOCK_HI 0.9

/* The core clock of repetition i: its own estimate, else the point's. */
static double rep_core_per_tick(const struct point_result *r, unsigned i)
{
    return r->core_per_rep && r->core_per_rep[i] > 0 ? r->core_per_rep[i] : r->core_per_tick;
}

/*
 * The median of the positive per-repetition clocks into r->core_per_tick, and their
 * disagreement: (p90 - p10) / median, robust to the odd estimate an interrupt lowered.
 */
static void median_clock(struct point_result *r, double *scratch)
{
    unsigned n = 0;
    for (unsigned i = 0; r->core_per_rep && i < r->reps; i++) {
        if (r->core_per_rep[i] > 0)
            scratch[n++] = r->core_per_rep[i];
    }
    r->clock_disagree = 0;
    if (!n)
        return;
    stats_sort(scratch, n);
    r->core_per_tick = stats_quantile_sorted(scratch, n, 0.5);
    r->clock_disagree = (stats_quantile_sorted(scratch, n, MEASURE_CLOCK_HI) -
                         stats_quantile_sorted(scratch, n, MEASURE_CLOCK_LO)) /
                        r->core_per_tick;
}

/* The disturbance (reps_disturbance) of the cycles all[0..reps) of the repetitions whose two
   clock estimates agree within TIMING_CLOCK_PAIR_TOLERANCE, or that have no pair (NaN);
   scratch holds 2 x reps. */
static unsigned steady_clock_disturbance(const struct point_result *r, const double *all,
                                         double *scratch)
{
    unsigned m = 0;
    for (unsigned i = 0; i < r->reps; i++)
        if (!r->clock_pair || !(r->clock_pair[i] > TIMING_CLOCK_PAIR_TOLERANCE))
            scratch[m++] = all[i];
    return reps_disturbance(scratch, m, scratch + m);
}

int measure_finish(struct point_result *r)
{
    unsigned n = r->reps;
    double *all = plat_alloc((n ? n : 1) * sizeof(double));
    double *kept = plat_alloc((n ? 3 * n : 1) * sizeof(double)); /* and 2n scratch after it */
    if (!all || !kept) {
        plat_free(all);
        plat_free(kept);
        return -1;
    }
    median_clock(r, all);
    unsigned k = 0;
    for (unsigned i = 0; i < n; i++) {
        all[i] = r->tsc_per_access[i] * rep_core_per_tick(r, i);
        if (!measure_is_outlier(r, i))
            kept[k++] = all[i];
    }
    /*
     * Disturbed: what both the times and the core cycles show. A clock change moves the
     * times of a point in a cache and the cycles of a point in DRAM, never both; contention
     * moves both. (Without clocks per repetition the cycles are the times, scaled.) A
     * repetition whose two clock estimates disagree had its clock change during it, so its
     * cycles are not known: the cycles' test leaves it out.
     */
    unsigned cycles_bits = steady_clock_disturbance(r, all, kept + k);
    kmemset(&r->cycles, 0, sizeof(r->cycles));
    if (k)
        stats_summarize(kept, k, &r->cycles);
    stats_sort(all, n);
    r->headline_cycles = n ? stats_quantile_sorted(all, n, REPS_HEADLINE_QUANTILE) : 0;
    kmemcpy(all, r->tsc_per_access, n * sizeof(double));
    stats_sort(all, n);
    r->headline_tsc = n ? stats_quantile_sorted(all, n, REPS_HEADLINE_QUANTILE) : 0;
    r->disturbed = reps_disturbance(r->tsc_per_access, n, all) & cycles_bits;
    plat_free(all);
    plat_free(kept);
    return 0;
}

/* dst (room for a + b values of `size` bytes): a's a values, then b's b values (0 if NULL). */
static void *joined(const void *a, unsigned na, const void *b, unsigned nb, size_t size)
{
    uint8_t *dst = plat_alloc((na + nb ? na + nb : 1) * size);
    if (!dst)
        return NULL;
    kmemset(dst, 0, (na + nb) * size);
    if (a)
        kmemcpy(dst, a, na * size);
    if (b)
        kmemcpy(dst + na * size, b, nb * size);
    return dst;
}

/* Add slice's time, counts and clock range to into's. */
static void add_up(struct point_result *into, const struct point_result *slice)
{
    into->time.warm += slice->time.warm;
    into->time.timed += slice->time.timed;
    into->time.bookkeeping += slice->time.bookkeeping;
    into->warm_ticks += slice->warm_ticks;
    into->warm_hops += slice->warm_hops;
    into->smi_reps += slice->smi_reps;
    into->dropped += slice->dropped;
    into->split_windows += slice->split_windows;
    if (slice->dropped)
        into->dropped_vector = slice->dropped_vector;
    if (slice->stop > into->stop)
        into->stop = slice->stop;
}

int measure_merge(struct point_result *into, struct point_result *slice)
{
    if (!into->ticks) {
        *into = *slice;
        kmemset(slice, 0, sizeof(*slice));
        return 0;
    }
    unsigned a = into->reps, b = slice->reps;
    uint64_t *ticks = joined(into->ticks, a, slice->ticks, b, sizeof(uint64_t));
    double *per = joined(into->tsc_per_access, a, slice->tsc_per_access, b, sizeof(double));
    double *clock = into->core_per_rep || slice->core_per_rep
                        ? joined(into->core_per_rep, a, slice->core_per_rep, b, sizeof(double))
                        : NULL;
    uint64_t *smi =
        into->smi || slice->smi ? joined(into->smi, a, slice->smi, b, sizeof(uint64_t)) : NULL;
    double *pair = into->clock_pair || slice->clock_pair
                       ? joined(into->clock_pair, a, slice->clock_pair, b, sizeof(double))
                       : NULL;
    bool ok = ticks && per && (clock || !(into->core_per_rep || slice->core_per_rep)) &&
              (smi || !(into->smi || slice->smi)) &&
              (pair || !(into->clock_pair || slice->clock_pair));
    /* A slice without its own clocks keeps the point's one estimate for its repetitions; one
     * without clock pairs has none (NaN). */
    for (unsigned i = 0; ok && clock && !slice->core_per_rep && i < b; i++)
        clock[a + i] = slice->core_per_tick;
    for (unsigned i = 0; ok && pair && !into->clock_pair && i < a; i++)
        pair[i] = KM_NAN;
    for (unsigned i = 0; ok && pair && !slice->clock_pair && i < b; i++)
        pair[a + i] = KM_NAN;
    add_up(into, slice);
    measure_release(into);
    measure_release(slice);
    into->ticks = ticks;
    into->tsc_per_access = per;
    into->core_per_rep = clock;
    into->clock_pair = pair;
    into->smi = smi;
    into->reps = a + b;
    if (!ok) {
        measure_release(into);
        return -1;
    }
    return 0;
}

int measure_reassess(struct point_result *r, double precision)
{
    double *sorted = plat_alloc((r->reps ? r->reps : 1) * sizeof(double));
    if (!sorted)
        return -1;
    kmemcpy(sorted, r->tsc_per_access, r->reps * sizeof(double));
    stats_sort(sorted, r->reps);
    struct reps_verdict v;
    reps_assess(sorted, r->reps, &v);
    plat_free(sorted);
    r->assessed = true;
    r->tsc = v.kept_stats;
    r->outliers = v.n - v.kept;
    r->outlier_above = v.threshold;
    r->ci_valid = v.ci_valid;
    r->precision = v.precision;
    if (precision > 0 && v.ci_valid && v.precision <= precision)
        r->stop = REPS_STOP_PRECISION;
    else if (r->stop == REPS_STOP_PRECISION || r->stop == REPS_STOP_FIXED)
        r->stop = REPS_STOP_PASSES;
    return 0;
}
