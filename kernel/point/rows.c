// SPDX-License-Identifier: MIT
// A point's rows: the common CSV and samples columns and the console table every experiment prints.
#include "point/rows.h"

#include "arch/cpu.h"
#include "chase/reps.h"
#include "lib/console.h"
#include "lib/fmt.h"
#include "lib/kmath.h"
#include "lib/kstring.h"
#include "machine/fault.h"

double exp_ns(const struct exp_ctx *ctx, const struct point_result *r)
{
    return timing_ticks_to_ns(ctx->timing, r->tsc.median);
}

double exp_cycles(const struct point_result *r)
{
    return r->cycles.median > 0 ? r->cycles.median : r->tsc.median * r->core_per_tick;
}

/* The precision reached, in percent, for CSV and console (`none` when there is none). */
static void format_precision(char *buf, size_t cap, const struct point_result *r, int decimals,
                             const char *none)
{
    if (r->ci_valid)
        ksnprintf(buf, cap, "%.*f", decimals, r->precision * 100);
    else
        ksnprintf(buf, cap, "%s", none);
}

void exp_csv_common(struct exp_ctx *ctx, const struct point_result *r, uint64_t build_ticks)
{
    const struct timing *t = ctx->timing;
    char precision[24];
    struct time_split split = r->time;
    split.build = build_ticks;
    split.output = r->measured_tsc ? arch_tsc_fenced() - r->measured_tsc : 0;
    time_split_add(&ctx->spent, &split);
    format_precision(precision, sizeof(precision), r, 3, "");
    char disturbed[24];
    reps_disturbance_text(r->disturbed, disturbed, sizeof(disturbed));
    strbuf_printf(&ctx->csv, "%llu,%u,%llu,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,",
                  (unsigned long long)r->hops, r->reps,
                  (unsigned long long)timing_wall_ns(t, build_ticks), r->tsc.min, r->tsc.median,
                  r->tsc.p90, timing_ticks_to_ns(t, r->tsc.min),
                  timing_ticks_to_ns(t, r->tsc.median), timing_ticks_to_ns(t, r->tsc.p90),
                  timing_ticks_to_ns(t, r->headline_tsc), r->headline_cycles);
    strbuf_printf(&ctx->csv, "%.3f,%.3f,%.3f,%.4f,%s,%.3f,%s,%u,", r->cycles.min, r->cycles.median,
                  r->cycles.p90, r->core_per_tick, r->clock ? r->clock : "",
                  r->clock_disagree * 100, disturbed, r->passes ? r->passes : 1);
    strbuf_printf(&ctx->csv, "%u,%s,%s,%llu,%llu,%llu,%llu,%.4f,%.6f\n", r->outliers, precision,
                  reps_stop_names[r->stop], (unsigned long long)timing_wall_ns(t, split.warm),
                  (unsigned long long)timing_wall_ns(t, split.timed),
                  (unsigned long long)timing_wall_ns(t, split.bookkeeping),
                  (unsigned long long)timing_wall_ns(t, split.output),
                  time_split_timed_fraction(&split),
                  100 * time_split_tick_share(&split, (uint64_t)r->reps + r->split_windows));
}

void exp_samples(struct exp_ctx *ctx, const char *keys, const struct point_result *r)
{
    /* smi: SMIs during the repetition; empty where they cannot be counted */
    unsigned smi_outliers = 0;
    for (unsigned i = 0; i < r->reps; i++) {
        smi_outliers += r->smi && r->smi[i] && measure_is_outlier(r, i);
        strbuf_printf(&ctx->samples, "%s,%u,%llu,%llu,%.4f,%.4f,%d,", keys, i,
                      (unsigned long long)r->hops, (unsigned long long)r->ticks[i],
                      r->tsc_per_access[i], timing_ticks_to_ns(ctx->timing, r->tsc_per_access[i]),
                      measure_is_outlier(r, i) ? 1 : 0);
        if (r->core_per_rep && r->core_per_rep[i] > 0)
            strbuf_printf(&ctx->samples, "%.5f", r->core_per_rep[i]);
        strbuf_puts(&ctx->samples, ",");
        if (r->clock_pair && kisfinite(r->clock_pair[i]))
            strbuf_printf(&ctx->samples, "%.3f", r->clock_pair[i] * 100);
        strbuf_puts(&ctx->samples, ",");
        if (r->smi)
            strbuf_printf(&ctx->samples, "%llu", (unsigned long long)r->smi[i]);
        strbuf_puts(&ctx->samples, "\n");
    }
    if (r->dropped)
        con_printf("  note: %u window%s of this point %s lost to %s and taken again\n", r->dropped,
                   r->dropped > 1 ? "s" : "", r->dropped > 1 ? "were" : "was",
                   r->dropped_vector == FAULT_VECTOR_NMI ? "an NMI" : "a machine check");
    if (r->split_windows)
        con_printf("  note: whole laps longer than window_max_ms were timed in %u windows more, "
                   "summed\n",
                   r->split_windows);
    if (r->smi_reps)
        con_printf("  note: %u of %u repetitions of this point saw an SMI (see the smi column); "
                   "%u of them were outliers\n",
                   r->smi_reps, r->reps, smi_outliers);
}

void exp_table_head_common(void)
{
    con_printf("%8s %8s %8s %7s %5s %5s %3s\n", "ns min", "ns med", "ns p90", "cycles", "reps",
               "+-%", "out");
}

void exp_table_common(const struct exp_ctx *ctx, const struct point_result *r)
{
    const struct timing *t = ctx->timing;
    char precision[24];
    format_precision(precision, sizeof(precision), r, 2, "-");
    char disturbed[24];
    reps_disturbance_text(r->disturbed, disturbed, sizeof(disturbed));
    con_printf("%8.2f %8.2f %8.2f %7.1f %5u %5s %3u%s%s\n", timing_ticks_to_ns(t, r->tsc.min),
               timing_ticks_to_ns(t, r->tsc.median), timing_ticks_to_ns(t, r->tsc.p90),
               exp_cycles(r), r->reps, precision, r->outliers, r->disturbed ? " " : "", disturbed);
}
