// SPDX-License-Identifier: MIT
// Long work on a processor cut into windows of at most window_max_ms, with a deadline over all.
#ifndef CHASE_EXP_WIN_SLICE_H
#define CHASE_EXP_WIN_SLICE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * One window of a piece of work that takes several: interrupts are off inside a window, so no
 * window may last longer than window_max_ms (the boot processor's rule, now every processor's);
 * the work keeps its state between windows and goes on in the next one.
 */
struct win_slice {
    uint64_t window_ticks;   /* a window's longest, TSC ticks (0: no cap) */
    uint64_t start_tsc;      /* this window began here */
    uint64_t window_end_tsc; /* ... and ends here (UINT64_MAX without a cap) */
};

/* Where a piece of work stands. */
enum win_state {
    WIN_GO_ON,      /* inside the window and before the deadline */
    WIN_WINDOW_END, /* the window is over, the work is not: leave it, go on in the next one */
    WIN_DEADLINE    /* the work's deadline passed: it ends (its partner, or its boss, is gone) */
};

/* The window length in TSC ticks for window_ms at tsc_hz; 0 (no cap) when either is 0. */
uint64_t win_ticks_of(uint64_t window_ms, uint64_t tsc_hz);

/* Begin a window at now_tsc that lasts at most window_ticks (0: no cap). */
void win_begin(struct win_slice *w, uint64_t now_tsc, uint64_t window_ticks);

/*
 * Where the work stands at now_tsc against its deadline (0: none) and the window's end; the
 * deadline first: work past both ends rather than waits for another window.
 */
enum win_state win_check(const struct win_slice *w, uint64_t now_tsc, uint64_t deadline_tsc);

/* The earlier of the window's end and deadline_tsc (0: none): how long one wait may spin now. */
uint64_t win_wait_until(const struct win_slice *w, uint64_t deadline_tsc);

/*
 * Whether a piece of need_ticks that must not be cut (a timed repetition) should start now:
 * true when it fits in what is left of the window, or when it is longer than half a window
 * (such a piece is cut in any case: it starts at once, so that a fresh window never stays
 * empty); false: end this window and start the piece at the next one's beginning.
 */
bool win_fits(const struct win_slice *w, uint64_t now_tsc, uint64_t need_ticks);

#endif
