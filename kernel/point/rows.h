// SPDX-License-Identifier: MIT
// A point's rows: the CSV and samples columns every experiment ends with, and its console table.
#ifndef CHASE_POINT_ROWS_H
#define CHASE_POINT_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "chase/measure.h"
#include "point/ctx.h"

/*
 * The columns every experiment's CSV ends with: the statistics leave the outliers out;
 * ns and core_cycles are the headline robust to bursts (reps.h: REPS_HEADLINE_QUANTILE of
 * all repetitions), core cycles are per repetition at that repetition's own clock (clock:
 * adds or aperf; clock_disagree_pct how far its repetitions' clocks lie apart, p10 to p90),
 * disturbed what the repetitions show (tail, modes, drift; empty when clean), passes how many
 * interleaved passes measured the point; precision_pct is the half-width of the median's
 * 95% interval in percent of it (empty when the repetitions are too few for one), stop why
 * the repetitions ended (reps.h); the *_ns columns split the point's wall time,
 * timed_fraction is the timed part's share; tick_share_pct one counter tick over the mean
 * timed region (a repetition's window), in percent: the timer's resolution in each number.
 */
#define EXP_CSV_COMMON                                                                             \
    "hops,reps,build_ns,tsc_min,tsc_median,tsc_p90,ns_min,ns_median,ns_p90,ns,core_cycles,"        \
    "core_cycles_min,core_cycles_median,core_cycles_p90,core_per_tsc,clock,clock_disagree_pct,"    \
    "disturbed,passes,outliers,precision_pct,stop,warm_ns,timed_ns,bookkeeping_ns,output_ns,"      \
    "timed_fraction,tick_share_pct"
/*
 * The columns every samples CSV ends with: outlier is 1 for a repetition left out;
 * core_per_tsc the repetition's own clock estimate (empty without one); clock_pair_pct how
 * far the estimates before and after it lie apart, in percent (empty without two: over
 * TIMING_CLOCK_PAIR_TOLERANCE the clock changed during it); smi is last and empty where SMIs
 * cannot be counted.
 */
#define EXP_SAMPLES_COMMON                                                                         \
    "rep,hops,tsc_total,tsc_per_access,ns_per_access,outlier,core_per_tsc,clock_pair_pct,smi"

/*
 * Append the common columns of a point (EXP_CSV_COMMON) and end the CSV row. The point's
 * time split gets build_ticks and, as output, the time since exp_measure returned (so
 * rows are best written after the point's samples and console line); it is added to the
 * experiment's (ctx->spent).
 */
void exp_csv_common(struct exp_ctx *ctx, const struct point_result *r, uint64_t build_ticks);
/* Append one samples row per repetition: `keys` (the point's own columns), then the common ones. */
void exp_samples(struct exp_ctx *ctx, const char *keys, const struct point_result *r);

/* Median ns and core cycles per access of a point. */
double exp_ns(const struct exp_ctx *ctx, const struct point_result *r);
double exp_cycles(const struct point_result *r);

/*
 * The table columns every experiment prints after its own: ns min, median, p90, cycles,
 * then the repetitions, the precision reached (+-%) and the outliers left out.
 */
void exp_table_head_common(void);
void exp_table_common(const struct exp_ctx *ctx, const struct point_result *r);

/* src (NULL: "") as one CSV field in dst of capacity cap, commas written as ';'; returns dst. */
static inline const char *exp_csv_field(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    for (; src && src[i] && i + 1 < cap; i++)
        dst[i] = src[i] == ',' ? ';' : src[i];
    if (cap)
        dst[i] = 0;
    return dst;
}

#endif
