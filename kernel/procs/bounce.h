// SPDX-License-Identifier: MIT
// The core-to-core engine: one cache line bounced between two processors, each side in windows of
// its own (window_max_ms at most, interrupts off in each), and lines one modifies read by the
// other.
#ifndef CHASE_BOUNCE_H
#define CHASE_BOUNCE_H

#include <stdbool.h>
#include <stdint.h>

#include "chase/chain.h"

#define BOUNCE_REPS_MAX 64 /* timed repetitions of a pair at most (the tick arrays below) */

/* One side's progress, kept between its windows (each side writes only its own). */
struct bounce_side {
    unsigned phase;     /* C2C_* */
    uint64_t v;         /* the last value this side stored or answered */
    uint64_t i, r;      /* round trips and repetitions done in this phase */
    uint64_t deadline;  /* the wait in progress ends here (0: none yet) */
    bool stored;        /* this round's value is stored: its answer is awaited */
    uint64_t rep_ticks; /* the last repetition's length (whether the next fits a window) */
};

enum { BOUNCE_START, BOUNCE_BOUNCE, BOUNCE_READ, BOUNCE_FINISH, BOUNCE_END };

/* What both sides of one pair share; the `flag` line is the one bounced. */
struct bounce_pair {
    volatile uint64_t *flag;  /* its own cache line */
    volatile uint64_t *ready; /* the answering side has started (another line) */
    void **chain;             /* lines the answering side modifies, read by the timer */
    struct chain_layout layout;
    uint64_t rounds, reps, hops;
    uint64_t timer_wait_ticks, answer_wait_ticks; /* each side's longest wait (the experiment's) */
    uint64_t window_ticks;                        /* each side's longest window: window_max_ms */
    struct bounce_side timer, answer;
    uint64_t bounce_ticks[BOUNCE_REPS_MAX]; /* per repetition, on the timing side's TSC */
    uint64_t read_ticks[BOUNCE_REPS_MAX];
    uint64_t cuts; /* window ends inside a timed repetition (its parts are summed) */
    void *sink;
    bool failed;
    bool hang; /* the answering side spins forever (hang_test) */
};

/* The timing side (its own TSC only), one window's share: round trips, then reads of lines
   the other modified. Returns true while more remains. */
bool bounce_timer(void *arg);

/* The answering side, one window's share: each odd value with the next even one, the lines
   modified before each read answer. Returns true while more remains. */
bool bounce_answer(void *arg);

#endif
