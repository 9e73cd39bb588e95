// SPDX-License-Identifier: MIT
// Where the wall time of a point and of an experiment goes: timed chasing and all around it.
#ifndef CHASE_TIME_SPLIT_H
#define CHASE_TIME_SPLIT_H

#include <stdint.h>

/* TSC ticks by what they were spent on. */
struct time_split {
    uint64_t build;       /* building the chains */
    uint64_t warm;        /* the warm-up, its window included */
    uint64_t timed;       /* inside timed regions: what every number comes from */
    uint64_t bookkeeping; /* the rest of measuring: core clock, windows, SMI counts, statistics */
    uint64_t output;      /* CSV, samples and console */
    uint64_t other;       /* an experiment's time outside its points (files, headers) */
};

/* The ticks of all parts together. */
uint64_t time_split_total(const struct time_split *s);

/* The timed part's share of the total, 0 to 1 (0 when the total is 0). */
double time_split_timed_fraction(const struct time_split *s);

/*
 * The counter's resolution against the timed regions: one tick over their mean length, for
 * regions timed regions that together took s->timed ticks (0 when none). Each region's length
 * is a difference of two reads, each off by up to one tick: at CNTFRQ_EL0's 24 MHz a 10 us
 * region is 240 ticks, one of them 0.4%; the x86 TSC's GHz makes the same region 10^4 ticks.
 */
double time_split_tick_share(const struct time_split *s, uint64_t regions);

/*
 * Split a span of measuring (span ticks from the backend's start to its return) that
 * included warm and timed ticks: bookkeeping is the rest (0 if they exceed the span,
 * which only a simulated clock can make happen).
 */
void time_split_measured(struct time_split *s, uint64_t span, uint64_t warm, uint64_t timed);

/* Add every part of s to sum. */
void time_split_add(struct time_split *sum, const struct time_split *s);

/* Charge what wall_ticks holds beyond the parts already counted to `other`. */
void time_split_close(struct time_split *s, uint64_t wall_ticks);

#endif
