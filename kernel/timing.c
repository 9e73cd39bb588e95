// SPDX-License-Identifier: MIT
// The clocks behind every number: TSC frequency, timer overhead and the core/TSC ratio.
#include "timing.h"

#include "arch/x86_64/chase_loop.h"
#include "kstring.h"
#include "platform.h"
#include "stats.h"

#define OVERHEAD_SAMPLES 101
#define CORE_RATIO_TRIES 3

static void calibrate_tsc(struct timing *t)
{
    double hz[TSC_CALIBRATIONS];
    t->ncalib = 0;
    for (unsigned i = 0; i < TSC_CALIBRATIONS; i++) {
        uint64_t ticks, ns;
        if (!plat_tsc_reference(&ticks, &ns) || ns == 0)
            break;
        t->calib_hz[i] = (uint64_t)((double)ticks * 1e9 / (double)ns);
        hz[i] = (double)t->calib_hz[i];
        t->ncalib++;
    }
    if (t->ncalib) {
        struct stats_summary s;
        stats_summarize(hz, t->ncalib, &s);
        t->tsc_hz = (uint64_t)s.median;
        t->calib_spread = s.median > 0 ? (s.max - s.min) / s.median : 0;
        t->tsc_method = plat_tsc_reference_name();
    } else if (t->cpuid_hz) {
        t->tsc_hz = t->cpuid_hz;
        t->tsc_method = "cpuid";
    } else {
        t->tsc_hz = 1000000000ULL; /* nothing to measure against: ns are then ticks */
        t->tsc_method = "none (assumed 1 GHz)";
    }
}

struct timer_job {
    bool rdtscp;
    uint64_t iters;
    uint64_t ticks;
};

static void empty_region(void *arg)
{
    struct timer_job *j = arg;
    j->ticks = j->rdtscp ? timer_empty_rdtscp() : timer_empty_rdtsc();
}

static void add_chain(void *arg)
{
    struct timer_job *j = arg;
    j->ticks = add_chain_timed(j->iters);
}

static void measure_overhead(struct timing *t)
{
    double v[OVERHEAD_SAMPLES];
    struct timer_job job = {t->rdtscp, 0, 0};
    struct fault_info fault;
    unsigned n = 0;
    for (unsigned i = 0; i < OVERHEAD_SAMPLES; i++) {
        if (plat_window_run(empty_region, &job, &fault) == 0)
            v[n++] = (double)job.ticks;
    }
    struct stats_summary s;
    stats_summarize(v, n, &s);
    t->overhead_ticks = s.median;
}

double timing_core_ratio(uint64_t iters)
{
    uint64_t best = UINT64_MAX;
    struct timer_job job = {false, iters, 0};
    struct fault_info fault;
    for (unsigned i = 0; i < CORE_RATIO_TRIES; i++) {
        if (plat_window_run(add_chain, &job, &fault) == 0 && job.ticks && job.ticks < best)
            best = job.ticks;
    }
    if (best == UINT64_MAX)
        return 1.0;
    return (double)(iters * CHASE_UNROLL) / (double)best;
}

void timing_init(struct timing *t, const struct cpu_info *ci)
{
    kmemset(t, 0, sizeof(*t));
    t->cpuid_hz = ci->cpuid_tsc_hz;
    t->invariant = ci->invariant_tsc;
    t->rdtscp = ci->has_rdtscp;
    t->chase = t->rdtscp ? chase_timed_rdtscp : chase_timed_rdtsc;
    calibrate_tsc(t);
    measure_overhead(t);
    t->core_per_tick = timing_core_ratio(1 << 16);
    t->core_method = "dependent add chain";
}
