// SPDX-License-Identifier: MIT
// The clocks behind every number: TSC frequency, timer overhead and the core/TSC ratio.
#ifndef CHASE_TIMING_H
#define CHASE_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "machine/cpuinfo.h"

#define TSC_CALIBRATIONS 5

/* Times a chase: see chase_timed_rdtscp in arch/x86_64/chase_loop.h. */
typedef uint64_t (*chase_timed_fn)(void **start, uint64_t iters, void ***end);

#define TSC_MAX_SOURCES 4
#define MSR_SMI_COUNT 0x34 /* Intel: SMIs since reset */
/* Sources that disagree by more than this fraction draw a warning. */
#define TSC_DISAGREEMENT_WARN 0.01

/* The TSC frequency as one reference clock sees it. */
struct tsc_source {
    const char *name;
    uint64_t hz; /* median of the calibrations */
    uint64_t calib_hz[TSC_CALIBRATIONS];
    unsigned ncalib;
    double spread; /* (max - min) / median */
};

struct timing {
    uint64_t tsc_hz;        /* the frequency used for ns */
    uint64_t wall_tsc_hz;   /* the real TSC rate, for wall time (differs from
                               tsc_hz only under chase-sim's simulated clock) */
    const char *tsc_method; /* the source it came from */
    double calib_spread;    /* that source's spread */
    struct tsc_source sources[TSC_MAX_SOURCES];
    unsigned nsources;
    uint64_t cpuid_hz; /* from CPUID 0x15/0x16, 0 when not given */
    const char *cpuid_leaf;
    double disagreement; /* largest relative difference between sources */
    bool invariant;
    bool rdtscp;           /* the end of a timed region uses rdtscp */
    double overhead_ticks; /* median cost of an empty timed region */
    double core_per_tick;  /* core cycles per TSC tick, run-wide estimate */
    const char *core_method;
    double aperf_mperf;  /* core/TSC from APERF/MPERF deltas; 0 if unreadable */
    bool smi_counting;   /* MSR_SMI_COUNT read around each repetition */
    double l1_ticks_16;  /* ticks per load, L1 chain, 16 loads per iteration */
    double l1_ticks_256; /* the same chain, 256 loads per iteration */
    chase_timed_fn chase;
};

/*
 * Calibrate the TSC against the platform's reference clock (median of
 * TSC_CALIBRATIONS runs), measure the empty timed region and the core/TSC ratio.
 */
struct machine;
void timing_init(struct timing *t, const struct machine *m);

/*
 * Core cycles per TSC tick from a chain of dependent one-cycle adds
 * (adds = iters * 16, best of three): taken next to each point because clocks drift.
 */
double timing_core_ratio(uint64_t iters);

/* The real TSC frequency, measured against the platform's first reference clock. */
uint64_t timing_measure_wall_hz(void);

/* Wall-clock nanoseconds for ticks of the real TSC (build times, durations, ETAs). */
static inline double timing_wall_ns(const struct timing *t, uint64_t ticks)
{
    return (double)ticks * 1e9 / (double)(t->wall_tsc_hz ? t->wall_tsc_hz : t->tsc_hz);
}

/* Nanoseconds for a number of TSC ticks. */
static inline double timing_ticks_to_ns(const struct timing *t, double ticks)
{
    return ticks * 1e9 / (double)t->tsc_hz;
}

#endif
