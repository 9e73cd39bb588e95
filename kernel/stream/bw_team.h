// SPDX-License-Identifier: MIT
// Several processors streaming buffers of their own at once, started together and timed by the
// first of them: what bw_cores (scaling, peak) and numa (the bandwidth matrix) measure with.
#ifndef CHASE_EXP_BW_TEAM_H
#define CHASE_EXP_BW_TEAM_H

#include <stdbool.h>
#include <stdint.h>

#include "stream/bw.h"
#include "procs/mp.h"

/* One step of a mix: kernel over a processor's buffer's first size/div bytes (a copy: its
   halves). */
struct bw_step {
    enum bw_kernel kernel;
    unsigned div;
};
/* A read:write mix as the steps each processor takes in turn. */
struct bw_mix {
    const char *name;
    struct bw_step step[2];
    unsigned nsteps;
};

/* Bytes mix moves over a buffer of size bytes walked laps times (bw_bytes_moved per step). */
uint64_t bw_mix_moved(const struct bw_mix *mix, uint64_t size, uint64_t laps);

/* What the processors of one run share: the start and the count of those ready and done. */
struct bw_team_shared {
    volatile uint64_t ready, go, done;
    unsigned n;
    uint64_t deadline; /* TSC: a processor that waits past it gives up */
    uint64_t ticks;    /* the timing processor's: from go until every one was done */
    bool late;
};

/* One processor's part of a run. */
struct bw_team_worker {
    struct bw_team_shared *sh;
    unsigned index; /* 0: the processor that gives go and times the run */
    uint8_t *base;
    uint64_t size, laps;
    const struct bw_mix *mix;
    enum simd_width width;
    uint64_t sink;
};

/*
 * A team: cpus[0..n) each stream base[i] (size bytes, a multiple of BW_SIZE_ALIGN_BYTES) with
 * the same mix, all started at once (each waits for a go flag cpus[0] raises once all are
 * ready); cpus[0] times from go until the last is done on its own TSC. The caller fills the
 * first block of fields; the rest is the team's own.
 */
struct bw_team {
    struct mp_cpu *cpus;
    unsigned n;
    uint8_t *base[MP_TEAM_MAX];
    uint64_t size;
    enum simd_width width;
    const char *sample_keys; /* leading columns of each run's samples row; NULL: none written */

    struct bw_team_worker w[MP_TEAM_MAX];
    struct mp_job jobs[MP_TEAM_MAX];
    struct bw_team_shared sh;
    double sorted[BW_REPS_MAX + 1]; /* ticks per byte of a slice's runs, ascending */
    struct bw_result r;             /* bw_team_measure's runs */
};

/* What a team's runs gave: GB/s over all its processors (10^9 bytes moved per second). */
struct bw_team_out {
    double median, min, max;
    unsigned reps, outliers; /* runs, and those left out as disturbed (reps.h) */
    uint64_t moved;          /* per run, all processors */
};

/*
 * A slice of the team's runs appended to r, as bw_measure does for one core (r zeroed before
 * the first): a warm-up run of one lap (before the first slice, whose time sizes the runs:
 * whole laps, or stretches of buffers whose lap is longer than a run should be, kept in r;
 * before a later one when `warm`), then runs as plan says (reps, precision, time cap:
 * reps_should_stop on the slice's own runs, their stop in r->stop), each run's ticks in r
 * (bytes_per_rep: what all processors move) and its row in ctx->samples
 * ("<sample_keys>,rep,tsc_total,gbs") when sample_keys is set; r's summary then covers all its
 * runs. Returns 0, or -1 when a processor did not come back in time (the lost marks refreshed
 * in cpus).
 */
int bw_team_slice(struct exp_ctx *ctx, struct bw_team *t, const struct bw_mix *mix,
                  const struct measure_plan *plan, bool warm, struct bw_result *r);
/* One slice with the context's plan for the team's buffers (exp_plan), into o. 0, or -1. */
int bw_team_measure(struct exp_ctx *ctx, struct bw_team *t, const struct bw_mix *mix,
                    struct bw_team_out *o);

#endif
