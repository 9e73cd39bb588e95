// SPDX-License-Identifier: MIT
// The serial log: one machine-readable line per finished point and per summary item, written
// to the serial port (serial_log = on) for a machine room that collects results over
// serial-over-LAN. Format (docs/serial-log.md):
//   CHASE-LOG v=1 run=ID kind=KIND key=value key=value ...
// Values holding a blank, '"' or '=' are quoted ("..." with \" and \\ escaped).
#ifndef CHASE_SLOG_H
#define CHASE_SLOG_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/strbuf.h"

#define SLOG_PREFIX "CHASE-LOG v=1"
#define SLOG_LINE_MAX 4096 /* a longer line is cut (and ends with "cut=1") */

/*
 * Start the log of this run (on: the serial_log key) with its run id (run/ship.h: the start
 * time, the machine and a TSC reading; the same id names the uploaded run). Writes the kind=run
 * line and says on the console that the log is on (or that there is no serial port). Returns
 * false when on but there is no serial port: nothing more is written.
 */
bool slog_begin(bool on, const char *run_id, const char *start_time, const char *version,
                const char *platform);

/* Whether lines go out now (on and a serial port there). */
bool slog_active(void);

/* The run id of this boot ("" when the log is off). */
const char *slog_run_id(void);

/* A new experiment's CSV starts: its rows are counted from 0 again. */
void slog_experiment(const char *name);

/*
 * Write one kind=point line for every complete row of the experiment's CSV text (its first
 * line the header, whose column names become the keys) not written before. Called after
 * each point and once more when the experiment ends; a row is written once.
 */
void slog_rows(const struct strbuf *csv);

/* One kind=summary line: item=ITEM, then the key=value fields fmt gives (printf format). */
void slog_summary(const char *item, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The kind=end line (status, how many point lines) and the end of the log. */
void slog_end(const char *status);

/* Lines written so far. */
uint64_t slog_lines(void);

#endif
