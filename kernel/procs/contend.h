// SPDX-License-Identifier: MIT
// Processors incrementing one shared line at once (LOCK ADD, LDADD): each counts its own
// increments over its own clock, in one window, until the first processor calls time.
#ifndef CHASE_CONTEND_H
#define CHASE_CONTEND_H

#include <stdbool.h>
#include <stdint.h>

/* Increments between two looks at the clock and the stop flag: a fenced clock read (tens of
   cycles) per 16 contended increments (each hundreds), a few percent at most. */
#define CONTEND_BATCH 16

struct contend_run;

/* One processor's share: what it did, on its own clock. */
struct contend_side {
    struct contend_run *run;
    bool leader;    /* this one calls time: raises stop after run_ticks */
    bool arrived;   /* counted into the start line */
    uint64_t ops;   /* increments done */
    uint64_t ticks; /* from its first increment to its last, its own TSC */
    bool ok;        /* it started with the others and stopped on the flag (or called time) */
};

/* What the processors of one repetition share; each line its own. */
struct contend_run {
    volatile uint64_t *line;  /* the counter every processor increments */
    volatile uint64_t *start; /* processors arrived: they begin when all have */
    volatile uint64_t *stop;  /* raised by the leader */
    unsigned n;
    uint64_t run_ticks;    /* the leader stops after this long, its own clock (at most half a
                              window: a side joins only when the run fits what is left of its) */
    uint64_t wait_ticks;   /* the longest wait for the others to arrive */
    uint64_t window_ticks; /* a window's longest (0: no cap) */
    uint64_t deadline;     /* set by the caller: past it a side gives up */
    unsigned variant;      /* arch_atomic_variant(), asked once */
};

/* Ready run for a new repetition: the three lines zeroed, every side's counts too. */
void contend_begin(struct contend_run *run, struct contend_side *sides, unsigned n);

/*
 * One processor's step (mp_step_job): arrive, wait in windows for all n (deadline), then
 * increment the line CONTEND_BATCH at a time until the leader's run_ticks or its stop flag.
 * Returns true while more remains (still waiting for the others at a window's end).
 */
bool contend_step(void *arg);

#endif
