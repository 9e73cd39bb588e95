// SPDX-License-Identifier: MIT
// Console output that is also kept for console.txt, and the progress line of long experiments.
#ifndef CHASE_CONSOLE_H
#define CHASE_CONSOLE_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/strbuf.h"

/* Print formatted text to the console and append it to the log (a progress line is erased first).
 */
void con_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Print text to the console only (progress lines that would clutter the log). */
void con_transient(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Everything printed with con_printf so far. */
const struct strbuf *con_log(void);
/* Forget the log (between runs in one process, and in tests). */
void con_log_reset(void);

/* A progress line: "  [ 42%] 17 of 40 points, about 1m05s left", never kept in the log. */
struct con_progress {
    uint64_t tsc_hz;      /* to turn TSC ticks into seconds */
    uint64_t start_ticks; /* when the work began */
    uint64_t shown_ticks; /* when the line was last drawn */
    double total_work;    /* estimated work of all points, any unit */
    double done_work;
    unsigned points, done_points;
    const char *unit; /* what a step is ("windows"); NULL: "points" */
};

/* Progress lines appear once this much time has passed, and are redrawn at most this often. */
#define CON_PROGRESS_AFTER_S 3.0
#define CON_PROGRESS_EVERY_S 0.5

/*
 * Start tracking `points` points whose estimated work adds up to total_work; now_ticks is
 * the TSC now and tsc_hz its frequency.
 */
void con_progress_begin(struct con_progress *p, unsigned points, double total_work,
                        uint64_t now_ticks, uint64_t tsc_hz);
/*
 * One more point done, with its estimated work: draws the line (percent of the estimated
 * work, time left at the pace so far) once the work has lasted CON_PROGRESS_AFTER_S.
 */
void con_progress_step(struct con_progress *p, double work, uint64_t now_ticks);
/* Erase the progress line, if one is shown. */
void con_progress_end(struct con_progress *p);

/* Format seconds the way people read them: "42s", "3m07s", "1h02m". */
void con_format_duration(char *buf, unsigned long cap, double seconds);

#endif
