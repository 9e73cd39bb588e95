// SPDX-License-Identifier: MIT
// The clocks behind every number: TSC frequency, timer overhead and the core/TSC ratio.
#ifndef CHASE_TIMING_H
#define CHASE_TIMING_H

#include <stdbool.h>
#include <stdint.h>

#include "arch/chase_loop.h"
#include "machine/cpuinfo.h"
#include "machine/window_rules.h"

#define TSC_CALIBRATIONS 5

/* Times a chase: see chase_timed_rdtscp in arch/chase_loop.h. */
typedef uint64_t (*chase_timed_fn)(void **start, uint64_t iters, void ***end);

#define TSC_MAX_SOURCES 4
#define MSR_SMI_COUNT 0x34 /* Intel: SMIs since reset */
#define MSR_MPERF 0xe7     /* counts at the TSC rate while the core runs (C0) */
#define MSR_APERF 0xe8     /* counts at the core clock while it runs */
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
    bool rdtscp;                /* the end of a timed region uses rdtscp */
    double overhead_ticks;      /* median cost of an empty timed region */
    double adds_overhead_ticks; /* ... of the add chain's (its own fences at both ends) */
    enum timed_end adds_end;    /* how the add chain ends (window rule: LFENCE unsure?) */
    add_chain_fn adds;          /* the add chain with that end */
    double core_per_tick;       /* core cycles per TSC tick, run-wide estimate */
    const char *core_method;
    double aperf_mperf;   /* core/TSC from APERF/MPERF deltas; 0 if unreadable */
    bool aperf_in_window; /* ring 0 and APERF/MPERF readable: read around each repetition */
    bool smi_counting;    /* MSR_SMI_COUNT read around each repetition */
    double l1_ticks_16;   /* ticks per load, L1 chain, 16 loads per iteration */
    double l1_ticks_256;  /* the same chain, 256 loads per iteration */
    chase_timed_fn chase;
};

/*
 * Calibrate the TSC against the platform's reference clock (median of
 * TSC_CALIBRATIONS runs), measure the empty timed region and the core/TSC ratio.
 */
struct machine;
void timing_init(struct timing *t, const struct machine *m);

/*
 * Core cycles per TSC tick from a chain of dependent one-cycle adds (adds = iters * 16,
 * best of three) timed by `adds`, overhead_ticks (its empty region's) subtracted.
 */
double timing_core_ratio(add_chain_fn adds, uint64_t iters, double overhead_ticks);

/* The add chain of t: the one timing_init chose, or add_chain_timed for a timing set up by
   hand (chase-sim, unit tests), which never ran the window rule. */
static inline add_chain_fn timing_adds(const struct timing *t)
{
    return t->adds ? t->adds : add_chain_timed;
}

/* Core cycles per tick of `adds` dependent adds that took ticks, overhead subtracted; 0 if none. */
double timing_adds_ratio(uint64_t adds, uint64_t ticks, double overhead_ticks);

/*
 * Two estimates of one repetition's clock (before and after it): their mean when they agree
 * within TIMING_CLOCK_PAIR_TOLERANCE, else the higher one (an interrupt lengthens an add
 * chain and lowers its estimate; nothing shortens one). One alone when the other is 0.
 */
#define TIMING_CLOCK_PAIR_TOLERANCE 0.02
double timing_pair_ratio(double before, double after);
/* How far two clock estimates lie apart, relative to the higher; 0 when either is missing. */
double timing_pair_gap(double before, double after);

/* Core cycles per tick from APERF and MPERF read at both ends (MPERF at the TSC rate); 0 if
   a counter did not advance. */
double timing_msr_ratio(uint64_t aperf0, uint64_t aperf1, uint64_t mperf0, uint64_t mperf1);

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
