// SPDX-License-Identifier: MIT
// Lines put in one coherence state in another processor's cache (modified, clean exclusive,
// shared by two) and read by a timing processor: the engine, the helper and home-node choices.
#ifndef CHASE_LINESTATE_H
#define CHASE_LINESTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "procs/mp.h"

#define LS_REPS_MAX 64 /* timed repetitions of one state at most (the tick array below) */

/* The state a line is in, in the answering processor's cache, when the timer reads it. */
enum ls_state {
    LS_MODIFIED,  /* the answerer wrote it last: dirty there only (HITM) */
    LS_EXCLUSIVE, /* the answerer read it, no cache held it before: clean, there only */
    LS_SHARED,    /* the answerer and a helper read it: clean, in both */
    LS_STATES
};

/* The state's name in the CSV's state column ("modified", "exclusive", "shared"). */
const char *ls_state_name(enum ls_state s);

/* Where the lines of one measurement lie: an area of lines at stride, used chunk by chunk. */
struct ls_area {
    uint8_t *base;
    uint64_t bytes;
    uint64_t cursor; /* the next chunk: a fresh one for each repetition (wraps at the end) */
};

/* One side's progress, kept between its windows (each side writes only its own). */
struct ls_side {
    uint64_t r;          /* repetitions done */
    uint64_t deadline;   /* the wait in progress ends here (0: none yet) */
    bool requested;      /* the timer: this repetition's set-up was asked for */
    uint64_t work_ticks; /* the last walk or set-up's length (whether the next fits a window) */
};

/* What the three sides of one measurement share; `ctl` is the line they hand over on. */
struct ls_run {
    volatile uint64_t *ctl;
    struct ls_area *area;
    const uint32_t *perm; /* lines' order in a chunk: the timer's walk is a random chain */
    uint64_t lines, stride;
    enum ls_state state;
    bool fresh; /* a new chunk of the area for every repetition, else the same one */
    uint64_t reps;
    uint64_t wait_ticks, window_ticks;
    struct ls_side timer, answer, helper;
    uint64_t first_chunk;        /* the area's cursor when this measurement began */
    uint64_t ticks[LS_REPS_MAX]; /* per repetition: the timer's walk over all lines */
    void *sink;
    bool failed;
};

/* A random order of the lines 0..n-1 into perm (Fisher-Yates, seeded): the timer's walk. */
void ls_order_random(uint32_t *perm, uint64_t n, uint64_t seed);

/* Ready r for a new measurement of state s over area a (its fields above set by the caller). */
void ls_begin(struct ls_run *r, enum ls_state s);

/* After the measurement: the area's cursor past the chunks it used (when fresh). */
void ls_end(struct ls_run *r);

/* The timing side, one window's share: asks for each repetition's set-up, then walks the
   chunk's lines as a chain, timed. Returns true while more remains. */
bool ls_timer(void *arg);

/* The answering side, one window's share: each repetition's lines written (modified), or
   flushed from every cache and read (exclusive, shared). Returns true while more remains. */
bool ls_answer(void *arg);

/* The helper of the shared state: reads the lines after the answerer. True while more remains. */
bool ls_helper(void *arg);

/*
 * The processor that shares the lines with cpus[b] (state shared): among cpus[0..n) not lost
 * and neither a nor b, the first in b's L3 group, else in b's package, else any. -1: none.
 */
int ls_helper_pick(const struct mp_cpu *cpus, unsigned n, unsigned a, unsigned b);

/*
 * The node the lines of a pair on nodes na and nb also live in, away from both, when chase's
 * buffer (on node buffer_node) is not already away from both: among nodes[0..nnodes) with
 * memory (has_mem[i]) and neither na nor nb, the nearest to na by dist (nnodes x nnodes, row
 * by row; NULL: by index), the lowest index on ties. -1 when the buffer is away already or no
 * such node exists.
 */
int ls_home_other(unsigned nnodes, const bool *has_mem, const uint8_t *dist, unsigned na,
                  unsigned nb, unsigned buffer_node);

#endif
